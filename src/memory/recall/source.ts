/**
 * The recall port: what a storage backend implements so a turn can recall
 * earlier messages of its conversation. Types only; the turn's side is ./select.ts, the
 * in-memory implementation ./memory-source.ts.
 *
 * The contract, for every implementation (Postgres tsvector in the turn's read batch,
 * SQLite FTS5 in the Durable Object, the in_memory list):
 * - only messages of `threadId` — the opaque thread key, which already holds the agent's
 *   principal (runtime/thread-keys.ts); the backend's own rows are per agent. Never a
 *   message of another thread, agent or principal;
 * - matches are messages whose terms (`searchTerms(text)`, terms.ts: the index contract)
 *   share at least one of `terms` (`queryTerms(question)`), with `seq < beforeSeq` when it
 *   is given and an id outside `exclude`; at most `limit` of them, best BM25 first;
 * - each match comes with its neighbours (seq − 1 and seq + 1) when they exist, matching or
 *   not, so the neighbour fusion (conversation.ts) can score a reply by its question;
 *   neighbours may be inside the window or excluded: the turn never returns those;
 * - or, for a backend that ranks in its query, candidates with `scores` (their own BM25 and
 *   their neighbours'): then the best ones after the fusion are enough, no neighbour rows;
 * - `stats`, when the backend knows them, are the corpus statistics of the thread (all its
 *   indexed messages), so BM25 over the candidates scores like BM25 over the whole thread;
 *   without them the candidates' own statistics are used;
 * - only user and assistant text is indexed (tool results, system text, runtime context
 *   never); prune, erase and trim remove a message's index entry with the message.
 */

/** Who said it: the user, or the agent (an AIMessage with text). */
export type RecallRole = "user" | "assistant";

export interface RecallRequest {
  /** The conversation's thread key, as the turn got it (opaque; principal included). */
  readonly threadId: string;
  /** `queryTerms(new user message)`: at least one. */
  readonly terms: readonly string[];
  /** Only messages before this seq (the first seq the model gets in its window or live tail). */
  readonly beforeSeq?: number | undefined;
  /** Message ids the model already has (the window): never matches. */
  readonly exclude: ReadonlySet<string>;
  /** At most this many matches (neighbours come on top). */
  readonly limit: number;
}

export interface RecallCandidate {
  /** The stored message's id. */
  readonly id: string;
  /** Its position in the conversation; neighbours are seq ± 1. */
  readonly seq: number;
  readonly role: RecallRole;
  /** Its text (the turn cuts what it quotes). */
  readonly text: string;
  /** `searchTerms(text)`, as indexed ([] when `scores` is given). */
  readonly terms: readonly string[];
  /**
   * Set by a backend that ranks in its own query (Postgres): the BM25 score over the thread of
   * the candidate, and of its neighbours seq − 1 and seq + 1 (0 = no match). The turn then
   * neither scores its terms nor needs the neighbours' rows.
   */
  readonly scores?:
    | { readonly own: number; readonly previous: number; readonly next: number }
    | undefined;
}

export interface RecallStats {
  /** Indexed messages of the thread. */
  readonly docs: number;
  /** Their mean length in terms. */
  readonly avgLength: number;
  /** Messages of the thread containing each requested term (absent = 0). */
  readonly df: Readonly<Record<string, number>>;
}

export interface RecallAnswer {
  readonly candidates: readonly RecallCandidate[];
  readonly stats?: RecallStats | undefined;
  /**
   * Semantic recall (optional, Postgres with pgvector): the thread's messages nearest to the
   * question's embedding, nearest first; the same thread, agent and principal rules apply.
   * Their `terms` may be empty: they are ranked by position, fused with the lexical ranks
   * (select.ts, reciprocal rank fusion).
   */
  readonly semantic?: readonly RecallCandidate[] | undefined;
}

/** A backend's conversation search (see the file header). */
export interface RecallSource {
  recall(request: RecallRequest): RecallAnswer | Promise<RecallAnswer>;
}
