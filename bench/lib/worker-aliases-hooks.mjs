/**
 * Module resolution hooks (node:module `register`) that give the bench process the Worker
 * bundle's `[alias]` for LangSmith (wrangler.toml): `langsmith`, `langsmith/run_trees` and
 * `langsmith/singletons/traceable` resolve to llamon's shim, as in every deployed Worker.
 * Registered by ./worker-aliases.ts.
 */
const ALIASED = new Set(["langsmith", "langsmith/run_trees", "langsmith/singletons/traceable"]);
const shim = new URL("../../src/shims/langsmith.ts", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (ALIASED.has(specifier)) return { url: shim, shortCircuit: true };
  return nextResolve(specifier, context);
}
