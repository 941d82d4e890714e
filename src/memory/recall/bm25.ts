/**
 * Okapi BM25 over term arrays: the in-memory ranker of conversation recall.
 *
 * - {@link RecallIndex}: an inverted index that grows and shrinks with the conversation
 *   (add / remove by id), for the in_memory backend; `search` scores only the documents
 *   that share a term with the query.
 * - {@link rankCandidates}: the same score over a bounded candidate set, for re-ranking
 *   what a database returned (Postgres `@@`, FTS5 `MATCH`). Without `stats`, document
 *   frequencies come from the candidates themselves; pass the corpus' when known.
 *
 * score(d, q) = Σ_t∈q idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl)),
 * idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)) (never negative). Each query term counts
 * once. Ties go to the later document (the more recent message). Deterministic.
 * Defaults k1 = 1.2, b = 0.3: chat messages are short and of similar length, and a lower b
 * than the textbook 0.75 keeps one-line greetings that name a person from outranking the
 * message that answers (measured on LoCoMo's tuning conversations, any@5 0.555 → 0.579).
 */

export interface Bm25Options {
  /** Term-frequency saturation (default 1.2). */
  k1?: number | undefined;
  /** Length normalisation, 0–1 (default 0.3). */
  b?: number | undefined;
}

export interface Scored<T = string> {
  id: T;
  score: number;
}

export interface CorpusStats {
  /** Number of documents. */
  docs: number;
  /** Mean document length in terms. */
  avgLength: number;
  /** Documents containing the term. */
  df: (term: string) => number;
}

const K1 = 1.2;
const B = 0.3;

export function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

function counts(terms: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
  return tf;
}

function termScore(
  tf: number,
  length: number,
  avgLength: number,
  weight: number,
  o: Bm25Options,
): number {
  const k1 = o.k1 ?? K1;
  const b = o.b ?? B;
  const norm = k1 * (1 - b + (b * length) / (avgLength > 0 ? avgLength : 1));
  return (weight * tf * (k1 + 1)) / (tf + norm);
}

/**
 * Best score first: `b` before `a` when positive. Scores within 1e-9 (relative) are a tie, so
 * the same sum computed in another order (the database's float arithmetic, PGlite's or
 * Postgres') never reorders equal messages; callers break ties themselves (later first).
 */
export function byHigherScore(a: number, b: number): number {
  const d = b - a;
  return Math.abs(d) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) ? 0 : d;
}

const byScore = <T>(a: Scored<T> & { order: number }, b: Scored<T> & { order: number }) =>
  byHigherScore(a.score, b.score) || b.order - a.order;

/** An inverted index of term arrays by id (see the file header). */
export class RecallIndex {
  readonly #postings = new Map<string, Map<number, number>>();
  readonly #docs = new Map<number, { id: string; length: number; terms: Map<string, number> }>();
  readonly #byId = new Map<string, number>();
  #next = 0;
  #totalLength = 0;

  constructor(readonly options: Bm25Options = {}) {}

  get size(): number {
    return this.#docs.size;
  }

  /** Adds (or replaces) a document; later documents win ties. */
  add(id: string, terms: readonly string[]): void {
    this.remove(id);
    const doc = this.#next++;
    const tf = counts(terms);
    this.#docs.set(doc, { id, length: terms.length, terms: tf });
    this.#byId.set(id, doc);
    this.#totalLength += terms.length;
    for (const [term, n] of tf) {
      let posting = this.#postings.get(term);
      if (posting === undefined) {
        posting = new Map();
        this.#postings.set(term, posting);
      }
      posting.set(doc, n);
    }
  }

  /** Removes a document (prune, erase, trim); false when it was not there. */
  remove(id: string): boolean {
    const doc = this.#byId.get(id);
    if (doc === undefined) return false;
    const entry = this.#docs.get(doc);
    this.#byId.delete(id);
    this.#docs.delete(doc);
    if (entry !== undefined) {
      this.#totalLength -= entry.length;
      for (const term of entry.terms.keys()) {
        const posting = this.#postings.get(term);
        posting?.delete(doc);
        if (posting?.size === 0) this.#postings.delete(term);
      }
    }
    return true;
  }

  stats(): CorpusStats {
    return {
      docs: this.#docs.size,
      avgLength: this.#docs.size === 0 ? 0 : this.#totalLength / this.#docs.size,
      df: (term) => this.#postings.get(term)?.size ?? 0,
    };
  }

  /** The BM25 score of every document that shares a term with the query, by id. */
  scores(query: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    for (const [doc, score] of this.#scores(query)) {
      const id = this.#docs.get(doc)?.id;
      if (id !== undefined) out.set(id, score);
    }
    return out;
  }

  /**
   * The best `k` documents for the query terms, best first, score > 0 only. `accept`
   * filters ids (for example: not in the model's window).
   */
  search(query: readonly string[], k: number, accept?: (id: string) => boolean): Scored[] {
    if (k < 1 || this.#docs.size === 0) return [];
    const scores = this.#scores(query);
    const out: (Scored & { order: number })[] = [];
    for (const [doc, score] of scores) {
      const id = this.#docs.get(doc)?.id;
      if (id === undefined || score <= 0 || (accept !== undefined && !accept(id))) continue;
      out.push({ id, score, order: doc });
    }
    return out
      .sort(byScore)
      .slice(0, Math.floor(k))
      .map(({ id, score }) => ({ id, score }));
  }

  #scores(query: readonly string[]): Map<number, number> {
    const { docs, avgLength } = this.stats();
    const scores = new Map<number, number>();
    for (const term of new Set(query)) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      const weight = idf(docs, posting.size);
      for (const [doc, tf] of posting) {
        const length = this.#docs.get(doc)?.length ?? 0;
        scores.set(
          doc,
          (scores.get(doc) ?? 0) + termScore(tf, length, avgLength, weight, this.options),
        );
      }
    }
    return scores;
  }
}

export interface Candidate<T> {
  id: T;
  terms: readonly string[];
}

/** BM25 over a bounded candidate set (see the file header); input order breaks ties (later wins). */
export function rankCandidates<T>(
  query: readonly string[],
  candidates: readonly Candidate<T>[],
  k: number,
  options: Bm25Options & { stats?: CorpusStats | undefined } = {},
): Scored<T>[] {
  if (k < 1 || candidates.length === 0) return [];
  const tfs = candidates.map((candidate) => counts(candidate.terms));
  const unique = [...new Set(query)];
  const stats: CorpusStats = options.stats ?? {
    docs: candidates.length,
    avgLength: candidates.reduce((sum, c) => sum + c.terms.length, 0) / candidates.length,
    df: (term) => tfs.reduce((n, tf) => n + (tf.has(term) ? 1 : 0), 0),
  };
  const weights = unique.map((term) => idf(stats.docs, stats.df(term)));
  const out: (Scored<T> & { order: number })[] = [];
  candidates.forEach((candidate, order) => {
    const tf = tfs[order] ?? new Map<string, number>();
    let score = 0;
    unique.forEach((term, i) => {
      const n = tf.get(term);
      if (n !== undefined) {
        score += termScore(n, candidate.terms.length, stats.avgLength, weights[i] ?? 0, options);
      }
    });
    if (score > 0) out.push({ id: candidate.id, score, order });
  });
  return out
    .sort(byScore)
    .slice(0, Math.floor(k))
    .map(({ id, score }) => ({ id, score }));
}
