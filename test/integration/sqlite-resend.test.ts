/**
 * R11.2 on the Durable Object backends' savers, in Node: SqliteSaver on node:sqlite (the same
 * synchronous SQL a Durable Object's storage runs) and InMemorySaver. A messageId is stored and
 * answered once for the life of the thread; a resend at any distance gets the stored answer
 * with no model call and nothing written; a resend of a trimmed turn (R4.2) is refused.
 */
import { DatabaseSync } from "node:sqlite";
import type { BaseMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { isLlamonError } from "../../src/errors.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import type { ThreadSaver } from "../../src/store/do-memory.ts";
import { InMemorySaver } from "../../src/store/memory-saver.ts";
import { SqliteSaver } from "../../src/store/sqlite-saver.ts";
import { ensureSqliteSchema, rows } from "../../src/store/sqlite-sql.ts";
import { caught } from "../helpers/caught.ts";
import { nodeSqlite } from "../helpers/node-sqlite.ts";

let database: DatabaseSync;
let sql: ReturnType<typeof nodeSqlite>;
beforeAll(() => {
  database = new DatabaseSync(":memory:");
  sql = nodeSqlite(database);
});
afterAll(() => {
  database.close();
});

const agent = defineAgent({ name: "Resend agent", description: "for tests", system: "Hi." });

function deps(saver: ThreadSaver, model: OfflineChatModel, code: Record<string, unknown> = {}) {
  const config = resolveMemoryConfig({ code: { recall: false, ...code } }).config;
  // As the conversation object does for the turn's config (durable/conversation.ts).
  saver.keepLatestOnly = config.persist_trim_keep_groups !== undefined;
  return {
    agent,
    config,
    model,
    log: createMemoryLogger(),
    checkpointer: saver,
    maxMergeAttempts: 3,
  } satisfies TurnDeps;
}

async function whole(saver: ThreadSaver, threadId: string): Promise<BaseMessage[]> {
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

async function headId(saver: ThreadSaver): Promise<string | undefined> {
  return (await saver.getTuple({ configurable: { thread_id: "t" } }))?.checkpoint.id;
}

const savers = {
  sqlite: (agentId: string) => new SqliteSaver({ sql, agentId }),
  in_memory: (agentId: string) => new InMemorySaver({ agentId }),
} as const;

for (const [backend, make] of Object.entries(savers)) {
  describe(`R11.2 exactly once per messageId (${backend} saver)`, () => {
    for (const { window, later } of [
      { window: 1, later: 3 },
      { window: 20, later: 25 },
    ]) {
      it(`R11.2 window ${window}: a resend ${later} turns later gets the stored answer, no model call, nothing written`, async () => {
        const saver = make(`${backend}-w${window}`);
        const model = new OfflineChatModel();
        const turn = (text: string, messageId: string) =>
          runTurn(deps(saver, model, { window_size: window }), { threadId: "t", text, messageId });
        const first = await turn("the first question", "x");
        for (let i = 1; i <= later; i++) await turn(`later question ${i}`, `m-${i}`);
        const before = await whole(saver, "t");
        const head = await headId(saver);
        const calls = model.calls.length;
        const resend = await turn("sent again", "x");
        expect(model.calls.length).toBe(calls);
        expect(resend.replayed).toBe(true);
        expect(resend.reply).toBe(first.reply);
        expect(resend.added.map((m) => m.id)).toEqual(first.added.map((m) => m.id));
        expect(resend.messageCount).toBe(2 * (later + 1));
        const after = await whole(saver, "t");
        expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
        expect(after.filter((m) => m.id === "x")).toHaveLength(1);
        // Nothing was written: the head is the one before the resend.
        expect(await headId(saver)).toBe(head);
        if (backend === "sqlite") {
          // The first turn had left the live tail for the transcript.
          const [moved] = rows<{ n: number }>(
            sql,
            "SELECT count(*) AS n FROM llamon_messages WHERE agent_id = ? AND json_extract(message, '$.kwargs.id') = 'x'",
            `${backend}-w${window}`,
          );
          expect(moved?.n).toBe(1);
        }
      });
    }

    it("R11.2 R4.2 with trim, a resend of a trimmed turn is refused (non-retryable), with no model call and nothing stored", async () => {
      const saver = make(`${backend}-trim`);
      const model = new OfflineChatModel();
      const turn = (text: string, messageId: string) =>
        runTurn(deps(saver, model, { persist_trim_keep_groups: 2 }), {
          threadId: "t",
          text,
          messageId,
        });
      await turn("first", "x");
      for (let i = 1; i <= 4; i++) await turn(`later ${i}`, `m-${i}`);
      expect((await turn("later 4", "m-4")).replayed).toBe(true);
      const before = await whole(saver, "t");
      expect(before.some((m) => m.id === "x")).toBe(false);
      const calls = model.calls.length;
      const error = await caught(turn("first, again", "x"));
      expect(isLlamonError(error, "MESSAGE_ALREADY_ANSWERED")).toBe(true);
      expect(model.calls.length).toBe(calls);
      expect((await whole(saver, "t")).map((m) => m.id)).toEqual(before.map((m) => m.id));
    });

    it("R11.2 R11.1 erasing the conversation forgets its ids: the same id is a new message", async () => {
      const saver = make(`${backend}-erase`);
      const model = new OfflineChatModel();
      const turn = (text: string, messageId: string) =>
        runTurn(deps(saver, model, { window_size: 1 }), { threadId: "t", text, messageId });
      await turn("hello", "x");
      for (let i = 1; i <= 3; i++) await turn(`later ${i}`, `m-${i}`);
      await saver.deleteThread("t");
      const again = await turn("hello", "x");
      expect(again.replayed).toBe(false);
      expect((await whole(saver, "t")).map((m) => m.id)).toEqual(["x", expect.any(String)]);
    });
  });
}

describe("R11.2 sqlite schema v5", () => {
  it("R11.2 lists the user messages already in transcripts, so a thread stored before v5 answers their resends once", async () => {
    const db = new DatabaseSync(":memory:");
    const v4 = nodeSqlite(db);
    const saver = new SqliteSaver({ sql: v4, agentId: "legacy" });
    const model = new OfflineChatModel();
    const turn = (text: string, messageId: string) =>
      runTurn(deps(saver, model, { window_size: 1 }), { threadId: "t", text, messageId });
    const first = await turn("old question", "x");
    for (let i = 1; i <= 3; i++) await turn(`later ${i}`, `m-${i}`);
    // As stored before v5: no ids.
    rows(v4, "DROP TABLE llamon_message_ids");
    rows(v4, "DELETE FROM llamon_schema WHERE v >= 5");
    const v5 = nodeSqlite(db);
    ensureSqliteSchema(v5);
    expect(rows(v5, "SELECT max(v) AS v FROM llamon_schema")).toEqual([{ v: 5 }]);
    expect(
      rows(v5, "SELECT message_id, seq, seq_end FROM llamon_message_ids ORDER BY seq")[0],
    ).toEqual({ message_id: "x", seq: 0, seq_end: 2 });
    const upgraded = new SqliteSaver({ sql: v5, agentId: "legacy" });
    const calls = model.calls.length;
    const resend = await runTurn(deps(upgraded, model, { window_size: 1 }), {
      threadId: "t",
      text: "old question",
      messageId: "x",
    });
    expect(model.calls.length).toBe(calls);
    expect(resend.reply).toBe(first.reply);
    db.close();
  });
});
