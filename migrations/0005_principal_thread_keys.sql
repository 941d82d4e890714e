-- Conversations owned by the caller: a thread id is now a thread key made of the caller's
-- principal and the A2A contextId (anonymous callers and every thread stored before keep
-- the contextId itself, so nothing stored changes). Keys are at most 512 characters
-- (200 for the principal, 256 for the contextId, 2 separators): relax every length check
-- on thread_id. The checkpoint tables have none; their storage ids are '<agent>:' || key.
ALTER TABLE persistent_memory DROP CONSTRAINT IF EXISTS persistent_memory_thread_id_check;
ALTER TABLE persistent_memory
  ADD CONSTRAINT persistent_memory_thread_id_check CHECK (length(thread_id) <= 512);

ALTER TABLE llamon_threads DROP CONSTRAINT IF EXISTS llamon_threads_thread_id_check;
ALTER TABLE llamon_threads
  ADD CONSTRAINT llamon_threads_thread_id_check CHECK (length(thread_id) BETWEEN 1 AND 512);
