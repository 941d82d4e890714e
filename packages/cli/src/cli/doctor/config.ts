/**
 * `llamon doctor`'s configuration checks: wrangler.toml's shape and the Worker's variables,
 * memory settings (code + env) and model, validated with the schemas the Worker itself uses,
 * so what passes here starts there.
 */

import type { MemoryConfig } from "llamon/node";
import { createModelFromEnv, parseWorkerVars, resolveMemoryConfig } from "llamon/node";
import {
  type Check,
  errorMessage,
  ok,
  type ProjectFacts,
  problem,
  type Toml,
  warning,
  workerEnv,
} from "./types.ts";

export interface ConfigResult {
  readonly checks: Check[];
  /** The resolved MemoryConfig, when it is valid. */
  readonly memory: MemoryConfig | undefined;
}

export function configChecks(facts: ProjectFacts): ConfigResult {
  const checks: Check[] = [];
  const toml = facts.toml;
  if (toml === undefined) {
    checks.push(
      problem(
        "config",
        "wrangler.toml",
        facts.tomlError ?? `no wrangler.toml in ${facts.dir}`,
        "run doctor in a llamon project folder (create one with `npx llamon-cli agent <name> --yes`)",
      ),
    );
    return { checks, memory: undefined };
  }
  const name = typeof toml.name === "string" ? toml.name : undefined;
  const main = typeof toml.main === "string" ? toml.main : undefined;
  if (name === undefined || main === undefined) {
    checks.push(
      problem(
        "config",
        "wrangler.toml",
        `wrangler.toml lacks ${[name ? "" : "name", main ? "" : "main"].filter(Boolean).join(" and ")}`,
        'add `name = "<worker name>"` and `main = "src/index.ts"` at its top',
      ),
    );
  } else if (!facts.mainExists) {
    checks.push(
      problem(
        "config",
        "main",
        `main = "${main}" does not exist`,
        "point main at the Worker entry",
      ),
    );
  } else {
    checks.push(ok("config", "wrangler.toml", `Worker "${name}", main ${main}`));
  }
  const flags = Array.isArray(toml.compatibility_flags) ? toml.compatibility_flags : [];
  if (!flags.includes("nodejs_compat")) {
    checks.push(
      problem(
        "config",
        "nodejs_compat",
        "compatibility_flags lacks nodejs_compat, which LangGraph and the Neon driver need",
        'add `compatibility_flags = ["nodejs_compat"]` to wrangler.toml',
      ),
    );
  }
  if (typeof toml.compatibility_date !== "string") {
    checks.push(
      problem(
        "config",
        "compatibility_date",
        "wrangler.toml has no compatibility_date",
        'add `compatibility_date = "2026-11-01"` (or a later date) to wrangler.toml',
      ),
    );
  }
  const env = workerEnv(facts);
  try {
    const vars = parseWorkerVars(env);
    checks.push(ok("config", "AGENT_ID", `AGENT_ID=${vars.AGENT_ID}`));
  } catch (error) {
    checks.push(
      problem(
        "config",
        "Worker variables",
        errorMessage(error),
        "fix the variable in wrangler.toml [vars] or .dev.vars (every variable: .dev.vars.example)",
      ),
    );
  }
  if (facts.code?.error !== undefined && facts.code.invalid) {
    checks.push(
      problem(
        "config",
        "agent code",
        `${facts.code.file ?? "the agent"}: ${facts.code.error}`,
        `fix ${facts.code.file ?? "the agent definition"} as the message says: the Worker fails to start with this error`,
      ),
    );
  } else if (facts.code?.error !== undefined) {
    checks.push(
      warning(
        "config",
        "agent code",
        `could not load ${facts.code.file ?? "the agent"} to read its memory settings: ${facts.code.error}`,
        "the memory settings in code were not checked; fix the error, or set MEMORY_BACKEND in wrangler.toml [vars]",
      ),
    );
  }
  let memory: MemoryConfig | undefined;
  try {
    memory = resolveMemoryConfig({ code: facts.code?.memory, env }).config;
    checks.push(
      ok(
        "config",
        "memory",
        memory.enabled
          ? `memory ${memory.backend}, window ${memory.window_size}${memory.summarize ? ", summaries on" : ""}`
          : "memory off (MEMORY_ENABLED=false)",
      ),
    );
    if (memory.enabled && memory.backend === "sqlite") checks.push(legacySqlite());
  } catch (error) {
    checks.push(
      problem(
        "config",
        "memory",
        errorMessage(error),
        "fix the memory setting where the message says (code: src/agent.ts; env: wrangler.toml [vars] or .dev.vars)",
      ),
    );
  }
  try {
    // Workers AI is a binding, not a variable: present when wrangler.toml has `[ai] binding = "AI"`.
    const ai = (toml.ai as Toml | undefined)?.binding === "AI" ? { AI: { run: () => {} } } : {};
    const model = createModelFromEnv({ ...env, ...ai });
    checks.push(ok("config", "model", model.label));
  } catch (error) {
    checks.push(
      problem(
        "config",
        "model",
        errorMessage(error),
        "set the LLM_* variables in .dev.vars (production: [vars] and `wrangler secret put LLM_API_KEY`), or leave LLM_PROVIDER empty for the offline model",
      ),
    );
  }
  return { checks, memory };
}

/**
 * sqlite works, but it is kept only for projects made before postgres was the default (R1.2):
 * say so, with the way out, instead of a plain "ready".
 */
function legacySqlite(): Check {
  return warning(
    "config",
    "legacy backend",
    "sqlite is the legacy backend, kept so existing projects keep working; new projects are not offered it",
    'for a new or growing project set MEMORY_BACKEND = "postgres" in wrangler.toml [vars] (or backend: "postgres" in src/agent.ts) and a POSTGRES_MEMORY_DSN; conversations stored in the Durable Objects are not moved to Postgres (docs/memory.md)',
  );
}
