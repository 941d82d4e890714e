/**
 * The files every scaffolded project gets (package.json, wrangler.toml, .dev.vars, …),
 * rendered from the project's choices. The template's own code (src/, test/) is copied from
 * templates/<id>/ by create.ts.
 */
import type { MemoryBackend } from "llamon/node";
import type { LlamonManifest } from "../llamon-package.ts";
import type { MemoryMode, TemplateInfo } from "./templates.ts";

export interface ProjectSpec {
  readonly name: string;
  readonly template: TemplateInfo;
  readonly memory: MemoryMode;
  readonly backend: MemoryBackend;
  /** Postgres database of a postgres project: <name_with_underscores>_memory. */
  readonly databaseName: string;
  /** The llamon dependency in package.json, e.g. "file:vendor/llamon-0.1.0.tgz". */
  readonly llamonSpec: string;
  /** The llamon-cli devDependency, e.g. "file:vendor/llamon-cli-0.1.0.tgz". */
  readonly cliSpec: string;
  /** llamon's package.json (the runtime). */
  readonly manifest: LlamonManifest;
  /** llamon-cli's package.json (the command line and its tools). */
  readonly cliManifest: LlamonManifest;
  readonly compatibilityDate: string;
  /** llamon's own .dev.vars.example, the base of the project's (every variable, one line each). */
  readonly devVarsExample: string | undefined;
}

/**
 * Dev tools every project needs, and nothing more: the Worker toolchain (wrangler), types
 * (TypeScript, Workers, Node), the tests in workerd (vitest and its Workers pool) and
 * smol-toml, which vitest.config.ts reads wrangler.toml with. No Node binary: package.json
 * `engines` names the Node the project needs, and llamon's CLI refuses an older one with
 * NODE_UNSUPPORTED. llamon's command line (commander, pg, PGlite, …) comes with llamon-cli,
 * a devDependency too, so a production install (`npm ci --omit=dev`) has none of them.
 */
export const PROJECT_DEV_DEPENDENCIES = [
  "@cloudflare/vitest-plugin",
  "@cloudflare/workers-types",
  "@types/node",
  "smol-toml",
  "typescript",
  "vitest",
  "wrangler",
] as const;

export function localDsn(spec: ProjectSpec): string {
  return `postgresql://postgres@localhost:5432/${spec.databaseName}`;
}

function sorted(entries: [string, string][]): Record<string, string> {
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

function range(spec: ProjectSpec, name: string): string {
  const value =
    spec.manifest.dependencies[name] ??
    spec.manifest.devDependencies[name] ??
    spec.cliManifest.dependencies[name];
  if (value === undefined) {
    throw new Error(`neither llamon's nor llamon-cli's package.json lists a version of ${name}`);
  }
  return value;
}

export function packageJson(spec: ProjectSpec): string {
  const postgres = spec.backend === "postgres";
  const scripts: Record<string, string> = {
    start: "llamon run .",
    // `llamon chat` with no URL talks to http://127.0.0.1:$PORT (8787), like `llamon run`.
    chat: "llamon chat",
    test: "vitest run",
    typecheck: "tsc --noEmit -p tsconfig.json",
    doctor: "llamon doctor",
    deploy: "wrangler deploy",
    "prepare-offline": "llamon prepare-offline . --clean",
  };
  if (postgres) {
    scripts.migrate = "llamon migrate";
    scripts.prune = "llamon memory prune --older-than-days 30";
  }
  const allow = spec.manifest.allowScripts ?? {};
  const pkg = {
    name: spec.name,
    version: "0.1.0",
    private: true,
    description: `${spec.template.title}: ${spec.template.description} (llamon, Cloudflare Workers)`,
    type: "module",
    engines: { node: spec.manifest.engines?.node ?? ">=22.18" },
    scripts,
    dependencies: sorted([
      ["llamon", spec.llamonSpec],
      ...spec.template.imports.map((name): [string, string] => [name, range(spec, name)]),
    ]),
    devDependencies: sorted([
      ["llamon-cli", spec.cliSpec],
      ...PROJECT_DEV_DEPENDENCIES.map((name): [string, string] => [name, range(spec, name)]),
    ]),
    allowScripts: Object.fromEntries(
      ["esbuild", "workerd"].filter((n) => allow[n]).map((n) => [n, true]),
    ),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function wranglerToml(spec: ProjectSpec): string {
  const lines = [
    `# ${spec.name}: an llamon ${spec.template.kind} (${spec.template.id}, --memory ${spec.memory}).`,
    "# Local run: `npx llamon run .`   Deploy: `npx wrangler deploy`.",
    `name = "${spec.name}"`,
    'main = "src/index.ts"',
    `compatibility_date = "${spec.compatibilityDate}"`,
    'compatibility_flags = ["nodejs_compat"]',
    "",
    ...bundleAliases("llamon/shims/"),
    "",
    "# Settings. Local overrides and secrets go in .dev.vars (see .dev.vars.example).",
    "[vars]",
    "# Owner of the conversations in a shared database: never reuse it for another agent.",
    `AGENT_ID = "${spec.name}"`,
    "# off | in_memory | postgres | sqlite. Overrides `memory.backend` in src/agent.ts.",
    `MEMORY_BACKEND = "${spec.backend}"`,
    "# Who may call the agent: api_key (keys in the secret A2A_API_KEYS:",
    "#   npx wrangler secret put A2A_API_KEYS   with principal=<sha256 of the key>,…), jwt, or",
    "# none (no credentials: local development only; .dev.vars sets it for `llamon run`).",
    'A2A_AUTH = "api_key"',
  ];
  if (spec.backend === "postgres") {
    lines.push(
      "# POSTGRES_MEMORY_DSN is a secret: .dev.vars locally; in production",
      "#   npx wrangler secret put POSTGRES_MEMORY_DSN   (a Neon connection string)",
      "# and create the tables once with `npx llamon migrate --dsn <that DSN>`.",
    );
  }
  lines.push(
    "",
    "# One Durable Object per conversation: serialises its turns; for in_memory / sqlite it",
    "# also holds the conversation (in memory / in its SQLite storage).",
    "[[durable_objects.bindings]]",
    'name = "THREADS"',
    'class_name = "ThreadDO"',
    "",
    "[[migrations]]",
    'tag = "v1"',
    'new_sqlite_classes = ["ThreadDO"]',
    "",
    "# To summarize history that left the window (MEMORY_SUMMARIZE=true), add the queue:",
    "# [[queues.producers]]",
    '# binding = "SUMMARY_QUEUE"',
    `# queue = "${spec.name}-summaries"`,
    "# [[queues.consumers]]",
    `# queue = "${spec.name}-summaries"`,
    "# max_batch_size = 10",
    "# max_batch_timeout = 5",
    "# max_retries = 3",
    `# dead_letter_queue = "${spec.name}-summaries-dlq"`,
    "",
    ...(spec.backend === "postgres"
      ? [
          "# Erases the A2A task records of conversations `npx llamon memory prune` deleted",
          "# (they live in the Durable Objects, out of the CLI's reach).",
          "[triggers]",
          'crons = ["*/15 * * * *"]',
          "",
        ]
      : []),
    "# To limit calls per caller (429 with Retry-After), add a rate-limiting binding:",
    "# [[ratelimits]]",
    '# name = "A2A_RATE_LIMITER"',
    '# namespace_id = "1001"',
    "# simple = { limit = 60, period = 60 }",
    "",
    "[observability]",
    "enabled = true",
    "",
  );
  return lines.join("\n");
}

/**
 * wrangler.toml's [alias]: llamon's stand-ins that keep the Worker bundle small (the same as in
 * llamon's own wrangler.toml); `shims` is where they resolve from.
 */
export function bundleAliases(shims: string): string[] {
  return [
    "# Smaller Worker bundle: llamon's stand-in for LangSmith's tracing client, which LangChain",
    "# imports but the Worker never uses (remove the three langsmith lines to trace with",
    "# LangSmith), only English of zod's error messages in 40 languages, and of",
    "# @langchain/core's deserialiser map the classes a checkpoint holds (messages, documents,",
    "# outputs, prompt values; remove the import_map line if your state stores other ones).",
    "[alias]",
    `"langsmith" = "${shims}langsmith"`,
    `"langsmith/run_trees" = "${shims}langsmith"`,
    `"langsmith/singletons/traceable" = "${shims}langsmith"`,
    `"../locales/index.js" = "${shims}zod-locales"`,
    `"./import_map.js" = "${shims}langchain-import-map"`,
  ];
}

export function devVars(spec: ProjectSpec): string {
  const lines = [
    "# Local settings for `npx llamon run .` — not committed (see .gitignore).",
    "# Every variable is described in .dev.vars.example.",
    `AGENT_ID=${spec.name}`,
    "# Local runs take calls without credentials; the deployed Worker uses wrangler.toml's api_key.",
    "A2A_AUTH=none",
  ];
  if (spec.backend === "postgres") {
    lines.push(
      "# Used when reachable (the database is created if missing); otherwise `llamon run`",
      "# starts an embedded Postgres kept in .llamon/. compose.yml runs this one in a container.",
      `POSTGRES_MEMORY_DSN=${localDsn(spec)}`,
      "# 0 = no named prepared statements in Node tools (PgBouncer transaction mode safe).",
      "MEMORY_PG_STATEMENT_CACHE_SIZE=0",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** llamon's own example with this project's values; a short one if llamon ships none. */
export function devVarsExample(spec: ProjectSpec): string {
  const values: Record<string, string> = {
    AGENT_ID: spec.name,
    MEMORY_BACKEND: spec.backend,
    POSTGRES_MEMORY_DSN: localDsn(spec),
  };
  const base =
    spec.devVarsExample ??
    [
      "# Copy to .dev.vars for local runs. Values here override wrangler.toml [vars].",
      "AGENT_ID=",
      "MEMORY_BACKEND=",
      "POSTGRES_MEMORY_DSN=",
      "",
    ].join("\n");
  const seen = new Set<string>();
  const text = base
    .split("\n")
    .map((line) => {
      const match = /^([A-Z][A-Z0-9_]*)=/.exec(line);
      if (match && values[match[1] as string] !== undefined) {
        seen.add(match[1] as string);
        return `${match[1]}=${values[match[1] as string]}`;
      }
      return line;
    })
    .join("\n");
  const missing = Object.keys(values).filter((k) => !seen.has(k));
  return `${text.trimEnd()}\n${missing.map((k) => `${k}=${values[k]}\n`).join("")}`;
}

export function composeYml(spec: ProjectSpec): string {
  return `# Postgres for this agent's memory, for those who run containers: \`docker compose up -d\`.
# Not needed for \`npx llamon run .\`: without a reachable server it starts an embedded Postgres.
# The DSN in .dev.vars points here: ${localDsn(spec)}
services:
  postgres:
    image: postgres:17
    environment:
      POSTGRES_USER: postgres
      # Local development only: no password. Use a real secret anywhere else.
      POSTGRES_HOST_AUTH_METHOD: trust
      POSTGRES_DB: ${spec.databaseName}
    ports:
      - "5432:5432"
    volumes:
      - pgdata:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U postgres -d ${spec.databaseName}"]
      interval: 5s
      timeout: 3s
      retries: 10

volumes:
  pgdata:
`;
}

export function tsconfigJson(): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2023"],
      types: ["node", "@cloudflare/workers-types"],
      strict: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      noFallthroughCasesInSwitch: true,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ["src", "test", "vitest.config.ts"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The project's tests run inside workerd with its own wrangler.toml (so a broken binding or
 * config fails them); a postgres project gets a throwaway embedded Postgres behind the
 * Neon-protocol proxy, reached by the Worker the way a deployed one reaches Neon.
 */
export function vitestConfig(spec: ProjectSpec): string {
  const postgres = spec.backend === "postgres";
  const bindings = [
    "      miniflare: {",
    "        bindings: {",
    '          // As deployed (wrangler.toml: A2A_AUTH = "api_key"), with one key for the tests:',
    "          // the principal `tester`, whose key test/a2a.ts sends. Only its SHA-256 is configured.",
    '          A2A_AUTH: "api_key",',
    '          A2A_API_KEYS: "tester=" + createHash("sha256").update(TEST_A2A_KEY).digest("hex"),',
    ...(postgres
      ? [
          "          // The throwaway database of test/global-setup.ts (over the same Neon HTTP path",
          "          // as production), instead of the POSTGRES_MEMORY_DSN in .dev.vars.",
          '          LLAMON_NEON_FETCH_ENDPOINT: inject("neonProxyUrl"),',
          '          POSTGRES_MEMORY_DSN: inject("neonDsn"),',
        ]
      : []),
    "        },",
    "      },",
  ];
  return [
    'import { createHash } from "node:crypto";',
    'import { readFileSync } from "node:fs";',
    'import { createRequire } from "node:module";',
    'import { cloudflareTest } from "@cloudflare/vitest-plugin";',
    'import { parse } from "smol-toml";',
    'import { defineConfig } from "vitest/config";',
    'import { TEST_A2A_KEY } from "./test/test-key.ts";',
    "",
    "// wrangler.toml's [alias] (llamon's stand-ins that keep the bundle small), for the tests too.",
    'const wrangler = new URL("./wrangler.toml", import.meta.url);',
    'const { alias = {} } = parse(readFileSync(wrangler, "utf8")) as { alias?: Record<string, string> };',
    "const resolveFrom = createRequire(wrangler);",
    "const aliases = Object.entries(alias).map(([from, to]) => ({",
    '  find: new RegExp("^" + from.replace(/[$()*+.?[\\\\\\]^{|}]/g, "\\\\$&") + "$"),',
    "  replacement: resolveFrom.resolve(to),",
    "}));",
    "",
    "// `npm test` runs test/*.test.ts inside workerd (the Workers runtime) with this project's",
    "// wrangler.toml: the Worker, its Durable Object and its settings, as deployed.",
    "export default defineConfig({",
    "  resolve: { alias: aliases },",
    "  plugins: [",
    `    cloudflareTest(${postgres ? "({ inject })" : "()"} => ({`,
    '      wrangler: { configPath: "./wrangler.toml" },',
    ...bindings,
    "    })),",
    "  ],",
    "  test: {",
    '    include: ["test/**/*.test.ts"],',
    ...(postgres ? ['    globalSetup: ["./test/global-setup.ts"],'] : []),
    "    testTimeout: 60_000,",
    "    hookTimeout: 120_000,",
    "    // Through vitest's transform, so the [alias] above applies inside llamon too, as in",
    "    // wrangler's bundle.",
    '    server: { deps: { inline: ["llamon"] } },',
    "  },",
    "});",
    "",
  ].join("\n");
}

/** postgres projects: the test database (embedded Postgres, migrated) and its proxy. */
export function testGlobalSetup(): string {
  return `/**
 * Before the tests: a throwaway embedded Postgres with llamon's tables, behind the local
 * Neon-protocol proxy; vitest.config.ts hands both to the Worker under test. Needs no
 * database server and nothing on the network.
 */
import { startTestDatabase } from "llamon-cli/dev";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    neonProxyUrl: string;
    neonDsn: string;
  }
}

export default async function setup(project: TestProject) {
  const db = await startTestDatabase();
  project.provide("neonProxyUrl", db.proxyUrl);
  project.provide("neonDsn", db.neonDsn);
  return () => db.close();
}
`;
}

/** test/a2a.ts: one A2A message/send to the Worker under test, answered with its text. */
export function testA2aHelper(): string {
  return [
    "/** Sends one A2A message to the Worker under test and returns the reply's text. */",
    'import { exports } from "cloudflare:workers";',
    'import { TEST_A2A_KEY } from "./test-key.ts";',
    "",
    "export async function send(contextId: string, text: string): Promise<string> {",
    '  const res = await exports.default.fetch("http://agent/", {',
    '    method: "POST",',
    '    headers: { "content-type": "application/json", authorization: "Bearer " + TEST_A2A_KEY },',
    "    body: JSON.stringify({",
    '      jsonrpc: "2.0",',
    "      id: 1,",
    '      method: "message/send",',
    '      params: { message: { contextId, role: "user", parts: [{ kind: "text", text }] } },',
    "    }),",
    "  });",
    "  const body = (await res.json()) as {",
    "    result?: { status: { state: string; message?: { parts: { text?: string }[] } } };",
    "    error?: { code: number; message: string };",
    "  };",
    "  if (res.status !== 200 || body.error) {",
    '    throw new Error("HTTP " + res.status + ": " + JSON.stringify(body.error ?? body));',
    "  }",
    '  return (body.result?.status.message?.parts ?? []).map((p) => p.text ?? "").join("");',
    "}",
    "",
  ].join("\n");
}

/** test/test-key.ts: the tests' API key (read by vitest.config.ts and test/a2a.ts). */
export function testKey(): string {
  return [
    "/** The tests' A2A API key: vitest.config.ts lists its SHA-256 in A2A_API_KEYS. Not a secret. */",
    'export const TEST_A2A_KEY = "test-key-for-this-projects-tests-only";',
    "",
  ].join("\n");
}

/** Types of the Worker under test for `cloudflare:workers` (env, exports) in test/. */
export function testEnvTypes(): string {
  return [
    "// Types of the Worker under test (`cloudflare:workers` env and exports) for test/*.test.ts.",
    "declare namespace Cloudflare {",
    "  interface GlobalProps {",
    '    mainModule: typeof import("../src/index.ts");',
    "  }",
    "  interface Env {",
    "    AGENT_ID: string;",
    "    MEMORY_BACKEND: string;",
    "  }",
    "}",
    "",
  ].join("\n");
}

export function gitignore(): string {
  return [
    "node_modules/",
    ".wrangler/",
    "# `wrangler deploy --dry-run --outdir dist` (the bundle, to look at)",
    "dist/",
    "# embedded Postgres data of `llamon run`",
    ".llamon/",
    "# local secrets",
    ".dev.vars",
    "# `llamon prepare-offline` output (large; ship it, don't commit it)",
    "offline/",
    "*.log",
    "",
  ].join("\n");
}
