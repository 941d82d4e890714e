/**
 * The statements of `llamon_message_ids` on Postgres (migration 0015; store/message-ids.ts):
 * exactly once per messageId for the life of a thread (R11.2).
 */

/** Human message types of LangChain's serialised form (`message->'id'->>-1`). */
const USER_TYPES = "('HumanMessage', 'HumanMessageChunk')";

/**
 * The most transcript rows a lookup reads for one turn: far above any turn (a tool loop stops at
 * LangGraph's recursion limit), and it keeps the read's size bounded whatever is stored.
 */
export const MAX_TURN_ROWS = 1000;

/**
 * In the turn's read batch: the incoming messageId's row, if the thread stored it, and its
 * turn's rows in the transcript. $1 agent, $2 thread, $3 message id, $4 at most this many rows.
 * One row or none: `seq` (the user message's position), `seq_end` (the end of its turn, or the
 * transcript's next user message when the row does not know it; NULL: the turn goes on in the
 * live tail) and `rows`, a jsonb array of [seq, message] from `seq` up to `seq_end`, in order.
 * Only a resend reads any message; a new message costs one primary-key probe.
 */
export const SELECT_MESSAGE_TURN = `SELECT i.seq, e.seq_end,
       coalesce((SELECT jsonb_agg(jsonb_build_array(m.seq, m.message) ORDER BY m.seq)
                   FROM llamon_messages m
                  WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.seq >= i.seq
                    AND m.seq < least(coalesce(e.seq_end, 9223372036854775807), i.seq + $4::int)),
                '[]'::jsonb) AS rows
  FROM llamon_message_ids i
 CROSS JOIN LATERAL (SELECT coalesce(i.seq_end, (
          SELECT h.seq FROM llamon_messages h
           WHERE h.agent_id = $1 AND h.thread_id = $2 AND h.seq > i.seq AND h.seq < i.seq + $4::int
             AND h.message -> 'id' ->> -1 IN ${USER_TYPES}
           ORDER BY h.seq LIMIT 1)) AS seq_end) e
 WHERE i.agent_id = $1 AND i.thread_id = $2 AND i.message_id = $3`;

/**
 * In the turn's write batch, after the head compare-and-set: the turn's user message. An id the
 * thread already stored fails the whole batch with SQLSTATE LLM01, which the saver reports as
 * THREAD_CONFLICT: the turn runs again, and its read finds the stored answer.
 * $1 agent, $2 thread, $3 message id, $4 its position, $5 the end of its turn (exclusive).
 */
export const INSERT_MESSAGE_ID = `WITH added AS (
  INSERT INTO llamon_message_ids (agent_id, thread_id, message_id, seq, seq_end)
  VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT DO NOTHING
  RETURNING 1
)
SELECT llamon_require((SELECT count(*) FROM added) = 1,
                      'llamon: this messageId is already stored in the conversation') AS ok`;

/**
 * The ids of user messages joining the transcript that have none (threads stored before
 * migration 0015; seeded history): their turns end at the next user message. A CTE of
 * sql.ts APPEND_TRANSCRIPT, so the rows are sent once: $1 agent, $2 thread, $3 the rows.
 */
export const RECORD_TRANSCRIPT_IDS = `INSERT INTO llamon_message_ids (agent_id, thread_id, message_id, seq)
SELECT $1, $2, x.message -> 'kwargs' ->> 'id', x.seq
  FROM jsonb_to_recordset($3::jsonb) AS x(seq bigint, message jsonb)
 WHERE x.message -> 'id' ->> -1 IN ${USER_TYPES}
   AND coalesce(x.message -> 'kwargs' ->> 'id', '') <> ''
ON CONFLICT DO NOTHING`;

/** Erase: $1 agent, $2 thread. */
export const DELETE_THREAD_MESSAGE_IDS =
  "DELETE FROM llamon_message_ids WHERE agent_id = $1 AND thread_id = $2";
