/** Tests that run inside workerd (the Workers runtime), against the same Worker config. */
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineProject } from "vitest/config";

export default defineProject({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          LLAMON_NEON_FETCH_ENDPOINT: inject<string>("neonProxyUrl"),
          POSTGRES_MEMORY_DSN: inject<string>("neonStyleDsn"),
          LLAMON_TEST_BACKEND: inject<string>("backendKind"),
          MIGRATION_COUNT: inject<number>("migrationCount"),
        },
      },
    })),
  ],
  test: {
    name: "workers",
    include: ["test/workers/**/*.test.ts"],
    globalSetup: ["./test/workers/global-setup.ts"],
    testTimeout: 30_000,
  },
});
