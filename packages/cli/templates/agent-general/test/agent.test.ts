import { createHash } from "node:crypto";
import { authenticate, resolveA2AAuth, resolveMemoryConfig } from "llamon";
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
