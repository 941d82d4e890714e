-- Conversation recall whose database work does not grow with the conversation.
--
-- Before this, the recall statement (store/sql.ts SELECT_RECALL) counted the thread's
-- indexed messages for BM25's statistics and scored every message that shared a word with
-- the new user message: a conversation of 10,000 turns had 20,000 rows to count and, for a
-- common word, about as many to score, on every turn.
--
-- Now the statistics are kept as the transcript changes, by triggers on llamon_messages, so
-- every writer (a turn's append, trim, prune, erase, reindex, an official saver's cleanup)
-- keeps them right without knowing of them:
--
-- - llamon_recall_stats: per thread, how many messages are indexed and their terms in all
--   (BM25's N and mean document length);
-- - llamon_recall_terms: per thread and term, in how many indexed messages it occurs (df)
--   and the positions of the newest of them (at most 200, newest first).
--
-- The statement scores only the messages listed for the query's terms: every message with a
-- term that occurs in at most 200 messages of the thread, and the newest 200 for a term more
-- common than that (a common term weighs little in BM25; among equal scores the newer message
-- wins anyway). df, N and the mean length stay exact. So a turn reads a few rows per query
-- term, however long the conversation.
--
-- These rows are derived from llamon_messages: deleting a thread's messages deletes them
-- (a term whose df reaches 0, a thread with no indexed message), so prune and erase need
-- nothing else. Existing rows are counted below, in this migration.

CREATE TABLE IF NOT EXISTS llamon_recall_stats (
  agent_id    text   NOT NULL,
  thread_id   text   NOT NULL,
  docs        bigint NOT NULL,
  total_terms bigint NOT NULL,
  PRIMARY KEY (agent_id, thread_id)
);

CREATE TABLE IF NOT EXISTS llamon_recall_terms (
  agent_id  text     NOT NULL,
  thread_id text     NOT NULL,
  term      text     NOT NULL,
  df        bigint   NOT NULL,
  recent    bigint[] NOT NULL,
  PRIMARY KEY (agent_id, thread_id, term)
);

-- Adds the indexed messages of `changed` (agent_id, thread_id, seq, search_terms, term_count).
CREATE OR REPLACE FUNCTION llamon_recall_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO llamon_recall_terms AS x (agent_id, thread_id, term, df, recent)
  SELECT d.agent_id, d.thread_id, d.term, count(*), (array_agg(d.seq ORDER BY d.seq DESC))[1:200]
    FROM (SELECT DISTINCT c.agent_id, c.thread_id, c.seq, w AS term
            FROM changed c, unnest(string_to_array(c.search_terms, ' ')) AS w
           WHERE c.search_terms IS NOT NULL AND w <> '') d
   GROUP BY d.agent_id, d.thread_id, d.term
  ON CONFLICT (agent_id, thread_id, term) DO UPDATE
    SET df = x.df + EXCLUDED.df,
        recent = ARRAY(SELECT DISTINCT s FROM unnest(x.recent || EXCLUDED.recent) AS s
                        ORDER BY s DESC LIMIT 200);
  INSERT INTO llamon_recall_stats AS s (agent_id, thread_id, docs, total_terms)
  SELECT c.agent_id, c.thread_id, count(*), coalesce(sum(c.term_count), 0)
    FROM changed c WHERE c.search_terms IS NOT NULL
   GROUP BY c.agent_id, c.thread_id
  ON CONFLICT (agent_id, thread_id) DO UPDATE
    SET docs = s.docs + EXCLUDED.docs, total_terms = s.total_terms + EXCLUDED.total_terms;
  RETURN NULL;
END $$;

-- Takes away the indexed messages of `changed`.
CREATE OR REPLACE FUNCTION llamon_recall_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A term that leaves the thread (df 0) is deleted below, so its list is not filtered; a
  -- list is filtered against the deleted positions through a hashed NOT IN, so a large
  -- delete (a trim, an erase) costs its positions once, not once per listed position.
  UPDATE llamon_recall_terms x
     SET df = x.df - g.n,
         recent = CASE WHEN x.df - g.n <= 0 THEN '{}'::bigint[]
                  ELSE ARRAY(SELECT s FROM unnest(x.recent) AS s
                              WHERE s NOT IN (SELECT unnest(g.seqs)) ORDER BY s DESC) END
    FROM (SELECT d.agent_id, d.thread_id, d.term, count(*) AS n, array_agg(d.seq) AS seqs
            FROM (SELECT DISTINCT c.agent_id, c.thread_id, c.seq, w AS term
                    FROM changed c, unnest(string_to_array(c.search_terms, ' ')) AS w
                   WHERE c.search_terms IS NOT NULL AND w <> '') d
           GROUP BY d.agent_id, d.thread_id, d.term) g
   WHERE x.agent_id = g.agent_id AND x.thread_id = g.thread_id AND x.term = g.term;
  DELETE FROM llamon_recall_terms x
   USING (SELECT DISTINCT agent_id, thread_id FROM changed) t
   WHERE x.agent_id = t.agent_id AND x.thread_id = t.thread_id AND x.df <= 0;
  UPDATE llamon_recall_stats s
     SET docs = s.docs - g.n, total_terms = s.total_terms - g.terms
    FROM (SELECT c.agent_id, c.thread_id, count(*) AS n, coalesce(sum(c.term_count), 0) AS terms
            FROM changed c WHERE c.search_terms IS NOT NULL
           GROUP BY c.agent_id, c.thread_id) g
   WHERE s.agent_id = g.agent_id AND s.thread_id = g.thread_id;
  DELETE FROM llamon_recall_stats s
   USING (SELECT DISTINCT agent_id, thread_id FROM changed) t
   WHERE s.agent_id = t.agent_id AND s.thread_id = t.thread_id AND s.docs <= 0;
  RETURN NULL;
END $$;

-- Statement triggers with transition tables (one event each, as Postgres requires): a bulk
-- append or delete is counted in one pass. An update (an append over an orphaned position,
-- a reindex) takes the old terms away and then adds the new: triggers of one event fire in
-- the order of their names, so "1_old" runs before "2_new".
DROP TRIGGER IF EXISTS llamon_recall_on_insert ON llamon_messages;
CREATE TRIGGER llamon_recall_on_insert AFTER INSERT ON llamon_messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION llamon_recall_add();
DROP TRIGGER IF EXISTS llamon_recall_on_delete ON llamon_messages;
CREATE TRIGGER llamon_recall_on_delete AFTER DELETE ON llamon_messages
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION llamon_recall_remove();
DROP TRIGGER IF EXISTS llamon_recall_on_update_1_old ON llamon_messages;
CREATE TRIGGER llamon_recall_on_update_1_old AFTER UPDATE ON llamon_messages
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION llamon_recall_remove();
DROP TRIGGER IF EXISTS llamon_recall_on_update_2_new ON llamon_messages;
CREATE TRIGGER llamon_recall_on_update_2_new AFTER UPDATE ON llamon_messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION llamon_recall_add();

-- The rows stored before this migration.
TRUNCATE llamon_recall_terms, llamon_recall_stats;
INSERT INTO llamon_recall_terms (agent_id, thread_id, term, df, recent)
SELECT d.agent_id, d.thread_id, d.term, count(*), (array_agg(d.seq ORDER BY d.seq DESC))[1:200]
  FROM (SELECT DISTINCT m.agent_id, m.thread_id, m.seq, w AS term
          FROM llamon_messages m, unnest(string_to_array(m.search_terms, ' ')) AS w
         WHERE m.search_terms IS NOT NULL AND w <> '') d
 GROUP BY d.agent_id, d.thread_id, d.term;
INSERT INTO llamon_recall_stats (agent_id, thread_id, docs, total_terms)
SELECT m.agent_id, m.thread_id, count(*), coalesce(sum(m.term_count), 0)
  FROM llamon_messages m WHERE m.search_terms IS NOT NULL
 GROUP BY m.agent_id, m.thread_id;
