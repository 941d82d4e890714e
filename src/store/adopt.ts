/**
 * Adopt threads written by other savers (`llamon migrate --adopt`): register in
 * `llamon_threads` every thread of one agent's namespace (`<agent>:<thread>`) that LangGraph's
 * tables hold but llamon's registry does not know, or knows with a stale head, so the
 * conversation list, prune and the management API see them. Turns repair the registry on
 * their own (thread-head-sql.ts); adopt is for threads no turn has touched yet. Idempotent.
 */
import type { Db } from "./db.ts";
import { readThreadMessages } from "./delta.ts";
import { NeonSaver } from "./neon-saver.ts";
import { assertAgentId, MAX_THREAD_ID_LENGTH } from "./thread-key.ts";

/** Threads of the namespace $1 ("<agent>:") whose newest root checkpoint the registry lacks. $2 agent. */
const SELECT_UNREGISTERED_HEADS = `SELECT substr(h.thread_id, length($1) + 1) AS thread_id, h.checkpoint_id,
       (t.agent_id IS NOT NULL) AS registered
  FROM (SELECT DISTINCT ON (cp.thread_id) cp.thread_id, cp.checkpoint_id
          FROM checkpoints cp
         WHERE starts_with(cp.thread_id, $1) AND cp.checkpoint_ns = ''
         ORDER BY cp.thread_id, cp.checkpoint_id DESC) h
  LEFT JOIN llamon_threads t ON t.agent_id = $2 AND t.storage_thread_id = h.thread_id
 WHERE t.head_checkpoint_id IS DISTINCT FROM h.checkpoint_id
 ORDER BY h.thread_id`;

/** Register or repair one thread; only if the head is still the one counted. $1 agent, $2 thread, $3 storage id, $4 head, $5 count. */
const UPSERT_ADOPTED = `INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id, head_checkpoint_id, message_count)
SELECT $1, $2, $3, $4, $5
 WHERE $4::text = (SELECT c.checkpoint_id FROM checkpoints c WHERE c.thread_id = $3 AND c.checkpoint_ns = ''
                    ORDER BY c.checkpoint_id DESC LIMIT 1)
ON CONFLICT (agent_id, thread_id) DO UPDATE
   SET head_checkpoint_id = EXCLUDED.head_checkpoint_id, message_count = EXCLUDED.message_count`;

/** Registry rows of the agent whose head checkpoint is gone (deleted by another saver). $1 agent. */
const COUNT_GONE = `SELECT count(*)::int AS n FROM llamon_threads t
 WHERE t.agent_id = $1 AND t.head_checkpoint_id IS NOT NULL AND NOT EXISTS (
   SELECT 1 FROM checkpoints c WHERE c.thread_id = t.storage_thread_id AND c.checkpoint_ns = ''
      AND c.checkpoint_id = t.head_checkpoint_id)`;

export interface AdoptReport {
  /** Threads newly registered (written by another saver, never seen by llamon). */
  readonly registered: readonly string[];
  /** Registered threads whose head another saver moved: head and count repaired. */
  readonly repaired: readonly string[];
  /** Thread ids llamon cannot serve (empty or longer than the stores accept): left alone. */
  readonly skipped: readonly string[];
  /** Registered threads the other saver deleted: the next turn starts them afresh. */
  readonly gone: number;
}

export async function adoptThreads(db: Db, agentId: string): Promise<AdoptReport> {
  assertAgentId(agentId);
  const { rows } = await db.query<{
    thread_id: string;
    checkpoint_id: string;
    registered: boolean;
  }>(SELECT_UNREGISTERED_HEADS, [`${agentId}:`, agentId]);
  const saver = new NeonSaver({ db, agentId });
  const registered: string[] = [];
  const repaired: string[] = [];
  const skipped: string[] = [];
  for (const row of rows) {
    const id = row.thread_id;
    if (id.length === 0 || id.length > MAX_THREAD_ID_LENGTH) {
      skipped.push(id);
      continue;
    }
    const { tuple, messages } = await readThreadMessages(saver, {
      configurable: { thread_id: id, checkpoint_id: row.checkpoint_id },
    });
    if (tuple === undefined) continue;
    const done = await db.query(UPSERT_ADOPTED, [
      agentId,
      id,
      `${agentId}:${id}`,
      row.checkpoint_id,
      messages.length,
    ]);
    if (done.rowCount === 0) continue; // a turn moved the head meanwhile: it registered it
    (row.registered ? repaired : registered).push(id);
  }
  const gone = await db.query<{ n: number }>(COUNT_GONE, [agentId]);
  return { registered, repaired, skipped, gone: gone.rows[0]?.n ?? 0 };
}
