/**
 * Conversation recall scoring: which earlier messages of one conversation to put
 * before the model, for the new user message.
 *
 * A message is scored by BM25 over its terms (./bm25.ts) plus a share of its neighbours'
 * scores: {@link NEIGHBOURS}.previous × the message before it and {@link NEIGHBOURS}.next ×
 * the one after it, in conversation order. In a dialogue the words of a question are often
 * in the turn before the answer ("What are you painting?" → "A sunset by the lake"), and
 * the answer's in the turn after; on LoCoMo's tuning conversations this moves any@5 from
 * 0.579 to 0.655 (the held-out five are reported by `npm run eval:memory`).
 *
 * Messages the model already sees (its window) are never returned, but still lend their
 * score to their neighbours. A backend that ranks a bounded candidate set from its index
 * should include each candidate's neighbours (seq ± 1) so the fusion can see them.
 */
import {
  type Bm25Options,
  byHigherScore,
  type CorpusStats,
  type RecallIndex,
  rankCandidates,
} from "./bm25.ts";
import { queryTerms } from "./terms.ts";

export const NEIGHBOURS = { previous: 0.4, next: 0.3 } as const;

export interface RecallMessage {
  id: string;
  /** Position in the conversation (the transcript's seq); neighbours are seq − 1 and seq + 1. */
  seq: number;
  terms: readonly string[];
}

export interface RecallOptions extends Bm25Options {
  /** Ids the model already has (the window): never returned. */
  exclude?: ReadonlySet<string> | undefined;
  /** Corpus statistics for BM25 (defaults: those of `messages`). */
  stats?: CorpusStats | undefined;
}

/**
 * The scores of a message's neighbours when they are not among the messages fused (a
 * backend that ranked in its own query sends only its best rows, with these).
 */
export interface FusedNeighbours {
  readonly previous: number;
  readonly next: number;
}

export interface Recalled {
  id: string;
  seq: number;
  score: number;
}

/** Neighbour fusion over BM25 scores by id (see the file header); best first, ties to later. */
export function fuseNeighbours(
  messages: readonly (Pick<RecallMessage, "id" | "seq"> & { neighbours?: FusedNeighbours })[],
  scores: ReadonlyMap<string, number>,
  k: number,
  exclude?: ReadonlySet<string>,
): Recalled[] {
  const bySeq = new Map<number, number>();
  for (const m of messages) bySeq.set(m.seq, scores.get(m.id) ?? 0);
  const out: Recalled[] = [];
  for (const m of messages) {
    if (exclude?.has(m.id)) continue;
    const score =
      (bySeq.get(m.seq) ?? 0) +
      NEIGHBOURS.previous * (bySeq.get(m.seq - 1) ?? m.neighbours?.previous ?? 0) +
      NEIGHBOURS.next * (bySeq.get(m.seq + 1) ?? m.neighbours?.next ?? 0);
    if (score > 0) out.push({ id: m.id, seq: m.seq, score });
  }
  return out
    .sort((a, b) => byHigherScore(a.score, b.score) || b.seq - a.seq)
    .slice(0, Math.max(0, Math.floor(k)));
}

/** The `k` messages most relevant to `question` (see the file header). */
export function recallMessages(
  question: string,
  messages: readonly RecallMessage[],
  k: number,
  options: RecallOptions = {},
): Recalled[] {
  if (k < 1 || messages.length === 0) return [];
  const query = queryTerms(question);
  if (query.length === 0) return [];
  const ranked = rankCandidates(query, messages, messages.length, options);
  return fuseNeighbours(messages, new Map(ranked.map((r) => [r.id, r.score])), k, options.exclude);
}

/** The same over an in-memory index of the conversation (the in_memory backend). */
export function recallFromIndex(
  question: string,
  index: RecallIndex,
  order: readonly Pick<RecallMessage, "id" | "seq">[],
  k: number,
  exclude?: ReadonlySet<string>,
): Recalled[] {
  const query = queryTerms(question);
  if (query.length === 0 || k < 1) return [];
  return fuseNeighbours(order, index.scores(query), k, exclude);
}
