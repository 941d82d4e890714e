/**
 * Interop with the official `@langchain/langgraph-checkpoint-postgres` PostgresSaver (issue
 * 18): threads in LangGraph's tables are shared. A back office graph on the official saver
 * writes, continues and deletes threads of the namespace `<agent>:<thread>`; llamon's turns
 * continue them without a conflict loop, and a thread the official saver deleted starts
 * fresh with nothing of the old conversation.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { officialSaver } from "../helpers/pg.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Interop agent");
const WINDOW = 2;
let official: PostgresSaver;

beforeAll(() => {
  official = officialSaver(backend.dsn);
});
afterAll(async () => {
  await official?.end();
});

function deps(agentId: string, model = new OfflineChatModel()) {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: WINDOW } }).config,
    model,
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
  } satisfies TurnDeps;
}

/** A back office graph on the official saver: it answers every message with "office: …". */
function officeGraph() {
  return new StateGraph(MessagesAnnotation)
    .addNode("office", (state) => ({
      messages: [new AIMessage(`office: ${String(state.messages.at(-1)?.content)}`)],
    }))
    .addEdge(START, "office")
    .addEdge("office", END)
    .compile({ checkpointer: official });
}

const office = (agentId: string, threadId: string, text: string) =>
  officeGraph().invoke(
    { messages: [new HumanMessage(text)] },
    { configurable: { thread_id: `${agentId}:${threadId}` } },
  );

async function whole(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

async function registry(agentId: string, threadId: string) {
  const { rows } = await backend.pg.query<{ head: string | null; count: number }>(
    `SELECT head_checkpoint_id AS head, message_count AS count FROM llamon_threads
      WHERE agent_id = $1 AND thread_id = $2`,
    [agentId, threadId],
  );
  return rows[0];
}

async function officialHead(agentId: string, threadId: string): Promise<string | undefined> {
  const tuple = await official.getTuple({ configurable: { thread_id: `${agentId}:${threadId}` } });
  return tuple?.checkpoint.id;
}

async function countRows(table: string, agentId: string, threadId: string): Promise<number> {
  const { rows } = await backend.pg.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${table} WHERE agent_id = $1 AND thread_id = $2`,
    [agentId, threadId],
  );
  return Number(rows[0]?.n ?? 0);
}

/** The text of every message the model was sent, over all its calls. */
const sentTexts = (model: OfflineChatModel): string[] =>
  model.calls.flatMap((c) => c.messages.map((m) => String(m.content)));

describe("interop with the official PostgresSaver", () => {
  it("llamon → official: the official saver reads the live tail of a llamon thread", async () => {
    for (let i = 1; i <= 3; i++) await runTurn(deps("io-a"), { threadId: "t", text: `hello ${i}` });
    const tuple = await official.getTuple({ configurable: { thread_id: "io-a:t" } });
    const values = tuple?.checkpoint.channel_values as { messages: BaseMessage[] };
    const ours = await whole("io-a", "t");
    expect(ours).toHaveLength(6);
    expect(values.messages.map((m) => m.id)).toEqual(
      ours.slice(-values.messages.length).map((m) => m.id),
    );
  });

  it("official → llamon: a thread the official saver wrote is read and continued by a turn, and registered", async () => {
    await office("io-b", "t", "first from office");
    await office("io-b", "t", "second from office");
    expect(await registry("io-b", "t")).toBeUndefined();
    const model = new OfflineChatModel();
    backend.proxy.resetStats();
    const result = await runTurn(deps("io-b", model), { threadId: "t", text: "now llamon" });
    // The repair is inside the turn's two batches: no extra round trip, no conflict loop.
    expect(backend.proxy.stats.requests).toBe(2);
    expect(result.merges).toBe(0);
    // The window (2 messages) shows the official thread's last answer with the new message.
    expect(sentTexts(model)).toEqual(
      expect.arrayContaining(["office: second from office", "now llamon"]),
    );
    const messages = await whole("io-b", "t");
    expect(messages.map((m) => String(m.content)).slice(0, 5)).toEqual([
      "first from office",
      "office: first from office",
      "second from office",
      "office: second from office",
      "now llamon",
    ]);
    expect(await registry("io-b", "t")).toEqual({
      head: await officialHead("io-b", "t"),
      count: 6,
    });
  });

  it("official write in the middle of a llamon thread: later turns continue from it (stale registry repaired)", async () => {
    for (let i = 1; i <= 3; i++) await runTurn(deps("io-c"), { threadId: "t", text: `hello ${i}` });
    await office("io-c", "t", "back office note");
    const model = new OfflineChatModel();
    for (let i = 4; i <= 5; i++) {
      backend.proxy.resetStats();
      const result = await runTurn(deps("io-c", model), { threadId: "t", text: `hello ${i}` });
      expect(backend.proxy.stats.requests).toBe(2);
      expect(result.merges).toBe(0);
    }
    expect(sentTexts(model)).toContain("office: back office note");
    const texts = (await whole("io-c", "t")).map((m) => String(m.content));
    expect(texts).toHaveLength(12);
    expect(texts.filter((t) => t.startsWith("hello"))).toEqual([
      "hello 1",
      "hello 2",
      "hello 3",
      "hello 4",
      "hello 5",
    ]);
    expect(texts.indexOf("back office note")).toBe(6);
    expect(await registry("io-c", "t")).toEqual({
      head: await officialHead("io-c", "t"),
      count: 12,
    });
  });

  it("official deleteThread: conversation recall quotes nothing of the deleted conversation", async () => {
    for (let i = 1; i <= 5; i++)
      await runTurn(deps("io-r"), { threadId: "t", text: `my locker code is zebra${i}` });
    expect(await countRows("llamon_messages", "io-r", "t")).toBeGreaterThan(0);
    await official.deleteThread("io-r:t");
    const model = new OfflineChatModel();
    // The question shares its words with the deleted messages, which are still in the
    // transcript when this turn reads (the turn's write deletes them).
    await runTurn(deps("io-r", model), { threadId: "t", text: "what is my locker code?" });
    const prompt = JSON.stringify(model.calls.map((c) => c.messages));
    expect(prompt).not.toContain("zebra");
    expect(prompt).not.toContain("[이전 대화 발췌]");
    expect(await countRows("llamon_messages", "io-r", "t")).toBe(0);
  });

  it("official deleteThread: the next turn starts fresh, nothing of the old conversation leaks", async () => {
    for (let i = 1; i <= 5; i++)
      await runTurn(deps("io-d"), { threadId: "t", text: `secret ${i}` });
    expect(await countRows("llamon_messages", "io-d", "t")).toBeGreaterThan(0);
    expect(await countRows("persistent_memory", "io-d", "t")).toBeGreaterThan(0);
    await official.deleteThread("io-d:t");
    const model = new OfflineChatModel();
    backend.proxy.resetStats();
    const result = await runTurn(deps("io-d", model), { threadId: "t", text: "fresh start" });
    expect(backend.proxy.stats.requests).toBe(2);
    expect(result.merges).toBe(0);
    const prompt = JSON.stringify(model.calls.map((c) => c.messages));
    expect(prompt).not.toContain("secret");
    expect(sentTexts(model).filter((t) => t === "fresh start")).toHaveLength(1);
    expect(await countRows("llamon_messages", "io-d", "t")).toBe(0);
    // Long enough to archive again: the old transcript rows are gone, not in the way.
    for (let i = 1; i <= 5; i++) await runTurn(deps("io-d"), { threadId: "t", text: `new ${i}` });
    const texts = (await whole("io-d", "t")).map((m) => String(m.content));
    expect(texts.some((t) => t.includes("secret"))).toBe(false);
    expect(texts.filter((t) => t.startsWith("new") || t === "fresh start")).toHaveLength(6);
    expect(await registry("io-d", "t")).toEqual({
      head: await officialHead("io-d", "t"),
      count: 12,
    });
  });

  it("concurrent turns from both savers: every turn lands or fails cleanly, the thread goes on", async () => {
    await runTurn(deps("io-e"), { threadId: "t", text: "start" });
    const outcomes = await Promise.allSettled([
      runTurn(deps("io-e"), { threadId: "t", text: "llamon 1", messageId: "l1" }),
      office("io-e", "t", "office 1"),
      runTurn(deps("io-e"), { threadId: "t", text: "llamon 2", messageId: "l2" }),
      office("io-e", "t", "office 2"),
    ]);
    for (const o of outcomes) if (o.status === "rejected") throw o.reason;
    const after = await runTurn(deps("io-e"), { threadId: "t", text: "after" });
    expect(after.merges).toBe(0);
    const texts = (await whole("io-e", "t")).map((m) => String(m.content));
    // llamon's turns are never lost or duplicated (its merge keeps both sides).
    for (const t of ["start", "llamon 1", "llamon 2", "after"])
      expect(texts.filter((x) => x === t)).toHaveLength(1);
    expect(await registry("io-e", "t")).toEqual({
      head: await officialHead("io-e", "t"),
      count: texts.length,
    });
  });

  it("an official write that commits while a llamon turn runs: the turn merges onto it, neither side is lost", async () => {
    await runTurn(deps("io-g"), { threadId: "t", text: "start" });
    // The back office writes while the turn runs: after its read, before its write.
    let interleaved = false;
    class Interleaved extends NeonSaver {
      override async flushTurn(...args: Parameters<NeonSaver["flushTurn"]>) {
        if (!interleaved) {
          interleaved = true;
          await office("io-g", "t", "office meanwhile");
        }
        return super.flushTurn(...args);
      }
    }
    const result = await runTurn(
      {
        ...deps("io-g"),
        checkpointer: new Interleaved({ db: backend.neon, agentId: "io-g", guardHead: true }),
      },
      { threadId: "t", text: "llamon" },
    );
    expect(result.merges).toBe(1);
    const texts = (await whole("io-g", "t")).map((m) => String(m.content));
    expect(texts.slice(2, 5)).toEqual(["office meanwhile", "office: office meanwhile", "llamon"]);
    expect(texts).toHaveLength(6);
  });

  it("transcript rows left by a turn whose checkpoint lost the head to another saver do not block the thread", async () => {
    for (let i = 1; i <= 5; i++) await runTurn(deps("io-f"), { threadId: "t", text: `hello ${i}` });
    const tuple = await official.getTuple({ configurable: { thread_id: "io-f:t" } });
    const archived = (tuple?.checkpoint.channel_values.archived as { messages: number } | undefined)
      ?.messages;
    expect(archived).toBeGreaterThan(0);
    // What the losing branch had moved to the transcript, past the head's archived count.
    await backend.pg.query(
      `INSERT INTO llamon_messages (agent_id, thread_id, seq, message)
       SELECT 'io-f', 't', s, '{"lost": true}'::jsonb FROM generate_series($1::int, $1::int + 3) AS s`,
      [archived ?? 0],
    );
    for (let i = 6; i <= 7; i++) await runTurn(deps("io-f"), { threadId: "t", text: `hello ${i}` });
    const texts = (await whole("io-f", "t")).map((m) => String(m.content));
    expect(texts.filter((t) => t.startsWith("hello"))).toHaveLength(7);
    expect(texts).toHaveLength(14);
  });
});
