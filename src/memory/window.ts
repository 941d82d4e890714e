/**
 * The window: which stored messages are sent to the model (R3.1–R3.3).
 *
 * Selection works on message groups (groups.ts), never on single messages:
 *
 * 1. The latest user turn — the last HumanMessage and everything after it — is always
 *    kept, even when it alone is larger than `window_size` or `max_history_tokens`.
 *    (A thread without any HumanMessage has no such turn; nothing is forced then.)
 * 2. Older groups are added newest first while the total message count stays
 *    ≤ `window_size` and, when set, the estimated tokens stay ≤ `max_history_tokens`.
 *    The first group that does not fit ends the selection: the window stays one
 *    contiguous run of groups (no smaller, older group is taken past a bigger one), so
 *    the oldest groups are the ones dropped and turn boundaries are kept.
 * 3. Malformed groups (orphan tool results, unanswered tool calls) are never sent and do
 *    not count (see groups.ts); system messages are left out (the system prompt is rebuilt
 *    on every call). So the message count may differ from `window_size`.
 *
 * The input array and its messages are never modified: windowing does not change the
 * stored thread.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { groupingRestart, groupMessages, isWellFormed, type MessageGroup } from "./groups.ts";
import { estimateTokens } from "./tokens.ts";

export interface WindowOptions {
  /** Maximum messages sent (R3.1), except that the latest user turn is always kept. */
  window_size: number;
  /** Optional token cap (R3.3), same group rules; unset or null = no cap. */
  max_history_tokens?: number | null | undefined;
  /** Token counter for the cap; defaults to {@link estimateTokens}. */
  countTokens?: ((message: BaseMessage) => number) | undefined;
}

export interface WindowSelection {
  /** The messages to send after the system prompt, in thread order. */
  messages: BaseMessage[];
  /** The selected groups, in thread order. */
  groups: MessageGroup[];
  /** Well-formed groups left out because they are older than the window, in order. */
  dropped: MessageGroup[];
  /** Groups never sent because they are malformed (orphan tool results, unanswered calls). */
  malformed: MessageGroup[];
  /** Messages in the stored thread (the input length): `thread_msgs` of the R3.4 log line. */
  threadMessages: number;
}

/** Index of the last HumanMessage, or -1. */
function lastHumanIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.getType() === "human") return i;
  }
  return -1;
}

interface Pick {
  /** Well-formed groups of the grouped suffix, in order. */
  wellFormed: MessageGroup[];
  /** Index in `wellFormed` of the first selected group. */
  first: number;
  /** True when the selection stopped at a group that did not fit (not at the suffix start). */
  full: boolean;
}

/** Runs the selection rules over the groups of `messages` from `from` on. */
function pickFrom(
  messages: readonly BaseMessage[],
  from: number,
  turnStart: number,
  options: WindowOptions,
): Pick {
  const wellFormed = groupMessages(messages, from).filter(isWellFormed);
  let first = wellFormed.length;
  while (first > 0 && turnStart >= 0 && (wellFormed[first - 1]?.start ?? -1) >= turnStart) {
    first--;
  }
  const cap = options.max_history_tokens ?? undefined;
  const count = options.countTokens ?? estimateTokens;
  const groupTokens = (group: MessageGroup): number =>
    group.messages.reduce((sum, message) => sum + count(message), 0);
  let size = 0;
  let tokens = 0;
  for (let i = first; i < wellFormed.length; i++) {
    const group = wellFormed[i] as MessageGroup;
    size += group.messages.length;
    if (cap !== undefined) tokens += groupTokens(group);
  }
  while (first > 0) {
    const group = wellFormed[first - 1] as MessageGroup;
    if (size + group.messages.length > options.window_size)
      return { wellFormed, first, full: true };
    if (cap !== undefined) {
      const more = groupTokens(group);
      if (tokens + more > cap) return { wellFormed, first, full: true };
      tokens += more;
    }
    size += group.messages.length;
    first--;
  }
  return { wellFormed, first, full: false };
}

/**
 * Selects the window of a stored thread (see the file header).
 *
 * Cost is O(window), not O(thread): grouping starts near the end (at a
 * {@link groupingRestart} point, where the groups are the same as a whole-thread pass
 * would make) and moves back, doubling the span, only while every grouped group still fits.
 * `dropped` and `malformed` describe the whole thread and are computed when read.
 */
export function selectWindow(
  messages: readonly BaseMessage[],
  options: WindowOptions,
): WindowSelection {
  const turnStart = lastHumanIndex(messages);
  let span = 2 * Math.max(1, options.window_size);
  const end = turnStart >= 0 ? turnStart : messages.length;
  let from = groupingRestart(messages, end - span);
  let pick = pickFrom(messages, from, turnStart, options);
  while (!pick.full && from > 0) {
    span *= 2;
    from = groupingRestart(messages, Math.min(from - 1, end - span));
    pick = pickFrom(messages, from, turnStart, options);
  }
  const groups = pick.wellFormed.slice(pick.first);
  const windowStart = groups[0]?.start ?? messages.length;
  let all: MessageGroup[] | undefined;
  const allGroups = (): MessageGroup[] => {
    all ??= groupMessages(messages);
    return all;
  };
  return {
    messages: groups.flatMap((group) => group.messages),
    groups,
    get dropped() {
      return allGroups().filter((group) => isWellFormed(group) && group.start < windowStart);
    },
    get malformed() {
      return allGroups().filter((group) => !isWellFormed(group));
    },
    threadMessages: messages.length,
  };
}
