import { createHash } from "node:crypto";
import { authenticate, resolveA2AAuth, resolveMemoryConfig } from "llamon";
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
  it('takes A2A calls only with a key whose SHA-256 is in A2A_API_KEYS (wrangler.toml: A2A_AUTH = "api_key")', async () => {
    // In production: npx wrangler secret put A2A_API_KEYS, value "alice=<sha256 hex of alice's key>".
    const key = "an-example-key-use-openssl-rand-hex-32";
    const hash = createHash("sha256").update(key).digest("hex");
    const auth = resolveA2AAuth({ A2A_AUTH: "api_key", A2A_API_KEYS: `alice=${hash}` }, agent.auth);
    const caller = await authenticate(new Headers({ authorization: `Bearer ${key}` }), auth);
    expect(caller.principal).toBe("alice"); // alice's conversations are hers alone
    await expect(authenticate(new Headers(), auth)).rejects.toThrow(/requires an API key/);
    await expect(
      authenticate(new Headers({ authorization: "Bearer someone-elses-key" }), auth),
    ).rejects.toThrow(/not accepted/);
  });
});
