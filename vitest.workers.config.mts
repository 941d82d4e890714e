/**
 * Tests that run inside workerd (the Workers runtime), against the same Worker config.
 * `workers` runs everything with wrangler.toml's backend (postgres); `workers-sqlite` and
 * `workers-in-memory` run the Durable Object backend tests with MEMORY_BACKEND overridden;
 * `workers-semantic` runs the semantic-recall tests on an embedded PGlite with pgvector.
 */
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineProject, type TestProjectInlineConfiguration } from "vitest/config";
import { wranglerAliases } from "./packages/cli/src/dev/wrangler-aliases.ts";
import { llamonSourceAliases } from "./scripts/llamon-source-aliases.mts";
import { studioClientPlugin } from "./scripts/studio-client-plugin.mts";

const DO_BACKEND_TESTS = ["test/workers/backends/**/*.test.ts"];
/** Semantic recall needs pgvector, which only the embedded PGlite of their own setup has. */
const SEMANTIC_TESTS = ["test/workers/semantic/**/*.test.ts"];

export function workersProject(
  name: string,
  options: {
    include: string[];
    exclude?: string[];
    vars?: Record<string, string>;
    /** Another global setup (it must provide what ./test/workers/global-setup.ts does). */
    globalSetup?: string;
    /** Bind TEST_EMBEDDINGS_URL (the setup's fake embeddings server). */
    embeddings?: boolean;
    /** Bind TEST_FAKE_LLM_URL (global-setup's fake streaming chat model, test/helpers/fake-llm.ts). */
    fakeLlm?: boolean;
    /**
     * One workerd (and module graph) for many test files instead of a new one per file. Only
     * for files that already share their state: the postgres project's threads, settings and
     * tasks live in the one database its global setup starts for all of its files. The agent a
     * file registers is undone after it (test/workers/shared-workerd-setup.ts).
     */
    shareWorkerd?: boolean;
  },
): TestProjectInlineConfiguration {
  return defineProject({
    plugins: [
      // Studio's browser script, bundled from its sources at import time.
      studioClientPlugin(),
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            LLAMON_NEON_FETCH_ENDPOINT: inject<string>("neonProxyUrl"),
            POSTGRES_MEMORY_DSN: inject<string>("neonStyleDsn"),
            LLAMON_TEST_BACKEND: inject<string>("backendKind"),
            MIGRATION_COUNT: inject<number>("migrationCount"),
            // Local development mode; the auth tests pass their own A2A_* per instance.
            A2A_AUTH: "none",
            TEST_JWKS_URL: inject<string>("jwksUrl"),
            TEST_JWT_PRIVATE_JWK: inject<string>("jwtPrivateJwk"),
            ...(options.embeddings ? { TEST_EMBEDDINGS_URL: inject<string>("embeddingsUrl") } : {}),
            ...(options.fakeLlm ? { TEST_FAKE_LLM_URL: inject<string>("fakeLlmUrl") } : {}),
            ...options.vars,
          },
          // Not A2A_RATE_LIMITER: only the test that passes it as that binding is limited.
          ratelimits: {
            TEST_RATE_LIMITER: { namespace_id: "1001", simple: { limit: 2, period: 60 } },
          },
        },
      })),
    ],
    // wrangler.toml's [alias] (the bundle's shims), so workerd tests run the deployed modules.
    // llamon-cli/dev modules in the global setups import llamon by name: its sources here.
    resolve: { alias: [...wranglerAliases("./wrangler.toml"), ...llamonSourceAliases] },
    test: {
      name,
      include: options.include,
      exclude: options.exclude ?? [],
      globalSetup: [options.globalSetup ?? "./test/workers/global-setup.ts"],
      isolate: options.shareWorkerd !== true,
      setupFiles: options.shareWorkerd === true ? ["./test/workers/shared-workerd-setup.ts"] : [],
      testTimeout: 90_000,
      hookTimeout: 90_000,
    },
  });
}

export const workersProjects: TestProjectInlineConfiguration[] = [
  workersProject("workers", {
    include: ["test/workers/**/*.test.ts"],
    exclude: [...DO_BACKEND_TESTS, ...SEMANTIC_TESTS],
    fakeLlm: true,
    // Starting workerd and importing llamon's modules took longer than most of these files'
    // tests. The Durable Object projects stay one workerd per file: their files page through
    // every thread and evict every object, and in a shared workerd those include the objects
    // of the files before (tried: the listing and the eviction tests fail in reverse order).
    shareWorkerd: true,
  }),
  workersProject("workers-sqlite", {
    include: DO_BACKEND_TESTS,
    vars: { MEMORY_BACKEND: "sqlite" },
  }),
  workersProject("workers-in-memory", {
    include: DO_BACKEND_TESTS,
    vars: { MEMORY_BACKEND: "in-memory" },
  }),
  workersProject("workers-semantic", {
    include: SEMANTIC_TESTS,
    globalSetup: "./test/workers/semantic-setup.ts",
    embeddings: true,
  }),
];

export default workersProjects[0];
