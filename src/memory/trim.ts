/**
 * Trim (`persist_trim_keep_groups`, R4.2) of the stored thread: keep only its newest N
 * message groups, whatever part of it is in the checkpoint and whatever part is in the
 * transcript (memory/live-tail.ts, store/transcript.ts).
 *
 * The stored thread is `transcript ++ checkpoint messages`. A thread that had a live tail
 * before trim was switched on (at run time, or in a later deploy) still has transcript rows,
 * and trimming only the checkpoint would keep every one of them. So a trimmed turn also
 * deletes the transcript rows older than the kept range, in the same atomic write:
 *
 * - the checkpoint holds at least N groups: every transcript row goes, and the `archived`
 *   count starts again from 0 — the thread is then stored as if trim had always been on (the
 *   checkpoint holds it all, bounded by N groups);
 * - the checkpoint holds k < N groups: the transcript keeps its newest N − k groups (counted
 *   in the database, where the rows are), the older rows go; positions do not change, so the
 *   `archived` count stays;
 * - with summaries on, only what the summary covers is deleted, in the checkpoint and in the
 *   transcript alike (the summary keeps the context of trimmed turns, R7).
 *
 * Pure: the database part is a {@link TranscriptTrim} the saver writes with the turn.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { TranscriptTrim } from "../store/transcript.ts";
import { groupMessages, isWellFormed, trimToLastGroups } from "./groups.ts";
import { type ArchivedPrefix, EMPTY_PREFIX } from "./live-tail.ts";
import { effectiveCovers, type SummaryCache } from "./summary.ts";

export interface TrimPlan {
  /** Checkpoint messages to delete (RemoveMessage), in thread order. */
  readonly removed: BaseMessage[];
  /** The transcript's deletion, when the thread has a transcript. */
  readonly transcript?: TranscriptTrim | undefined;
  /** The new `archived` value, when it changes (the whole transcript went). */
  readonly archived?: ArchivedPrefix | undefined;
}

/**
 * What a trimmed turn deletes. `messages`: the checkpoint's messages as the turn ends;
 * `archived`: the transcript before them; `summary`: the parsed summary cache when summaries
 * are on (undefined: off — nothing limits the trim), `null` when on and there is none yet.
 */
export function planTrim(
  messages: readonly BaseMessage[],
  keepGroups: number,
  archived: ArchivedPrefix = EMPTY_PREFIX,
  summary?: SummaryCache | null,
): TrimPlan {
  let { removed } = trimToLastGroups(messages, keepGroups);
  // Positions in the whole thread below this may be deleted (what the summary covers).
  let bound = Number.POSITIVE_INFINITY;
  if (summary !== undefined) {
    // Never delete what the summary does not cover yet: the summary is what keeps the
    // context of trimmed turns (R4.2 + R7). Summary boundaries are group-aligned.
    bound = effectiveCovers(messages, summary ?? undefined, archived);
    const covered = new Set(messages.slice(0, Math.max(0, bound - archived.messages)));
    removed = removed.filter((m) => covered.has(m));
  }
  if (archived.messages === 0) return { removed };
  const held = groupMessages(messages).filter(isWellFormed).length;
  const fromTranscript = Math.max(0, Math.floor(keepGroups) - held);
  if (fromTranscript === 0 && bound >= archived.messages) {
    return { removed, transcript: { all: true }, archived: EMPTY_PREFIX };
  }
  return {
    removed,
    transcript: {
      all: false,
      before: Math.min(bound, archived.messages),
      keepGroups: fromTranscript,
      archived: archived.messages,
    },
  };
}
