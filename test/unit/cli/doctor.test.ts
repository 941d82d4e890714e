/**
 * `llamon doctor`'s checks on a project as read from its folder: each wrong or missing
 * piece is reported as a problem (or a warning) with its fix, through the schemas the Worker
 * uses. The CLI against a scaffolded project and the local Postgres: test/e2e/doctor.test.ts.
 */
import { describe, expect, it } from "vitest";
import { authChecks } from "../../../packages/cli/src/cli/doctor/auth.ts";
import { bindingChecks } from "../../../packages/cli/src/cli/doctor/bindings.ts";
import { configChecks } from "../../../packages/cli/src/cli/doctor/config.ts";
import { dsnChecks } from "../../../packages/cli/src/cli/doctor/database.ts";
import { secretChecks } from "../../../packages/cli/src/cli/doctor/secrets.ts";
import type { Check, ProjectFacts } from "../../../packages/cli/src/cli/doctor/types.ts";

function project(
  overrides: { toml?: Record<string, unknown>; vars?: Record<string, string>; code?: unknown } = {},
): ProjectFacts {
  const toml = {
    name: "my-agent",
    main: "src/index.ts",
    compatibility_date: "2026-11-01",
    compatibility_flags: ["nodejs_compat"],
    vars: { AGENT_ID: "my-agent", MEMORY_BACKEND: "postgres" },
    durable_objects: { bindings: [{ name: "THREADS", class_name: "ThreadDO" }] },
    migrations: [{ tag: "v1", new_sqlite_classes: ["ThreadDO"] }],
    ...overrides.toml,
  };
  return {
    dir: "/p",
    toml,
    devVars: { POSTGRES_MEMORY_DSN: "postgresql://postgres@localhost:5432/x", ...overrides.vars },
    hasDevVars: true,
    mainExists: true,
    gitignore: [".dev.vars"],
    ...(overrides.code === undefined
      ? {}
      : { code: { file: "src/agent.ts", memory: overrides.code } }),
  };
}

function all(facts: ProjectFacts): Check[] {
  const config = configChecks(facts);
  return [
    ...config.checks,
    ...bindingChecks(facts, config.memory),
    ...secretChecks(facts, config.memory),
    ...authChecks(facts),
  ];
}

const problems = (checks: Check[]) => checks.filter((c) => c.status === "problem");

describe("llamon doctor checks", () => {
  it("a scaffold-shaped postgres project has no problem and lists the secret to set", () => {
    const checks = all(project());
    expect(problems(checks)).toEqual([]);
    expect(checks.find((c) => c.name === "production")?.message).toContain("POSTGRES_MEMORY_DSN");
  });

  it("bad values are reported through the Worker's own schemas, with the fix", () => {
    const checks = all(
      project({
        toml: {
          vars: { AGENT_ID: "My Agent", MEMORY_BACKEND: "postgres", MEMORY_WINDOW_SIZE: "20abc" },
        },
        vars: { LLM_PROVIDER: "anthropic", LLM_MODEL: "claude-sonnet-4-5" },
      }),
    );
    const found = problems(checks).map((c) => `${c.name}: ${c.message}`);
    expect(found.join("\n")).toMatch(/Worker variables: .*AGENT_ID must be 1–63 characters/);
    expect(found.join("\n")).toMatch(/memory: [\s\S]*MEMORY_WINDOW_SIZE: must be a whole number/);
    expect(found.join("\n")).toMatch(/model: LLM_API_KEY is required with LLM_PROVIDER=anthropic/);
    for (const c of problems(checks)) expect(c.fix, c.name).toBeTruthy();
  });

  it("the memory settings in code count (a bad one is named, in_memory needs no DSN)", () => {
    const bad = all(project({ toml: { vars: { AGENT_ID: "a" } }, code: { backend: "in-memory" } }));
    expect(
      problems(bad)
        .map((c) => c.message)
        .join(),
    ).toContain('use "in_memory"');
    const inMemory = all(
      project({
        toml: { vars: { AGENT_ID: "a" } },
        vars: { POSTGRES_MEMORY_DSN: "" },
        code: { backend: "in_memory" },
      }),
    );
    expect(problems(inMemory)).toEqual([]);
  });

  it("R1.2 a sqlite project is flagged as legacy (a warning with the way out), from vars or code", () => {
    for (const facts of [
      project({ toml: { vars: { AGENT_ID: "a", MEMORY_BACKEND: "sqlite" } } }),
      project({ toml: { vars: { AGENT_ID: "a" } }, code: { backend: "sqlite" } }),
    ]) {
      const checks = all(facts);
      expect(problems(checks)).toEqual([]);
      const legacy = checks.find((c) => c.name === "legacy backend");
      expect(legacy?.status).toBe("warning");
      expect(legacy?.message).toContain("sqlite is the legacy backend");
      expect(legacy?.fix).toContain("MEMORY_BACKEND");
      expect(legacy?.fix).toContain("postgres");
    }
    expect(all(project()).find((c) => c.name === "legacy backend")).toBeUndefined();
  });

  it("bindings — THREADS, its SQLite migration, nodejs_compat", () => {
    const checks = all(
      project({
        toml: {
          compatibility_flags: [],
          durable_objects: { bindings: [] },
          migrations: [{ tag: "v1", new_classes: ["ThreadDO"] }],
        },
      }),
    );
    const names = problems(checks).map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(["nodejs_compat", "THREADS", "ThreadDO migration"]),
    );
    expect(problems(checks).find((c) => c.name === "THREADS")?.fix).toContain(
      'class_name = "ThreadDO"',
    );
    expect(problems(checks).find((c) => c.name === "ThreadDO migration")?.message).toContain(
      "key-value storage",
    );
  });

  it("summaries on need the queue, its consumer and (a warning) a dead-letter queue", () => {
    const vars = { AGENT_ID: "my-agent", MEMORY_BACKEND: "postgres", MEMORY_SUMMARIZE: "true" };
    const none = problems(all(project({ toml: { vars } })));
    expect(none.map((c) => c.name)).toEqual(["SUMMARY_QUEUE"]);
    expect(none[0]?.fix).toContain("npx wrangler queues create my-agent-summaries");
    const producerOnly = problems(
      all(
        project({
          toml: { vars, queues: { producers: [{ binding: "SUMMARY_QUEUE", queue: "q" }] } },
        }),
      ),
    );
    expect(producerOnly[0]?.message).toContain('sends to "q", but this Worker does not consume it');
    const noDlq = all(
      project({
        toml: {
          vars,
          queues: {
            producers: [{ binding: "SUMMARY_QUEUE", queue: "q" }],
            consumers: [{ queue: "q" }],
          },
        },
      }),
    );
    expect(problems(noDlq)).toEqual([]);
    expect(noDlq.find((c) => c.name === "SUMMARY_QUEUE")?.status).toBe("warning");
  });

  it("R8.1 llm facts need the same queue: its jobs run on the summary queue's consumer", () => {
    const vars = { AGENT_ID: "my-agent", MEMORY_BACKEND: "postgres", MEMORY_FACTS_MODE: "llm" };
    const none = problems(all(project({ toml: { vars } })));
    expect(none.map((c) => c.name)).toEqual(["SUMMARY_QUEUE"]);
    expect(none[0]?.message).toBe(
      "llm facts (MEMORY_FACTS_MODE=llm) is on but there is no SUMMARY_QUEUE producer binding",
    );
    const heuristic = { ...vars, MEMORY_FACTS_MODE: "heuristic" };
    expect(problems(all(project({ toml: { vars: heuristic } })))).toEqual([]);
  });

  it("secrets — never in [vars], the DSN needed by postgres, .dev.vars ignored by git", () => {
    const leaked = problems(
      all(project({ toml: { vars: { AGENT_ID: "a", LLAMON_ADMIN_TOKEN: "s3cret-token" } } })),
    );
    expect(leaked.map((c) => c.name)).toEqual(["LLAMON_ADMIN_TOKEN"]);
    expect(leaked[0]?.fix).toContain("npx wrangler secret put LLAMON_ADMIN_TOKEN");
    const noDsn = problems(all(project({ vars: { POSTGRES_MEMORY_DSN: "" } })));
    expect(noDsn.map((c) => c.name)).toEqual(["POSTGRES_MEMORY_DSN"]);
    const facts = { ...project(), gitignore: ["node_modules/"] };
    expect(all(facts).find((c) => c.name === ".gitignore")?.status).toBe("warning");
  });

  it("a Neon DSN needs sslmode=require and a host name", () => {
    expect(dsnChecks("postgresql://u:p@ep-x-123.eu-central-1.aws.neon.tech/neondb")[0]?.name).toBe(
      "sslmode",
    );
    expect(
      dsnChecks("postgresql://u:p@ep-x-123.eu-central-1.aws.neon.tech/neondb?sslmode=require"),
    ).toEqual([]);
    expect(dsnChecks("postgresql://u:p@10.1.2.3/db")[0]?.name).toBe("host name");
    expect(dsnChecks("postgresql://postgres@localhost:5432/db")).toEqual([]);
    expect(dsnChecks("mysql://x@y/z")[0]?.status).toBe("problem");
  });

  it("A2A auth — none set or none deployed are warnings, api_key lists its secret, incomplete jwt or bad local keys are problems, keys never in [vars]", () => {
    const auth = (facts: ProjectFacts) => all(facts).filter((c) => c.section === "auth");
    const vars = (extra: Record<string, string>) => ({
      vars: { AGENT_ID: "my-agent", MEMORY_BACKEND: "postgres", ...extra },
    });
    expect(auth(project())).toMatchObject([
      { status: "warning", message: /refuses every A2A call/ },
    ]);
    expect(auth(project({ toml: vars({ A2A_AUTH: "none" }) }))).toMatchObject([
      { status: "warning", message: /takes calls from anyone/ },
    ]);
    // As scaffolded: api_key deployed, none in .dev.vars.
    const scaffolded = { toml: vars({ A2A_AUTH: "api_key" }), vars: { A2A_AUTH: "none" } };
    expect(auth(project(scaffolded))).toMatchObject([
      { status: "info", message: /wrangler secret put A2A_API_KEYS/ },
    ]);
    // Without the local override, local runs need keys too.
    expect(problems(auth(project({ toml: vars({ A2A_AUTH: "api_key" }) })))).toMatchObject([
      { name: "local A2A_AUTH", message: /needs the secret A2A_API_KEYS/ },
    ]);
    const jwt = auth(
      project({
        toml: vars({ A2A_AUTH: "jwt", A2A_JWT_ISSUER: "https://i" }),
        vars: { A2A_AUTH: "none" },
      }),
    );
    expect(jwt).toMatchObject([
      { status: "problem", message: /A2A_JWT_JWKS_URL, A2A_JWT_AUDIENCE/ },
    ]);
    const badLocal = auth(
      project({
        toml: vars({ A2A_AUTH: "api_key" }),
        vars: { A2A_AUTH: "api_key", A2A_API_KEYS: "alice=the-key-itself" },
      }),
    );
    expect(problems(badLocal)).toMatchObject([
      { name: "local A2A_AUTH", message: /not the key itself/ },
    ]);
    const inVars = all(project({ toml: vars({ A2A_API_KEYS: "a=b" }) }));
    expect(problems(inVars).map((c) => c.name)).toContain("A2A_API_KEYS");
  });
});
