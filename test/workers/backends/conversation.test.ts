/**
 * The Durable Object backends through the Worker (R1): this file runs twice, in the
 * `workers-sqlite` and `workers-in-memory` projects (MEMORY_BACKEND overridden there).
 */
import { env, evictAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ThreadDO } from "../../../src/durable/thread-do.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import { expectAnswered, firstLine, productDocumentBody, sendRaw } from "../a2a-helpers.ts";

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
    expectAnswered(results);
    expect(await stored(contextId)).toBe(40);
  });

  it("R2.3 a thread stored under one agent id is invisible to another agent id", async () => {
    const contextId = `own-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "mine"));
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
    expect((await stub.threadState("someone-else", contextId)).messageCount).toBe(0);
  });

  it("R4.2 trim set at run time reaches the object on the next turn: one checkpoint, the last groups", async () => {
    const contextId = `trim-${crypto.randomUUID()}`;
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
    const plain = resolveMemoryConfig({ env: { ...env } }).config;
    const trimmed = resolveMemoryConfig({
      env: { ...env },
      runtime: { persist_trim_keep_groups: 4 },
    }).config;
    const say = (text: string, config: typeof plain) =>
      stub.turn({ threadId: contextId, contextId, messageId: crypto.randomUUID(), text }, config);
    for (const text of ["one", "two", "three"]) await say(text, plain);
    const count = () =>
      runInDurableObject(stub, async (object: ThreadDO) => {
        let n = 0;
        for await (const _ of object.saver?.list({ configurable: { thread_id: contextId } }) ??
          []) {
          n += 1;
        }
        return n;
      });
    // sqlite keeps a live tail (older messages in its transcript): only the head checkpoint
    // is kept with or without trim; in_memory keeps every checkpoint until trim is on.
    if (survivesRestart) expect(await count()).toBe(1);
    else expect(await count()).toBeGreaterThan(1);
    expect(await stored(contextId)).toBe(6);
    await say("four", trimmed);
    expect(await count()).toBe(1);
    expect(await stored(contextId)).toBe(4);
    // Trim off again at run time: history accumulates again (in_memory).
    await say("five", plain);
    expect(await count()).toBe(survivesRestart ? 1 : 2);
    expect(await stored(contextId)).toBe(6);
  });
});

describe(`conversation recall on the ${backend} backend`, () => {
  const DOG = "제 강아지 이름은 초코예요";
  const QUESTION = "우리 강아지 이름이 뭐였죠?";
  const recalledLine = (reply: string) => reply.split("\n").find((l) => l.startsWith("recalled: "));

  it(`a message that left the window is quoted (${backend === "in-memory" ? "the object's in-memory index" : "the transcript's FTS5 index"}); erase removes it`, async () => {
    const contextId = `recall-${crypto.randomUUID()}`;
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
    const config = resolveMemoryConfig({ env: { ...env }, runtime: { window_size: 4 } }).config;
    const say = (text: string) =>
      stub.turn({ threadId: contextId, contextId, messageId: crypto.randomUUID(), text }, config);
    await say(DOG);
    for (let i = 0; i < 4; i++) await say(`오늘의 잡담 ${i}: 날씨와 점심 이야기`);
    const answer = await say(QUESTION);
    // Out of the window: not the message before the question.
    expect(answer.reply.split("\n")[1]).not.toContain(DOG);
    expect(recalledLine(answer.reply)).toContain(`user: "${DOG}"`);
    await stub.erase(env.AGENT_ID, contextId);
    for (let i = 0; i < 4; i++) await say(`오늘의 잡담 ${i}: 날씨와 점심 이야기`);
    expect(recalledLine((await say(QUESTION)).reply)).toBeUndefined();
  });
});
