-- Conversations owned by the caller: a thread id is now a thread key made of the caller's
-- principal and the A2A contextId (anonymous callers and every thread stored before keep
-- the contextId itself, so nothing stored changes). Keys are at most 512 characters
-- (200 for the principal, 256 for the contextId, 2 separators): relax every length check
-- on thread_id. The checkpoint tables have none; their storage ids are '<agent>:' || key.
--
-- NOT VALID: every existing row already passes the old, stricter check, so the table is not
-- scanned under its lock (new and updated rows are checked as usual).
ALTER TABLE persistent_memory DROP CONSTRAINT IF EXISTS persistent_memory_thread_id_check;
ALTER TABLE persistent_memory
  ADD CONSTRAINT persistent_memory_thread_id_check CHECK (length(thread_id) <= 512) NOT VALID;

ALTER TABLE llamon_threads DROP CONSTRAINT IF EXISTS llamon_threads_thread_id_check;
ALTER TABLE llamon_threads
  ADD CONSTRAINT llamon_threads_thread_id_check CHECK (length(thread_id) BETWEEN 1 AND 512) NOT VALID;

-- A contextId could hold control characters before, so a thread stored then under a
-- contextId starting with U+001F would now read as another principal's key (someone could
-- have planted history for a principal named later). Such contextIds are refused from now
-- on, so these threads were unreachable anyway: rename them out of the key space by turning
-- the leading U+001F into 'legacy-u001f:' (they stay anonymous threads, listed and prunable).
-- Checkpoint tables hold '<agent>:' || key; agent ids contain no ':'.
UPDATE checkpoint_writes
   SET thread_id = overlay(thread_id PLACING 'legacy-u001f:' FROM strpos(thread_id, ':') + 1 FOR 1)
 WHERE substr(thread_id, strpos(thread_id, ':') + 1, 1) = E'\x1f';
UPDATE checkpoint_blobs
   SET thread_id = overlay(thread_id PLACING 'legacy-u001f:' FROM strpos(thread_id, ':') + 1 FOR 1)
 WHERE substr(thread_id, strpos(thread_id, ':') + 1, 1) = E'\x1f';
UPDATE checkpoints
   SET thread_id = overlay(thread_id PLACING 'legacy-u001f:' FROM strpos(thread_id, ':') + 1 FOR 1)
 WHERE substr(thread_id, strpos(thread_id, ':') + 1, 1) = E'\x1f';
UPDATE persistent_memory
   SET thread_id = 'legacy-u001f:' || substr(thread_id, 2)
 WHERE left(thread_id, 1) = E'\x1f';
UPDATE llamon_threads
   SET thread_id = 'legacy-u001f:' || substr(thread_id, 2),
       storage_thread_id = agent_id || ':legacy-u001f:' || substr(thread_id, 2)
 WHERE left(thread_id, 1) = E'\x1f';
