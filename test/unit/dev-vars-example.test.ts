import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDevVars } from "../../packages/cli/src/cli/dev-vars.ts";
import { MODEL_ENV_VARS } from "../../src/llm/select.ts";
import { MEMORY_ENV_VARS } from "../../src/memory/config.ts";

const example = readFileSync(new URL("../../.dev.vars.example", import.meta.url), "utf8");

describe(".dev.vars.example", () => {
  it("lists every memory and model variable with a one-line comment above it", () => {
    const names = [
      ...Object.keys(MEMORY_ENV_VARS),
      ...MODEL_ENV_VARS.filter((v) => v.kind !== "binding" && !v.name.endsWith("_API_KEY")).map(
        (v) => v.name,
      ),
      "LLM_API_KEY",
      "AGENT_ID",
      "MEMORY_PG_STATEMENT_CACHE_SIZE",
      "MEMORY_DB_TIMEOUT_MS",
      "LLAMON_ADMIN_TOKEN",
      "A2A_AUTH",
      "A2A_API_KEYS",
      "A2A_JWT_JWKS_URL",
      "A2A_JWT_ISSUER",
      "A2A_JWT_AUDIENCE",
      "A2A_JWT_PRINCIPAL_CLAIM",
      "A2A_JWT_CLOCK_SKEW_SECONDS",
      "A2A_RATE_LIMIT_PERIOD_SECONDS",
    ];
    const lines = example.split("\n");
    for (const name of names) {
      const i = lines.findIndex((l) => l.startsWith(`${name}=`));
      expect(i, name).toBeGreaterThan(0);
      expect(lines[i - 1]?.startsWith("#"), `${name} has a comment`).toBe(true);
    }
  });

  it("parses as the .dev.vars format the CLI reads", () => {
    const vars = parseDevVars(example);
    expect(vars.AGENT_ID).toBe("llamon-reference");
    expect(vars.MEMORY_BACKEND).toBe("postgres");
  });
});
