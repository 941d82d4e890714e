/**
 * One page of a stored conversation, read where the thread lives: the head checkpoint (what
 * the window is chosen from) and only the page's older messages, by position. The management
 * API and Studio show a conversation this way on every backend (threads.ts):
 *
 * | saver                          | head                          | the page's older messages     |
 * |--------------------------------|-------------------------------|-------------------------------|
 * | NeonSaver (postgres)           | the live tail                 | `llamon_messages` rows [from, to) |
 * | SqliteSaver (sqlite, in its object) | the live tail            | the object's `llamon_messages` rows |
 * | InMemorySaver (in_memory, in its object) | the thread's last window_size + TAIL_MARGIN messages | sliced from the thread in memory |
 *
 * in_memory keeps the whole thread in the object on purpose (it dies with the object; there
 * is no cold read to bound), so there the object splits it as a live tail would: what leaves
 * the object is the page and that tail, never the whole thread.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import {
  type ArchivedPrefix,
  archivedPrefixOf,
  EMPTY_PREFIX,
  extendPrefix,
  TAIL_MARGIN,
} from "../memory/live-tail.ts";
import { parseSummaryCache } from "../memory/summary.ts";
import { selectWindow } from "../memory/window.ts";
import { readThreadHead } from "../store/delta.ts";
import { hasTranscript } from "../store/transcript.ts";

/** Which messages of a conversation to read: the `limit` before position `before` (the end). */
export interface MessagePage {
  readonly before?: number | undefined;
  readonly limit: number;
}

/** The page's position range in a thread of `total` messages. */
export function pageRange(page: MessagePage, total: number): { from: number; to: number } {
  const to = Math.min(page.before ?? total, total);
  return { from: Math.max(0, to - page.limit), to };
}

/** One page read of a stored thread. */
export interface ThreadPageRead {
  readonly tuple: CheckpointTuple | undefined;
  /** The head's messages (what the window is chosen from). */
  readonly head: BaseMessage[];
  /** The stored messages before `head` (a live tail's transcript), counted. */
  readonly archived: ArchivedPrefix;
  /** The page's messages before the head, in order, from position `from`. */
  readonly before: BaseMessage[];
  /** Then `head.slice(headFrom, headTo)`: the page's messages in the head. */
  readonly headFrom: number;
  readonly headTo: number;
  /** Position of the page's first message. */
  readonly from: number;
  /** Whether stored messages come before the page. */
  readonly older: boolean;
}

/** The page's messages, in order (those in the head are `head`'s own objects). */
export function pageMessages(
  read: Pick<ThreadPageRead, "before" | "head" | "headFrom" | "headTo">,
) {
  return [...read.before, ...read.head.slice(read.headFrom, read.headTo)];
}

/**
 * Where a thread held whole in memory (in_memory) would start its live tail for a window of
 * `windowSize`: the window of windowSize + TAIL_MARGIN whole groups, so the window of the
 * view is inside it (memory/live-tail.ts). 0 (nothing cut) when the summary's `covers_id`
 * lies before the cut but not at `covers - 1`: a trim moved positions, and only the thread
 * itself can re-anchor it (a trimmed thread is short anyway).
 */
function memoryTailStart(
  thread: readonly BaseMessage[],
  windowSize: number,
  summary: unknown,
): number {
  const start =
    selectWindow(thread, { window_size: windowSize + TAIL_MARGIN }).groups[0]?.start ?? 0;
  const cache = parseSummaryCache(summary);
  if (cache?.covers_id === undefined) return start;
  const at = thread.findIndex((message) => message.id === cache.covers_id);
  return at >= 0 && at < start && at + 1 !== cache.covers ? 0 : start;
}

/**
 * One page of the thread `saver` keeps for `threadId` (see the file header). `windowSize` and
 * `summary` (the stored `summary` value) are for a saver without a transcript, which holds
 * the whole thread: without `windowSize` its head is the whole thread.
 */
export async function readThreadPage(
  saver: BaseCheckpointSaver,
  threadId: string,
  page: MessagePage,
  whole: { windowSize?: number | undefined; summary?: unknown } = {},
): Promise<ThreadPageRead> {
  const read = await readThreadHead(saver, {
    configurable: { thread_id: threadId, checkpoint_ns: "" },
  });
  const { tuple } = read;
  if (hasTranscript(saver)) {
    const { messages: head, offset } = read;
    const { from, to } = pageRange(page, offset + head.length);
    const end = Math.min(to, offset);
    const before = end > from ? await saver.readTranscript(threadId, from, end) : [];
    // A trim deletes the transcript's oldest rows only: fewer rows mean the page starts it.
    const start = end > from ? end - before.length : from;
    return {
      tuple,
      head,
      archived: archivedPrefixOf(tuple?.checkpoint.channel_values.archived),
      before,
      headFrom: Math.max(0, from - offset),
      headTo: Math.max(0, to - offset),
      from: start,
      older: start > 0 && start === from,
    };
  }
  const thread = read.messages;
  const cut =
    whole.windowSize === undefined ? 0 : memoryTailStart(thread, whole.windowSize, whole.summary);
  const { from, to } = pageRange(page, thread.length);
  return {
    tuple,
    head: thread.slice(cut),
    archived: cut === 0 ? EMPTY_PREFIX : extendPrefix(EMPTY_PREFIX, thread.slice(0, cut)),
    before: thread.slice(from, Math.min(to, cut)),
    headFrom: Math.max(0, from - cut),
    headTo: Math.max(0, to - cut),
    from,
    older: from > 0,
  };
}
