/**
 * The conversation recall query of a turn, for a store that searches its transcript with the
 * turn's read (ThreadStore `recallInLoad`, store/recall-prefetch.ts): the new message's query
 * terms and, with semantic recall on, its embedding — one HTTP call to the provider before the
 * load, so the database round trips stay those of the turn (≤ 2).
 *
 * A failing or slow provider never fails the turn: it is logged and the turn recalls
 * lexically only. A database without pgvector is the load's CONFIG_INVALID error.
 */
import type { Embedder } from "../../llm/embeddings.ts";
import { createLogger, type Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import { queryTerms } from "../../memory/recall/index.ts";
import type { RecallQuery, RecallVectorQuery } from "../../store/recall-prefetch.ts";

/** Nearest messages read per recalled item wanted (semantic recall), and at least. */
const VECTOR_MATCHES_PER_ITEM = 2;
const VECTOR_MIN_MATCHES = 10;
/** How long a turn waits for the question's embedding before it recalls lexically only. */
export const QUERY_EMBED_TIMEOUT_MS = 3000;

export interface RecallQueryOptions {
  /** Set when `recall_semantic` is on and the provider is configured. */
  readonly embedder?: Embedder | undefined;
  readonly log?: Logger | undefined;
}

/**
 * The recall query for this user message (undefined: nothing to search for), read with the
 * turn's load — no round trip of its own.
 */
export async function conversationRecallQuery(
  text: string,
  config: Pick<MemoryConfig, "recall_max_items" | "recall_semantic">,
  options: RecallQueryOptions = {},
): Promise<RecallQuery | undefined> {
  const maxItems = config.recall_max_items;
  if (maxItems < 1) return undefined;
  const terms = queryTerms(text);
  if (terms.length === 0) return undefined;
  const vector =
    config.recall_semantic && options.embedder !== undefined
      ? await queryVector(options.embedder, text, maxItems, options.log)
      : undefined;
  // The database ranks (sql.ts SELECT_RECALL): the transcript's best items are enough, since
  // the turn's block holds at most maxItems of the transcript and the tail together.
  return { terms, limit: maxItems, vector };
}

async function queryVector(
  embedder: Embedder,
  text: string,
  maxItems: number,
  log: Logger | undefined,
): Promise<RecallVectorQuery | undefined> {
  try {
    const [embedding] = await embedder.embed([text], AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS));
    if (embedding === undefined || embedding.length === 0) return undefined;
    return {
      model: embedder.model,
      embedding,
      limit: Math.max(VECTOR_MIN_MATCHES, maxItems * VECTOR_MATCHES_PER_ITEM),
    };
  } catch (error) {
    (log ?? createLogger()).warn(
      "recall: the question's embedding failed; this turn recalls by words only",
      { error: error instanceof Error ? error.message : String(error), model: embedder.model },
    );
    return undefined;
  }
}
