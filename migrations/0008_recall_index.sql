-- Conversation recall over the transcript: a turn finds the earlier messages that share
-- words with the new user message inside its existing read batch.
--
-- `search_terms` holds llamon's own index terms of a user or assistant message
-- (memory/recall/terms.ts `searchTerms`: Korean particles and endings removed, syllable
-- bigrams for spacing variants, English stemmed), joined by spaces and computed in the
-- runtime when the message is appended; NULL for a message that is not indexed (tool
-- results, tool-call-only replies). `terms_version` is the TERMS_VERSION they were made
-- with, so a later change of the terms can find the rows to redo.
--
-- The terms are already normalised, so the 'simple' configuration only splits them on the
-- spaces: a tsvector of exactly those terms, kept by Postgres itself (GENERATED) and indexed
-- with GIN. pg_trgm was not chosen: trigram similarity over raw text neither removes
-- Korean particles nor stems English, and its index is several times larger.
--
-- No backfill: rows appended before this migration (this table and this migration ship
-- together, so only a pre-release build can have written any) keep NULL terms and are not
-- recalled; every row appended from now on is indexed in the same statement that stores it.
ALTER TABLE llamon_messages ADD COLUMN IF NOT EXISTS search_terms text;
ALTER TABLE llamon_messages ADD COLUMN IF NOT EXISTS terms_version smallint;
ALTER TABLE llamon_messages
  ADD COLUMN IF NOT EXISTS search tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', coalesce(search_terms, ''))) STORED;
-- The number of terms (BM25's document length), so the thread's mean length is a sum over
-- integers instead of splitting every row's terms on each recall.
ALTER TABLE llamon_messages
  ADD COLUMN IF NOT EXISTS term_count integer
  GENERATED ALWAYS AS (coalesce(array_length(string_to_array(search_terms, ' '), 1), 0)) STORED;
CREATE INDEX IF NOT EXISTS llamon_messages_search_idx ON llamon_messages USING gin (search);
