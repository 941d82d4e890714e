import { resolveMemoryConfig } from "llamon";
import { describe, expect, it } from "vitest";
import { agent } from "../src/agent.ts";

describe("__PROJECT_NAME__", () => {
  it("is a valid llamon agent with the memory mode it was created with", () => {
    expect(agent.name).toBe("__PROJECT_NAME__");
    expect(agent.system).toContain("helpful assistant");
    const { config } = resolveMemoryConfig({ code: agent.memory });
    expect(config.backend).toBe("__MEMORY_BACKEND__");
    expect(config.window_size).toBe(20);
    expect(config.history_aware).toBe(true);
  });

  it("lets the environment switch the memory mode without a code change", () => {
    const { config } = resolveMemoryConfig({
      code: agent.memory,
      env: { MEMORY_BACKEND: "postgres" },
    });
    expect(config.backend).toBe("postgres");
  });
});
