/**
 * Every SQL statement llamon runs on Postgres, in one place (the migrations' DDL is in
 * migrations/, the Durable Object's SQLite statements in sqlite-sql.ts). All are parameterised;
 * row sets travel as one jsonb parameter (`jsonb_to_recordset`) and bytes as base64 text,
 * which both transports encode identically and which keeps a whole write to one statement.
 */
import { RECORD_TRANSCRIPT_IDS } from "./message-ids-sql.ts";
import { TRIMMED_KEY } from "./transcript.ts";

/** Columns of one checkpoint tuple; blobs and pending writes come back as base64 in jsonb. */
const TUPLE_COLUMNS = `
  cp.thread_id,
  cp.checkpoint_ns,
  cp.checkpoint_id,
  cp.parent_checkpoint_id,
  cp.checkpoint,
  cp.metadata,
  (SELECT coalesce(jsonb_agg(jsonb_build_array(bl.channel, bl.type, encode(bl.blob, 'base64'))), '[]'::jsonb)
     FROM jsonb_each_text(cp.checkpoint -> 'channel_versions') AS v
     JOIN checkpoint_blobs bl
       ON bl.thread_id = cp.thread_id AND bl.checkpoint_ns = cp.checkpoint_ns
      AND bl.channel = v.key AND bl.version = v.value) AS channel_values,
  (SELECT coalesce(jsonb_agg(jsonb_build_array(cw.task_id, cw.channel, cw.type, encode(cw.blob, 'base64'))
                             ORDER BY cw.task_path COLLATE "C", cw.task_id COLLATE "C", cw.idx), '[]'::jsonb)
     FROM checkpoint_writes cw
    WHERE cw.thread_id = cp.thread_id AND cw.checkpoint_ns = cp.checkpoint_ns
      AND cw.checkpoint_id = cp.checkpoint_id) AS pending_writes,
  -- Checkpoints before format v4 kept Send packets as writes of the parent; LangGraph
  -- expects them migrated into the __pregel_tasks channel on read.
  CASE WHEN (cp.checkpoint ->> 'v')::int < 4 AND cp.parent_checkpoint_id IS NOT NULL THEN
    (SELECT jsonb_agg(jsonb_build_array(cw.type, encode(cw.blob, 'base64'))
                      ORDER BY cw.task_path COLLATE "C", cw.task_id COLLATE "C", cw.idx)
       FROM checkpoint_writes cw
      WHERE cw.thread_id = cp.thread_id AND cw.checkpoint_ns = cp.checkpoint_ns
        AND cw.checkpoint_id = cp.parent_checkpoint_id AND cw.channel = '__pregel_tasks')
  END AS pending_sends`;

/** $1 storage thread id, $2 checkpoint_ns, $3 checkpoint_id or NULL for the latest. */
export const SELECT_TUPLE = `SELECT ${TUPLE_COLUMNS}
  FROM checkpoints cp
 WHERE cp.thread_id = $1 AND cp.checkpoint_ns = $2
   AND ($3::text IS NULL OR cp.checkpoint_id = $3)
 ORDER BY cp.checkpoint_id DESC
 LIMIT 1`;

/**
 * list(): $1 storage thread id or NULL, $2 agent prefix ("<agent>:") used when $1 is NULL,
 * $3 checkpoint_ns or NULL, $4 checkpoint_id or NULL, $5 metadata filter (jsonb) or NULL,
 * $6 "before" checkpoint_id or NULL, $7 limit or NULL.
 */
export const LIST_TUPLES = `SELECT ${TUPLE_COLUMNS}
  FROM checkpoints cp
 WHERE (CASE WHEN $1::text IS NULL THEN starts_with(cp.thread_id, $2) ELSE cp.thread_id = $1 END)
   AND ($3::text IS NULL OR cp.checkpoint_ns = $3)
   AND ($4::text IS NULL OR cp.checkpoint_id = $4)
   AND ($5::jsonb IS NULL OR cp.metadata @> $5)
   AND ($6::text IS NULL OR cp.checkpoint_id < $6)
 ORDER BY cp.checkpoint_id DESC
 LIMIT $7`;

/**
 * The ancestor walk that rebuilds LangGraph `DeltaChannel`s (the thread's messages are one):
 * from the parent of the target checkpoint up to, for every channel asked for, the nearest
 * ancestor that stores the channel's value (a snapshot, or a full value written before the
 * channel became a delta channel). One statement, so a checkpoint and its history are read in
 * one round trip (it runs in the same read-only batch as {@link SELECT_TUPLE}).
 *
 * $1 storage thread id, $2 checkpoint_ns, $3 target checkpoint_id or NULL for the latest,
 * $4 channel names (text[]), $5 prefetch: true = only the channels LangGraph will ask for
 * (a version and no stored value at the target), false = every channel named (the contract
 * of `getDeltaChannelHistory`: walk from the parent whatever the target holds), $6 a checkpoint
 * whose values the caller already holds or NULL (NeonSaver passes NULL): no walk when it is
 * the target.
 *
 * One row: the target's id and `chain`, a jsonb array ordered from the parent upwards of
 * [checkpoint_id, seeds [[channel, type, base64]], writes [[task_id, channel, type, base64]]]
 * — seeds only for channels first found there, writes only for channels still walked there,
 * in LangGraph's replay order (task_path, task_id, idx by code point).
 */
export const SELECT_DELTA_HISTORY = `WITH RECURSIVE target AS (
  SELECT t.checkpoint_id, t.parent_checkpoint_id,
         ARRAY(SELECT ch FROM unnest($4::text[]) AS ch
                WHERE NOT $5::boolean
                   OR (t.checkpoint -> 'channel_versions' ? ch AND NOT EXISTS (
                        SELECT 1 FROM checkpoint_blobs b
                         WHERE b.thread_id = t.thread_id AND b.checkpoint_ns = t.checkpoint_ns
                           AND b.channel = ch AND b.type <> 'empty'
                           AND b.version = t.checkpoint -> 'channel_versions' ->> ch))) AS needed
    FROM checkpoints t
   WHERE t.thread_id = $1 AND t.checkpoint_ns = $2 AND ($3::text IS NULL OR t.checkpoint_id = $3)
   ORDER BY t.checkpoint_id DESC
   LIMIT 1
), chain AS (
  SELECT p.checkpoint_id, p.parent_checkpoint_id, 1 AS depth, tg.needed,
         '{}'::text[] AS prev,
         ARRAY(SELECT ch FROM unnest(tg.needed) AS ch WHERE EXISTS (
                 SELECT 1 FROM checkpoint_blobs b
                  WHERE b.thread_id = p.thread_id AND b.checkpoint_ns = p.checkpoint_ns
                    AND b.channel = ch AND b.type <> 'empty'
                    AND b.version = p.checkpoint -> 'channel_versions' ->> ch)) AS here
    FROM target tg
    JOIN checkpoints p
      ON p.thread_id = $1 AND p.checkpoint_ns = $2 AND p.checkpoint_id = tg.parent_checkpoint_id
   WHERE cardinality(tg.needed) > 0 AND tg.checkpoint_id IS DISTINCT FROM $6::text
  UNION ALL
  SELECT p.checkpoint_id, p.parent_checkpoint_id, c.depth + 1, c.needed,
         c.prev || c.here,
         ARRAY(SELECT ch FROM unnest(c.needed) AS ch
                WHERE NOT ch = ANY(c.prev || c.here) AND EXISTS (
                  SELECT 1 FROM checkpoint_blobs b
                   WHERE b.thread_id = p.thread_id AND b.checkpoint_ns = p.checkpoint_ns
                     AND b.channel = ch AND b.type <> 'empty'
                     AND b.version = p.checkpoint -> 'channel_versions' ->> ch))
    FROM chain c
    JOIN checkpoints p
      ON p.thread_id = $1 AND p.checkpoint_ns = $2 AND p.checkpoint_id = c.parent_checkpoint_id
   WHERE NOT (c.needed <@ (c.prev || c.here))
)
SELECT (SELECT checkpoint_id FROM target) AS target_id,
       (SELECT needed FROM target) AS needed,
       coalesce(jsonb_agg(jsonb_build_array(
         c.checkpoint_id,
         (SELECT coalesce(jsonb_agg(jsonb_build_array(b.channel, b.type, encode(b.blob, 'base64'))), '[]'::jsonb)
            FROM checkpoints p
            JOIN checkpoint_blobs b
              ON b.thread_id = p.thread_id AND b.checkpoint_ns = p.checkpoint_ns
             AND b.channel = ANY(c.here) AND b.version = p.checkpoint -> 'channel_versions' ->> b.channel
           WHERE p.thread_id = $1 AND p.checkpoint_ns = $2 AND p.checkpoint_id = c.checkpoint_id),
         (SELECT coalesce(jsonb_agg(jsonb_build_array(cw.task_id, cw.channel, cw.type, encode(cw.blob, 'base64'))
                                    ORDER BY cw.task_path COLLATE "C", cw.task_id COLLATE "C", cw.idx), '[]'::jsonb)
            FROM checkpoint_writes cw
           WHERE cw.thread_id = $1 AND cw.checkpoint_ns = $2 AND cw.checkpoint_id = c.checkpoint_id
             AND cw.channel = ANY(c.needed) AND NOT cw.channel = ANY(c.prev))
       ) ORDER BY c.depth), '[]'::jsonb) AS chain
  FROM chain c`;

/** The thread's and the agent's persistent_memory rows: $1 agent_id, $2 thread_id. */
export const SELECT_MEMORY_ROWS = `SELECT thread_id, key, value
  FROM persistent_memory
 WHERE agent_id = $1 AND thread_id IN ($2, '')`;

/** $1 storage id, $2 ns, $3 rows [{channel, version, type, blob(base64|null)}]. */
export const INSERT_BLOBS = `INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
SELECT $1, $2, x.channel, x.version, x.type, decode(x.blob, 'base64')
  FROM jsonb_to_recordset($3::jsonb) AS x(channel text, version text, type text, blob text)
ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING`;

/** $1 storage id, $2 ns, $3 checkpoint_id, $4 parent id, $5 checkpoint jsonb, $6 metadata jsonb. */
export const UPSERT_CHECKPOINT = `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;

const WRITES_INSERT = `INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, blob)
SELECT $1, $2, $3, $4, $5, x.idx, x.channel, x.type, decode(x.blob, 'base64')
  FROM jsonb_to_recordset($6::jsonb) AS x(idx integer, channel text, type text, blob text)
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)`;

/** $1 storage id, $2 ns, $3 checkpoint_id, $4 task_id, $5 task_path, $6 rows. Special writes replace. */
export const UPSERT_WRITES = `${WRITES_INSERT}
DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob, task_path = EXCLUDED.task_path`;

/** Same parameters; ordinary writes are kept as first written (at-least-once safe). */
export const INSERT_WRITES = `${WRITES_INSERT} DO NOTHING`;

/**
 * Record activity on a thread (registry row per agent + thread) and, for the root
 * namespace, its head. $1 agent, $2 thread, $3 storage id, $4 new head, $5 message count
 * or NULL (unchanged).
 */
export const TOUCH_THREAD = `INSERT INTO llamon_threads (agent_id, thread_id, storage_thread_id, head_checkpoint_id, message_count)
VALUES ($1, $2, $3, $4, coalesce($5, 0))
ON CONFLICT (agent_id, thread_id) DO UPDATE
   SET head_checkpoint_id = coalesce(EXCLUDED.head_checkpoint_id, llamon_threads.head_checkpoint_id),
       message_count = coalesce($5, llamon_threads.message_count),
       last_activity_at = now()`;

/**
 * The registry's message count, read back from a head written with its messages as deltas:
 * $1 agent, $2 thread, $3 that head (nothing changes when another write moved it), $4 count.
 */
export const SET_THREAD_MESSAGE_COUNT = `UPDATE llamon_threads SET message_count = $4
 WHERE agent_id = $1 AND thread_id = $2 AND head_checkpoint_id = $3`;

// The head compare-and-set of a turn's write is in thread-head-sql.ts.

/** SQLSTATE raised by llamon_require (migrations/0003). */
export const SQLSTATE_HEAD_MOVED = "LLM01";

/** $1 agent, $2 rows [{thread_id, key, value}] (pass JSON.stringify(rows): a JS array would be sent as a Postgres array literal) — one row per key, never accumulating. */
export const UPSERT_MEMORY = `INSERT INTO persistent_memory (agent_id, thread_id, key, value)
SELECT $1, x.thread_id, x.key, x.value
  FROM jsonb_to_recordset($2::jsonb) AS x(thread_id text, key text, value jsonb)
ON CONFLICT (agent_id, thread_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`;

/** $1 agent, $2 thread_id ('' = agent level), $3 keys text[]. */
export const DELETE_MEMORY_KEYS = `DELETE FROM persistent_memory
 WHERE agent_id = $1 AND thread_id = $2 AND key = ANY($3::text[])`;

/** $1 agent, $2 thread_id ('' = agent level), $3 key. */
export const SELECT_MEMORY_KEY = `SELECT value FROM persistent_memory
 WHERE agent_id = $1 AND thread_id = $2 AND key = $3`;

/** Erase a whole conversation of one agent: $1 storage id, $2 agent, $3 thread. */
export const DELETE_THREAD = [
  "DELETE FROM checkpoint_writes WHERE thread_id = $1",
  "DELETE FROM checkpoint_blobs WHERE thread_id = $1",
  "DELETE FROM checkpoints WHERE thread_id = $1",
] as const;
export const DELETE_THREAD_MEMORY =
  "DELETE FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2";
export const DELETE_THREAD_REGISTRY =
  "DELETE FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2 RETURNING generation::text AS generation";

/**
 * Keep only the newest checkpoint of a thread namespace (trim, R4.2: what was cut must be
 * gone from storage, not only from the latest checkpoint).
 * Writes and checkpoints: $1 storage id, $2 ns, $3 the checkpoint to keep.
 */
export const PRUNE_OLDER_WRITES =
  "DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> $3";
export const PRUNE_OLDER_CHECKPOINTS =
  "DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> $3";
/** Blobs the kept checkpoint does not reference: $1 storage id, $2 ns, $3 its channel_versions. */
export const PRUNE_UNREFERENCED_BLOBS = `DELETE FROM checkpoint_blobs b
 WHERE b.thread_id = $1 AND b.checkpoint_ns = $2
   AND NOT EXISTS (SELECT 1 FROM jsonb_each_text($3::jsonb) AS v WHERE v.key = b.channel AND v.value = b.version)`;

// --- The transcript (llamon_messages, migration 0006): messages older than the live tail ---

/**
 * Append messages that left the live tail: $1 agent, $2 thread, $3 rows [{seq, message,
 * terms, version, conversation}] (the recall index terms joined by spaces and their
 * TERMS_VERSION, or null — migration 0008; whether the message is conversation — 0011). The
 * turn writes from its head's archived count on, and the head compare-and-set that runs first
 * in the same batch makes it the only llamon writer there. A row already at such a position
 * belongs to no conversation: it was moved by a turn whose checkpoint lost the head to a
 * concurrent write of another saver, so it is replaced, index terms included. User messages
 * without a message id row get one (message-ids-sql.ts RECORD_TRANSCRIPT_IDS, R11.2).
 */
export const APPEND_TRANSCRIPT = `WITH ids AS (${RECORD_TRANSCRIPT_IDS})
INSERT INTO llamon_messages (agent_id, thread_id, seq, message, search_terms, terms_version, conversation)
SELECT $1, $2, x.seq, x.message, x.terms, x.version, x.conversation
  FROM jsonb_to_recordset($3::jsonb) AS x(seq bigint, message jsonb, terms text, version smallint, conversation boolean)
ON CONFLICT (agent_id, thread_id, seq) DO UPDATE
  SET message = EXCLUDED.message, search_terms = EXCLUDED.search_terms,
      terms_version = EXCLUDED.terms_version, conversation = EXCLUDED.conversation`;

/**
 * Conversation recall in the turn's read batch (migration 0008), ranked here: one row,
 * `recall` = {docs, avg_len, df: {term: n}, rows: [[seq, id, "u" | "a", own, prev, next,
 * text]]} (rows as arrays: no key names on the wire).
 * $1 agent, $2 thread, $3 query terms, $4 how many items.
 *
 * The matches are the messages listed for the query's terms in llamon_recall_terms (migration
 * 0012, kept by triggers): every indexed message of the thread holding a term that occurs in
 * at most 200 of them, and the newest 200 for a more common term — a few rows per term,
 * however long the conversation. Each is scored by Okapi BM25 (memory/recall/bm25.ts: k1 1.2,
 * b 0.3, idf ln(1 + (N − df + 0.5)/(df + 0.5)), tf by exact term, as the runtime indexed it)
 * with the thread's exact statistics from the same tables: N, the mean length and each
 * term's df. The neighbour fusion
 * (memory/recall/conversation.ts: own + 0.4 × previous + 0.3 × next, seq ± 1) runs over the
 * matches and their indexed neighbours, and only the best $4 come back (ties to the later
 * message), plus the thread's last transcript message when it scores: its next neighbour is
 * the live tail's first message, which the turn scores, so the turn completes both fusions
 * across the boundary. Per row only what the turn uses: the text cut to 401
 * characters (the prompt quotes at most 400) and the three raw scores; the statistics let the
 * turn score the tail's messages as over the whole thread. What is read is a few rows,
 * however long the conversation.
 */
export const SELECT_RECALL = `WITH terms AS (
  SELECT DISTINCT t FROM unnest($3::text[]) AS t WHERE t <> ''
), docs AS (
  SELECT coalesce(max(s.docs), 0)::float8 AS n,
         coalesce(max(s.total_terms::float8 / nullif(s.docs, 0)), 0)::float8 AS avg_len
    FROM llamon_recall_stats s WHERE s.agent_id = $1 AND s.thread_id = $2
), df AS (
  SELECT terms.t, coalesce(x.df, 0)::float8 AS n, coalesce(x.recent, '{}') AS recent
    FROM terms LEFT JOIN llamon_recall_terms x
      ON x.agent_id = $1 AND x.thread_id = $2 AND x.term = terms.t
), matched AS (
  -- One primary-key probe per listed position (LATERAL … LIMIT 1 keeps the planner from
  -- joining the thread's whole range instead, as it does while the table has no statistics).
  SELECT m.seq, m.term_count, m.search_terms
    FROM (SELECT DISTINCT r AS seq FROM df, unnest(df.recent) AS r) c,
         LATERAL (SELECT x.seq, x.term_count, x.search_terms FROM llamon_messages x
                   WHERE x.agent_id = $1 AND x.thread_id = $2 AND x.seq = c.seq
                     AND x.search_terms IS NOT NULL LIMIT 1) m
), tf AS (
  SELECT x.seq, x.term_count, w AS t, count(*)::float8 AS n
    FROM matched x, unnest(string_to_array(x.search_terms, ' ')) AS w
   WHERE w IN (SELECT t FROM terms)
   GROUP BY x.seq, x.term_count, w
), scored AS (
  SELECT tf.seq, sum(ln(1 + (d.n - df.n + 0.5) / (df.n + 0.5)) * tf.n * 2.2
           / (tf.n + 1.2 * (0.7 + 0.3 * tf.term_count
                / CASE WHEN d.avg_len > 0 THEN d.avg_len ELSE 1 END))) AS s
    FROM tf JOIN df ON df.t = tf.t CROSS JOIN docs d
   GROUP BY tf.seq
), last AS (
  SELECT m.seq FROM llamon_messages m WHERE m.agent_id = $1 AND m.thread_id = $2
   ORDER BY m.seq DESC LIMIT 1
), candidates AS (
  SELECT c.seq, coalesce(s0.s, 0) AS own, coalesce(sp.s, 0) AS prev, coalesce(sn.s, 0) AS next
    FROM (SELECT DISTINCT s.seq + o.d AS seq FROM scored s, (VALUES (-1), (0), (1)) AS o(d)
          UNION SELECT seq FROM last WHERE seq IS NOT NULL) c
    LEFT JOIN scored s0 ON s0.seq = c.seq
    LEFT JOIN scored sp ON sp.seq = c.seq - 1
    LEFT JOIN scored sn ON sn.seq = c.seq + 1
), picked AS (
  (SELECT c.* FROM candidates c,
          LATERAL (SELECT 1 FROM llamon_messages m
                    WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.seq = c.seq
                      AND m.search_terms IS NOT NULL LIMIT 1) indexed
    WHERE c.own + 0.4 * c.prev + 0.3 * c.next > 0
    -- Rounded: the same sum in another float order must not reorder equal messages.
    ORDER BY round((c.own + 0.4 * c.prev + 0.3 * c.next)::numeric, 9) DESC, c.seq DESC
    LIMIT $4)
  UNION SELECT c.* FROM candidates c, last
   WHERE c.seq = last.seq AND c.own + 0.4 * c.prev + 0.3 * c.next > 0
)
SELECT jsonb_build_object(
  'docs', (SELECT n FROM docs),
  'avg_len', (SELECT avg_len FROM docs),
  'df', (SELECT coalesce(jsonb_object_agg(t, n), '{}'::jsonb) FROM df),
  'rows', (SELECT coalesce(jsonb_agg(jsonb_build_array(
      t.seq,
      coalesce(t.message->'kwargs'->>'id', 'seq-' || t.seq),
      CASE WHEN t.message->'id'->>-1 LIKE 'Human%' THEN 'u' ELSE 'a' END,
      k.own, k.prev, k.next,
      left(CASE jsonb_typeof(t.message->'kwargs'->'content')
        WHEN 'string' THEN t.message->'kwargs'->>'content'
        WHEN 'array' THEN (SELECT string_agg(CASE jsonb_typeof(p) WHEN 'string' THEN p #>> '{}'
                                                  ELSE coalesce(p->>'text', '') END, '' ORDER BY i)
                             FROM jsonb_array_elements(t.message->'kwargs'->'content') WITH ORDINALITY AS e(p, i))
        ELSE '' END, 401)
    ) ORDER BY t.seq), '[]'::jsonb)
    FROM picked k,
         LATERAL (SELECT m.seq, m.message FROM llamon_messages m
                   WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.seq = k.seq
                     AND m.search_terms IS NOT NULL LIMIT 1) t)
) AS recall`;

/** A count of the stored `trimmed` value; 0 when it is not a non-negative number. */
const storedCount = (field: string) =>
  `(CASE WHEN jsonb_typeof(persistent_memory.value->'${field}') = 'number'
      THEN greatest(0, floor((persistent_memory.value->>'${field}')::numeric))::bigint ELSE 0 END)`;

/**
 * A trim (R4.2) on a thread with a transcript: delete the rows it no longer keeps. $1 agent,
 * $2 thread, $3 delete only below this position (what the summary covers, at most the
 * archived count), $4 how many of the transcript's newest message groups stay (0: none),
 * $5 the archived count (the transcript's positions are below it). A group starts at each
 * row that is neither a tool result nor a system message (a base64-wrapped row counts as a
 * start), so the cut never falls inside a tool exchange. Fewer groups than $4: nothing goes.
 *
 * Positions do not change, so the same statement counts what it deleted (migration 0011):
 * it adds the rows and the conversation rows among them to the thread's `trimmed` key and
 * takes the rows off the registry's message_count (set by the head statement earlier in the
 * batch). A row appended before 0011 has no `conversation` flag and counts by its type.
 */
export const TRIM_TRANSCRIPT = `WITH gone AS (
  DELETE FROM llamon_messages m
   WHERE m.agent_id = $1 AND m.thread_id = $2
     AND m.seq < LEAST($3::bigint, CASE WHEN $4::int <= 0 THEN $3::bigint ELSE coalesce((
       SELECT g.seq FROM llamon_messages g
        WHERE g.agent_id = $1 AND g.thread_id = $2 AND g.seq < $5::bigint
          AND coalesce(g.message->'id'->>-1, '') NOT IN
              ('ToolMessage', 'ToolMessageChunk', 'SystemMessage', 'SystemMessageChunk')
        ORDER BY g.seq DESC
        OFFSET $4::int - 1 LIMIT 1), 0) END)
  RETURNING coalesce(m.conversation,
                     coalesce(m.message->'id'->>-1, '') NOT IN ('SystemMessage', 'SystemMessageChunk')) AS conversation
), tally AS (
  SELECT count(*) AS messages, count(*) FILTER (WHERE conversation) AS conversation FROM gone
), counted AS (
  INSERT INTO persistent_memory (agent_id, thread_id, key, value)
  SELECT $1, $2, '${TRIMMED_KEY}', jsonb_build_object('messages', t.messages, 'conversation', t.conversation)
    FROM tally t WHERE t.messages > 0
  ON CONFLICT (agent_id, thread_id, key) DO UPDATE
     SET value = jsonb_build_object(
           'messages', ${storedCount("messages")} + (EXCLUDED.value->>'messages')::bigint,
           'conversation', ${storedCount("conversation")} + (EXCLUDED.value->>'conversation')::bigint),
         updated_at = now()
)
UPDATE llamon_threads r SET message_count = greatest(0, r.message_count - t.messages)
  FROM tally t
 WHERE r.agent_id = $1 AND r.thread_id = $2 AND t.messages > 0`;

/** The whole transcript went (a trim that keeps only the checkpoint): nothing is counted as trimmed. */
export const DELETE_TRIMMED_COUNT = `DELETE FROM persistent_memory
 WHERE agent_id = $1 AND thread_id = $2 AND key = '${TRIMMED_KEY}'`;

/**
 * Messages [$3, $4) of the transcript, in order: $1 agent, $2 thread, $3 from, $4 to (NULL =
 * end). The end is a plain `seq <` bound, part of the index condition even in a generic plan
 * (node-postgres with MEMORY_PG_STATEMENT_CACHE_SIZE > 0), where `$4 IS NULL OR seq < $4` would
 * only be a filter and a range read would scan to the thread's last row.
 */
export const SELECT_TRANSCRIPT = `SELECT m.message FROM llamon_messages m
 WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.seq >= $3
   AND m.seq < coalesce($4::bigint, 9223372036854775807)
 ORDER BY m.seq`;

export const DELETE_THREAD_TRANSCRIPT =
  "DELETE FROM llamon_messages WHERE agent_id = $1 AND thread_id = $2";

// --- The management API (src/admin) -------------------------------------------------------

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
 * $1 agent, $2 cursor time (ISO, microseconds) or NULL, $3 cursor thread id, $4 limit,
 * $5 only thread ids starting with this or NULL, $6 no thread ids starting with this or NULL
 * (a principal's conversations, runtime/thread-keys.ts KeyScope).
 */
export const LIST_THREADS = `SELECT thread_id,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
       to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_at,
       message_count
  FROM llamon_threads
 WHERE agent_id = $1
   AND ($2::timestamptz IS NULL OR (last_activity_at, thread_id) < ($2::timestamptz, $3::text))
   AND ($5::text IS NULL OR starts_with(thread_id, $5::text))
   AND ($6::text IS NULL OR NOT starts_with(thread_id, $6::text))
 ORDER BY last_activity_at DESC, thread_id DESC
 LIMIT $4`;

/** The registry row of one conversation: $1 agent, $2 thread. */
export const SELECT_THREAD_ROW = `SELECT thread_id,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
       to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_activity_at,
       message_count
  FROM llamon_threads
 WHERE agent_id = $1 AND thread_id = $2`;

// --- Pruning old conversations (store/prune.ts, `llamon memory prune`) --------------------

/** Last activity of each of the agent's threads, from every table that holds them. */
const PRUNE_CANDIDATES = `WITH registry AS (
  SELECT thread_id, last_activity_at FROM llamon_threads
   WHERE agent_id = $1 AND ($3::text[] IS NULL OR thread_id = ANY($3::text[]))
), checkpoint_threads AS (
  SELECT substr(thread_id, length($2) + 1) AS thread_id,
         max(CASE WHEN checkpoint ->> 'ts' ~ '^\\d{4}-\\d{2}-\\d{2}T'
                  THEN (checkpoint ->> 'ts')::timestamptz END) AS last_at
    FROM checkpoints
   WHERE starts_with(thread_id, $2)
     AND ($3::text[] IS NULL OR thread_id IN (SELECT $2 || x FROM unnest($3::text[]) AS x))
   GROUP BY thread_id
), memory_threads AS (
  SELECT thread_id, max(updated_at) AS last_at FROM persistent_memory
   WHERE agent_id = $1 AND thread_id <> '' AND ($3::text[] IS NULL OR thread_id = ANY($3::text[]))
   GROUP BY thread_id
), candidates AS (
  SELECT coalesce(r.thread_id, c.thread_id, m.thread_id) AS thread_id,
         r.thread_id IS NOT NULL AS registered,
         coalesce(r.last_activity_at, greatest(c.last_at, m.last_at)) AS last_activity_at
    FROM registry r
    FULL JOIN checkpoint_threads c ON c.thread_id = r.thread_id
    FULL JOIN memory_threads m ON m.thread_id = coalesce(r.thread_id, c.thread_id)
)`;

/**
 * $1 agent, $2 "<agent>:", $3 thread ids or NULL, $4 cutoff or NULL, $5 only thread ids
 * starting with this or NULL, $6 no thread ids starting with this or NULL (a KeyScope).
 */
export const PRUNE_PLAN = `${PRUNE_CANDIDATES}
SELECT t.thread_id, t.registered, t.last_activity_at,
       cp.rows AS cp_rows, cp.bytes AS cp_bytes, bl.rows AS bl_rows, bl.bytes AS bl_bytes,
       wr.rows AS wr_rows, wr.bytes AS wr_bytes, pm.rows AS pm_rows, pm.bytes AS pm_bytes,
       rg.rows AS rg_rows, rg.bytes AS rg_bytes, ms.rows AS ms_rows, ms.bytes AS ms_bytes,
       mi.rows AS mi_rows, mi.bytes AS mi_bytes
  FROM candidates t
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM checkpoints x WHERE x.thread_id = $2 || t.thread_id) cp
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM checkpoint_blobs x WHERE x.thread_id = $2 || t.thread_id) bl
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM checkpoint_writes x WHERE x.thread_id = $2 || t.thread_id) wr
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM persistent_memory x WHERE x.agent_id = $1 AND x.thread_id = t.thread_id) pm
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM llamon_threads x WHERE x.agent_id = $1 AND x.thread_id = t.thread_id) rg
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM llamon_messages x WHERE x.agent_id = $1 AND x.thread_id = t.thread_id) ms
  CROSS JOIN LATERAL (SELECT count(*) AS rows, coalesce(sum(pg_column_size(x.*)), 0) AS bytes
                        FROM llamon_message_ids x WHERE x.agent_id = $1 AND x.thread_id = t.thread_id) mi
 WHERE ($4::timestamptz IS NULL OR coalesce(t.last_activity_at, '-infinity') < $4::timestamptz)
   AND ($5::text IS NULL OR starts_with(t.thread_id, $5::text))
   AND ($6::text IS NULL OR NOT starts_with(t.thread_id, $6::text))
 ORDER BY t.last_activity_at ASC NULLS FIRST, t.thread_id`;

/** Lock the registry rows of a batch: $1 agent, $2 thread ids. */
export const PRUNE_LOCK_BATCH = `SELECT thread_id FROM llamon_threads
 WHERE agent_id = $1 AND thread_id = ANY($2::text[])
 ORDER BY thread_id
   FOR UPDATE`;

/**
 * Delete a batch across the seven tables, re-checking the cut-off against the (locked)
 * registry, and queue the erasure of each deleted conversation's A2A task records (they live
 * in the Worker's Durable Objects; migration 0010) in the same statement:
 * $1 agent, $2 thread ids, $3 "<agent>:", $4 cutoff or NULL.
 */
export const PRUNE_DELETE_BATCH = `WITH target AS (
  SELECT x.thread_id, $3 || x.thread_id AS storage_id
    FROM unnest($2::text[]) AS x(thread_id)
    LEFT JOIN llamon_threads r ON r.agent_id = $1 AND r.thread_id = x.thread_id
   WHERE $4::timestamptz IS NULL OR coalesce(r.last_activity_at, '-infinity') < $4::timestamptz
), wr AS (
  DELETE FROM checkpoint_writes d USING target t WHERE d.thread_id = t.storage_id
  RETURNING pg_column_size(d.*) AS size
), bl AS (
  DELETE FROM checkpoint_blobs d USING target t WHERE d.thread_id = t.storage_id
  RETURNING pg_column_size(d.*) AS size
), cp AS (
  DELETE FROM checkpoints d USING target t WHERE d.thread_id = t.storage_id
  RETURNING pg_column_size(d.*) AS size
), pm AS (
  DELETE FROM persistent_memory d USING target t WHERE d.agent_id = $1 AND d.thread_id = t.thread_id
  RETURNING pg_column_size(d.*) AS size
), rg AS (
  DELETE FROM llamon_threads d USING target t WHERE d.agent_id = $1 AND d.thread_id = t.thread_id
  RETURNING d.thread_id, d.generation::text AS generation, pg_column_size(d.*) AS size
), ms AS (
  DELETE FROM llamon_messages d USING target t WHERE d.agent_id = $1 AND d.thread_id = t.thread_id
  RETURNING pg_column_size(d.*) AS size
), mi AS (
  DELETE FROM llamon_message_ids d USING target t WHERE d.agent_id = $1 AND d.thread_id = t.thread_id
  RETURNING pg_column_size(d.*) AS size
), er AS (
  INSERT INTO llamon_task_erasures (agent_id, thread_id, generations)
  SELECT $1, t.thread_id,
         coalesce((SELECT array_agg(r.generation) FROM rg r WHERE r.thread_id = t.thread_id), '{}')
    FROM target t
  ON CONFLICT (agent_id, thread_id) DO UPDATE
     SET queued_at = now(), generations = llamon_task_erasures.generations || EXCLUDED.generations
  RETURNING 1
)
SELECT (SELECT coalesce(jsonb_agg(thread_id), '[]'::jsonb) FROM target) AS deleted,
       (SELECT count(*) FROM er) AS erasures_queued,
       (SELECT count(*) FROM cp) AS cp_rows, (SELECT coalesce(sum(size), 0) FROM cp) AS cp_bytes,
       (SELECT count(*) FROM bl) AS bl_rows, (SELECT coalesce(sum(size), 0) FROM bl) AS bl_bytes,
       (SELECT count(*) FROM wr) AS wr_rows, (SELECT coalesce(sum(size), 0) FROM wr) AS wr_bytes,
       (SELECT count(*) FROM pm) AS pm_rows, (SELECT coalesce(sum(size), 0) FROM pm) AS pm_bytes,
       (SELECT count(*) FROM rg) AS rg_rows, (SELECT coalesce(sum(size), 0) FROM rg) AS rg_bytes,
       (SELECT count(*) FROM ms) AS ms_rows, (SELECT coalesce(sum(size), 0) FROM ms) AS ms_bytes,
       (SELECT count(*) FROM mi) AS mi_rows, (SELECT coalesce(sum(size), 0) FROM mi) AS mi_bytes`;

// --- Task-record erasures queued by prune (admin/erasures.ts, migration 0010) --------------

/** The oldest queued erasures of an agent: $1 agent, $2 how many. */
export const SELECT_TASK_ERASURES = `SELECT thread_id,
       (extract(epoch FROM queued_at) * 1000)::float8 AS queued_ms,
       queued_at::text AS queued_at, generations
  FROM llamon_task_erasures
 WHERE agent_id = $1
 ORDER BY queued_at, thread_id
 LIMIT $2`;

/** Done: $1 agent, $2 thread, $3 queued_at as read (a prune that queued it again keeps it). */
export const DELETE_TASK_ERASURE = `DELETE FROM llamon_task_erasures
 WHERE agent_id = $1 AND thread_id = $2 AND queued_at = $3::timestamptz`;

/** How many erasures an agent has queued: $1 agent. */
export const COUNT_TASK_ERASURES =
  "SELECT count(*)::int AS pending FROM llamon_task_erasures WHERE agent_id = $1";

// --- Migrations and health -----------------------------------------------------------------

/** The migration runner's lock (transaction-scoped): $1 the lock key. */
export const MIGRATION_LOCK = "SELECT pg_advisory_xact_lock($1::bigint)";
export const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS llamon_migrations (
  name text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;
export const SELECT_APPLIED_MIGRATIONS = "SELECT name, checksum FROM llamon_migrations";
/** $1 file name, $2 checksum. */
export const INSERT_MIGRATION = "INSERT INTO llamon_migrations (name, checksum) VALUES ($1, $2)";
/** The health check: are the tables there (42P01 when not). */
export const COUNT_APPLIED_MIGRATIONS = "SELECT count(*)::text AS applied FROM llamon_migrations";

// --- llamon doctor (src/cli/doctor): which of llamon's tables exist, and one agent's threads.
export const DOCTOR_EXISTING_TABLES = `SELECT c.relname AS name FROM pg_class c
  WHERE c.relkind IN ('r', 'p') AND c.relname = ANY($1::text[]) AND pg_table_is_visible(c.oid)`;
export const DOCTOR_COUNT_AGENT_THREADS =
  "SELECT count(*)::text AS threads FROM llamon_threads WHERE agent_id = $1";
