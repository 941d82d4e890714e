/**
 * The Durable Object backends through the Worker (R1): this file runs twice, in the
 * `workers-sqlite` and `workers-in-memory` projects (MEMORY_BACKEND overridden there).
 */
import { env, evictAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { threadObjectName } from "../../../src/agent/execute.ts";
import { firstLine, productDocumentBody, sendRaw } from "../a2a-helpers.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;
const survivesRestart = backend === "sqlite";

async function stored(contextId: string): Promise<number> {
  const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
  return (await stub.threadState(env.AGENT_ID, contextId)).messageCount;
}

describe(`conversations on the ${backend} backend`, () => {
  it("R1 runs the turn in the conversation's Durable Object and remembers the product document's JSON", async () => {
    const contextId = `do-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "내 이름은 민수야"));
    const second = await sendRaw(productDocumentBody(contextId));
    expect(firstLine(second.replyText)).toBe("offline-model: received=3 has_prior=true");
    expect(second.replyText).toContain("내 이름은 민수야");
    expect(await stored(contextId)).toBe(4);
  });

  it(`R1 ${survivesRestart ? "keeps" : "loses"} the conversation when the object is evicted (restart)`, async () => {
    const contextId = `evict-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "remember: green"));
    await evictAllDurableObjects();
    const after = await sendRaw(productDocumentBody(contextId, "what did I say?"));
    if (survivesRestart) {
      expect(firstLine(after.replyText)).toBe("offline-model: received=3 has_prior=true");
      expect(after.replyText).toContain("remember: green");
    } else {
      expect(firstLine(after.replyText)).toBe("offline-model: received=1 has_prior=false");
    }
  });

  it("R2.4 20 concurrent sends on one contextId store 40 messages (the object's turn lock)", async () => {
    const contextId = `conc-${crypto.randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendRaw(productDocumentBody(contextId, `message ${i}`))),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(await stored(contextId)).toBe(40);
  });

  it("R2.3 a thread stored under one agent id is invisible to another agent id", async () => {
    const contextId = `own-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "mine"));
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
    expect((await stub.threadState("someone-else", contextId)).messageCount).toBe(0);
  });
});
