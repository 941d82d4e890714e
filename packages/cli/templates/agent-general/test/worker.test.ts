/**
 * The Worker itself, inside workerd with this project's wrangler.toml: it starts, answers
 * /health, and holds a conversation through the offline model (no LLM configured), which
 * says what it received — so memory can be checked.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { send } from "./a2a.ts";

describe("the __PROJECT_NAME__ Worker", () => {
  it("starts with its wrangler.toml and is healthy", async () => {
    const res = await exports.default.fetch("http://agent/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", agent_id: "__PROJECT_NAME__" });
  });

  it("remembers the conversation by contextId (unless memory is off)", async () => {
    const remembers = env.MEMORY_BACKEND !== "off";
    const first = await send("user-alice-session", "my name is Alice");
    expect(first.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
    const second = await send("user-alice-session", "what did we talk about?");
    expect(second.split("\n")[0]).toBe(
      remembers
        ? "offline-model: received=3 has_prior=true"
        : "offline-model: received=1 has_prior=false",
    );
    if (remembers) expect(second).toContain("previous user message: my name is Alice");
  });
  it('asks for an API key, as deployed (wrangler.toml: A2A_AUTH = "api_key")', async () => {
    const res = await exports.default.fetch("http://agent/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "x" } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="a2a"');
  });
});
