import { resolveMemoryConfig } from "llamon";
import { describe, expect, it } from "vitest";
import { agent } from "../src/agent.ts";
import { calculate, currentTime, evaluate } from "../src/tools.ts";

describe("__PROJECT_NAME__", () => {
  it("is a valid llamon agent with its tools and the memory mode it was created with", () => {
    expect(agent.name).toBe("__PROJECT_NAME__");
    expect(agent.tools?.map((t) => t.name)).toEqual(["calculate", "current_time"]);
    const { config } = resolveMemoryConfig({ code: agent.memory });
    expect(config.backend).toBe("__MEMORY_BACKEND__");
  });

  it("calculates without eval", async () => {
    expect(evaluate("(12.5 + 7) * 3")).toBe(58.5);
    expect(evaluate("-2 * (3 - 5) / 4")).toBe(1);
    expect(await calculate.invoke({ expression: "2*(3+4)" })).toBe("14");
    expect(() => evaluate("process.exit()")).toThrow(/only numbers/);
  });

  it("tells the time in a time zone", async () => {
    expect(await currentTime.invoke({ timezone: "Asia/Seoul" })).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });
});
