-- A fence for every write of a conversation (issue 32, SPEC R11.1): the thread's generation.
-- It is a random value made with the registry row, so a conversation erased (or pruned) and
-- begun again under the same contextId has a new one, never the old one back. A job that reads
-- the thread off the request path (the summary) reads the generation first, and its write
-- lands only while the registry row still holds that value: a job that read a conversation
-- before it was erased can never write what it read back into the database.
-- gen_random_uuid() is core Postgres since 13 (Neon runs 14–17); existing rows each get one.
ALTER TABLE llamon_threads ADD COLUMN IF NOT EXISTS generation uuid NOT NULL DEFAULT gen_random_uuid();
