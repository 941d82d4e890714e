/**
 * NeonSaver's isolate cache of recently saved threads (store/thread-cache.ts): a turn that
 * lands on the isolate which saved the previous one reads the head checkpoint without its
 * messages' history (nothing revived); any other head is read from Postgres. What the model
 * sees and what is stored are the same with and without the cache.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/run-turn.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { ThreadMessagesCache } from "../../src/store/thread-cache.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Cache agent");

/** A serializer that counts the values it revives (a revived message is one call or more). */
class CountingSerde extends JsonPlusSerializer {
  loads = 0;
  override async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    this.loads += 1;
    return super.loadsTyped(type, data);
  }
}

/** One "isolate": its cache, shared by the savers it makes per request. */
function isolate(agentId: string, cache: ThreadMessagesCache | undefined) {
  const serde = new CountingSerde();
  const model = new OfflineChatModel();
  return {
    serde,
    model,
    deps: () =>
      ({
        agent,
        config: resolveMemoryConfig({ code: {} }).config,
        model,
        log: createMemoryLogger(),
        checkpointer: new NeonSaver({
          db: backend.neon,
          agentId,
          guardHead: true,
          cache,
          serde,
        }),
      }) satisfies TurnDeps,
  };
}

async function stored(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

const ids = (messages: readonly BaseMessage[]) => messages.map((m) => m.id);

describe("the isolate cache of saved threads", () => {
  it("a warm turn revives none of the stored messages; the model and the store see the same as without it", async () => {
    const warm = isolate("cache-a", new ThreadMessagesCache());
    const cold = isolate("cache-b", undefined);
    for (let i = 1; i <= 40; i++) {
      const text = `turn ${i}: something worth remembering`;
      const beforeWarm = warm.serde.loads;
      const beforeCold = cold.serde.loads;
      const a = await runTurn(warm.deps(), { threadId: "t", text, messageId: `m${i}` });
      const b = await runTurn(cold.deps(), { threadId: "t", text, messageId: `m${i}` });
      expect(a.reply).toBe(b.reply);
      expect(a.lastPrompt?.messages.map((m) => m.content)).toEqual(
        b.lastPrompt?.messages.map((m) => m.content),
      );
      if (i >= 10) {
        // Cold: every stored message is revived (2 per earlier turn, and more).
        expect(cold.serde.loads - beforeCold).toBeGreaterThanOrEqual(2 * (i - 1));
        // Warm: the checkpoint, its metadata and the memory rows — no message.
        expect(warm.serde.loads - beforeWarm).toBeLessThan(10);
      }
    }
    const a = await stored("cache-a", "t");
    const b = await stored("cache-b", "t");
    expect(a.map((m) => [m.getType(), m.content])).toEqual(b.map((m) => [m.getType(), m.content]));
    expect(a).toHaveLength(80);
  });

  it("another isolate moving the head is never missed: the next turn here reads it from Postgres", async () => {
    const one = isolate("cache-c", new ThreadMessagesCache());
    const two = isolate("cache-c", new ThreadMessagesCache());
    await runTurn(one.deps(), { threadId: "shared", text: "first, on isolate one" });
    await runTurn(one.deps(), { threadId: "shared", text: "second, on isolate one" });
    // Isolate two saves a turn: isolate one's cached head is now stale.
    await runTurn(two.deps(), { threadId: "shared", text: "third, on isolate two" });
    const next = await runTurn(one.deps(), { threadId: "shared", text: "fourth, on isolate one" });
    expect(next.reply).toContain("received=7");
    const sent = next.lastPrompt?.messages.map((m) => String(m.content)) ?? [];
    expect(sent).toContain("third, on isolate two");
    const thread = await stored("cache-c", "shared");
    expect(thread.filter((m) => m.getType() === "human").map((m) => m.content)).toEqual([
      "first, on isolate one",
      "second, on isolate one",
      "third, on isolate two",
      "fourth, on isolate one",
    ]);
    expect(new Set(ids(thread)).size).toBe(8);
  });

  it("R2.4 concurrent turns on one isolate: the loser's merge reads the winner's head; nothing lost", async () => {
    const one = isolate("cache-d", new ThreadMessagesCache());
    await runTurn(one.deps(), { threadId: "c", text: "start" });
    const texts = Array.from({ length: 8 }, (_, i) => `concurrent ${i}`);
    await Promise.all(texts.map((text) => runTurn(one.deps(), { threadId: "c", text })));
    const again = await runTurn(one.deps(), { threadId: "c", text: "after" });
    expect(again.reply).toContain("received=19");
    const thread = await stored("cache-d", "c");
    expect(thread).toHaveLength(20);
    expect(new Set(ids(thread)).size).toBe(20);
  });

  it("an erased thread is not served from the cache", async () => {
    const cache = new ThreadMessagesCache();
    const one = isolate("cache-e", cache);
    await runTurn(one.deps(), { threadId: "gone", text: "remember me" });
    await new NeonSaver({ db: backend.neon, agentId: "cache-e" }).deleteThread("gone");
    const after = await runTurn(one.deps(), { threadId: "gone", text: "hello?" });
    expect(after.reply).toContain("received=1 has_prior=false");
  });
});
