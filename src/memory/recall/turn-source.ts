/**
 * The recall source of one turn on a backend with a transcript (Postgres): what the
 * transcript search read with the thread (its answer, prefetched in the read batch) together
 * with the live tail the turn holds, as one {@link RecallSource}.
 *
 * The tail's messages outside the window are indexed here (a {@link ListRecallSource} over
 * them, at their positions in the whole conversation); a window message lends no score to
 * its neighbour, as with a backend index (source.ts). The transcript's items come ranked
 * (scored by the database with the transcript's statistics, sql.ts SELECT_RECALL); the
 * tail's are scored by the turn with the statistics of both sides added up, so BM25 scores
 * them as over the whole thread. (The transcript's scores leave out the few tail messages
 * outside the window from N and df: a difference of a few documents in thousands.)
 */
import { ListRecallSource, type StoredMessage } from "./memory-source.ts";
import type { RecallAnswer, RecallCandidate, RecallRequest, RecallSource } from "./source.ts";

/** `transcript`: the prefetched answer (undefined = none read); `tail` at its positions. */
export function withTail(
  transcript: RecallAnswer | undefined,
  tail: readonly StoredMessage[],
): RecallSource {
  return {
    recall(request: RecallRequest): RecallAnswer {
      // Only the tail's messages outside the window are indexed (the window's are excluded
      // anyway): the tail is indexed anew every turn, so this keeps its CPU small.
      const outside = tail.filter(
        (m) => m.message.id === undefined || !request.exclude.has(m.message.id),
      );
      const own = new ListRecallSource(() => outside).recall(request);
      if (transcript === undefined) return own;
      // Window exclusions are the turn's (select.ts): excluded neighbours still lend score.
      const tailSeqs = new Set(tail.map((m) => m.seq));
      const past = transcript.candidates.filter((c) => !tailSeqs.has(c.seq));
      const semantic = transcript.semantic?.filter((c) => !tailSeqs.has(c.seq));
      const byId = new Map<string, RecallCandidate>();
      for (const c of [...past, ...own.candidates]) byId.set(c.id, c);
      const a = transcript.stats;
      const b = own.stats;
      if (a === undefined || b === undefined) return { candidates: [...byId.values()], semantic };
      const docs = a.docs + b.docs;
      const df: Record<string, number> = {};
      for (const term of request.terms) df[term] = (a.df[term] ?? 0) + (b.df[term] ?? 0);
      const avgLength = docs === 0 ? 0 : (a.avgLength * a.docs + b.avgLength * b.docs) / docs;
      return { candidates: [...byId.values()], stats: { docs, avgLength, df }, semantic };
    },
  };
}
