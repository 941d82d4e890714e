/**
 * The bench runs llamon's turns with the module aliases of the Worker bundle (wrangler.toml
 * `[alias]`): LangSmith's client is replaced by llamon's shim (src/shims/langsmith.ts), as in
 * every deployed Worker and under `wrangler dev`. Without it the Node process would construct a
 * LangSmith RunTree (ids, clock, environment reads) for each of the ~28
 * runnable calls of a turn, work a Worker never does. Every system of the run gets the same
 * modules, the official saver's included.
 *
 * Import this before anything that imports `@langchain/*` (the entry points load the rest
 * dynamically after it): resolution hooks only apply to modules resolved after they are
 * registered. `isWorkerAliased()` tells whether it took effect.
 */
import { register } from "node:module";

register("./worker-aliases-hooks.mjs", import.meta.url);

/** True when `langsmith` resolves to llamon's shim in this process (LangSmith has a version). */
export async function isWorkerAliased(): Promise<boolean> {
  const mod = (await import("langsmith")) as Record<string, unknown>;
  return !("__version__" in mod);
}
