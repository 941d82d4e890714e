-- llamon's own tables: per-agent/per-thread key/value memory and the thread registry
-- (ownership and last activity, which the LangGraph checkpoint tables do not record).

-- Key/value memory of an agent (R4.1, R7.3, R8.2). Keys: 'summary' (the summary cache of a
-- thread), 'facts' (recalled facts of a thread), 'settings' (agent level).
-- Agent-level rows use thread_id = '' (empty string, not NULL, so the primary key covers them).
-- The primary key's leading agent_id also serves per-agent scans (prune, inspector), so no
-- extra index is needed.
CREATE TABLE IF NOT EXISTS persistent_memory (
  agent_id text NOT NULL,
  thread_id text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, thread_id, key),
  CONSTRAINT persistent_memory_agent_id_check CHECK (agent_id <> '' AND strpos(agent_id, ':') = 0),
  CONSTRAINT persistent_memory_thread_id_check CHECK (length(thread_id) <= 256),
  CONSTRAINT persistent_memory_key_check CHECK (length(key) BETWEEN 1 AND 128)
);

-- Which agent owns which conversation (R2.3) and when it was last used (R4.3 prune).
-- thread_id is the A2A contextId. storage_thread_id is the value in the checkpoint tables'
-- thread_id column: agent_id || ':' || thread_id, so two agents sharing a database never
-- share a LangGraph thread. Agent ids contain no ':' so that mapping is one-to-one.
-- head_checkpoint_id is the latest checkpoint of the thread (compare-and-set on writes, R2.4).
CREATE TABLE IF NOT EXISTS llamon_threads (
  agent_id text NOT NULL,
  thread_id text NOT NULL,
  storage_thread_id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_activity_at timestamptz NOT NULL DEFAULT now(),
  head_checkpoint_id text,
  message_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, thread_id),
  CONSTRAINT llamon_threads_agent_id_check CHECK (agent_id <> '' AND strpos(agent_id, ':') = 0),
  CONSTRAINT llamon_threads_thread_id_check CHECK (length(thread_id) BETWEEN 1 AND 256),
  CONSTRAINT llamon_threads_storage_thread_id_check
    CHECK (storage_thread_id = agent_id || ':' || thread_id),
  CONSTRAINT llamon_threads_message_count_check CHECK (message_count >= 0)
);

-- Prune and the inspector list one agent's threads by age.
CREATE INDEX IF NOT EXISTS llamon_threads_agent_activity_idx
  ON llamon_threads (agent_id, last_activity_at DESC);
