-- Conversations whose A2A task records still have to be erased (`llamon memory prune`).
--
-- A conversation's A2A task records (each holds a user message and its reply) live in the
-- Worker's Durable Objects, which a prune run from a shell with only the DSN cannot reach.
-- The prune's delete writes one row here per deleted conversation in the same transaction,
-- so a pruned conversation is never forgotten half-way: the Worker erases the task records
-- (cron trigger, or POST /api/v1/memory/erasures/drain) and then deletes the row.
-- `queued_at`: task records written after it belong to a new conversation under the same
-- contextId and are kept.
--
-- Owned like persistent_memory: (agent_id, thread_id) with the thread key as is.
CREATE TABLE IF NOT EXISTS llamon_task_erasures (
  agent_id text NOT NULL CHECK (agent_id <> '' AND strpos(agent_id, ':') = 0),
  thread_id text NOT NULL CHECK (length(thread_id) BETWEEN 1 AND 512),
  queued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, thread_id)
);
CREATE INDEX IF NOT EXISTS llamon_task_erasures_queued_idx
  ON llamon_task_erasures (agent_id, queued_at);
