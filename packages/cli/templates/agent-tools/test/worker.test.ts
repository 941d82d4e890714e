/**
 * The Worker itself, inside workerd with this project's wrangler.toml: it starts and runs its
 * tools through the offline model (no LLM configured), whose `/tool <name> <json>` command
 * calls a tool — twice in one conversation.
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

  it("calls a tool, and again in the same conversation", async () => {
    const remembers = env.MEMORY_BACKEND !== "off";
    const first = await send("ctx-tools", '/tool calculate {"expression":"2*(3+4)"}');
    expect(first).toContain("tool results: 14");
    const second = await send("ctx-tools", '/tool calculate {"expression":"(12.5 + 7) * 3"}');
    expect(second).toContain("tool results: 58.5");
    expect(second.split("\n")[0]).toContain(`has_prior=${remembers}`);
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
