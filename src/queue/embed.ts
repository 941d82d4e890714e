/**
 * Semantic recall's writes, off the request path: after a turn on Postgres with
 * `recall_semantic` on, the thread's transcript messages that have no vector yet are embedded
 * in one bounded batch (one provider call, one read and one write), handed to `waitUntil`, so
 * the turn's answer never waits for it. A message that misses one run (provider down) is
 * embedded by a later turn's run. Never rejects: failures are logged.
 */
import { type Embedder, MAX_EMBED_BATCH, MAX_EMBED_CHARS } from "../llm/embeddings.ts";
import { createLogger, type Logger } from "../log.ts";
import type { Db } from "../store/db.ts";
import { embedThreadMessages } from "../store/vectors.ts";

export interface EmbedAfterTurnInput {
  readonly db: Db;
  readonly agentId: string;
  readonly threadId: string;
  readonly embedder: Embedder;
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  readonly log?: Logger | undefined;
  /** Messages per run (default {@link MAX_EMBED_BATCH}). */
  readonly batchSize?: number | undefined;
}

/** Starts the background run and returns its promise (resolves to the vectors stored). */
export function embedAfterTurn(input: EmbedAfterTurnInput): Promise<number> {
  const log = input.log ?? createLogger();
  const run = embedThreadMessages({
    db: input.db,
    agentId: input.agentId,
    threadId: input.threadId,
    model: input.embedder.model,
    embed: (texts) => input.embedder.embed(texts),
    batchSize: Math.min(input.batchSize ?? MAX_EMBED_BATCH, MAX_EMBED_BATCH),
    maxChars: MAX_EMBED_CHARS,
  }).then(
    (stored) => {
      if (stored > 0)
        log.info(`recall: embedded ${stored} messages`, { model: input.embedder.model });
      return stored;
    },
    (error: unknown) => {
      log.warn("recall: embedding the transcript failed; a later turn tries again", {
        error: error instanceof Error ? error.message : String(error),
        model: input.embedder.model,
      });
      return 0;
    },
  );
  input.waitUntil?.(run);
  return run;
}
