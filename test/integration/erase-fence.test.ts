/**
 * Erase is a fence on Postgres (R11.1): once `deleteThread` answered, no turn,
 * job or retry that read the conversation before it can write any of it back.
 *
 * - a turn that read the thread (and its conversation recall) before the erase loses the head
 *   compare-and-set and runs again: it re-reads everything, recall included, so neither the
 *   model's input nor anything stored quotes the erased conversation;
 * - a summary job that read the thread before the erase is dropped at its write (the thread's
 *   generation, migration 0014), also when the conversation was begun again meanwhile.
 *
 * The model is held inside its call (a gate) while the erase runs, so the race is exact.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { SUMMARY_KEY } from "../../src/memory/summary.ts";
import { summarizeInPostgres } from "../../src/queue/host.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { GatedModel } from "../helpers/gated-model.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Fence agent");
/** The erased conversation's secret: it must never be seen again after the erase. */
const SECRET = "ZEBRA4417";
const SECRET_TURN = `my gym locker code is ${SECRET}, please remember the locker code`;
const QUESTION = "what was my gym locker code again?";

function deps(agentId: string, model: OfflineChatModel = new OfflineChatModel()): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: 4 } }).config,
    model,
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
  };
}

/** A conversation whose secret has left the live tail (it is reached by recall only). */
async function conversationWithSecret(agentId: string, threadId: string) {
  await runTurn(deps(agentId), { threadId, text: SECRET_TURN });
  for (let i = 0; i < 10; i++) {
    await runTurn(deps(agentId), { threadId, text: `small talk ${i} about the weather` });
  }
}

/** Rows of every table that hold conversation text, for the thread, that contain `needle`. */
async function rowsContaining(agentId: string, threadId: string, needle: string) {
  const storage = `${agentId}:${threadId}`;
  const like = `%${needle}%`;
  const { rows } = await backend.pg.query<{ source: string }>(
    `SELECT 'checkpoint_blobs' AS source FROM checkpoint_blobs
      WHERE thread_id = $1 AND convert_from(blob, 'UTF8') LIKE $3
     UNION ALL SELECT 'checkpoint_writes' FROM checkpoint_writes
      WHERE thread_id = $1 AND convert_from(blob, 'UTF8') LIKE $3
     UNION ALL SELECT 'checkpoints' FROM checkpoints
      WHERE thread_id = $1 AND (checkpoint::text LIKE $3 OR metadata::text LIKE $3)
     UNION ALL SELECT 'llamon_messages' FROM llamon_messages
      WHERE agent_id = $2 AND thread_id = $4 AND message::text LIKE $3
     UNION ALL SELECT 'persistent_memory' FROM persistent_memory
      WHERE agent_id = $2 AND thread_id = $4 AND value::text LIKE $3`,
    [storage, agentId, like, threadId],
  );
  return rows.map((r) => r.source);
}

/** A summary job (the queue consumer's postgres path), held inside its model call. */
async function summaryAtItsModelCall(agentId: string, threadId: string) {
  const summarizer = new GatedModel();
  const env = {
    AGENT_ID: agentId,
    POSTGRES_MEMORY_DSN: backend.neonDsn,
    LLAMON_NEON_FETCH_ENDPOINT: backend.proxy.url,
  };
  const job = summarizeInPostgres(
    env,
    { type: "summarize", agent_id: agentId, thread_id: threadId, upto: 10 },
    { model: summarizer },
  );
  await summarizer.reached;
  return { summarizer, job };
}

const allText = (messages: readonly BaseMessage[]) =>
  messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

describe("erase is a fence on Postgres (R11.1)", () => {
  it("R11.1 a turn racing an erase re-reads recall: the erased conversation is neither sent to the model nor stored", async () => {
    const agentId = "fence-turn";
    await conversationWithSecret(agentId, "t");
    const model = new GatedModel();
    const turn = runTurn(deps(agentId, model), { threadId: "t", text: QUESTION });
    await model.reached;
    // Recall quotes the secret before the erase (the test would prove nothing otherwise).
    expect(allText(model.firstInput).join("\n")).toContain(SECRET);

    await new NeonSaver({ db: backend.neon, agentId }).deleteThread("t");
    model.release();
    const result = await turn;

    expect(result.merges).toBeGreaterThanOrEqual(1);
    const last = model.calls.at(-1)?.messages ?? [];
    expect(allText(last).join("\n")).not.toContain(SECRET);
    expect(result.reply).not.toContain(SECRET);
    expect(await rowsContaining(agentId, "t", SECRET)).toEqual([]);
    // The turn itself is kept: the conversation starts afresh with it (R2.4).
    expect(result.thread.map((m) => m.getType())).toEqual(["human", "ai"]);
  });

  it("R11.1 a summary job that read the thread before an erase writes nothing", async () => {
    const agentId = "fence-sum";
    await conversationWithSecret(agentId, "s");
    const { summarizer, job } = await summaryAtItsModelCall(agentId, "s");
    expect(allText(summarizer.firstInput).join("\n")).toContain(SECRET);
    await new NeonSaver({ db: backend.neon, agentId }).deleteThread("s");
    summarizer.release();

    expect(await job).toMatchObject({ status: "skipped", reason: "erased" });
    expect(await rowsContaining(agentId, "s", SECRET)).toEqual([]);
    const { rows } = await backend.pg.query(
      "SELECT key FROM persistent_memory WHERE agent_id = $1 AND thread_id = 's'",
      [agentId],
    );
    expect(rows).toEqual([]);
  });

  it("R11.1 the job is dropped also when the conversation was begun again before its write", async () => {
    const agentId = "fence-again";
    await conversationWithSecret(agentId, "s");
    const { summarizer, job } = await summaryAtItsModelCall(agentId, "s");
    await new NeonSaver({ db: backend.neon, agentId }).deleteThread("s");
    await runTurn(deps(agentId), { threadId: "s", text: "a new conversation" });
    summarizer.release();

    expect(await job).toMatchObject({ status: "skipped", reason: "erased" });
    const { rows } = await backend.pg.query<{ key: string }>(
      "SELECT key FROM persistent_memory WHERE agent_id = $1 AND thread_id = 's' AND key = $2",
      [agentId, SUMMARY_KEY],
    );
    expect(rows).toEqual([]);
    expect(await rowsContaining(agentId, "s", SECRET)).toEqual([]);
  });
});
