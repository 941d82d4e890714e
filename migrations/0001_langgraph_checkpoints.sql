-- LangGraph's Postgres checkpointer tables, identical to what the official
-- @langchain/langgraph-checkpoint-postgres 1.0.x PostgresSaver.setup() creates (its five
-- migrations, versions 0..4). Our own saver writes these tables over Neon HTTP; keeping the
-- official layout means the official saver, LangGraph tooling and the Python edition's
-- databases all read the same rows.
--
-- Tables go to the first schema of search_path (public by default), like the official saver's
-- default schema. Everything here is idempotent so a database that the official saver already
-- set up migrates cleanly. Runs inside the migration runner's transaction: never use
-- CREATE INDEX CONCURRENTLY in a migration file.

-- v0: the official saver's own migration ledger.
CREATE TABLE IF NOT EXISTS checkpoint_migrations (
  v integer PRIMARY KEY
);

-- v1: one row per checkpoint; channel values live in checkpoint_blobs.
CREATE TABLE IF NOT EXISTS checkpoints (
  thread_id text NOT NULL,
  checkpoint_ns text NOT NULL DEFAULT '',
  checkpoint_id text NOT NULL,
  parent_checkpoint_id text,
  type text,
  checkpoint jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
);

-- v2: channel values, stored once per (channel, version) and shared by checkpoints.
CREATE TABLE IF NOT EXISTS checkpoint_blobs (
  thread_id text NOT NULL,
  checkpoint_ns text NOT NULL DEFAULT '',
  channel text NOT NULL,
  version text NOT NULL,
  type text NOT NULL,
  blob bytea,
  PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
);

-- v3: pending writes of tasks that ran after a checkpoint.
CREATE TABLE IF NOT EXISTS checkpoint_writes (
  thread_id text NOT NULL,
  checkpoint_ns text NOT NULL DEFAULT '',
  checkpoint_id text NOT NULL,
  task_id text NOT NULL,
  idx integer NOT NULL,
  channel text NOT NULL,
  type text,
  blob bytea NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
);

-- v4: empty channels are stored with a NULL blob (type 'empty').
ALTER TABLE checkpoint_blobs ALTER COLUMN blob DROP NOT NULL;

-- The official setup() reads max(v) and runs every later migration, so recording 0..4 makes
-- it treat this database as fully set up. A newer package with more migrations would run
-- only its new ones.
INSERT INTO checkpoint_migrations (v) VALUES (0), (1), (2), (3), (4)
ON CONFLICT (v) DO NOTHING;
