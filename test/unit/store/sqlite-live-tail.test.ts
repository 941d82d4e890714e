/**
 * The live tail, transcript and FTS5 recall of the `sqlite` backend (SqliteSaver on
 * node:sqlite, schema v3): the checkpoint keeps a bounded tail and older messages move to
 * `llamon_messages` in the same transaction; a fresh saver (a cold object) reads only the
 * tail; threads stored as deltas still load and move their old messages at most
 * MAX_MOVED_PER_TURN per turn; readers outside a run see transcript + tail; recall quotes an
 * early message from the FTS5 index; erase leaves no transcript or index row; another
 * thread is never recalled. workerd runs the same backend in test/workers/sqlite-tail.test.ts.
 */
import { DatabaseSync } from "node:sqlite";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { defineAgent } from "../../../src/agent/define.ts";
import { runTurn, type TurnDeps } from "../../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { createMemoryLogger } from "../../../src/log.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { MAX_MOVED_PER_TURN, TAIL_MARGIN } from "../../../src/memory/live-tail.ts";
import { readThreadMessages } from "../../../src/store/delta.ts";
import { SqliteSaver } from "../../../src/store/sqlite-saver.ts";
import { ensureSqliteSchema, rows, type SqliteExec } from "../../../src/store/sqlite-sql.ts";
import {
  SQ_RECALL_DF,
  SQ_RECALL_HITS,
  SQ_SELECT_TRANSCRIPT,
} from "../../../src/store/sqlite-transcript-sql.ts";
import { nodeSqlite } from "../../helpers/node-sqlite.ts";

const WINDOW = 6;
const agent = defineAgent({ name: "tail", description: "d", system: "You are helpful." });
const DOG = "제 강아지 이름은 초코예요";
const QUESTION = "우리 강아지 이름이 뭐였죠?";
const text = (i: number) => `message number ${String(i).padStart(4, "0")} of a conversation`;

function store() {
  const sql = nodeSqlite(new DatabaseSync(":memory:"));
  const turn = (
    threadId: string,
    message: string,
    options: { storage?: TurnDeps["messagesStorage"]; recall?: boolean; trim?: number } = {},
  ) =>
    runTurn(
      {
        agent,
        config: resolveMemoryConfig({
          code: {
            window_size: WINDOW,
            recall: options.recall ?? true,
            ...(options.trim === undefined ? {} : { persist_trim_keep_groups: options.trim }),
          },
        }).config,
        model: new OfflineChatModel(),
        log: createMemoryLogger(),
        messagesStorage: options.storage,
        // A new saver per turn: the object's state is its SQLite storage (a cold object).
        checkpointer: new SqliteSaver({ sql, agentId: "tail" }),
      },
      { threadId, text: message },
    );
  return { sql, turn };
}

async function whole(sql: SqliteExec, threadId: string): Promise<BaseMessage[]> {
  const saver = new SqliteSaver({ sql, agentId: "tail" });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

/** The head checkpoint's messages, as a cold turn's graph reads them. */
async function tail(sql: SqliteExec, threadId: string): Promise<BaseMessage[]> {
  const saver = new SqliteSaver({ sql, agentId: "tail" });
  saver.plainMessages = true;
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  return (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
}

const seqs = (sql: SqliteExec, threadId: string) =>
  rows<{ seq: number }>(
    sql,
    "SELECT seq FROM llamon_messages WHERE agent_id = 'tail' AND thread_id = ? ORDER BY seq",
    threadId,
  ).map((r) => Number(r.seq));

/** Entries of the FTS5 index itself (its shadow tables), not of the content table. */
const indexed = (sql: SqliteExec) =>
  Number(rows<{ n: number }>(sql, "SELECT count(*) AS n FROM llamon_messages_fts_docsize")[0]?.n);

const recalledLine = (reply: string) => reply.split("\n").find((l) => l.startsWith("recalled: "));

describe("sqlite live tail + transcript (schema v3)", () => {
  it("R3.1 the checkpoint keeps a bounded tail, the transcript the rest, in order; one checkpoint per thread", async () => {
    const { sql, turn } = store();
    const turns = 40;
    for (let i = 1; i <= turns; i++) {
      const out = await turn("long", text(i), { recall: false });
      if (i === turns) expect(out.signals).toMatchObject({ thread_msgs: 2 * turns - 1 });
    }
    const held = await tail(sql, "long");
    expect(held.length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
    expect(seqs(sql, "long")).toEqual(Array.from({ length: 2 * turns - held.length }, (_, i) => i));
    const all = await whole(sql, "long");
    expect(all).toHaveLength(2 * turns);
    expect(all.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual(
      Array.from({ length: turns }, (_, i) => text(i + 1)),
    );
    expect(all.every((m, i) => (i % 2 === 0 ? HumanMessage : AIMessage).isInstance(m))).toBe(true);
    const checkpoints = rows(
      sql,
      "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ?",
      "tail:long",
    );
    expect(checkpoints).toHaveLength(1);
    // The stored tail's blob is all a cold turn deserialises: it does not grow with the turns.
    const blobs = rows<{ n: number }>(
      sql,
      "SELECT count(*) AS n FROM checkpoint_blobs WHERE thread_id = ? AND channel = 'messages'",
      "tail:long",
    );
    expect(Number(blobs[0]?.n)).toBe(1);
  });

  it("R4.2 trim switched on for a thread with a transcript keeps only the newest groups overall, index rows included", async () => {
    const { sql, turn } = store();
    for (let i = 1; i <= 30; i++) await turn("trimmed", `${text(i)} zebra${i}`, { recall: false });
    expect(seqs(sql, "trimmed").length).toBeGreaterThan(0);
    expect(indexed(sql)).toBeGreaterThan(0);
    await turn("trimmed", "one more", { recall: false, trim: 4 });
    // Transcript + checkpoint hold exactly the 4 newest groups (here: single messages).
    const all = await whole(sql, "trimmed");
    expect(all.map((m) => m.content)).toEqual([
      expect.stringContaining("0030"),
      expect.any(String),
      "one more",
      expect.any(String),
    ]);
    expect(seqs(sql, "trimmed")).toEqual([]);
    expect(indexed(sql)).toBe(0);
    // The trimmed text can never be recalled.
    const out = await turn("trimmed", "what about zebra3?", { trim: 4 });
    expect(recalledLine(out.reply)).toBeUndefined();
  });

  it("R4.2 R3.4 a trim that keeps part of the transcript: thread_msgs and the turn's message count are the stored thread's", async () => {
    const { sql, turn } = store();
    for (let i = 1; i <= 30; i++) await turn("part", text(i), { recall: false });
    // Two rows of schema v3 (no conversation flag) count by their type.
    rows(
      sql,
      "UPDATE llamon_messages SET conversation = NULL WHERE thread_id = 'part' AND seq < 2",
    );
    const trimmed = await turn("part", text(31), { recall: false, trim: 20 });
    expect(await whole(sql, "part")).toHaveLength(20);
    expect(seqs(sql, "part").length).toBeGreaterThan(0);
    expect(seqs(sql, "part")[0]).toBeGreaterThan(0);
    expect(trimmed.messageCount).toBe(20);
    const count = rows<{ value: string }>(
      sql,
      "SELECT value FROM persistent_memory WHERE thread_id = 'part' AND key = 'trimmed'",
    );
    expect(JSON.parse(count[0]?.value ?? "null")).toEqual({ messages: 42, conversation: 42 });
    const next = await turn("part", text(32), { recall: false, trim: 20 });
    expect(next.signals?.thread_msgs).toBe(21);
    expect(next.messageCount).toBe(20);
    // Once the whole transcript went, so did the count.
    for (let i = 33; i <= 45; i++) await turn("part", text(i), { recall: false, trim: 20 });
    expect(seqs(sql, "part")).toEqual([]);
    expect(
      rows(sql, "SELECT 1 FROM persistent_memory WHERE thread_id = 'part' AND key = 'trimmed'"),
    ).toEqual([]);
    const last = await turn("part", text(46), { recall: false, trim: 20 });
    expect(last.signals?.thread_msgs).toBe(21);
    expect(last.messageCount).toBe(20);
  });

  it("a thread stored as deltas (before schema v3) loads whole and moves its old messages on its next turn", async () => {
    const { sql, turn } = store();
    for (let i = 1; i <= 20; i++) await turn("old", text(i), { storage: "delta", recall: false });
    const before = await whole(sql, "old");
    expect(before).toHaveLength(40);
    expect(seqs(sql, "old")).toEqual([]);
    const next = await turn("old", text(21), { recall: false });
    expect(next.reply).toContain(`previous user message: ${text(20)}`);
    expect(next.signals).toMatchObject({ thread_msgs: 41, sent_to_llm: WINDOW });
    const after = await whole(sql, "old");
    expect(after).toHaveLength(42);
    expect(after.slice(0, 40).map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect((await tail(sql, "old")).length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
    expect(seqs(sql, "old").length).toBeGreaterThan(30);
  });

  it(`a whole thread of 2,500 messages moves at most ${MAX_MOVED_PER_TURN} messages per turn`, async () => {
    const { sql, turn } = store();
    const messages = Array.from({ length: 2500 }, (_, i) =>
      i % 2 === 0
        ? new HumanMessage({ content: text(i / 2 + 1), id: `h${i}` })
        : new AIMessage({ content: `reply ${i}`, id: `a${i}` }),
    );
    const saver = new SqliteSaver({ sql, agentId: "tail" });
    await saver.put(
      { configurable: { thread_id: "big", checkpoint_ns: "" } },
      {
        ...emptyCheckpoint(),
        id: uuid6(-1),
        channel_values: { messages },
        channel_versions: { messages: 1 },
      },
      { source: "loop", step: 1, parents: {} },
      { messages: 1 },
    );
    await turn("big", "one", { recall: false });
    expect(seqs(sql, "big")).toHaveLength(MAX_MOVED_PER_TURN);
    await turn("big", "two", { recall: false });
    expect(seqs(sql, "big")).toHaveLength(2 * MAX_MOVED_PER_TURN);
    await turn("big", "three", { recall: false });
    expect((await tail(sql, "big")).length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
    const all = await whole(sql, "big");
    expect(all).toHaveLength(2506);
    expect(all.slice(0, 2500).map((m) => m.id)).toEqual(messages.map((m) => m.id));
  });

  it("recall quotes an early message from the FTS5 index; never another thread's; erase leaves no transcript or index row", async () => {
    const { sql, turn } = store();
    await turn("a", DOG);
    for (let i = 1; i <= 30; i++) await turn("a", `오늘의 잡담 ${i}: 날씨와 점심 이야기`);
    expect(seqs(sql, "a")).toContain(0);
    const answer = await turn("a", QUESTION);
    expect(recalledLine(answer.reply)).toContain(`user: "${DOG}"`);
    // Another thread in the same storage asks the same question: nothing of "a" is quoted.
    for (let i = 1; i <= 10; i++) await turn("b", `다른 대화 ${i}: 운동 이야기`);
    expect(recalledLine((await turn("b", QUESTION)).reply) ?? "").not.toContain("초코");
    expect(indexed(sql)).toBeGreaterThan(0);
    const saver = new SqliteSaver({ sql, agentId: "tail" });
    await saver.deleteThread("a");
    expect(seqs(sql, "a")).toEqual([]);
    const matches = rows(
      sql,
      `SELECT rowid FROM llamon_messages_fts WHERE llamon_messages_fts MATCH '"초코"'`,
    );
    expect(matches).toEqual([]);
    expect(indexed(sql)).toBe(seqs(sql, "b").length);
    // The per-thread statistics the triggers keep: none left for "a", exact for "b".
    const stats = rows<{ thread_id: string; docs: number; terms: number }>(
      sql,
      "SELECT thread_id, docs, terms FROM llamon_recall_stats",
    );
    const [truth] = rows<{ docs: number; terms: number }>(
      sql,
      "SELECT count(*) AS docs, sum(term_count) AS terms FROM llamon_messages WHERE thread_id = 'b' AND search_terms IS NOT NULL",
    );
    expect(stats.map((r) => [r.thread_id, Number(r.docs), Number(r.terms)])).toEqual([
      ["b", Number(truth?.docs), Number(truth?.terms)],
    ]);
    rows(sql, "INSERT INTO llamon_messages_fts (llamon_messages_fts) VALUES ('integrity-check')");
    const again = await turn("a", QUESTION);
    expect(recalledLine(again.reply)).toBeUndefined();
  });

  it("the recall search runs its full-text query once: FTS5 is the outer loop, each match looked up by id", () => {
    // With the thread's rows as the outer loop, SQLite re-runs the MATCH for every message:
    // CPU per turn then grows with the conversation.
    const db = new DatabaseSync(":memory:");
    ensureSqliteSchema(nodeSqlite(db));
    const plan = (query: string, ...params: (string | number)[]) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${query}`)
        .all(...params)
        .map((r) => String(r.detail));
    for (const found of [
      plan(SQ_RECALL_HITS, "a", "t", '"x"', 10),
      plan(SQ_RECALL_DF, "a", "t", '"x"'),
    ]) {
      expect(found[0]).toMatch(/^SCAN f VIRTUAL TABLE/);
      expect(found[1]).toMatch(/^SEARCH m USING INTEGER PRIMARY KEY/);
    }
  });

  it("a transcript range read stops at its end: the index range is bounded on both sides", () => {
    // `?4 IS NULL OR seq < ?4` left the upper bound out of the index: reading a page or a
    // summary job's range scanned from its start to the conversation's last message.
    const db = new DatabaseSync(":memory:");
    ensureSqliteSchema(nodeSqlite(db));
    const [detail] = db
      .prepare(`EXPLAIN QUERY PLAN ${SQ_SELECT_TRANSCRIPT}`)
      .all("a", "t", 90, 100)
      .map((r) => String(r.detail));
    expect(detail).toMatch(/^SEARCH llamon_messages USING INDEX .*seq>\? AND seq<\?\)$/);
  });
});
