/**
 * `llamon doctor`'s secret checks: no secret in wrangler.toml [vars], the secrets the
 * configuration needs set locally, and the list the deployed Worker needs (which doctor
 * cannot see: `wrangler secret list`).
 */
import type { MemoryConfig } from "llamon/node";
import { type Check, type ProjectFacts, problem, tomlVars, warning, workerEnv } from "./types.ts";

/** Variables that hold secrets: `wrangler secret put` in production, never wrangler.toml. */
export const SECRET_VARS = [
  "POSTGRES_MEMORY_DSN",
  "LLM_API_KEY",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "LLAMON_ADMIN_TOKEN",
  "A2A_API_KEYS",
] as const;

export function secretChecks(facts: ProjectFacts, memory: MemoryConfig | undefined): Check[] {
  if (facts.toml === undefined) return [];
  const checks: Check[] = [];
  const inToml = tomlVars(facts.toml);
  for (const name of SECRET_VARS) {
    if (inToml[name] !== undefined && inToml[name] !== "") {
      checks.push(
        problem(
          "secrets",
          name,
          `${name} is in wrangler.toml [vars]: it would be deployed as plain text and committed`,
          `remove it from [vars]; keep it in .dev.vars locally and run npx wrangler secret put ${name} for production`,
        ),
      );
    }
  }
  const env = workerEnv(facts);
  const needed: string[] = [];
  if (memory?.enabled && memory.backend === "postgres") {
    needed.push("POSTGRES_MEMORY_DSN");
    if (!env.POSTGRES_MEMORY_DSN) {
      checks.push(
        problem(
          "secrets",
          "POSTGRES_MEMORY_DSN",
          "the postgres backend needs POSTGRES_MEMORY_DSN and it is not set",
          "locally: POSTGRES_MEMORY_DSN=postgresql://… in .dev.vars (`npx llamon run .` starts an embedded Postgres when it is unreachable); production: npx wrangler secret put POSTGRES_MEMORY_DSN",
        ),
      );
    }
  }
  const provider = env.LLM_PROVIDER;
  if (provider === "anthropic") needed.push("LLM_API_KEY (or ANTHROPIC_API_KEY)");
  if (provider === "openai-compatible")
    needed.push("LLM_API_KEY (or OPENAI_API_KEY), unless a local server");
  if (env.LLAMON_ADMIN_TOKEN) needed.push("LLAMON_ADMIN_TOKEN");
  if (!facts.hasDevVars) {
    checks.push(
      warning(
        "secrets",
        ".dev.vars",
        "there is no .dev.vars, so local runs see only wrangler.toml [vars]",
        "copy .dev.vars.example to .dev.vars and fill in what you need",
      ),
    );
  } else if (
    facts.gitignore !== undefined &&
    !facts.gitignore.some((l) => /^\/?\.dev\.vars\*?$/.test(l.trim()))
  ) {
    checks.push(
      warning(
        "secrets",
        ".gitignore",
        ".dev.vars is not in .gitignore: local secrets could be committed",
        "add a line `.dev.vars` to .gitignore",
      ),
    );
  }
  checks.push({
    section: "secrets",
    name: "production",
    status: "info",
    message:
      needed.length === 0
        ? "the deployed Worker needs no secrets with this configuration"
        : `the deployed Worker needs these secrets: ${needed.join(", ")} — set each with npx wrangler secret put NAME and list them with npx wrangler secret list (doctor cannot see them)`,
  });
  return checks;
}
