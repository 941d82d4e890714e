/**
 * Conversation recall read with the thread (migration 0008, sql.ts SELECT_RECALL): a saver
 * that implements {@link RecallPrefetch} adds the recall query to the read batch of the
 * thread's next getTuple when the turn asked for it first, so recall costs no round trip.
 * The shapes mirror the recall port (memory/recall/source.ts), which this layer cannot import.
 */

export interface PrefetchedRecallCandidate {
  readonly id: string;
  readonly seq: number;
  readonly role: "user" | "assistant";
  readonly text: string;
  readonly terms: readonly string[];
}

/** The transcript's answer: matches with their neighbours and the thread's statistics. */
export interface PrefetchedRecall {
  readonly candidates: readonly PrefetchedRecallCandidate[];
  readonly stats: {
    readonly docs: number;
    readonly avgLength: number;
    readonly df: Readonly<Record<string, number>>;
  };
}

export interface RecallPrefetch {
  /** Read recall for `terms` (queryTerms of the new message) with the thread's next read. */
  prefetchRecall(threadId: string, query: { terms: readonly string[]; limit: number }): void;
  /** What that read found; undefined when nothing was asked or read for the thread. */
  prefetchedRecall(threadId: string): PrefetchedRecall | undefined;
}

export function hasRecallPrefetch(saver: unknown): saver is RecallPrefetch {
  return (
    typeof saver === "object" &&
    saver !== null &&
    typeof (saver as Partial<RecallPrefetch>).prefetchRecall === "function" &&
    typeof (saver as Partial<RecallPrefetch>).prefetchedRecall === "function"
  );
}

const CUT = 2000;

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
    const r = row as Record<string, unknown>;
    if (typeof r.id !== "string" || typeof r.text !== "string" || typeof r.terms !== "string") {
      continue;
    }
    const seq = count(r.seq);
    // A cut list may end in half a term: drop it.
    const words = r.terms.split(" ").filter((t) => t !== "");
    if (r.terms.length >= CUT) words.pop();
    candidates.push({
      id: r.id,
      seq,
      role: r.role === "user" ? "user" : "assistant",
      text: r.text,
      terms: words,
    });
  }
  return { candidates, stats: { docs: count(v.docs), avgLength: count(v.avg_len), df } };
}
