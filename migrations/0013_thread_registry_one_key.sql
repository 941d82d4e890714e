-- Two turns that start the same conversation at once both insert its registry row. Their
-- upsert (ON CONFLICT (agent_id, thread_id)) arbitrates only the primary key, so the turn
-- that lost the race failed on the UNIQUE index of storage_thread_id ("duplicate key")
-- instead of waiting for the other turn and then taking the row lock (a lost turn, R2.4).
-- That UNIQUE adds nothing: storage_thread_id = agent_id || ':' || thread_id (CHECK) and
-- agent ids contain no ':' (CHECK), so the primary key already makes it unique. A plain index
-- keeps the lookups by storage id (adopting threads the official saver wrote).
CREATE INDEX IF NOT EXISTS llamon_threads_storage_thread_idx ON llamon_threads (storage_thread_id);
ALTER TABLE llamon_threads DROP CONSTRAINT IF EXISTS llamon_threads_storage_thread_id_key;
