/**
 * The thread head as LangGraph's own tables define it: the newest root checkpoint
 * of the thread in `checkpoints` — what the official savers' `getTuple` returns. The
 * `llamon_threads` registry row is llamon's lock and index; it is repaired from the
 * checkpoints here, since savers that share the tables (the official PostgresSaver, a
 * Python back office) never write it:
 * - missing row (a thread the official saver wrote): created by the turn that continues it;
 * - stale head (the official saver wrote after llamon): the turn continues from the real head;
 * - head gone (the official `deleteThread`): the thread's llamon rows (thread memory,
 *   transcript, message ids) are the old conversation's and are not read, and the next write
 *   deletes them.
 *
 * All of it runs inside the turn's existing read and write batches: no extra round trip.
 */

/**
 * "The registry's head checkpoint no longer exists": the thread was deleted by a saver that
 * does not know llamon's rows. `t` is the registry row; $3 (or the row's storage id) the thread.
 */
const HEAD_GONE = `t.head_checkpoint_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM checkpoints c
     WHERE c.thread_id = t.storage_thread_id AND c.checkpoint_ns = ''
       AND c.checkpoint_id = t.head_checkpoint_id)`;

/**
 * The turn's read of persistent_memory: the agent-level rows and the thread's rows, except
 * when the thread was deleted behind llamon's back (its rows belong to a gone conversation).
 * $1 agent, $2 thread.
 */
export const SELECT_LIVE_MEMORY_ROWS = `SELECT m.thread_id, m.key, m.value
  FROM persistent_memory m
 WHERE m.agent_id = $1 AND m.thread_id IN ($2, '')
   AND (m.thread_id = '' OR NOT EXISTS (
        SELECT 1 FROM llamon_threads t
         WHERE t.agent_id = $1 AND t.thread_id = $2 AND ${HEAD_GONE}))`;

/**
 * First statement of a guarded write: lock the thread's registry row, creating it when
 * missing, so concurrent llamon turns on the thread write one after the other. The next
 * statement of the batch (read committed: a fresh snapshot, taken after the lock) then sees
 * the head the previous turn committed. $1 agent, $2 thread, $3 storage id.
 */
export const LOCK_THREAD = `INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id)
VALUES ($1, $2, $3)
ON CONFLICT (agent_id, thread_id) DO UPDATE SET last_activity_at = llamon_threads.last_activity_at`;

/**
 * Compare-and-set of the thread head (R2.4) against the real head, the newest root
 * checkpoint: the write goes on only if it is still the checkpoint this turn started from
 * ($6, NULL for a new thread); otherwise SQLSTATE LLM01 and the batch rolls back. The
 * registry row (locked by {@link LOCK_THREAD}) takes the new head and count whatever it held
 * before (a gone thread's rows are deleted before it: {@link DROP_GONE_THREAD_ROWS}).
 * $1 agent, $2 thread, $3 storage id, $4 new head, $5 message count or NULL, $6 expected head.
 */
export const CAS_CHECKPOINT_HEAD = `WITH head AS (
  SELECT (SELECT c.checkpoint_id FROM checkpoints c
           WHERE c.thread_id = $3 AND c.checkpoint_ns = ''
           ORDER BY c.checkpoint_id DESC LIMIT 1) AS id
), upd AS (
  UPDATE llamon_threads
     SET head_checkpoint_id = $4, message_count = coalesce($5, message_count), last_activity_at = now()
   WHERE agent_id = $1 AND thread_id = $2 AND (SELECT id FROM head) IS NOT DISTINCT FROM $6::text
  RETURNING 1
)
SELECT llamon_require((SELECT count(*) FROM upd) = 1,
                      'llamon: the thread head moved during this turn') AS ok,
       (SELECT t.generation::text FROM llamon_threads t
         WHERE t.agent_id = $1 AND t.thread_id = $2) AS llamon_generation`;

/**
 * The registry row as the turn's read batch reads it: whether the thread was deleted behind
 * llamon's back ({@link HEAD_GONE}), and its generation (migration 0014; the turn's task
 * record carries it). No row for a thread llamon has not written. $1 agent, $2 thread.
 */
export const SELECT_THREAD_GONE = `SELECT (${HEAD_GONE}) AS gone, t.generation::text AS llamon_generation
  FROM llamon_threads t
 WHERE t.agent_id = $1 AND t.thread_id = $2`;

/**
 * The rows of a gone conversation, deleted by the write of the turn that starts the thread
 * afresh, before its CAS (only if the registry head is still gone then). $1 agent, $2 thread.
 */
export const DROP_GONE_THREAD_ROWS = [
  "persistent_memory",
  "llamon_messages",
  "llamon_message_ids",
].map(
  (table) => `DELETE FROM ${table} m
 WHERE m.agent_id = $1 AND m.thread_id = $2
   AND EXISTS (SELECT 1 FROM llamon_threads t WHERE t.agent_id = $1 AND t.thread_id = $2 AND ${HEAD_GONE})`,
);

/**
 * The thread's generation (migration 0014) for a job that reads the thread off the request
 * path; no row when the conversation is not stored (erased, pruned, or deleted behind
 * llamon's back). Read before anything else of the thread. $1 agent, $2 thread.
 */
export const SELECT_THREAD_GENERATION = `SELECT t.generation::text AS generation FROM llamon_threads t
 WHERE t.agent_id = $1 AND t.thread_id = $2 AND NOT (${HEAD_GONE})`;

/**
 * Upsert one persistent_memory row of the thread only while the thread's generation is still
 * $5 (R11.1). The registry row is locked FOR SHARE: an erase or prune that deletes it
 * (they take that row first) either ran before — then there is no row and nothing is written —
 * or waits for this statement, and then deletes the row written here with the rest.
 * $1 agent, $2 thread, $3 key, $4 value (JSON text), $5 generation. One row back when written.
 */
export const UPSERT_MEMORY_FENCED = `WITH fence AS (
  SELECT 1 FROM llamon_threads t
   WHERE t.agent_id = $1 AND t.thread_id = $2 AND t.generation = $5::uuid
     FOR SHARE
)
INSERT INTO persistent_memory (agent_id, thread_id, key, value)
SELECT $1, $2, $3, $4::jsonb FROM fence
ON CONFLICT (agent_id, thread_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
RETURNING 1 AS written`;

/**
 * {@link UPSERT_MEMORY_FENCED} that also compares: the row is written only while its value is
 * still $6 (JSON text; NULL: the row must not exist), so two writers that read the same value
 * cannot both write (the facts jobs of one thread). The row is locked FOR UPDATE before the
 * comparison; a writer that waited on it compares against the value the first one wrote.
 * $1 agent, $2 thread, $3 key, $4 value (JSON text), $5 generation, $6 expected value.
 * One row back when written.
 */
export const SWAP_MEMORY_FENCED = `WITH fence AS (
  SELECT 1 FROM llamon_threads t
   WHERE t.agent_id = $1 AND t.thread_id = $2 AND t.generation = $5::uuid
     FOR SHARE
), existing AS (
  SELECT m.value FROM persistent_memory m
   WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.key = $3
     FOR UPDATE
)
INSERT INTO persistent_memory (agent_id, thread_id, key, value)
SELECT $1, $2, $3, $4::jsonb FROM fence
 WHERE (SELECT e.value FROM existing e) IS NOT DISTINCT FROM $6::jsonb
ON CONFLICT (agent_id, thread_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
 WHERE persistent_memory.value IS NOT DISTINCT FROM $6::jsonb
RETURNING 1 AS written`;
