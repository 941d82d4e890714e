-- Exactly once per messageId for the life of a thread (SPEC R11.2).
--
-- Every user message a turn stores is listed here under its id (the A2A messageId), with its
-- position in the whole thread (`seq`, as in llamon_messages) and the end of its turn
-- (`seq_end`, exclusive: the position of the next user message). The turn's read batch looks
-- the incoming id up by the primary key and reads the turn's rows from llamon_messages in the
-- same statement (store/sql.ts SELECT_MESSAGE_TURN), so a resend at any distance — long after
-- its turn left the live tail — gets the stored answer: no model call, nothing written, and no
-- extra round trip. The turn's write inserts its own id in the same atomic batch as the head
-- compare-and-set; the primary key refuses a second copy.
--
-- Rows carry no text. A trim (`persist_trim_keep_groups`, R4.2) deletes a turn's messages but
-- keeps its row: a resend of a trimmed turn is refused (MESSAGE_ALREADY_ANSWERED), never
-- answered twice. Erasing a conversation (management API, prune, Studio) deletes its rows.
--
-- `seq_end` NULL: not known when the row was written (a message that joined the transcript
-- without a row, or the last user message of a thread's transcript below): the turn ends at the
-- next user message.
CREATE TABLE IF NOT EXISTS llamon_message_ids (
  agent_id text NOT NULL CHECK (agent_id <> '' AND strpos(agent_id, ':') = 0),
  thread_id text NOT NULL CHECK (length(thread_id) BETWEEN 1 AND 512),
  message_id text NOT NULL CHECK (message_id <> ''),
  seq bigint NOT NULL CHECK (seq >= 0),
  seq_end bigint CHECK (seq_end IS NULL OR seq_end > seq),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, thread_id, message_id)
);

-- The user messages already in transcripts: each turn ends at the thread's next user message.
INSERT INTO llamon_message_ids (agent_id, thread_id, message_id, seq, seq_end)
SELECT h.agent_id, h.thread_id, h.message_id, h.seq, h.seq_end
  FROM (SELECT m.agent_id, m.thread_id, m.message -> 'kwargs' ->> 'id' AS message_id, m.seq,
               lead(m.seq) OVER (PARTITION BY m.agent_id, m.thread_id ORDER BY m.seq) AS seq_end
          FROM llamon_messages m
         WHERE m.message -> 'id' ->> -1 IN ('HumanMessage', 'HumanMessageChunk')) h
 WHERE h.message_id IS NOT NULL AND h.message_id <> ''
ON CONFLICT DO NOTHING;
