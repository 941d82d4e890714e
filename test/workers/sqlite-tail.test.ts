/**
 * The `sqlite` backend's live tail, transcript and FTS5 recall inside workerd (a Durable
 * Object's own SQLite storage; SqliteSaver, schema v3). As in thread-do.test.ts, a ThreadDO
 * is constructed over the object's real state with MEMORY_BACKEND=sqlite, and turns run
 * through its conversation role with the offline model.
 *
 * Read sizes are SQLite's own `rowsRead` counts of the statements a cold read runs, not
 * timings.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Conversation } from "../../src/durable/conversation.ts";
import { ThreadDO } from "../../src/durable/thread-do.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { TAIL_MARGIN } from "../../src/memory/live-tail.ts";
import { queryTerms } from "../../src/memory/recall/index.ts";
import { SUMMARY_JOB_MAX_MESSAGES } from "../../src/queue/summarize.ts";
import { SqliteSaver } from "../../src/store/sqlite-saver.ts";
import type { SqliteExec } from "../../src/store/sqlite-sql.ts";
import { sqliteThreadStore } from "../../src/store/sqlite-thread-store.ts";

const { THREADS: _threads, ...vars } = env;
const sqliteEnv = { ...vars, MEMORY_BACKEND: "sqlite" };
const AGENT = env.AGENT_ID;
const WINDOW = 4;
const config = resolveMemoryConfig({ env: sqliteEnv, runtime: { window_size: WINDOW } }).config;
const DOG = "제 강아지 이름은 초코예요";
const QUESTION = "우리 강아지 이름이 뭐였죠?";

function inSqliteObject<R>(
  name: string,
  fn: (object: ThreadDO, state: DurableObjectState) => Promise<R>,
): Promise<R> {
  return runInDurableObject(env.THREADS.getByName(name), (_runtime: ThreadDO, state) =>
    fn(new ThreadDO(state, sqliteEnv), state),
  );
}

function say(object: ThreadDO, threadId: string, text: string) {
  return object.turn(
    { threadId, contextId: threadId, messageId: crypto.randomUUID(), text },
    config,
  );
}

/** The object's SQLite, counting the rows its statements read. */
function counting(storage: DurableObjectStorage): SqliteExec & { rowsRead: number } {
  return {
    rowsRead: 0,
    exec(query, ...params) {
      const cursor = storage.sql.exec(query, ...params);
      const found = cursor.toArray();
      this.rowsRead += cursor.rowsRead;
      return { toArray: () => found };
    },
    transaction: (fn) => storage.transactionSync(fn),
  };
}

/** A cold turn's read (a new saver on the object's storage): rows read, messages held. */
async function coldRead(state: DurableObjectState, threadId: string, question?: string) {
  const sql = counting(state.storage);
  const saver = new SqliteSaver({ sql, agentId: AGENT });
  const store = sqliteThreadStore(saver);
  store.configure({ liveTail: true, keepLatestOnly: false });
  const before = sql.rowsRead;
  // A turn's load: the head, its memory rows, its messageId and (asked) recall, in one read.
  await store.load({
    threadId,
    messageId: crypto.randomUUID(),
    recall: question === undefined ? undefined : { terms: queryTerms(question), limit: 10 },
  });
  // The graph's read of the head is answered from the load's (no rows).
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  const messages = (tuple?.checkpoint.channel_values.messages ?? []) as unknown[];
  return { rowsRead: sql.rowsRead - before, held: messages.length };
}

/** A method of `target` called on `target` (a Proxy hands out its target's methods). */
function member(target: object, key: string | symbol): unknown {
  const value: unknown = Reflect.get(target, key);
  return typeof value === "function" ? value.bind(target) : value;
}

/**
 * The object's state with its SQLite counting the rows its statements read: a conversation
 * role built on it reads and writes the object's real storage.
 */
function countingState(state: DurableObjectState) {
  const reads = { rowsRead: 0 };
  const sql = {
    exec(query: string, ...params: SqlStorageValue[]) {
      const cursor = state.storage.sql.exec(query, ...params);
      const found = cursor.toArray();
      reads.rowsRead += cursor.rowsRead;
      return { toArray: () => found };
    },
  };
  const storage = new Proxy(state.storage, {
    get: (target, key) => (key === "sql" ? sql : member(target, key)),
  });
  const counted = new Proxy(state, {
    get: (target, key) => (key === "storage" ? storage : member(target, key)),
  });
  return { state: counted, reads };
}

const count = (state: DurableObjectState, query: string, ...params: string[]) =>
  Number(state.storage.sql.exec(query, ...params).toArray()[0]?.n ?? 0);

describe("sqlite backend in workerd: live tail, transcript and FTS5 recall", () => {
  it("FTS5 (external content, bm25()) is available in a Durable Object's SQLite", async () => {
    await inSqliteObject(`${AGENT}:fts5-probe`, async (_object, state) => {
      const sql = state.storage.sql;
      sql.exec("CREATE TABLE probe (id INTEGER PRIMARY KEY, t TEXT)");
      sql.exec(
        "CREATE VIRTUAL TABLE probe_fts USING fts5(t, content = 'probe', content_rowid = 'id')",
      );
      for (const [id, t] of [
        [1, "강아지 이름 초코"],
        [2, "날씨 점심"],
        [3, "강아지 산책"],
      ] as const) {
        sql.exec("INSERT INTO probe (id, t) VALUES (?, ?)", id, t);
        sql.exec("INSERT INTO probe_fts (rowid, t) VALUES (?, ?)", id, t);
      }
      const found = sql
        .exec(
          `SELECT rowid AS id FROM probe_fts WHERE probe_fts MATCH '"초코" OR "강아지"' ORDER BY bm25(probe_fts)`,
        )
        .toArray()
        .map((r) => Number(r.id));
      expect(found).toEqual([1, 3]);
    });
  });

  it("R3.1 64 turns: the cold object reads only the tail (rows read flat), recall quotes turn 1, another thread never; erase leaves no transcript, index or stats row", async () => {
    const name = `${AGENT}:tail-${crypto.randomUUID()}`;
    const turns = 64;
    let early = { rowsRead: 0, held: 0 };
    for (let i = 1; i <= turns; i++) {
      await inSqliteObject(name, async (object, state) => {
        await say(object, "long", i === 1 ? DOG : `오늘의 잡담 ${i}: 날씨와 점심 이야기`);
        if (i === 16) early = await coldRead(state, "long");
      });
    }
    await evictDurableObject(env.THREADS.getByName(name));
    await inSqliteObject(name, async (object, state) => {
      const late = await coldRead(state, "long");
      expect(late.held).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
      expect(late.held).toBe(early.held);
      // The checkpoint, its blobs, writes and memory: the same rows at turn 64 as at turn 16.
      expect(late.rowsRead).toBeLessThanOrEqual(early.rowsRead);
      const moved = count(
        state,
        "SELECT count(*) AS n FROM llamon_messages WHERE agent_id = ? AND thread_id = 'long'",
        AGENT,
      );
      expect(moved).toBe(2 * turns - late.held);
      expect(count(state, "SELECT count(*) AS n FROM checkpoints")).toBe(1);
      // Recall with the read: a rare word reads its few matches, not the thread.
      const recalled = await coldRead(state, "long", QUESTION);
      expect(recalled.rowsRead - late.rowsRead).toBeLessThan(moved);

      const answer = await say(object, "long", QUESTION);
      expect(answer.reply).toContain(`recalled: user: "${DOG}"`);
      // Another conversation in the same storage asks the same: nothing of "long" is quoted.
      for (let i = 1; i <= 8; i++) await say(object, "other", `다른 대화 ${i}: 운동 이야기`);
      expect((await say(object, "other", QUESTION)).reply).not.toContain("초코");

      await object.erase(AGENT, "long");
      const left = (table: string) =>
        count(state, `SELECT count(*) AS n FROM ${table} WHERE thread_id = 'long'`);
      expect(left("llamon_messages")).toBe(0);
      expect(left("llamon_recall_stats")).toBe(0);
      const otherRows = count(
        state,
        "SELECT count(*) AS n FROM llamon_messages WHERE thread_id = 'other' AND search_terms IS NOT NULL",
      );
      expect(count(state, "SELECT count(*) AS n FROM llamon_messages_fts_docsize")).toBe(otherRows);
      expect(
        state.storage.sql
          .exec(`SELECT rowid FROM llamon_messages_fts WHERE llamon_messages_fts MATCH '"초코"'`)
          .toArray(),
      ).toEqual([]);
      expect((await say(object, "long", QUESTION)).reply).not.toContain("recalled:");
    });
  });

  it("the thread view reads one page of the object's transcript and the summary job only its range, never the whole thread", async () => {
    await inSqliteObject(`${AGENT}:view-${crypto.randomUUID()}`, async (_runtime, state) => {
      const counted = countingState(state);
      // The conversation role (what ThreadDO's inspect and summarize call) on the counting state.
      const object = new Conversation(counted.state, sqliteEnv);
      const turns = 200;
      for (let i = 1; i <= turns; i++) {
        await object.turn(
          {
            threadId: "v",
            contextId: "v",
            messageId: crypto.randomUUID(),
            text: `turn ${i} about the garden`,
          },
          config,
        );
      }
      const moved = count(
        state,
        "SELECT count(*) AS n FROM llamon_messages WHERE agent_id = ? AND thread_id = 'v'",
        AGENT,
      );
      expect(moved).toBeGreaterThan(2 * turns - 2 * (WINDOW + TAIL_MARGIN));

      // The newest page: the tail and the few transcript rows before it.
      counted.reads.rowsRead = 0;
      const newest = await object.inspect(AGENT, "v", { limit: 10 });
      expect(counted.reads.rowsRead).toBeLessThan(moved / 4);
      expect(newest).toMatchObject({ from: 2 * turns - 10, older: true });
      expect(newest.archived.messages).toBe(moved);
      expect(newest.head.length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN);
      expect(newest.before.length + newest.headTo - newest.headFrom).toBe(10);
      // An older page: its ten transcript rows, by position.
      counted.reads.rowsRead = 0;
      const older = await object.inspect(AGENT, "v", { before: 100, limit: 10 });
      expect(counted.reads.rowsRead).toBeLessThan(moved / 4);
      expect(older).toMatchObject({ from: 90, older: true, headFrom: 0, headTo: 0 });
      expect(older.before.map((m) => m.data.content)).toEqual(
        Array.from({ length: 10 }, (_, k) =>
          (90 + k) % 2 === 0 ? `turn ${(90 + k) / 2 + 1} about the garden` : expect.any(String),
        ),
      );

      // The summary job (ThreadDO.summarize, as the queue consumer calls it): the head and
      // [covers, upto) of the transcript, at most SUMMARY_JOB_MAX_MESSAGES of it.
      counted.reads.rowsRead = 0;
      const job = { type: "summarize" as const, agent_id: AGENT, thread_id: "v", upto: moved };
      const first = await object.summarize(job);
      expect(first).toMatchObject({ status: "summarized", from: 0 });
      expect(first.covers).toBeLessThanOrEqual(SUMMARY_JOB_MAX_MESSAGES);
      expect(counted.reads.rowsRead).toBeLessThan(moved);
      const second = await object.summarize(job);
      expect(second).toMatchObject({ status: "summarized", from: first.covers, covers: moved });
    });
  });

  it("R4.2 R3.4 a trim that keeps part of the transcript counts what it deleted (DELETE … RETURNING in the object's SQLite)", async () => {
    await inSqliteObject(`${AGENT}:partial-trim`, async (object, state) => {
      for (let i = 1; i <= 20; i++) await say(object, "part", `message ${i} of a long chat`);
      const trimConfig = resolveMemoryConfig({
        env: sqliteEnv,
        runtime: { window_size: WINDOW, persist_trim_keep_groups: 12 },
      }).config;
      const trim = (text: string) =>
        object.turn(
          { threadId: "part", contextId: "part", messageId: crypto.randomUUID(), text },
          trimConfig,
        );
      const first = await trim("trim now");
      // 21 turns of 2 messages, 12 groups (12 messages) kept.
      expect(first.messageCount).toBe(12);
      const trimmed = state.storage.sql
        .exec("SELECT value FROM persistent_memory WHERE thread_id = 'part' AND key = 'trimmed'")
        .toArray()[0]?.value;
      expect(JSON.parse(String(trimmed))).toEqual({ messages: 30, conversation: 30 });
      // The view's positions stay those of the whole thread: the page starts after the 30
      // deleted messages, as on Postgres, so a page's positions name the same messages on both.
      const view = await object.inspect(AGENT, "part", { limit: 100 });
      expect(view).toMatchObject({ from: 30, older: false });
      expect(view.before.length + view.headTo - view.headFrom).toBe(12);
      expect(view.archived.messages + view.head.length).toBe(42);
      const next = await trim("and again");
      expect(next.signals?.thread_msgs).toBe(13);
      expect(next.messageCount).toBe(12);
    });
  });
});
