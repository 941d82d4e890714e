/**
 * All-or-nothing turns on the object backends. A model or tool failure on
 * in_memory and sqlite leaves the thread exactly as it was (no orphan user message, no
 * checkpoint), and a retry with the same messageId answers once — as NeonSaver does.
 * The savers run in Node here (sqlite on node:sqlite, as the checkpoint-validation suite).
 */
import { DatabaseSync } from "node:sqlite";
import type { BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../../src/agent/define.ts";
import { runTurn } from "../../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { createMemoryLogger } from "../../../src/log.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { readThreadMessages } from "../../../src/store/delta.ts";
import type { ThreadSaver } from "../../../src/store/do-memory.ts";
import { InMemorySaver } from "../../../src/store/memory-saver.ts";
import { threadStoreOf } from "../../../src/store/saver-thread-store.ts";
import { SqliteSaver } from "../../../src/store/sqlite-saver.ts";
import { nodeSqlite } from "../../helpers/node-sqlite.ts";

const backends: [string, () => ThreadSaver][] = [
  ["in_memory", () => new InMemorySaver({ agentId: "aon" })],
  [
    "sqlite",
    () => new SqliteSaver({ sql: nodeSqlite(new DatabaseSync(":memory:")), agentId: "aon" }),
  ],
];

/** Fails its `failAt`-th call (1-based, bound copies included), else answers offline. */
class FlakyModel extends OfflineChatModel {
  private made = 0;
  constructor(private readonly failAt: number) {
    super();
  }
  private check(): void {
    this.made += 1;
    if (this.made === this.failAt) throw new Error("model is down");
  }
  override async _generate(...args: Parameters<OfflineChatModel["_generate"]>) {
    this.check();
    return super._generate(...args);
  }
  override bindTools(tools: Parameters<OfflineChatModel["bindTools"]>[0]): OfflineChatModel {
    const bound = super.bindTools(tools);
    const generate = bound._generate.bind(bound);
    bound._generate = async (...args) => {
      this.check();
      return generate(...args);
    };
    return bound;
  }
}

const config = resolveMemoryConfig({ code: {} }).config;
const plain = defineAgent({ name: "aon", description: "d", system: "You are helpful." });

async function thread(saver: ThreadSaver): Promise<BaseMessage[]> {
  return (await readThreadMessages(saver, { configurable: { thread_id: "t" } })).messages;
}

async function checkpointCount(saver: ThreadSaver): Promise<number> {
  let n = 0;
  for await (const _ of saver.list({ configurable: { thread_id: "t" } })) n++;
  return n;
}

describe.each(backends)("all-or-nothing turns on %s", (_name, make) => {
  it("R2.4 a model failure stores nothing of the turn; the retry with the same messageId answers once", async () => {
    const saver = make();
    const log = createMemoryLogger();
    const turn = (model: OfflineChatModel, text: string, messageId: string) =>
      runTurn(
        { agent: plain, config, model, checkpointer: saver, log },
        { threadId: "t", text, messageId },
      );
    await turn(new OfflineChatModel(), "first", "m-1");
    const before = (await thread(saver)).map((m) => m.id);
    const checkpoints = await checkpointCount(saver);

    await expect(turn(new FlakyModel(1), "second", "m-2")).rejects.toThrow(/model is down/);
    expect((await thread(saver)).map((m) => m.id)).toEqual(before);
    expect(await checkpointCount(saver)).toBe(checkpoints);

    const retry = await turn(new OfflineChatModel(), "second", "m-2");
    expect(retry.replayed).toBe(false);
    const after = await thread(saver);
    expect(after.filter((m) => m.id === "m-2")).toHaveLength(1);
    expect(after.map((m) => m.getType())).toEqual(["human", "ai", "human", "ai"]);
    const again = await turn(new OfflineChatModel(), "second", "m-2");
    expect(again.replayed).toBe(true);
    expect(await thread(saver)).toHaveLength(4);
  });

  it("R2.4 a failure inside the tool loop (model call after the tool ran) stores nothing either", async () => {
    const saver = make();
    const lookup = tool(async ({ q }) => `found ${q}`, {
      name: "lookup",
      description: "looks things up",
      schema: z.object({ q: z.string() }),
    });
    const agent = defineAgent({ name: "aon", description: "d", system: "s", tools: [lookup] });
    const log = createMemoryLogger();
    const turn = (model: OfflineChatModel, text: string, messageId: string) =>
      runTurn(
        { agent, config, model, checkpointer: saver, log },
        { threadId: "t", text, messageId },
      );
    await turn(new OfflineChatModel(), "hello", "m-1");
    const before = (await thread(saver)).map((m) => m.id);
    const ask = `/tool lookup {"q":"x"}`;
    // Call 1 asks for the tool, the tool answers, call 2 fails.
    await expect(turn(new FlakyModel(2), ask, "m-2")).rejects.toThrow(/model is down/);
    expect((await thread(saver)).map((m) => m.id)).toEqual(before);
    await turn(new OfflineChatModel(), ask, "m-2");
    const types = (await thread(saver)).map((m) => m.getType());
    expect(types).toEqual(["human", "ai", "human", "ai", "tool", "ai"]);
  });

  it("R11.2 a read of the thread while a turn's writes are held stores nothing; the commit writes the checkpoint with its message id", async () => {
    const saver = make();
    // Something else in the object reads the thread (a summary job, the thread view) after the
    // turn's graph put its checkpoint and before the turn committed: it sees the stored thread.
    const seen: number[] = [];
    const put = saver.put.bind(saver);
    const held = (saver as unknown as { turnWrites: { holding: boolean } }).turnWrites;
    saver.put = async (...args: Parameters<ThreadSaver["put"]>) => {
      const saved = await put(...args);
      if (held.holding) seen.push((await thread(saver)).length);
      return saved;
    };
    const log = createMemoryLogger();
    const turn = (text: string, messageId: string) =>
      runTurn(
        { agent: plain, config, model: new OfflineChatModel(), checkpointer: saver, log },
        { threadId: "t", text, messageId },
      );
    await turn("first", "m-1");
    await turn("second", "m-2");
    // The turn's own messages were never readable before its commit.
    expect([...new Set(seen)]).toEqual([0, 2]);
    expect(await thread(saver)).toHaveLength(4);
    // Its message id was written with it: the resend is answered from storage.
    const again = await turn("first", "m-1");
    expect(again.replayed).toBe(true);
    expect(await thread(saver)).toHaveLength(4);
  });

  it("R11.1 a long-lived store (a conversation object's) keeps none of the thread's rows after its turn", async () => {
    const saver = make();
    const store = threadStoreOf(saver);
    const log = createMemoryLogger();
    await runTurn(
      { agent: plain, config, model: new OfflineChatModel(), store, log },
      { threadId: "t", text: "I live in Busan", messageId: "m-1" },
    );
    // What the load read (memory rows: facts, last turn) is the turn's, not the store's.
    expect((store as unknown as { loaded: Map<string, unknown> }).loaded.size).toBe(0);
  });
});
