/**
 * The Worker itself, inside workerd with this project's wrangler.toml: it starts and takes the
 * intake over requests that share a contextId (with memory off, every request starts over).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { QUESTIONS } from "../src/flow.ts";
import { send } from "./a2a.ts";

describe("the __PROJECT_NAME__ Worker", () => {
  it("starts with its wrangler.toml and is healthy", async () => {
    const res = await exports.default.fetch("http://agent/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", agent_id: "__PROJECT_NAME__" });
  });

  it("asks the next question in the same conversation (unless memory is off)", async () => {
    const remembers = env.MEMORY_BACKEND !== "off";
    expect(await send("ctx-intake", "문의할 게 있어요")).toBe(QUESTIONS[0].ask);
    expect(await send("ctx-intake", "김민지")).toBe(
      remembers ? QUESTIONS[1].ask : QUESTIONS[0].ask,
    );
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
