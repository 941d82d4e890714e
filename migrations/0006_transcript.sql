-- The transcript (issue 14): a conversation's messages that have left the live tail.
--
-- A turn's LangGraph state keeps only a bounded live tail of the thread (the window's worth
-- of whole message groups plus a margin); after each turn the messages older than the tail
-- are removed from the checkpoint with LangGraph's RemoveMessage and appended here in the
-- same atomic write. A cold turn never reads this table; Studio, the management API, the
-- summary job, prune and erase do. Append-only: `seq` is the message's position in the whole
-- conversation (0 = first message), so the transcript followed by the tail is the thread.
--
-- Owned like persistent_memory: (agent_id, thread_id) with the thread key as is (R2.3).
CREATE TABLE IF NOT EXISTS llamon_messages (
  agent_id text NOT NULL CHECK (agent_id <> '' AND strpos(agent_id, ':') = 0),
  thread_id text NOT NULL CHECK (length(thread_id) BETWEEN 1 AND 512),
  seq bigint NOT NULL CHECK (seq >= 0),
  message jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, thread_id, seq)
);
