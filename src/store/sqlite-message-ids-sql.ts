/**
 * Message ids of the `sqlite` backend (schema v5 of sqlite-sql.ts): exactly once per messageId
 * for the life of a thread (R11.2) — the Durable Object's own copy of Postgres'
 * `llamon_message_ids` (migration 0015; store/message-ids.ts). One row per user message a turn
 * stored: its position in the whole thread and the end of its turn (exclusive; NULL: the next
 * user message). No text: a trim keeps the rows, erase deletes them.
 */

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** A serialised message's LangChain type is a user message's. */
const IS_USER = (column: string) =>
  `json_extract(${column}, '$.id[#-1]') IN ('HumanMessage', 'HumanMessageChunk')`;

/**
 * Schema v5: the table, and the user messages already in transcripts (each turn ends at the
 * thread's next user message). Idempotent.
 */
export const SCHEMA_V5: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS llamon_message_ids (
    agent_id TEXT NOT NULL CHECK (agent_id <> '' AND instr(agent_id, ':') = 0),
    thread_id TEXT NOT NULL CHECK (length(thread_id) BETWEEN 1 AND 512),
    message_id TEXT NOT NULL CHECK (message_id <> ''),
    seq INTEGER NOT NULL CHECK (seq >= 0),
    seq_end INTEGER CHECK (seq_end IS NULL OR seq_end > seq),
    created_at TEXT NOT NULL DEFAULT ${NOW},
    PRIMARY KEY (agent_id, thread_id, message_id)) WITHOUT ROWID`,
  `INSERT INTO llamon_message_ids (agent_id, thread_id, message_id, seq, seq_end)
    SELECT agent_id, thread_id, message_id, seq, seq_end FROM (
      SELECT agent_id, thread_id, json_extract(message, '$.kwargs.id') AS message_id, seq,
             lead(seq) OVER (PARTITION BY agent_id, thread_id ORDER BY seq) AS seq_end
        FROM llamon_messages WHERE ${IS_USER("message")})
     WHERE typeof(message_id) = 'text' AND message_id <> ''
    ON CONFLICT DO NOTHING`,
];

/** ?1 agent, ?2 thread, ?3 message id: its position and the end of its turn (NULL: unknown). */
export const SQ_SELECT_MESSAGE_ID = `SELECT seq, seq_end FROM llamon_message_ids
 WHERE agent_id = ?1 AND thread_id = ?2 AND message_id = ?3`;

/** ?1 agent, ?2 thread, ?3 after this position, ?4 below this one: the next user message's. */
export const SQ_NEXT_USER_SEQ = `SELECT seq FROM llamon_messages
 WHERE agent_id = ?1 AND thread_id = ?2 AND seq > ?3 AND seq < ?4 AND ${IS_USER("message")}
 ORDER BY seq LIMIT 1`;

/** ?1 agent, ?2 thread: transcript rows [?3, ?4) with their positions, in order. */
export const SQ_SELECT_TRANSCRIPT_ROWS = `SELECT seq, message FROM llamon_messages
 WHERE agent_id = ?1 AND thread_id = ?2 AND seq >= ?3 AND seq < ?4
 ORDER BY seq`;

/**
 * A turn's user message: ?1 agent, ?2 thread, ?3 message id, ?4 position, ?5 end of its turn.
 * No row back: the thread already stored this id (the saver refuses the write).
 */
export const SQ_INSERT_MESSAGE_ID = `INSERT INTO llamon_message_ids (agent_id, thread_id, message_id, seq, seq_end)
VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT DO NOTHING
RETURNING 1 AS added`;

/** A user message joining the transcript without a row (a thread stored before v5, a seed). */
export const SQ_RECORD_TRANSCRIPT_ID = `INSERT INTO llamon_message_ids (agent_id, thread_id, message_id, seq)
VALUES (?1, ?2, ?3, ?4)
ON CONFLICT DO NOTHING`;

/** Erase: ?1 agent, ?2 thread. */
export const SQ_DELETE_THREAD_MESSAGE_IDS =
  "DELETE FROM llamon_message_ids WHERE agent_id = ?1 AND thread_id = ?2";
