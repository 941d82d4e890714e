/**
 * Delta storage of the thread's messages (store/delta.ts): a turn writes only
 * the messages it added, plus now and then a full snapshot; reading stays one round
 * trip; threads written before (the whole list in every checkpoint) load and continue; trim
 * and the ancestor walk agree with LangGraph's own.
 *
 * Sizes are bytes of the requests at the Neon-protocol proxy (what a turn sends), not timings.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import {
  BaseCheckpointSaver,
  END,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { MESSAGES_SNAPSHOT_EVERY, readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { storageThreadId } from "../../src/store/thread-key.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();

const agent = testAgent("Delta agent");

function deps(
  agentId: string,
  patch: Record<string, unknown> = {},
  model = new OfflineChatModel(),
) {
  const config = resolveMemoryConfig({ code: patch }).config;
  return {
    agent,
    config,
    model,
    log: createMemoryLogger(),
    // Delta storage itself (the Durable Object backends' storage, and how Postgres threads
    // were stored before the live tail, memory/live-tail.ts).
    messagesStorage: "delta",
    checkpointer: new NeonSaver({
      db: backend.neon,
      agentId,
      guardHead: true,
      keepLatestOnly: config.persist_trim_keep_groups !== undefined,
    }),
  } satisfies TurnDeps;
}

async function stored(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

/** Checkpoints of a thread, oldest first, and whether each stores the whole messages list. */
async function checkpoints(agentId: string, threadId: string) {
  const { rows } = await backend.pg.query<{ checkpoint_id: string; full: boolean }>(
    `SELECT cp.checkpoint_id,
            EXISTS (SELECT 1 FROM checkpoint_blobs b
                     WHERE b.thread_id = cp.thread_id AND b.checkpoint_ns = cp.checkpoint_ns
                       AND b.channel = 'messages' AND b.type <> 'empty'
                       AND b.version = cp.checkpoint -> 'channel_versions' ->> 'messages') AS full
       FROM checkpoints cp
      WHERE cp.thread_id = $1 AND cp.checkpoint_ns = ''
      ORDER BY cp.checkpoint_id`,
    [storageThreadId(agentId, threadId)],
  );
  return rows;
}

const text = (i: number) => `message number ${String(i).padStart(4, "0")} of a long conversation`;

describe("delta storage of the messages", () => {
  it("a turn's write does not grow with the conversation, snapshots included; the thread reads back whole", async () => {
    const turns = 210;
    const sent: number[] = [];
    const heads: string[] = [];
    for (let i = 1; i <= turns; i++) {
      backend.proxy.resetStats();
      const result = await runTurn(deps("delta-a"), {
        threadId: "long",
        text: text(i),
        messageId: `m-${i}`,
      });
      expect(backend.proxy.stats.requests, `turn ${i}`).toBeLessThanOrEqual(2);
      sent.push(backend.proxy.stats.requestBytes);
      expect(result.added.map((m) => m.getType())).toEqual(["human", "ai"]);
    }
    const rows = await checkpoints("delta-a", "long");
    for (const r of rows) heads.push(r.checkpoint_id);
    // One checkpoint per turn (plus the stub LangGraph anchors the first turn's writes to).
    expect(rows.length).toBeGreaterThanOrEqual(turns);
    expect(rows.length).toBeLessThanOrEqual(turns + 1);
    const perTurn = rows.slice(rows.length - turns);
    const full = perTurn.flatMap((r, i) => (r.full ? [i + 1] : []));
    // Snapshots once the updates since the last one (one a turn: the user message and the
    // reply) reach a quarter of the list (at least MESSAGES_SNAPSHOT_EVERY): at about 100,
    // 200 and 400 messages.
    expect(full.length).toBe(3);
    expect(full[0]).toBe(MESSAGES_SNAPSHOT_EVERY);
    const gaps = full.map((t, k) => t - (full[k - 1] ?? 0));
    expect(gaps[2]).toBeGreaterThan(gaps[1] as number);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // A typical turn sends as much at turn 210 as at turn 10 …
    const plain = (from: number, to: number) =>
      sent.slice(from - 1, to).filter((_, k) => !full.includes(from + k));
    const early = mean(plain(3, 12));
    expect(mean(plain(turns - 9, turns)), "a plain turn, turn 210 vs turn 10").toBeLessThanOrEqual(
      1.5 * early,
    );
    // … and so does the average turn, the snapshot of 400 messages at turn 200 included.
    expect(mean(sent.slice(100)), "the mean of turns 101–210 vs turn 10").toBeLessThanOrEqual(
      1.5 * early,
    );
    // A snapshot turn writes the whole list: it does grow (that is what bounds the reads).
    const lastFull = full.at(-1) as number;
    expect(sent[lastFull - 1]).toBeGreaterThan(4 * early);

    const messages = await stored("delta-a", "long");
    expect(messages).toHaveLength(2 * turns);
    expect(messages.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual(
      Array.from({ length: turns }, (_, i) => text(i + 1)),
    );
    expect(messages.every((m, i) => (i % 2 === 0 ? HumanMessage : AIMessage).isInstance(m))).toBe(
      true,
    );
    const { rows: registry } = await backend.pg.query<{ message_count: number }>(
      "SELECT message_count FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
      ["delta-a", "long"],
    );
    expect(Number(registry[0]?.message_count)).toBe(2 * turns);

    // The ancestor walk read with the checkpoint is LangGraph's own walk (getTuple + parent),
    // at the head and at older checkpoints on both sides of a snapshot.
    const saver = new NeonSaver({ db: backend.neon, agentId: "delta-a" });
    const offset = rows.length - turns;
    for (const at of [turns, turns - 1, lastFull + 1, lastFull, 60, 11, 2]) {
      const id = heads[offset + at - 1];
      const config = { configurable: { thread_id: "long", checkpoint_ns: "", checkpoint_id: id } };
      const ours = await saver.getDeltaChannelHistory({ config, channels: ["messages"] });
      const reference = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(saver, {
        config,
        channels: ["messages"],
      });
      expect(ours).toEqual(reference);
    }
  }, 120_000); // 210 real turns: a hang guard, not a timing (slow on a loaded 2-core machine)

  it("the model sees the same window as before: the last turns, read back from deltas", async () => {
    const model = new OfflineChatModel();
    for (let i = 1; i <= 60; i++) {
      await runTurn(deps("delta-b", {}, model), { threadId: "w", text: text(i) });
    }
    const sent = (model.lastCall?.messages ?? []).filter((m) => m.getType() !== "system");
    const thread = await stored("delta-b", "w");
    // What the window keeps of the stored thread (R3.2), rebuilt from the deltas: its tail.
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.map((m) => m.id)).toEqual(thread.slice(-sent.length - 1, -1).map((m) => m.id));
    expect(String(sent.at(-1)?.content)).toBe(text(60));
  });

  it("an unguarded write (no head check) records the thread's real message count, deltas and live tail alike", async () => {
    const count = async (agentId: string, threadId: string) => {
      const { rows } = await backend.pg.query<{ n: number }>(
        "SELECT message_count AS n FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
        [agentId, threadId],
      );
      return Number(rows[0]?.n);
    };
    const unguarded = (agentId: string, storage: TurnDeps["messagesStorage"]) => ({
      ...deps(agentId),
      messagesStorage: storage,
      checkpointer: new NeonSaver({ db: backend.neon, agentId }),
    });
    for (let i = 1; i <= 3; i++) {
      await runTurn(unguarded("delta-u", "delta"), { threadId: "t", text: text(i) });
      expect(await count("delta-u", "t"), `turn ${i}`).toBe(2 * i);
    }
    // A live tail: the count is the transcript's and the tail's, not the tail's alone.
    for (let i = 1; i <= 12; i++) {
      await runTurn(unguarded("delta-v", "tail"), { threadId: "t", text: text(i) });
    }
    expect((await stored("delta-v", "t")).length).toBe(24);
    expect(await count("delta-v", "t")).toBe(24);
  });

  it("threads written before delta storage (the whole list in each checkpoint) load and continue", async () => {
    // The earlier layout: LangGraph's plain messages channel, full list in every checkpoint.
    const legacy = new StateGraph(MessagesAnnotation)
      .addNode("agent", (s: typeof MessagesAnnotation.State) => ({
        messages: [new AIMessage({ content: `old reply ${s.messages.length}` })],
      }))
      .addEdge(START, "agent")
      .addEdge("agent", END)
      .compile({ checkpointer: new NeonSaver({ db: backend.neon, agentId: "delta-c" }) });
    for (const t of ["old one", "old two"]) {
      await legacy.invoke(
        { messages: [new HumanMessage({ content: t, id: `legacy-${t}` })] },
        { configurable: { thread_id: "old" } },
      );
    }
    const before = await stored("delta-c", "old");
    expect(before.map((m) => m.content)).toEqual([
      "old one",
      "old reply 1",
      "old two",
      "old reply 3",
    ]);

    const model = new OfflineChatModel();
    for (let i = 1; i <= 55; i++) {
      const result = await runTurn(deps("delta-c", {}, model), { threadId: "old", text: text(i) });
      if (i === 1) expect(result.reply).toContain("previous user message: old two");
    }
    const after = await stored("delta-c", "old");
    expect(after.slice(0, 4)).toEqual(before);
    expect(after).toHaveLength(4 + 2 * 55);
    expect(after.filter((m) => HumanMessage.isInstance(m)).at(-1)?.content).toBe(text(55));
  });

  it("R4.2 trim turned on for a thread stored as deltas: a retry first, then a turn — nothing lost before the cut, one checkpoint left", async () => {
    for (let i = 1; i <= 8; i++) {
      await runTurn(deps("delta-d"), { threadId: "t", text: text(i), messageId: `d-${i}` });
    }
    expect((await checkpoints("delta-d", "t")).filter((r) => r.full)).toHaveLength(0);
    const trim = { persist_trim_keep_groups: 6 };
    // An answered retry changes nothing, so it must not prune the rows the thread is built from.
    const retry = await runTurn(deps("delta-d", trim), {
      threadId: "t",
      text: text(8),
      messageId: "d-8",
    });
    expect(retry.replayed).toBe(true);
    expect(await stored("delta-d", "t")).toHaveLength(16);
    await runTurn(deps("delta-d", trim), { threadId: "t", text: text(9), messageId: "d-9" });
    const rows = await checkpoints("delta-d", "t");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.full).toBe(true);
    const { rows: writes } = await backend.pg.query(
      "SELECT 1 FROM checkpoint_writes WHERE thread_id = $1",
      [storageThreadId("delta-d", "t")],
    );
    expect(writes).toHaveLength(0);
    const kept = await stored("delta-d", "t");
    expect(kept.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual([
      text(7),
      text(8),
      text(9),
    ]);
  });

  it("a failed turn stores nothing: the model fails after the user message was prepared", async () => {
    await runTurn(deps("delta-e"), { threadId: "f", text: "first" });
    const before = await checkpoints("delta-e", "f");
    const failing = new (class extends OfflineChatModel {
      override async _generate(): Promise<never> {
        throw new Error("model is down");
      }
    })();
    await expect(
      runTurn(deps("delta-e", {}, failing), { threadId: "f", text: "second" }),
    ).rejects.toThrow();
    expect(await checkpoints("delta-e", "f")).toEqual(before);
    expect((await stored("delta-e", "f")).map((m) => m.content)).toHaveLength(2);
  });
});
