/**
 * The live tail + transcript on Postgres (memory/live-tail.ts, store/transcript.ts):
 * a turn's checkpoint holds a bounded tail, older messages move to `llamon_messages` in the
 * same atomic write, the whole thread reads back as transcript ++ tail, threads stored as
 * deltas before still load (their old messages move on the first write), concurrent turns
 * lose and duplicate nothing, and erase covers the transcript.
 *
 * Sizes are bytes at the Neon-protocol proxy (sent and received), not timings.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { buildAgentGraph, TURN_NODE } from "../../src/agent/turn/graph.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { TAIL_MARGIN } from "../../src/memory/live-tail.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { bulkTranscript } from "../helpers/backend.ts";
import { officialSaver } from "../helpers/pg.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Tail agent");
const WINDOW = 6;

function deps(
  agentId: string,
  options: { model?: OfflineChatModel; storage?: TurnDeps["messagesStorage"] } = {},
) {
  return {
    agent,
    // Recall off: its read grows with the matches up to its own bound (every message here
    // shares words), which recall-postgres.test.ts covers; this file measures the tail.
    config: resolveMemoryConfig({ code: { window_size: WINDOW, recall: false } }).config,
    model: options.model ?? new OfflineChatModel(),
    log: createMemoryLogger(),
    messagesStorage: options.storage,
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
  } satisfies TurnDeps;
}

const text = (i: number) => `message number ${String(i).padStart(4, "0")} of a conversation`;

async function whole(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

async function transcriptSeqs(agentId: string, threadId: string): Promise<number[]> {
  const { rows } = await backend.pg.query<{ seq: string }>(
    "SELECT seq FROM llamon_messages WHERE agent_id = $1 AND thread_id = $2 ORDER BY seq",
    [agentId, threadId],
  );
  return rows.map((r) => Number(r.seq));
}

/** The head checkpoint's messages, as the graph of a turn reads them. */
async function tail(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  return (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
}

function expectConversation(messages: readonly BaseMessage[], turns: number): void {
  expect(messages).toHaveLength(2 * turns);
  expect(messages.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual(
    Array.from({ length: turns }, (_, i) => text(i + 1)),
  );
  expect(messages.every((m, i) => (i % 2 === 0 ? HumanMessage : AIMessage).isInstance(m))).toBe(
    true,
  );
}

describe("live tail + transcript", () => {
  it("R3.1 R2.4 the checkpoint keeps a bounded tail, the transcript the rest; reads, writes and round trips stay flat", async () => {
    const turns = 60;
    const sent: number[] = [];
    const received: number[] = [];
    let last: Awaited<ReturnType<typeof runTurn>> | undefined;
    for (let i = 1; i <= turns; i++) {
      backend.proxy.resetStats();
      last = await runTurn(deps("tail-a"), { threadId: "long", text: text(i) });
      expect(backend.proxy.stats.requests, `turn ${i}`).toBeLessThanOrEqual(2);
      sent.push(backend.proxy.stats.requestBytes);
      received.push(backend.proxy.stats.responseBytes);
    }
    const held = await tail("tail-a", "long");
    expect(held.length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
    expect(await transcriptSeqs("tail-a", "long")).toEqual(
      Array.from({ length: 2 * turns - held.length }, (_, i) => i),
    );
    expectConversation(await whole("tail-a", "long"), turns);
    // Older checkpoints are pruned with each write: the head is all a thread keeps.
    const { rows: heads } = await backend.pg.query(
      "SELECT checkpoint_id FROM checkpoints WHERE thread_id = $1",
      ["tail-a:long"],
    );
    expect(heads).toHaveLength(1);
    // R3.4: the line counts the whole thread, not the tail.
    expect(last?.signals).toMatchObject({ thread_msgs: 2 * turns - 1, has_prior: true });
    const { rows } = await backend.pg.query<{ message_count: number }>(
      "SELECT message_count FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
      ["tail-a", "long"],
    );
    expect(Number(rows[0]?.message_count)).toBe(2 * turns);
    // Once the tail is full (turn 6 at window 6), a turn reads and writes the same amount.
    const at = (xs: number[], turn: number) => xs[turn - 1] as number;
    expect(at(received, turns)).toBeLessThanOrEqual(1.5 * at(received, 10));
    expect(at(sent, turns)).toBeLessThanOrEqual(1.5 * at(sent, 10));
  });

  it("a thread stored as deltas (before the live tail) loads whole and moves its old messages on the first write", async () => {
    for (let i = 1; i <= 30; i++) {
      await runTurn(deps("tail-b", { storage: "delta" }), { threadId: "old", text: text(i) });
    }
    const before = await whole("tail-b", "old");
    expectConversation(before, 30);
    expect(await transcriptSeqs("tail-b", "old")).toEqual([]);

    const model = new OfflineChatModel();
    const next = await runTurn(deps("tail-b", { model }), { threadId: "old", text: text(31) });
    expect(next.reply).toContain(`previous user message: ${text(30)}`);
    expect(next.signals).toMatchObject({ thread_msgs: 61, sent_to_llm: WINDOW });
    const after = await whole("tail-b", "old");
    expectConversation(after, 31);
    expect(after.slice(0, 60).map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect((await tail("tail-b", "old")).length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
    expect((await transcriptSeqs("tail-b", "old")).length).toBeGreaterThan(40);
  });

  it("R2.4 concurrent turns on one conversation: every message once, positions contiguous", async () => {
    for (let i = 1; i <= 8; i++) {
      await runTurn(deps("tail-c"), { threadId: "busy", text: text(i) });
    }
    const parallel = 12;
    const results = await Promise.all(
      Array.from({ length: parallel }, (_, k) =>
        runTurn(deps("tail-c"), { threadId: "busy", text: `parallel ${k}`, messageId: `p-${k}` }),
      ),
    );
    expect(results.some((r) => r.merges > 0)).toBe(true);
    // Under contention no reply was computed as if the thread were empty — each saw
    // at least the 8 turns committed before the burst.
    for (const r of results) {
      expect(r.signals?.has_prior).toBe(true);
      expect(r.signals?.thread_msgs).toBeGreaterThanOrEqual(17);
    }
    const messages = await whole("tail-c", "busy");
    expect(messages).toHaveLength(2 * (8 + parallel));
    const ids = messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let k = 0; k < parallel; k++) expect(ids).toContain(`p-${k}`);
    const seqs = await transcriptSeqs("tail-c", "busy");
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
    expect(seqs.length + (await tail("tail-c", "busy")).length).toBe(messages.length);

    // Every later turn sees what was committed before it.
    const after = await runTurn(deps("tail-c"), { threadId: "busy", text: "after" });
    expect(after.signals?.thread_msgs).toBe(messages.length + 1);
  });

  it("a retried messageId answers once, from the tail", async () => {
    for (let i = 1; i <= 10; i++) {
      await runTurn(deps("tail-d"), { threadId: "r", text: text(i), messageId: `m-${i}` });
    }
    const retry = await runTurn(deps("tail-d"), {
      threadId: "r",
      text: text(10),
      messageId: "m-10",
    });
    expect(retry.replayed).toBe(true);
    expectConversation(await whole("tail-d", "r"), 10);
  });

  it("a conversation of 100,000 messages still answers, reading only its tail (no response limit)", async () => {
    for (let i = 1; i <= 10; i++)
      await runTurn(deps("tail-f"), { threadId: "huge", text: text(i) });
    const held = await tail("tail-f", "huge");
    const archived = 100_000 - held.length;
    // The transcript is bulk-inserted (LangChain's serialised form, built in SQL) and the
    // head's prefix says so — written through LangGraph's own updateState.
    await bulkTranscript(backend.pg, "tail-f", "huge", archived);
    const saver = new NeonSaver({ db: backend.neon, agentId: "tail-f" });
    const graph = buildAgentGraph({
      ...deps("tail-f"),
      checkpointer: saver,
      memory: () => undefined,
      userMessageId: "unused",
      messagesStorage: "tail",
    });
    const config = { configurable: { thread_id: "huge" } };
    await graph.updateState(
      config,
      { archived: { messages: archived, conversation: archived, ai: true } },
      TURN_NODE,
    );

    backend.proxy.resetStats();
    const result = await runTurn(deps("tail-f"), { threadId: "huge", text: "still there?" });
    expect(backend.proxy.stats.requests).toBeLessThanOrEqual(2);
    expect(backend.proxy.stats.responseBytes).toBeLessThan(64 * 1024);
    expect(result.reply).toContain("you said: still there?");
    expect(result.signals?.thread_msgs).toBe(100_001);
    // The whole conversation stays readable by range (Studio, the summary job).
    const middle = await saver.readTranscript("huge", 50_000, 50_002);
    expect(middle.map((m) => [m.getType(), m.content, m.id])).toEqual([
      ["human", "bulk message 50000", "bulk-50000"],
      ["ai", "bulk message 50001", "bulk-50001"],
    ]);
  });

  it("R4.1 the official PostgresSaver reads a llamon thread: it sees the live tail and the archived prefix", async () => {
    for (let i = 1; i <= 12; i++) await runTurn(deps("tail-g"), { threadId: "t", text: text(i) });
    const official = officialSaver(backend.dsn);
    try {
      const tuple = await official.getTuple({ configurable: { thread_id: "tail-g:t" } });
      const values = tuple?.checkpoint.channel_values as {
        messages: BaseMessage[];
        archived: { messages: number };
      };
      const ours = await tail("tail-g", "t");
      expect(values.messages.map((m) => m.id)).toEqual(ours.map((m) => m.id));
      expect(values.archived.messages + values.messages.length).toBe(24);
      expect(values.messages.at(-1)?.getType()).toBe("ai");
    } finally {
      await official.end();
    }
  });

  it("R4.3 erase deletes the transcript too", async () => {
    for (let i = 1; i <= 12; i++)
      await runTurn(deps("tail-e"), { threadId: "gone", text: text(i) });
    expect((await transcriptSeqs("tail-e", "gone")).length).toBeGreaterThan(0);
    await new NeonSaver({ db: backend.neon, agentId: "tail-e" }).deleteThread("gone");
    expect(await transcriptSeqs("tail-e", "gone")).toEqual([]);
    expect(await whole("tail-e", "gone")).toEqual([]);
  });
});
