-- Optional semantic recall (off by default): embeddings of transcript messages, stored with
-- pgvector and fused with the lexical recall of migration 0008.
--
-- Conditional: only a database that offers the `vector` extension (Neon, PGlite with its
-- pgvector extension, a server with pgvector installed) gets the extension and the table;
-- anywhere else this migration changes nothing, lexical recall works as before, and turning
-- `recall_semantic` on is a CONFIG_INVALID error that names the fix. A role that may not
-- create the extension is treated like a database without it (nothing else is rolled back).
--
-- One row per embedded message: (agent_id, thread_id, seq) is the transcript row's key and
-- a foreign key with ON DELETE CASCADE, so prune, erase and trim (which delete transcript
-- rows) take the vectors with them; a transcript row replaced in place (the append's ON
-- CONFLICT) loses its vector by the trigger below and is embedded again. `model` names the
-- provider and model that made the vector: only vectors of the configured model are compared,
-- so changing the model never mixes spaces. The dimension is not fixed (models differ);
-- vectors are compared only within one thread, a bounded exact scan, so no ANN index.
DO $migration$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    RAISE NOTICE 'llamon 0009: the vector extension is not available; semantic recall stays off';
    RETURN;
  END IF;
  BEGIN
    CREATE EXTENSION IF NOT EXISTS vector;
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'llamon 0009: not allowed to create the vector extension; semantic recall stays off';
    RETURN;
  END;
  CREATE TABLE IF NOT EXISTS llamon_message_vectors (
    agent_id text NOT NULL,
    thread_id text NOT NULL,
    seq bigint NOT NULL,
    model text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
    embedding vector NOT NULL,
    PRIMARY KEY (agent_id, thread_id, seq),
    FOREIGN KEY (agent_id, thread_id, seq)
      REFERENCES llamon_messages (agent_id, thread_id, seq) ON DELETE CASCADE
  );
  CREATE OR REPLACE FUNCTION llamon_message_vectors_stale() RETURNS trigger
    LANGUAGE plpgsql AS $fn$
  BEGIN
    DELETE FROM llamon_message_vectors v
     WHERE v.agent_id = OLD.agent_id AND v.thread_id = OLD.thread_id AND v.seq = OLD.seq;
    RETURN NULL;
  END;
  $fn$;
  DROP TRIGGER IF EXISTS llamon_messages_vector_stale ON llamon_messages;
  CREATE TRIGGER llamon_messages_vector_stale
    AFTER UPDATE OF message ON llamon_messages
    FOR EACH ROW WHEN (OLD.message IS DISTINCT FROM NEW.message)
    EXECUTE FUNCTION llamon_message_vectors_stale();
END
$migration$;
