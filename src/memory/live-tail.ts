/**
 * The live tail: what a conversation's checkpoint keeps, so that a turn's read
 * and write do not grow with the conversation.
 *
 * The stored thread is `transcript ++ tail`. The tail is the checkpoint's `messages`
 * channel; the transcript (store/transcript.ts, table `llamon_messages`) holds every older
 * message, append-only, by position. After each turn the messages older than the tail move
 * from the checkpoint (LangGraph `RemoveMessage`) to the transcript in the same atomic write.
 *
 * The tail starts where a window of `window_size + TAIL_MARGIN` messages (whole groups, no
 * token cap, R3.2) would start. The next turn's window (window_size and max_history_tokens)
 * is always inside it: adding messages only moves a window's start forward. The margin lets
 * `window_size` grow a little at run time (PATCH) without the window running short; past it
 * the window fills again as the conversation goes on. It is small on purpose: the tail is
 * what every turn reads and writes, so its size is the turn's I/O.
 *
 * `ArchivedPrefix` (store/transcript.ts) is what the turn still needs to know about the transcript without
 * reading it: how many messages (the tail's offset, for the summary schedule's indices), how
 * many of them are conversation (`thread_msgs` of R3.4) and whether an earlier turn was
 * answered (`has_prior`, R3.5).
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { ArchivedPrefix } from "../store/transcript.ts";
import type { MemoryConfig } from "./config.ts";
import { groupingRestart } from "./groups.ts";
import { isConversationMessage } from "./summary.ts";
import { selectWindow } from "./window.ts";

/** Messages the tail keeps beyond `window_size` (see the file header). */
export const TAIL_MARGIN = 4;

/**
 * At most this many messages move to the transcript in one turn. Only a thread stored before
 * the live tail (its whole history in the checkpoint) has more to move: it moves over a few
 * turns, each write well under Neon's 10 MB request limit.
 */
export const MAX_MOVED_PER_TURN = 1000;

/**
 * Index in `thread` (the tail as the turn ends) of the first message to keep; everything
 * before it moves to the transcript. Group-aligned, never inside the latest user turn.
 */
export function liveTailStart(
  thread: readonly BaseMessage[],
  config: Pick<MemoryConfig, "window_size">,
): number {
  const window = selectWindow(thread, { window_size: config.window_size + TAIL_MARGIN });
  // Malformed groups and system messages before the first kept group are older than the
  // tail and move too (the window never sends them; the transcript keeps them).
  const start = window.groups[0]?.start ?? 0;
  return start <= MAX_MOVED_PER_TURN ? start : groupingRestart(thread, MAX_MOVED_PER_TURN);
}

/** The prefix after `moved` (the oldest messages of the tail) joined the transcript. */
export function extendPrefix(
  prefix: ArchivedPrefix,
  moved: readonly BaseMessage[],
): ArchivedPrefix {
  return {
    messages: prefix.messages + moved.length,
    conversation: prefix.conversation + moved.filter(isConversationMessage).length,
    ai: prefix.ai || moved.some((m) => m.getType() === "ai"),
  };
}

export { type ArchivedPrefix, archivedPrefixOf, EMPTY_PREFIX } from "../store/transcript.ts";
