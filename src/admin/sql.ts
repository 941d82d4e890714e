/**
 * SQL of the management API (parameterised only). Kept next to the API for now; it belongs
 * with the rest in src/store/sql.ts.
 */

/**
 * Merge a patch into the agent's run-time MemoryConfig layer, atomically (two admins
 * patching at once never lose a key). Row: persistent_memory (agent, '', 'settings'), value
 * `{"memory": {…}, "updated_at": "…"}`. $1 agent, $2 patch (jsonb object), $3 ISO time.
 */
export const MERGE_RUNTIME_CONFIG = `INSERT INTO persistent_memory (agent_id, thread_id, key, value)
VALUES ($1, '', 'settings', jsonb_build_object('memory', $2::jsonb, 'updated_at', $3::text))
ON CONFLICT (agent_id, thread_id, key) DO UPDATE
   SET value = (CASE WHEN jsonb_typeof(persistent_memory.value) = 'object'
                     THEN persistent_memory.value ELSE '{}'::jsonb END)
               || jsonb_build_object(
                    'memory',
                    (CASE WHEN jsonb_typeof(persistent_memory.value -> 'memory') = 'object'
                          THEN persistent_memory.value -> 'memory' ELSE '{}'::jsonb END) || $2::jsonb,
                    'updated_at', $3::text),
       updated_at = now()
RETURNING value`;

/**
 * Remove keys from the run-time layer (they fall back to registry/env/code/defaults); an
 * empty $2 removes them all. $1 agent, $2 keys text[], $3 ISO time.
 */
export const RESET_RUNTIME_CONFIG = `UPDATE persistent_memory
   SET value = jsonb_build_object(
         'memory',
         CASE WHEN cardinality($2::text[]) = 0 OR jsonb_typeof(value -> 'memory') <> 'object'
              THEN '{}'::jsonb ELSE (value -> 'memory') - $2::text[] END,
         'updated_at', $3::text),
       updated_at = now()
 WHERE agent_id = $1 AND thread_id = '' AND key = 'settings'
RETURNING value`;

/**
 * One page of an agent's conversations, newest activity first (keyset paging on
 * (last_activity_at, thread_id); served by llamon_threads_agent_activity_idx).
 * $1 agent, $2 cursor time (ISO, microseconds) or NULL, $3 cursor thread id, $4 limit.
 */
export const LIST_THREADS = `SELECT thread_id,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
       to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_at,
       message_count
  FROM llamon_threads
 WHERE agent_id = $1
   AND ($2::timestamptz IS NULL OR (last_activity_at, thread_id) < ($2::timestamptz, $3::text))
 ORDER BY last_activity_at DESC, thread_id DESC
 LIMIT $4`;

/** The registry row of one conversation: $1 agent, $2 thread. */
export const SELECT_THREAD_ROW = `SELECT thread_id,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
       to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_at,
       message_count
  FROM llamon_threads
 WHERE agent_id = $1 AND thread_id = $2`;
