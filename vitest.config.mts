import { defineConfig } from "vitest/config";
import { llamonSourceAliases } from "./scripts/llamon-source-aliases.mts";
import { studioClientPlugin } from "./scripts/studio-client-plugin.mts";
import { LongestFirstSequencer } from "./vitest.sequencer.mts";
import { workersProjects } from "./vitest.workers.config.mts";

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one file at a time; most e2e and integration files wait on
    // child processes (wrangler, npm, Postgres), so two at a time use the machine better.
    maxWorkers: 2,
    // Longest files first, short ones last to fill the slots (vitest.sequencer.mts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        // Pure logic: the files share one module cache per worker, so LangChain, zod and llamon
        // are imported once per worker rather than once per file. A unit test must leave no
        // state behind (fake timers restored, no module-level mocks).
        plugins: [studioClientPlugin()],
        resolve: { alias: llamonSourceAliases },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        plugins: [studioClientPlugin()],
        resolve: { alias: llamonSourceAliases },
        test: {
          name: "node",
          include: [
            "test/integration/**/*.test.ts",
            "test/e2e/**/*.test.ts",
            // The local Neon against Neon's source and the driver's own tests.
            "test/conformance/neon-http/**/*.test.ts",
          ],
          environment: "node",
          // Builds dist/ and packs it once per run: the e2e tests run the packed package.
          globalSetup: ["test/helpers/packed-llamon.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The database tests again, on the embedded PGlite (README, "npm test"): in the same
        // run as the rest, so its files fill the pool's idle slots instead of running after it.
        plugins: [studioClientPlugin()],
        resolve: { alias: llamonSourceAliases },
        test: {
          name: "embedded",
          include: ["test/integration/**/*.test.ts", "test/conformance/neon-http/**/*.test.ts"],
          exclude: [
            "test/integration/{sqlite-*,faults,db-neon-timeout,neon-routing,prompt-cache,connection-loss,recall-semantic}.test.ts",
          ],
          environment: "node",
          env: { LLAMON_TEST_DB: "embedded" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...workersProjects,
    ],
  },
});
