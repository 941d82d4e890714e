/**
 * Random interleavings of turns, resends at any distance, erase, prune and summary jobs on one
 * Postgres conversation (the schedule and the invariants: ../helpers/interleavings.ts):
 * each messageId stored once (R11.2), nothing of an erased message left in any table (R11.1),
 * no turn lost (R2.4). Each turn and job uses its own saver, as a Worker's requests do.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { describe, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { summarizeInPostgres } from "../../src/queue/host.ts";
import { readThreadHead } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { applyPrune, planPrune } from "../../src/store/prune.ts";
import { DelayedModel } from "../helpers/gated-model.ts";
import { assertInterleavings, type ConversationUnderTest } from "../helpers/interleavings.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Interleavings agent");
const AGENT = "interleave";

function deps(): TurnDeps {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: 2 } }).config,
    model: new OfflineChatModel(),
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId: AGENT, guardHead: true }),
  };
}

/** The stored conversation: transcript, then the head's live tail. */
async function storedThread(threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId: AGENT });
  const head = await readThreadHead(saver, { configurable: { thread_id: threadId } });
  const older = head.offset > 0 ? await saver.readTranscript(threadId, 0, head.offset) : [];
  return [...older, ...head.messages];
}

/** Tables whose rows of the thread contain `needle`. */
async function tablesContaining(threadId: string, needle: string): Promise<string[]> {
  const { rows } = await backend.pg.query<{ source: string }>(
    `SELECT 'checkpoint_blobs' AS source FROM checkpoint_blobs
      WHERE thread_id = $1 AND convert_from(blob, 'UTF8') LIKE $3
     UNION ALL SELECT 'checkpoint_writes' FROM checkpoint_writes
      WHERE thread_id = $1 AND convert_from(blob, 'UTF8') LIKE $3
     UNION ALL SELECT 'llamon_messages' FROM llamon_messages
      WHERE agent_id = $2 AND thread_id = $4 AND message::text LIKE $3
     UNION ALL SELECT 'persistent_memory' FROM persistent_memory
      WHERE agent_id = $2 AND thread_id = $4 AND value::text LIKE $3`,
    [`${AGENT}:${threadId}`, AGENT, `%${needle}%`, threadId],
  );
  return rows.map((r) => r.source);
}

function conversation(run: string): ConversationUnderTest {
  const threadId = `run-${run}`;
  const env = {
    AGENT_ID: AGENT,
    POSTGRES_MEMORY_DSN: backend.neonDsn,
    LLAMON_NEON_FETCH_ENDPOINT: backend.proxy.url,
  };
  return {
    send: (messageId, text) => runTurn(deps(), { threadId, messageId, text }),
    erase: () => new NeonSaver({ db: backend.neon, agentId: AGENT }).deleteThread(threadId),
    prune: async () => {
      const plan = await planPrune(backend.pg, { agentId: AGENT, threadIds: [threadId] });
      await applyPrune(backend.pg, plan);
    },
    summary: (upto) =>
      summarizeInPostgres(
        env,
        { type: "summarize", agent_id: AGENT, thread_id: threadId, upto },
        { model: new DelayedModel(), log: createMemoryLogger() },
      ),
    storedUserIds: async () =>
      (await storedThread(threadId))
        .filter((m) => m.getType() === "human")
        .map((m) => String(m.id)),
    whereStored: (needle) => tablesContaining(threadId, needle),
  };
}

describe("random interleavings of turns, resends, erase, prune and summaries (postgres)", () => {
  it("R11.1 R11.2 R2.4 each messageId once, nothing from before an erase, no turn lost", async () => {
    await assertInterleavings(conversation, { numRuns: 25, seed: 3201 });
  }, 240_000);
});
