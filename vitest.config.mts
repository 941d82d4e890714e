import { defineConfig } from "vitest/config";
import { workersProjects } from "./vitest.workers.config.mts";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: [
            "test/unit/**/*.test.ts",
            "test/integration/**/*.test.ts",
            "test/e2e/**/*.test.ts",
          ],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...workersProjects,
    ],
  },
});
