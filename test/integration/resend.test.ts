/**
 * R11.2 on the postgres backend: a `messageId` is stored and answered once for the life of the
 * thread. A resend at any distance — long after its turn left the live tail for the transcript —
 * gets the stored answer: no model call, nothing written, one read. Trim (R4.2) deletes turns:
 * a resend of a trimmed turn is refused, never answered a second time. Erase forgets the ids.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { isLlamonError } from "../../src/errors.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { postgresThreadStore } from "../../src/store/saver-thread-store.ts";
import type { ThreadStore } from "../../src/store/thread-store.ts";
import { caught } from "../helpers/caught.ts";
import { GatedModel } from "../helpers/gated-model.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Resend agent");
const echo = tool(async ({ text }: { text: string }) => `echo:${text}`, {
  name: "echo",
  description: "echo the text",
  schema: z.object({ text: z.string() }),
});

function deps(
  agentId: string,
  model: OfflineChatModel,
  code: Record<string, unknown> = {},
  overrides: Partial<TurnDeps> = {},
): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({ code: { recall: false, ...code } }).config,
    model,
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
    ...overrides,
  };
}

async function whole(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

/** Where the messages of a thread are: transcript rows and the head checkpoint's tail. */
async function stored(agentId: string, threadId: string, id: string) {
  const { rows } = await backend.pg.query<{ n: string; x: string }>(
    `SELECT count(*) AS n, count(*) FILTER (WHERE message->'kwargs'->>'id' = $3) AS x
       FROM llamon_messages WHERE agent_id = $1 AND thread_id = $2`,
    [agentId, threadId, id],
  );
  const saver = new NeonSaver({ db: backend.neon, agentId });
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  const tail = (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
  const { rows: registry } = await backend.pg.query<{ count: number }>(
    "SELECT message_count AS count FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
    [agentId, threadId],
  );
  return {
    transcript: Number(rows[0]?.n ?? 0),
    tail: tail.length,
    /** How many stored copies of message `id` there are. */
    copies: Number(rows[0]?.x ?? 0) + tail.filter((m) => m.id === id).length,
    registry: Number(registry[0]?.count),
  };
}

describe("R11.2 exactly once per messageId (postgres)", () => {
  it("R2.4 R11.2 turns on two threads of one shared NeonSaver without guardHead: the first to end leaves the other's writes held", async () => {
    const agentId = "resend-shared";
    const saver = new NeonSaver({ db: backend.neon, agentId });
    const turn = (threadId: string, messageId: string, model: OfflineChatModel) =>
      runTurn(deps(agentId, model, {}, { checkpointer: saver }), {
        threadId,
        text: `question ${messageId}`,
        messageId,
      });
    // Turn a begins first; turn b begins while a waits in its model call; a ends before b.
    const gateA = new GatedModel();
    const gateB = new GatedModel();
    const a = turn("a", "a-1", gateA);
    await gateA.reached;
    const b = turn("b", "b-1", gateB);
    await gateB.reached;
    gateA.release();
    await a;
    gateB.release();
    await b;
    const { rows } = await backend.pg.query<{ thread_id: string; message_id: string }>(
      "SELECT thread_id, message_id FROM llamon_message_ids WHERE agent_id = $1 ORDER BY thread_id",
      [agentId],
    );
    expect(rows).toEqual([
      { thread_id: "a", message_id: "a-1" },
      { thread_id: "b", message_id: "b-1" },
    ]);
    // The saver is as its maker left it: it writes at once outside a turn.
    expect(saver.turnWrites.holding).toBe(false);
  });

  it("R11.2 a turn on a NeonSaver made without guardHead still writes its message id and memory rows with its checkpoint", async () => {
    const agentId = "resend-unguarded";
    const model = new OfflineChatModel();
    // A caller's own saver, as the SDK allows: no compare-and-set, no deferWrites option.
    const turn = (text: string, messageId: string) =>
      runTurn(
        deps(agentId, model, {}, { checkpointer: new NeonSaver({ db: backend.neon, agentId }) }),
        { threadId: "t", text, messageId },
      );
    const first = await turn("the first question", "x");
    await turn("a second question", "y");
    const { rows: ids } = await backend.pg.query<{ message_id: string }>(
      "SELECT message_id FROM llamon_message_ids WHERE agent_id = $1 AND thread_id = $2 ORDER BY seq",
      [agentId, "t"],
    );
    expect(ids.map((r) => r.message_id)).toEqual(["x", "y"]);
    const { rows: memory } = await backend.pg.query<{ key: string }>(
      "SELECT key FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2",
      [agentId, "t"],
    );
    expect(memory.map((r) => r.key)).toContain("last_turn");
    const calls = model.calls.length;
    const resend = await turn("the first question, sent again", "x");
    expect(resend.replayed).toBe(true);
    expect(resend.reply).toBe(first.reply);
    expect(model.calls.length).toBe(calls);
    expect(await whole(agentId, "t")).toHaveLength(4);
  });

  for (const { window, later } of [
    { window: 1, later: 3 },
    { window: 20, later: 25 },
  ]) {
    it(`R11.2 window ${window}: a resend ${later} turns later gets the stored answer, no model call, nothing written, one read`, async () => {
      const agentId = `resend-w${window}`;
      const model = new OfflineChatModel();
      const turn = (text: string, messageId: string) =>
        runTurn(deps(agentId, model, { window_size: window }), { threadId: "t", text, messageId });
      const first = await turn("the first question", "x");
      for (let i = 1; i <= later; i++) {
        backend.proxy.resetStats();
        await turn(`later question ${i}`, `m-${i}`);
        // A normal turn still reads once and writes once.
        expect(backend.proxy.stats.requests, `turn ${i}`).toBe(2);
      }
      const before = await stored(agentId, "t", "x");
      // The first turn is out of the live tail: only the transcript has it.
      expect(before.transcript).toBeGreaterThanOrEqual(2);
      expect(before).toMatchObject({ copies: 1, registry: 2 * (later + 1) });
      const calls = model.calls.length;
      backend.proxy.resetStats();
      const resend = await turn("the first question, sent again", "x");
      expect(backend.proxy.stats.requests).toBe(1);
      expect(model.calls.length).toBe(calls);
      expect(resend.replayed).toBe(true);
      expect(resend.reply).toBe(first.reply);
      expect(resend.added.map((m) => m.id)).toEqual(first.added.map((m) => m.id));
      expect(String(resend.added[0]?.content)).toBe("the first question");
      expect(await stored(agentId, "t", "x")).toEqual(before);
      const messages = await whole(agentId, "t");
      expect(messages).toHaveLength(2 * (later + 1));
      expect(messages.filter((m) => m.id === "x")).toHaveLength(1);
    });
  }

  it("R11.2 the Worker's read-first saver looks the messageId up in its one read: a resend is one round trip, no model call", async () => {
    const model = new OfflineChatModel();
    // As worker/turns.ts: the config is resolved from the turn's load (it depends on it).
    const turn = async (text: string, messageId: string) => {
      const saver = new NeonSaver({
        db: backend.neon,
        agentId: "resend-read-first",
        guardHead: true,
        materializeMessages: true,
      });
      backend.proxy.resetStats();
      const base = deps("resend-read-first", model, { window_size: 1 }, { checkpointer: saver });
      const result = await runTurn(
        { ...base, resolveConfig: async () => base.config },
        { threadId: "t", text, messageId },
      );
      return { result, requests: backend.proxy.stats.requests };
    };
    const first = await turn("the first question", "x");
    for (let i = 1; i <= 3; i++) expect((await turn(`later ${i}`, `m-${i}`)).requests).toBe(2);
    const calls = model.calls.length;
    const resend = await turn("the first question", "x");
    expect(model.calls.length).toBe(calls);
    expect(resend.requests).toBe(1);
    expect(resend.result).toMatchObject({ replayed: true, merges: 0, reply: first.result.reply });
  });

  it("R11.2 the database refuses a second copy of an id: a turn whose read missed it runs again and answers from storage", async () => {
    const model = new OfflineChatModel();
    const first = await runTurn(deps("resend-refused", model, { window_size: 1 }), {
      threadId: "t",
      text: "the first question",
      messageId: "x",
    });
    for (let i = 1; i <= 3; i++) {
      await runTurn(deps("resend-refused", model, { window_size: 1 }), {
        threadId: "t",
        text: `later ${i}`,
        messageId: `m-${i}`,
      });
    }
    const before = await stored("resend-refused", "t", "x");
    // A first load that missed the id (as if it was stored just after the read): the turn
    // answers, and its commit is what finds the id.
    const inner = postgresThreadStore(
      new NeonSaver({ db: backend.neon, agentId: "resend-refused", guardHead: true }),
    );
    let loads = 0;
    const blind: ThreadStore = {
      get checkpointer() {
        return inner.checkpointer;
      },
      keepsTranscript: inner.keepsTranscript,
      recallInLoad: inner.recallInLoad,
      configure: (options) => inner.configure(options),
      begin: () => inner.begin(),
      load: async (query) => {
        const snapshot = await inner.load(query);
        loads += 1;
        return loads === 1 ? { ...snapshot, storedTurn: undefined } : snapshot;
      },
      stage: (threadId) => inner.stage(threadId),
      commit: (threadId, commit) => inner.commit(threadId, commit),
      discard: (threadId) => inner.discard(threadId),
      generation: (threadId) => inner.generation(threadId),
    };
    const resend = await runTurn(
      deps("resend-refused", model, { window_size: 1 }, { store: blind }),
      { threadId: "t", text: "the first question", messageId: "x" },
    );
    expect(loads).toBe(2);
    // Its write was refused (THREAD_CONFLICT); run again, it found the stored answer.
    expect(resend).toMatchObject({ replayed: true, merges: 1, reply: first.reply });
    expect(await stored("resend-refused", "t", "x")).toEqual(before);
  });

  it("R11.2 R2.4 concurrent sends of one new messageId store it once; every send gets that answer", async () => {
    const model = new OfflineChatModel();
    const sends = await Promise.all(
      Array.from({ length: 5 }, () =>
        runTurn(deps("resend-concurrent", model), {
          threadId: "t",
          text: "hello",
          messageId: "x",
        }),
      ),
    );
    const messages = await whole("resend-concurrent", "t");
    expect(messages).toHaveLength(2);
    expect(messages[0]?.id).toBe("x");
    expect(new Set(sends.map((s) => s.reply))).toEqual(new Set([sends[0]?.reply]));
    expect(sends.filter((s) => !s.replayed)).toHaveLength(1);
  });

  it("R11.2 a resent tool turn gets its whole stored answer (tool call, result, reply), even split between transcript and tail", async () => {
    const model = new OfflineChatModel();
    const toolAgent = testAgent("Resend tool agent", { tools: [echo] });
    const turn = (text: string, messageId: string) =>
      runTurn(deps("resend-tool", model, { window_size: 1 }, { agent: toolAgent }), {
        threadId: "t",
        text,
        messageId,
      });
    const first = await turn('/tool echo {"text":"kept"}', "x");
    expect(first.added).toHaveLength(4);
    for (let i = 1; i <= 4; i++) {
      const calls = model.calls.length;
      await turn(`plain ${i}`, `m-${i}`);
      const resend = await turn('/tool echo {"text":"kept"}', "x");
      expect(model.calls.length).toBe(calls + 1);
      expect(resend.replayed).toBe(true);
      expect(resend.added.map((m) => m.id)).toEqual(first.added.map((m) => m.id));
      expect(resend.reply).toBe(first.reply);
    }
    expect((await whole("resend-tool", "t")).filter((m) => m.id === "x")).toHaveLength(1);
  });

  it("R11.2 R4.2 with trim, a resend of a turn still kept gets its answer; of a trimmed turn, a non-retryable error and nothing stored", async () => {
    const model = new OfflineChatModel();
    const turn = (text: string, messageId: string) =>
      runTurn(
        deps("resend-trim", model, { persist_trim_keep_groups: 2 }, { maxMergeAttempts: 3 }),
        { threadId: "t", text, messageId },
      );
    await turn("first", "x");
    for (let i = 1; i <= 4; i++) await turn(`later ${i}`, `m-${i}`);
    const kept = await turn("later 4", "m-4");
    expect(kept.replayed).toBe(true);
    const before = await whole("resend-trim", "t");
    expect(before.some((m) => m.id === "x")).toBe(false);
    const calls = model.calls.length;
    const error = await caught(turn("first, again", "x"));
    expect(isLlamonError(error, "MESSAGE_ALREADY_ANSWERED")).toBe(true);
    expect(String((error as Error).message)).toContain("persist_trim_keep_groups");
    expect(model.calls.length).toBe(calls);
    expect((await whole("resend-trim", "t")).map((m) => m.id)).toEqual(before.map((m) => m.id));
  });

  it("R11.2 R11.1 erasing a conversation forgets its message ids: the same id starts the new conversation", async () => {
    const model = new OfflineChatModel();
    const turn = () =>
      runTurn(deps("resend-erase", model, { window_size: 1 }), {
        threadId: "t",
        text: "hello",
        messageId: "x",
      });
    await turn();
    for (let i = 1; i <= 3; i++) {
      await runTurn(deps("resend-erase", model, { window_size: 1 }), {
        threadId: "t",
        text: `later ${i}`,
        messageId: `m-${i}`,
      });
    }
    await new NeonSaver({ db: backend.neon, agentId: "resend-erase" }).deleteThread("t");
    const again = await turn();
    expect(again.replayed).toBe(false);
    expect(again.reply.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
    const messages = await whole("resend-erase", "t");
    expect(messages.map((m) => m.id)).toEqual(["x", expect.any(String)]);
    expect(HumanMessage.isInstance(messages[0] as BaseMessage)).toBe(true);
    expect(AIMessage.isInstance(messages[1] as BaseMessage)).toBe(true);
  });
});
