/**
 * The transcript of the `sqlite` backend (schema v3 of sqlite-sql.ts): a conversation's
 * messages older than the live tail (memory/live-tail.ts), append-only, by position in the
 * whole thread — the Durable Object's own copy of Postgres' `llamon_messages`
 * (migrations 0006 and 0008) — with an FTS5 index for conversation recall.
 *
 * - `llamon_messages`: one row per moved message, keyed by (agent_id, thread_id, seq) like
 *   persistent_memory (the thread key as is, R2.3). `message` is LangChain's serialised
 *   form (store/transcript.ts); `search_terms` the recall index terms
 *   (memory/recall/terms.ts `searchTerms`, joined by spaces; NULL = not indexed), made by
 *   `terms_version`; `term_count` their number (BM25's document length).
 * - `llamon_messages_fts`: an external-content FTS5 table over `search_terms` (the default
 *   `unicode61` tokenizer, which sees exactly those terms as tokens: the index contract of
 *   terms.ts). Triggers keep it in step with the transcript inside the statement that writes
 *   the row, so an append, an erase or any other delete of transcript rows updates the
 *   index in the same transaction, and no index entry outlives its message.
 * - `llamon_recall_stats`: per thread, the indexed messages and their terms in total (BM25's
 *   corpus statistics), kept by the same triggers, so a recall reads one row for them.
 */

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** Trigger body: index the new row (when it has terms) and count it in the thread's stats. */
const ADD_NEW = `INSERT INTO llamon_messages_fts (rowid, search_terms)
        SELECT new.id, new.search_terms WHERE new.search_terms IS NOT NULL;
      INSERT INTO llamon_recall_stats (agent_id, thread_id, docs, terms)
        SELECT new.agent_id, new.thread_id, 1, new.term_count WHERE new.search_terms IS NOT NULL
        ON CONFLICT (agent_id, thread_id) DO UPDATE
          SET docs = docs + 1, terms = terms + excluded.terms;`;

/** Trigger body: the old row leaves the index and the stats (its row goes at zero). */
const REMOVE_OLD = `INSERT INTO llamon_messages_fts (llamon_messages_fts, rowid, search_terms)
        SELECT 'delete', old.id, old.search_terms WHERE old.search_terms IS NOT NULL;
      UPDATE llamon_recall_stats SET docs = docs - 1, terms = terms - old.term_count
        WHERE agent_id = old.agent_id AND thread_id = old.thread_id AND old.search_terms IS NOT NULL;
      DELETE FROM llamon_recall_stats
        WHERE agent_id = old.agent_id AND thread_id = old.thread_id AND docs <= 0;`;

/** Schema v3 (sqlite-sql.ts SCHEMA): the transcript, its FTS5 index and the triggers. */
export const SCHEMA_V3: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS llamon_messages (
    id INTEGER PRIMARY KEY,
    agent_id TEXT NOT NULL CHECK (agent_id <> '' AND instr(agent_id, ':') = 0),
    thread_id TEXT NOT NULL CHECK (length(thread_id) BETWEEN 1 AND 512),
    seq INTEGER NOT NULL CHECK (seq >= 0),
    message TEXT NOT NULL,
    search_terms TEXT,
    terms_version INTEGER,
    term_count INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT ${NOW},
    UNIQUE (agent_id, thread_id, seq))`,
  `CREATE VIRTUAL TABLE IF NOT EXISTS llamon_messages_fts USING fts5(
    search_terms, content = 'llamon_messages', content_rowid = 'id')`,
  // What BM25 needs of the whole thread, kept by the triggers: recall reads one row, not
  // every message of the thread. A thread with no indexed message has no row.
  `CREATE TABLE IF NOT EXISTS llamon_recall_stats (
    agent_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    docs INTEGER NOT NULL,
    terms INTEGER NOT NULL,
    PRIMARY KEY (agent_id, thread_id)) WITHOUT ROWID`,
  `CREATE TRIGGER IF NOT EXISTS llamon_messages_index_insert AFTER INSERT ON llamon_messages
    WHEN new.search_terms IS NOT NULL BEGIN
      ${ADD_NEW}
    END`,
  `CREATE TRIGGER IF NOT EXISTS llamon_messages_index_delete AFTER DELETE ON llamon_messages
    WHEN old.search_terms IS NOT NULL BEGIN
      ${REMOVE_OLD}
    END`,
  `CREATE TRIGGER IF NOT EXISTS llamon_messages_index_update AFTER UPDATE ON llamon_messages
    BEGIN
      ${REMOVE_OLD}
      ${ADD_NEW}
    END`,
];

/**
 * Schema v4: whether a transcript row is conversation (not a system message, not a
 * runtime-context message), as the runtime decided when it appended the row; NULL on rows of
 * v3. A partial trim counts what it deleted by it (SQ_TRIM_TRANSCRIPT; Postgres migration
 * 0011 is the same column).
 */
export const SCHEMA_V4: readonly string[] = [
  "ALTER TABLE llamon_messages ADD COLUMN conversation INTEGER",
];

/**
 * ?1 agent, ?2 thread, ?3 seq, ?4 message JSON, ?5 terms or NULL, ?6 terms version or NULL,
 * ?7 term count, ?8 conversation (1, 0 or NULL: unknown). A row already at the position is replaced (as APPEND_TRANSCRIPT in sql.ts:
 * inside the object the turn lock makes the turn the only writer, so such a row can only be
 * a leftover of a thread rebuilt at that position), its index entry with it (the trigger).
 */
export const SQ_APPEND_TRANSCRIPT = `INSERT INTO llamon_messages (agent_id, thread_id, seq, message, search_terms, terms_version, term_count, conversation)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (agent_id, thread_id, seq) DO UPDATE
  SET message = excluded.message, search_terms = excluded.search_terms,
      terms_version = excluded.terms_version, term_count = excluded.term_count,
      conversation = excluded.conversation`;

/**
 * Messages [?3, ?4) of the transcript, in order: ?1 agent, ?2 thread, ?4 NULL = the end. The
 * end is a plain `seq <` bound so the index range stops there (`?4 IS NULL OR seq < ?4` made
 * SQLite scan from ?3 to the thread's last row: a page or a summary job read the rest of the
 * conversation).
 */
export const SQ_SELECT_TRANSCRIPT = `SELECT message FROM llamon_messages
 WHERE agent_id = ?1 AND thread_id = ?2 AND seq >= ?3 AND seq < coalesce(?4, 9223372036854775807)
 ORDER BY seq`;

/**
 * A trim (`persist_trim_keep_groups`) on a thread with a transcript: delete the rows it no
 * longer keeps (the FTS rows go with the trigger) — the SQLite twin of sql.ts
 * TRIM_TRANSCRIPT. ?1 agent, ?2 thread, ?3 delete only below this position, ?4 how many of the
 * transcript's newest message groups stay (0: none), ?5 the archived count. A group starts at
 * each row that is neither a tool result nor a system message, so the cut never falls inside
 * a tool exchange. Fewer groups than ?4: nothing goes. One row per deleted message: whether it
 * was conversation (a v3 row without the flag counts by its type), for the `trimmed` count.
 */
export const SQ_TRIM_TRANSCRIPT = `DELETE FROM llamon_messages
 WHERE agent_id = ?1 AND thread_id = ?2
   AND seq < min(?3, CASE WHEN ?4 <= 0 THEN ?3 ELSE coalesce((
     SELECT g.seq FROM llamon_messages g
      WHERE g.agent_id = ?1 AND g.thread_id = ?2 AND g.seq < ?5
        AND coalesce(json_extract(g.message, '$.id[#-1]'), '') NOT IN
            ('ToolMessage', 'ToolMessageChunk', 'SystemMessage', 'SystemMessageChunk')
      ORDER BY g.seq DESC
      LIMIT 1 OFFSET ?4 - 1), 0) END)
 RETURNING coalesce(conversation,
                    coalesce(json_extract(message, '$.id[#-1]'), '') NOT IN ('SystemMessage', 'SystemMessageChunk')) AS conversation`;

/** ?1 agent, ?2 thread (the FTS rows go with the trigger). */
export const SQ_DELETE_THREAD_TRANSCRIPT =
  "DELETE FROM llamon_messages WHERE agent_id = ?1 AND thread_id = ?2";

/** Recall statistics of a thread (one row or none): its indexed messages, their mean length. */
export const SQ_RECALL_STATS = `SELECT docs, CASE WHEN docs > 0 THEN terms * 1.0 / docs ELSE 0 END AS avg_len
  FROM llamon_recall_stats WHERE agent_id = ?1 AND thread_id = ?2`;

/**
 * ?1 agent, ?2 thread, ?3 FTS5 query: how many of the thread's messages match (a term's df).
 * CROSS JOIN keeps the full-text query the outer loop (SQLite never reorders it): run once,
 * then each match looked up by id — not the query re-run for every message of the thread.
 */
export const SQ_RECALL_DF = `SELECT count(*) AS n FROM llamon_messages_fts AS f
  CROSS JOIN llamon_messages AS m ON m.id = f.rowid
 WHERE llamon_messages_fts MATCH ?3 AND m.agent_id = ?1 AND m.thread_id = ?2`;

/**
 * ?1 agent, ?2 thread, ?3 FTS5 query (the terms OR-ed, each quoted), ?4 limit: the best
 * matches of the thread by FTS5's bm25() (lower is better), newest first on a tie. The
 * full-text query is the outer loop (CROSS JOIN, as SQ_RECALL_DF).
 */
export const SQ_RECALL_HITS = `SELECT m.seq FROM llamon_messages_fts AS f
  CROSS JOIN llamon_messages AS m ON m.id = f.rowid
 WHERE llamon_messages_fts MATCH ?3 AND m.agent_id = ?1 AND m.thread_id = ?2
 ORDER BY bm25(llamon_messages_fts), m.seq DESC
 LIMIT ?4`;

/** ?1 agent, ?2 thread, ?3 JSON array of seqs: those indexed messages, in order. */
export const SQ_RECALL_ROWS = `SELECT seq, message, search_terms FROM llamon_messages
 WHERE agent_id = ?1 AND thread_id = ?2 AND search_terms IS NOT NULL
   AND seq IN (SELECT value FROM json_each(?3))
 ORDER BY seq`;
