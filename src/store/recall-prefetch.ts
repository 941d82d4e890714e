/**
 * Conversation recall read with the thread (migration 0008, sql.ts SELECT_RECALL): the
 * Postgres and SQLite thread stores read the recall a turn asks for in its load, with the
 * head, so recall costs no round trip.
 * The shapes mirror the recall port (memory/recall/source.ts), which this layer cannot import.
 */

export interface PrefetchedRecallCandidate {
  readonly id: string;
  readonly seq: number;
  readonly role: "user" | "assistant";
  /** Cut to 401 characters (the prompt quotes at most 400). */
  readonly text: string;
  /**
   * The message's index terms when the backend did not score it (sqlite: the turn scores
   * them with `stats`); empty when the database did (`scores`, Postgres).
   */
  readonly terms: readonly string[];
  /** BM25 over the thread of the message itself, of seq − 1 and of seq + 1 (0 = no match). */
  readonly scores?: { readonly own: number; readonly previous: number; readonly next: number };
}

/**
 * The transcript's answer, ranked by the database: its best items (and its last message,
 * see sql.ts SELECT_RECALL) and the statistics of its indexed messages.
 */
export interface PrefetchedRecall {
  readonly candidates: readonly PrefetchedRecallCandidate[];
  /** Semantic matches (vector-sql.ts SELECT_RECALL_VECTORS), nearest first; `terms` empty. */
  readonly semantic?: readonly PrefetchedRecallCandidate[] | undefined;
  readonly stats: {
    readonly docs: number;
    readonly avgLength: number;
    readonly df: Readonly<Record<string, number>>;
  };
}

/** The question's embedding, for semantic recall: its vector and the model that made it. */
export interface RecallVectorQuery {
  readonly model: string;
  readonly embedding: readonly number[];
  /** How many nearest messages. */
  readonly limit: number;
}

export interface RecallQuery {
  readonly terms: readonly string[];
  readonly limit: number;
  readonly vector?: RecallVectorQuery | undefined;
}

/**
 * The recall a thread store reads with the head for `query` (whole limits; the vector part
 * only with an embedding), or undefined when it asks for nothing.
 */
export function recallToRead(query: RecallQuery | undefined): RecallQuery | undefined {
  if (query === undefined || query.terms.length === 0 || query.limit < 1) return undefined;
  const v = query.vector;
  const vector =
    v !== undefined && v.embedding.length > 0 && v.limit >= 1
      ? { ...v, limit: Math.floor(v.limit) }
      : undefined;
  return { terms: [...query.terms], limit: Math.floor(query.limit), vector };
}

function count(value: unknown): number {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0;
}

/** The `recall` column of SELECT_RECALL as a {@link PrefetchedRecall}; malformed rows are skipped. */
export function parseRecallRow(value: unknown): PrefetchedRecall {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const df: Record<string, number> = {};
  if (typeof v.df === "object" && v.df !== null) {
    for (const [term, n] of Object.entries(v.df)) df[term] = count(n);
  }
  const candidates: PrefetchedRecallCandidate[] = [];
  for (const row of Array.isArray(v.rows) ? v.rows : []) {
    if (!Array.isArray(row)) continue;
    const [seq, id, role, own, previous, next, text] = row as unknown[];
    if (typeof id !== "string" || typeof text !== "string") continue;
    candidates.push({
      id,
      seq: count(seq),
      role: role === "u" ? "user" : "assistant",
      text,
      terms: [],
      scores: { own: count(own), previous: count(previous), next: count(next) },
    });
  }
  return { candidates, stats: { docs: count(v.docs), avgLength: count(v.avg_len), df } };
}

/** Rows of SELECT_RECALL_VECTORS as semantic candidates; malformed rows are skipped. */
export function parseVectorRows(rows: readonly unknown[]): PrefetchedRecallCandidate[] {
  const out: PrefetchedRecallCandidate[] = [];
  for (const row of rows) {
    const r = (typeof row === "object" && row !== null ? row : {}) as Record<string, unknown>;
    if (typeof r.id !== "string" || typeof r.text !== "string") continue;
    out.push({
      id: r.id,
      seq: count(r.seq),
      role: r.role === "user" ? "user" : "assistant",
      text: r.text,
      terms: [],
    });
  }
  return out;
}
