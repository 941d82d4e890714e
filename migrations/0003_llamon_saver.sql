-- What llamon's own checkpointer (NeonSaver) needs on top of the LangGraph schema.

-- The task path of a pending write, so writes are replayed in LangGraph's writesSortKey
-- order (task_path, task_id, idx). Same column as LangGraph's Python Postgres schema;
-- the official JS saver lists its columns and gets the default.
ALTER TABLE checkpoint_writes ADD COLUMN IF NOT EXISTS task_path text NOT NULL DEFAULT '';

-- Fails the surrounding statement (and so the whole atomic batch) when `ok` is false.
-- Used for compare-and-set on a thread's head inside one Neon HTTP transaction: if another
-- turn moved the head, nothing of this turn is written (R2.4).
CREATE OR REPLACE FUNCTION llamon_require(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'LLM01', MESSAGE = message;
  END IF;
  RETURN true;
END;
$$;
