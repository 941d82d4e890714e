/**
 * The turn's side of the recall port: the new user message → query terms → the
 * backend's candidates (./source.ts) → BM25 with the thread's statistics (unless the backend
 * scored them) and the neighbour fusion (./conversation.ts) → the `maxItems` best messages
 * for the prompt block
 * (../prompt-recall.ts), never one the model already has.
 */
import type { RecalledItem } from "../prompt-recall.ts";
import { byHigherScore, type CorpusStats, rankCandidates } from "./bm25.ts";
import { fuseNeighbours } from "./conversation.ts";
import type { RecallAnswer, RecallCandidate, RecallSource, RecallStats } from "./source.ts";
import { queryTerms } from "./terms.ts";

/**
 * Reciprocal rank fusion's constant (Cormack et al. 2009): score = Σ 1 / (RRF_K + rank), over
 * the lexical ranking (BM25 + neighbours) and the semantic one, rank 1 = best.
 */
export const RRF_K = 60;

/** Matches asked of the backend per item wanted (neighbours come on top), and at least. */
export const CANDIDATES_PER_ITEM = 4;
export const MIN_CANDIDATES = 20;

export interface TurnRecall {
  /** The conversation's thread key. */
  readonly threadId: string;
  /** The new user message. */
  readonly question: string;
  /** Ids of the messages the model gets anyway (its window). */
  readonly exclude: ReadonlySet<string>;
  /** Only messages before this seq, when the caller knows where its window starts. */
  readonly beforeSeq?: number | undefined;
  /** recall_max_items. */
  readonly maxItems: number;
}

function corpusStats(stats: RecallStats | undefined): CorpusStats | undefined {
  if (stats === undefined) return undefined;
  return { docs: stats.docs, avgLength: stats.avgLength, df: (term) => stats.df[term] ?? 0 };
}

/** The best `maxItems` of a backend's answer, best first (see the file header). */
export function selectRecalled(
  answer: RecallAnswer,
  terms: readonly string[],
  request: Pick<TurnRecall, "exclude" | "beforeSeq" | "maxItems">,
): RecalledItem[] {
  const byId = new Map<string, RecallCandidate>();
  for (const c of answer.candidates) byId.set(c.id, c);
  const candidates = [...byId.values()].sort((a, b) => a.seq - b.seq);
  if (candidates.length === 0 && (answer.semantic?.length ?? 0) === 0) return [];
  // Candidates the backend scored keep its scores; the others are scored here.
  const unscored = candidates.filter((c) => c.scores === undefined);
  const ranked = rankCandidates(terms, unscored, unscored.length, {
    stats: corpusStats(answer.stats),
  });
  const { beforeSeq } = request;
  const excluded = new Set(request.exclude);
  for (const c of candidates) {
    if (beforeSeq !== undefined && c.seq >= beforeSeq) excluded.add(c.id);
  }
  const scores = new Map(ranked.map((r) => [r.id, r.score]));
  for (const c of candidates) if (c.scores !== undefined) scores.set(c.id, c.scores.own);
  const fusedIn = candidates.map((c) => ({ id: c.id, seq: c.seq, neighbours: c.scores }));
  const semantic = (answer.semantic ?? []).filter(
    (c) => !excluded.has(c.id) && (beforeSeq === undefined || c.seq < beforeSeq),
  );
  const item = (c: RecallCandidate): RecalledItem => ({ seq: c.seq, role: c.role, text: c.text });
  if (semantic.length === 0) {
    return fuseNeighbours(fusedIn, scores, request.maxItems, excluded).flatMap((r) => {
      const c = byId.get(r.id);
      return c === undefined ? [] : [item(c)];
    });
  }
  // Reciprocal rank fusion over the whole lexical ranking and the semantic one.
  const lexical = fuseNeighbours(fusedIn, scores, candidates.length, excluded);
  const fused = new Map<string, { c: RecallCandidate; score: number }>();
  const add = (c: RecallCandidate, rank: number) => {
    const entry = fused.get(c.id) ?? { c, score: 0 };
    entry.score += 1 / (RRF_K + rank);
    fused.set(c.id, entry);
  };
  lexical.forEach((r, i) => {
    const c = byId.get(r.id);
    if (c !== undefined) add(c, i + 1);
  });
  semantic.forEach((c, i) => {
    add(byId.get(c.id) ?? c, i + 1);
  });
  return [...fused.values()]
    .sort((a, b) => byHigherScore(a.score, b.score) || b.c.seq - a.c.seq)
    .slice(0, Math.max(0, Math.floor(request.maxItems)))
    .map((e) => item(e.c));
}

/** Recall for one turn through a backend's source; [] when the message has no query term. */
export async function recallForTurn(
  source: RecallSource,
  turn: TurnRecall,
): Promise<RecalledItem[]> {
  if (turn.maxItems < 1) return [];
  const terms = queryTerms(turn.question);
  if (terms.length === 0) return [];
  const answer = await source.recall({
    threadId: turn.threadId,
    terms,
    beforeSeq: turn.beforeSeq,
    exclude: turn.exclude,
    limit: Math.max(MIN_CANDIDATES, turn.maxItems * CANDIDATES_PER_ITEM),
  });
  return selectRecalled(answer, terms, turn);
}
