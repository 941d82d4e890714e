/**
 * Statements of optional semantic recall (migration 0009, `llamon_message_vectors`) and of
 * the lexical index backfill (migration 0008's `search_terms` for rows written before it).
 * Kept apart from sql.ts's SELECT_RECALL, which the lexical read batch owns.
 */

/** The text of a stored LangChain message JSON `m.message`, as SELECT_RECALL reads it. */
const MESSAGE_TEXT = `CASE jsonb_typeof(m.message->'kwargs'->'content')
        WHEN 'string' THEN m.message->'kwargs'->>'content'
        WHEN 'array' THEN (SELECT string_agg(CASE jsonb_typeof(p) WHEN 'string' THEN p #>> '{}'
                                                  ELSE coalesce(p->>'text', '') END, '' ORDER BY i)
                             FROM jsonb_array_elements(m.message->'kwargs'->'content') WITH ORDINALITY AS e(p, i))
        ELSE '' END`;

/** Whether this database has the vectors table (migration 0009 found pgvector). One row. */
export const SELECT_VECTORS_READY =
  "SELECT to_regclass('llamon_message_vectors') IS NOT NULL AS ready";

/**
 * Semantic matches in the turn's read batch: $1 agent, $2 thread, $3 the query embedding
 * (pgvector text form), $4 model, $5 how many. This thread's messages embedded by that model
 * (and of the query's dimension), nearest by cosine distance first; per row only what the
 * turn quotes (text cut to 401 characters).
 */
export const SELECT_RECALL_VECTORS = `SELECT m.seq,
       coalesce(m.message->'kwargs'->>'id', 'seq-' || m.seq) AS id,
       CASE WHEN m.message->'id'->>-1 LIKE 'Human%' THEN 'user' ELSE 'assistant' END AS role,
       left(${MESSAGE_TEXT}, 401) AS text
  FROM (SELECT v.seq, v.embedding <=> $3::vector AS distance
          FROM llamon_message_vectors v
         WHERE v.agent_id = $1 AND v.thread_id = $2 AND v.model = $4
           AND vector_dims(v.embedding) = vector_dims($3::vector)
         ORDER BY distance, v.seq DESC
         LIMIT $5) AS near
  JOIN llamon_messages m ON m.agent_id = $1 AND m.thread_id = $2 AND m.seq = near.seq
 ORDER BY near.distance, near.seq DESC`;

/**
 * Indexed transcript messages of one thread without a vector of model $3, oldest first: $1
 * agent, $2 thread, $4 how many. `terms` lets the write check that the row did not change.
 */
export const SELECT_UNEMBEDDED = `SELECT m.seq, m.search_terms AS terms, left(${MESSAGE_TEXT}, $5) AS text
  FROM llamon_messages m
 WHERE m.agent_id = $1 AND m.thread_id = $2 AND m.search_terms IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM llamon_message_vectors v
                    WHERE v.agent_id = m.agent_id AND v.thread_id = m.thread_id
                      AND v.seq = m.seq AND v.model = $3)
 ORDER BY m.seq
 LIMIT $4`;

/**
 * Store vectors: $1 agent, $2 thread, $3 model, $4 rows [{seq, terms, embedding}] (embedding
 * in pgvector text form). A row whose transcript message changed since it was read (its terms
 * differ) or is gone gets none.
 */
export const UPSERT_VECTORS = `INSERT INTO llamon_message_vectors (agent_id, thread_id, seq, model, embedding)
SELECT $1, $2, x.seq, $3, x.embedding::vector
  FROM jsonb_to_recordset($4::jsonb) AS x(seq bigint, terms text, embedding text)
  JOIN llamon_messages m ON m.agent_id = $1 AND m.thread_id = $2 AND m.seq = x.seq
                        AND m.search_terms = x.terms
ON CONFLICT (agent_id, thread_id, seq) DO UPDATE
  SET model = EXCLUDED.model, embedding = EXCLUDED.embedding`;

// --- Backfill of the lexical index (rows written before migration 0008, or by an older TERMS_VERSION) ---

/**
 * Transcript rows to (re)index, after the key ($1 agent, $2 thread, $3 seq; NULLs = from the
 * start), in key order: $4 how many; $5 the current TERMS_VERSION. A row is visited when it was
 * never indexed or its terms were made by an older version. Rows whose terms were computed and
 * found empty carry terms_version with NULL terms, so they are not visited again.
 */
export const SELECT_UNINDEXED = `SELECT m.agent_id, m.thread_id, m.seq, m.message
  FROM llamon_messages m
 WHERE (m.terms_version IS NULL OR m.terms_version < $5::smallint)
   AND ($1::text IS NULL OR (m.agent_id, m.thread_id, m.seq) > ($1, $2, $3))
 ORDER BY m.agent_id, m.thread_id, m.seq
 LIMIT $4`;

/**
 * Write computed terms: $1 rows [{agent_id, thread_id, seq, terms, version}]; only rows still
 * unindexed or indexed by an older version, so a turn's write meanwhile is never overwritten.
 */
export const UPDATE_INDEX_TERMS = `UPDATE llamon_messages m
   SET search_terms = x.terms, terms_version = x.version
  FROM jsonb_to_recordset($1::jsonb) AS x(agent_id text, thread_id text, seq bigint, terms text, version smallint)
 WHERE m.agent_id = x.agent_id AND m.thread_id = x.thread_id AND m.seq = x.seq
   AND (m.terms_version IS NULL OR m.terms_version < x.version)`;

/** How many transcript rows the backfill would visit ($1 the current TERMS_VERSION). One row. */
export const COUNT_UNINDEXED =
  "SELECT count(*)::bigint AS n FROM llamon_messages WHERE terms_version IS NULL OR terms_version < $1::smallint";
