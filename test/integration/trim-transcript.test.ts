/**
 * Trim (`persist_trim_keep_groups`, R4.2) switched on for a thread that already has a
 * transcript (memory/trim.ts): the stored conversation — transcript + checkpoint — keeps
 * exactly its newest N groups, the older transcript rows (and with them their recall index
 * entries) are deleted in the turn's own atomic write (≤ 2 round trips), and with summaries on
 * only what the summary covers goes.
 */
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { inspectThread } from "../../src/admin/inspect.ts";
import { readThread } from "../../src/admin/threads.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { type MemoryConfigPatch, resolveMemoryConfig } from "../../src/memory/config.ts";
import { RECALL_HEADER } from "../../src/memory/prompt.ts";
import { queryTerms } from "../../src/memory/recall/index.ts";
import type { RequestContext } from "../../src/runtime/context.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { parseRecallRow } from "../../src/store/recall-prefetch.ts";
import { SELECT_RECALL } from "../../src/store/sql.ts";
import { TRIMMED_KEY } from "../../src/store/transcript.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Trim agent");
const WINDOW = 6;
const text = (i: number) => `turn ${String(i).padStart(3, "0")} mentions zebra${i}`;

function deps(agentId: string, code: MemoryConfigPatch = {}) {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: WINDOW, recall: false, ...code } }).config,
    model: new OfflineChatModel(),
    log: createMemoryLogger(),
    // As the Worker builds it (worker/turns.ts).
    checkpointer: new NeonSaver({
      db: backend.neon,
      agentId,
      guardHead: true,
      materializeMessages: true,
    }),
  } satisfies TurnDeps;
}

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

/** The head checkpoint: its messages (as a list, even when stored as a snapshot) and count. */
async function tailOf(agentId: string, threadId: string) {
  const saver = new NeonSaver({ db: backend.neon, agentId, materializeMessages: true });
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  return {
    messages: (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[],
    archived: tuple?.checkpoint.channel_values.archived as { messages: number } | undefined,
  };
}

const userTexts = (messages: readonly BaseMessage[]) =>
  messages.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content);

async function longThread(agentId: string, turns: number): Promise<void> {
  for (let i = 1; i <= turns; i++) await runTurn(deps(agentId), { threadId: "t", text: text(i) });
  expect((await transcriptSeqs(agentId, "t")).length).toBeGreaterThan(2 * turns - 12);
}

describe("trim on a thread with a transcript (R4.2)", () => {
  it("R4.2 keeps exactly the newest N groups overall: transcript rows go in the turn's write, and recall cannot quote them", async () => {
    await longThread("tt-a", 30);
    backend.proxy.resetStats();
    const turn = await runTurn(deps("tt-a", { persist_trim_keep_groups: 4 }), {
      threadId: "t",
      text: text(31),
    });
    expect(backend.proxy.stats.requests).toBeLessThanOrEqual(2);
    expect(turn.reply).not.toBe("");
    // 4 groups = the last two turns (user, answer, user, answer).
    expect(await transcriptSeqs("tt-a", "t")).toEqual([]);
    const stored = await whole("tt-a", "t");
    expect(stored).toHaveLength(4);
    expect(userTexts(stored)).toEqual([text(30), text(31)]);
    const head = await tailOf("tt-a", "t");
    expect(head.messages.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    expect(head.archived?.messages).toBe(0);
    // Nothing of the trimmed turns is left to recall: no index row, no quoted block.
    const { rows } = await backend.pg.query<{ recall: unknown }>(SELECT_RECALL, [
      "tt-a",
      "t",
      queryTerms(`zebra3 ${text(3)}`),
      20,
    ]);
    expect(parseRecallRow(rows[0]?.recall).stats.docs).toBe(0);
    const asked = await runTurn(deps("tt-a", { persist_trim_keep_groups: 4, recall: true }), {
      threadId: "t",
      text: `what did turn 003 say about zebra3?`,
    });
    const system = String(asked.lastPrompt?.messages[0]?.content);
    expect(system).not.toContain("zebra3 ");
    expect(system).not.toContain(RECALL_HEADER);
    // The next turns go on as a trimmed thread: still 4 groups, nothing in the transcript.
    expect(userTexts(await whole("tt-a", "t"))).toEqual([text(31), asked.added[0]?.content]);
    expect(await transcriptSeqs("tt-a", "t")).toEqual([]);
  });

  it("R4.2 N groups reaching into the transcript: its newest groups stay where they are, the older rows go", async () => {
    await longThread("tt-b", 30);
    const before = await whole("tt-b", "t");
    const archivedBefore = (await tailOf("tt-b", "t")).archived?.messages ?? 0;
    const held = (await tailOf("tt-b", "t")).messages.length;
    expect(held).toBeLessThan(20);
    await runTurn(deps("tt-b", { persist_trim_keep_groups: 20 }), {
      threadId: "t",
      text: text(31),
    });
    const stored = await whole("tt-b", "t");
    expect(stored).toHaveLength(20);
    expect(userTexts(stored)).toEqual(Array.from({ length: 10 }, (_, i) => text(22 + i)));
    // Positions do not move: the rows kept are the last ones before the checkpoint's part.
    const seqs = await transcriptSeqs("tt-b", "t");
    const head = await tailOf("tt-b", "t");
    expect(head.archived?.messages).toBe(archivedBefore);
    expect(seqs).toEqual(
      Array.from({ length: 20 - head.messages.length }, (_, i) => archivedBefore - seqs.length + i),
    );
    expect(stored.slice(0, seqs.length).map((m) => m.id)).toEqual(
      before.slice(archivedBefore - seqs.length, archivedBefore).map((m) => m.id),
    );
    // Turns later, the kept range has moved into the checkpoint and the transcript is empty.
    for (let i = 32; i <= 45; i++) {
      await runTurn(deps("tt-b", { persist_trim_keep_groups: 20 }), {
        threadId: "t",
        text: text(i),
      });
      const now = await whole("tt-b", "t");
      expect(now, `turn ${i}`).toHaveLength(20);
      expect(userTexts(now).at(-1)).toBe(text(i));
    }
    expect(await transcriptSeqs("tt-b", "t")).toEqual([]);
  });

  it("R4.2 R7 with summaries on, only what the summary covers leaves the transcript", async () => {
    await longThread("tt-c", 30);
    const before = await whole("tt-c", "t");
    const covers = 20;
    await backend.pg.query(
      "INSERT INTO persistent_memory (agent_id, thread_id, key, value) VALUES ($1, $2, 'summary', $3)",
      [
        "tt-c",
        "t",
        JSON.stringify({
          text: "the user counted turns",
          covers,
          covers_id: before[covers - 1]?.id,
          updated_at: new Date().toISOString(),
          version: 1,
        }),
      ],
    );
    const archived = (await tailOf("tt-c", "t")).archived?.messages ?? 0;
    expect(archived).toBeGreaterThan(covers);
    await runTurn(
      deps("tt-c", { persist_trim_keep_groups: 4, summarize: true, summarize_threshold: 1000 }),
      { threadId: "t", text: text(31) },
    );
    const seqs = await transcriptSeqs("tt-c", "t");
    expect(seqs).toEqual(Array.from({ length: archived - covers }, (_, i) => covers + i));
    const stored = await whole("tt-c", "t");
    expect(stored.map((m) => m.id)).toEqual([
      ...before.slice(covers).map((m) => m.id),
      ...stored.slice(before.length - covers).map((m) => m.id),
    ]);
    expect(userTexts(stored).at(-1)).toBe(text(31));
    expect(stored).toHaveLength(before.length - covers + 2);
  });

  it("R4.2 R3.4 after a trim that keeps part of the transcript, thread_msgs, the registry and the management API count what is stored", async () => {
    await longThread("tt-d", 30);
    // Two rows appended before migration 0011 (no conversation flag) count by their type.
    await backend.pg.query(
      "UPDATE llamon_messages SET conversation = NULL WHERE agent_id = 'tt-d' AND seq < 2",
    );
    const keep = { persist_trim_keep_groups: 20 };
    await runTurn(deps("tt-d", keep), { threadId: "t", text: text(31) });
    const afterTrim = await whole("tt-d", "t");
    expect(afterTrim).toHaveLength(20);
    const head = await tailOf("tt-d", "t");
    const archived = head.archived?.messages ?? 0;
    // The transcript's positions stay (its first rows went), so the offset is above the count.
    expect(archived).toBeGreaterThan(afterTrim.length - head.messages.length);

    const counted = async () => {
      const registry = await backend.pg.query<{ message_count: number }>(
        "SELECT message_count FROM llamon_threads WHERE agent_id = 'tt-d' AND thread_id = 't'",
      );
      const trimmed = await backend.pg.query<{ value: { messages: number; conversation: number } }>(
        "SELECT value FROM persistent_memory WHERE agent_id = 'tt-d' AND thread_id = 't' AND key = $1",
        [TRIMMED_KEY],
      );
      return { registry: registry.rows[0]?.message_count, trimmed: trimmed.rows[0]?.value };
    };
    const first = await counted();
    expect(first.registry).toBe(20);
    const deleted = 2 * 31 - 20;
    expect(first.trimmed).toEqual({ messages: deleted, conversation: deleted });

    // The next turn's log line counts the stored thread with its own message; so does the
    // management API's view, whose `total` stays the position after the newest message.
    const next = await runTurn(deps("tt-d", keep), { threadId: "t", text: text(32) });
    expect(next.signals?.thread_msgs).toBe(21);
    expect((await counted()).registry).toBe(20);
    const ctx = { agentId: "tt-d", db: () => backend.neon, env: {} } as unknown as RequestContext;
    const read = await readThread(ctx, "postgres", "t", { limit: 100 });
    expect(read?.messages).toHaveLength(20);
    const config = deps("tt-d", keep).config;
    const view = inspectThread({
      contextId: "t",
      messages: read?.messages ?? [],
      from: read?.from,
      older: read?.older,
      head: read?.head,
      archived: read?.archived,
      memory: read?.memory ?? {},
      config,
    });
    expect(view.page.stored).toBe(20);
    expect(view.signals.thread_msgs).toBe(20);
    expect(view.page.total).toBe((read?.archived.messages ?? 0) + (read?.head.length ?? 0));
    expect(view.page.older).toBeNull();

    // Turns later the whole transcript has gone (the checkpoint holds the 20 groups' worth):
    // the trimmed count goes with it, and the counts stay right.
    for (let i = 33; i <= 45; i++) {
      await runTurn(deps("tt-d", keep), { threadId: "t", text: text(i) });
    }
    expect(await transcriptSeqs("tt-d", "t")).toEqual([]);
    const last = await counted();
    expect(last).toEqual({ registry: 20, trimmed: undefined });
    const again = await runTurn(deps("tt-d", keep), { threadId: "t", text: text(46) });
    expect(again.signals?.thread_msgs).toBe(21);
  });
});
