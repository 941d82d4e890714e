/**
 * `llamon doctor`'s A2A auth checks: what the deployed Worker will do with the A2A_AUTH of
 * wrangler.toml [vars] (none set: it refuses every call; `none`: it is open to anyone), and
 * whether the settings of the chosen mode are complete — checked with the Worker's own
 * resolver (runtime/auth-config.ts), on [vars] for production and on .dev.vars locally.
 */
import { isLlamonError } from "llamon/errors";
import { parseWorkerVars, resolveA2AAuth } from "llamon/node";
import {
  type Check,
  errorMessage,
  ok,
  type ProjectFacts,
  problem,
  tomlVars,
  warning,
  workerEnv,
} from "./types.ts";

const GUIDE = "see node_modules/llamon/docs/auth.en.md";

/** The resolver's verdict on `vars` (AGENT_ID filled in: it is checked elsewhere). */
function resolved(vars: Record<string, string>): { mode?: string; error?: string } {
  try {
    const parsed = parseWorkerVars({ ...vars, AGENT_ID: "doctor" });
    return { mode: resolveA2AAuth(parsed, undefined).mode };
  } catch (error) {
    return { error: isLlamonError(error) ? error.message : errorMessage(error) };
  }
}

export function authChecks(facts: ProjectFacts): Check[] {
  if (facts.toml === undefined) return [];
  const checks: Check[] = [];
  const deployed = tomlVars(facts.toml);
  const mode = deployed.A2A_AUTH?.trim() ?? "";
  if (mode === "") {
    checks.push(
      warning(
        "auth",
        "A2A_AUTH",
        "wrangler.toml [vars] sets no A2A_AUTH: unless the agent's code sets auth.mode, the deployed Worker refuses every A2A call",
        `add A2A_AUTH = "api_key" to [vars] and run npx wrangler secret put A2A_API_KEYS (or use "jwt"; ${GUIDE})`,
      ),
    );
  } else if (mode === "none") {
    checks.push(
      warning(
        "auth",
        "A2A_AUTH",
        'wrangler.toml [vars] says A2A_AUTH = "none": the deployed agent takes calls from anyone, who can read and continue any conversation whose contextId they know',
        `use "api_key" (and npx wrangler secret put A2A_API_KEYS) or "jwt" for a deployed agent; keep none in .dev.vars for local runs (${GUIDE})`,
      ),
    );
  } else if (mode.replace("-", "_") === "api_key") {
    checks.push({
      section: "auth",
      name: "A2A_API_KEYS",
      status: "info",
      message:
        "the deployed Worker needs the secret A2A_API_KEYS (principal=<sha256 hex of the key>, comma-separated): npx wrangler secret put A2A_API_KEYS (doctor cannot see it)",
    });
  } else {
    const verdict = resolved(deployed);
    checks.push(
      verdict.error === undefined
        ? ok("auth", "A2A_AUTH", `the deployed Worker authenticates callers (${verdict.mode})`)
        : problem(
            "auth",
            "A2A_AUTH",
            `the deployed Worker's auth settings: ${verdict.error}`,
            GUIDE,
          ),
    );
  }
  const local = workerEnv(facts);
  if ((local.A2A_AUTH ?? "").trim() !== "") {
    const verdict = resolved(local);
    if (verdict.error !== undefined) {
      checks.push(
        problem(
          "auth",
          "local A2A_AUTH",
          `local runs would refuse every A2A call: ${verdict.error}`,
          `fix .dev.vars (or set A2A_AUTH=none there for local development; ${GUIDE})`,
        ),
      );
    }
  }
  return checks;
}
