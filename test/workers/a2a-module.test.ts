/**
 * The A2A module (src/a2a) runs inside workerd: the SDK's server and v0.3 compat layers, SSE
 * and the task store work in the Workers runtime. (The Worker's own A2A routes are tested
 * where they are wired.)
 */
import { describe, expect, it } from "vitest";
import { createA2AApp, InMemoryKv, KvTaskStore } from "../../src/a2a/index.ts";

const PRODUCT_DOC_BODY =
  '{"jsonrpc":"2.0","method":"message/send","params":{"message":{"contextId":"user-alice-session","role":"user","parts":[{"kind":"text","text":"이전에 뭐 얘기했지?"}]}}}';

function makeApp() {
  const inputs: { contextId: string; text: string }[] = [];
  const kv = new InMemoryKv();
  const app = createA2AApp({
    card: { name: "w", description: "workerd", version: "0" },
    execute: async (input) => {
      inputs.push({ contextId: input.contextId, text: input.text });
      return { reply: `echo ${input.text}` };
    },
    taskStore: new KvTaskStore({ kv, agentId: "llamon-reference" }),
  });
  return { app, inputs, kv };
}

const post = (app: ReturnType<typeof makeApp>["app"], body: string) =>
  app.fetch(
    new Request("http://worker/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );

describe("src/a2a inside workerd", () => {
  it("R2.1 answers the product document's message/send and continues the contextId", async () => {
    const t = makeApp();
    for (let i = 0; i < 2; i++) {
      const res = await post(t.app, PRODUCT_DOC_BODY);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { id: null; result: { contextId: string; id: string } };
      expect(body.id).toBeNull();
      expect(body.result.contextId).toBe("user-alice-session");
    }
    expect(t.inputs).toEqual([
      { contextId: "user-alice-session", text: "이전에 뭐 얘기했지?" },
      { contextId: "user-alice-session", text: "이전에 뭐 얘기했지?" },
    ]);
    expect(t.kv.entries.size).toBe(2);
  });

  it("streams SSE for SendStreamingMessage and refuses bad input before the turn", async () => {
    const t = makeApp();
    const res = await post(
      t.app,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendStreamingMessage",
        params: { message: { role: "ROLE_USER", contextId: "c", parts: [{ text: "hi" }] } },
      }),
    );
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toContain('"TASK_STATE_WORKING"');
    expect(text).toContain('"TASK_STATE_COMPLETED"');
    const bad = await post(t.app, '{"jsonrpc":"2.0","id":2,"method":"message/send","params":{}}');
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32602);
    expect(t.inputs).toHaveLength(1);
  });

  it("serves both card shapes", async () => {
    const t = makeApp();
    const legacy = await t.app.fetch(new Request("https://a.example/.well-known/agent-card.json"));
    expect(await legacy.json()).toMatchObject({
      protocolVersion: "0.3",
      url: "https://a.example/",
    });
    const v1 = await t.app.fetch(
      new Request("https://a.example/.well-known/agent-card.json", {
        headers: { "A2A-Version": "1.0" },
      }),
    );
    expect(await v1.json()).toMatchObject({
      supportedInterfaces: [
        { protocolBinding: "JSONRPC", protocolVersion: "1.0" },
        { protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
        { protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      ],
    });
  });
});
