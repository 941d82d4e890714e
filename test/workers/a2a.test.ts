/**
 * The reference Worker answering A2A over HTTP inside workerd, postgres backend (Neon HTTP →
 * local proxy → Postgres), offline model.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { expectAnswered, firstLine, productDocumentBody, sendRaw } from "./a2a-helpers.ts";

const db = () =>
  createNeonDb({
    connectionString: env.POSTGRES_MEMORY_DSN,
    fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
  });

async function storedMessageCount(contextId: string): Promise<number> {
  const saver = new NeonSaver({ db: db(), agentId: env.AGENT_ID });
  const { messages } = await readThreadMessages(saver, { configurable: { thread_id: contextId } });
  return messages.length;
}

describe("A2A on the reference Worker (postgres)", () => {
  it("R2.1 the product document's JSON, sent twice with one contextId, is remembered", async () => {
    const contextId = `alice-${crypto.randomUUID()}`;
    const first = await sendRaw(productDocumentBody(contextId, "내 이름은 앨리스야"));
    expect(first.status).toBe(200);
    expect(first.body.id).toBeNull();
    expect(firstLine(first.replyText)).toBe("offline-model: received=1 has_prior=false");
    const second = await sendRaw(productDocumentBody(contextId));
    expect(firstLine(second.replyText)).toBe("offline-model: received=3 has_prior=true");
    expect(second.replyText).toContain("previous user message: 내 이름은 앨리스야");
    expect(second.contextId).toBe(contextId);
    expect(await storedMessageCount(contextId)).toBe(4);
  });

  it("R2.2 without a contextId each request is a new conversation, and the reply carries the new contextId", async () => {
    const a = await sendRaw(productDocumentBody(undefined, "first"));
    const b = await sendRaw(productDocumentBody(undefined, "second"));
    expect(a.contextId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.contextId).not.toBe(a.contextId);
    expect(firstLine(b.replyText)).toBe("offline-model: received=1 has_prior=false");
    const continued = await sendRaw(productDocumentBody(a.contextId, "continue"));
    expect(firstLine(continued.replyText)).toBe("offline-model: received=3 has_prior=true");
  });

  it("R2.1 the conversation survives a new Worker instance (state is in Postgres)", async () => {
    const contextId = `restart-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "remember: blue"));
    const fresh = createWorker(referenceAgent);
    const freshFetcher = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) =>
        Promise.resolve(
          fresh.fetch?.(new Request(input, init) as never, { ...env }, {
            waitUntil: () => {},
            passThroughOnException: () => {},
            props: {},
          } as unknown as ExecutionContext) as Response,
        ),
    } as { fetch: typeof fetch };
    const again = await sendRaw(productDocumentBody(contextId, "what did I say?"), freshFetcher);
    expect(again.replyText).toContain("previous user message: remember: blue");
  });

  it("R2.4 20 concurrent sends on one contextId store 40 messages, none duplicated", async () => {
    const contextId = `conc-${crypto.randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendRaw(productDocumentBody(contextId, `message ${i}`))),
    );
    expectAnswered(results);
    const saver = new NeonSaver({ db: db(), agentId: env.AGENT_ID });
    const { messages } = await readThreadMessages(saver, {
      configurable: { thread_id: contextId },
    });
    expect(messages).toHaveLength(40);
    expect(new Set(messages.map((m) => m.id)).size).toBe(40);
    const texts = messages.map((m) => String(m.content)).filter((c) => c.startsWith("message "));
    expect(new Set(texts).size).toBe(20);
  });

  it("bad input gets a JSON-RPC error and stores nothing", async () => {
    const contextId = `bad-${crypto.randomUUID()}`;
    const cases: [string, number][] = [
      ["{not json", -32700],
      [JSON.stringify({ jsonrpc: "1.0", method: "message/send", params: {} }), -32600],
      [JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/explode", params: {} }), -32601],
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: { message: { contextId, role: "user", parts: [] } },
        }),
        -32602,
      ],
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: { message: { contextId, role: "agent", parts: [{ kind: "text", text: "x" }] } },
        }),
        -32602,
      ],
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "message/send",
          params: {
            message: {
              contextId: "x".repeat(257),
              role: "user",
              parts: [{ kind: "text", text: "x" }],
            },
          },
        }),
        -32602,
      ],
    ];
    for (const [body, code] of cases) {
      const res = await sendRaw(body);
      expect((res.body.error as { code: number }).code, body.slice(0, 80)).toBe(code);
      expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
    }
    expect(await storedMessageCount(contextId)).toBe(0);
  });

  it("serves the agent card", async () => {
    const res = await exports.default.fetch("http://agent.local/.well-known/agent-card.json", {
      headers: { "A2A-Version": "1.0" },
    });
    expect(res.status).toBe(200);
    const card = (await res.json()) as { name: string };
    expect(card.name).toBe("llamon reference agent");
  });
});
