/**
 * The summary of out-of-window history (R7): the cached value and WHEN a summary is due.
 * What the summarizer model is sent is in summary-input.ts. Pure: no model, database,
 * Workers or HTTP here.
 *
 * Index space: every index (`covers`, `upto`) is a position in the STORED thread (the
 * checkpoint's `messages` channel, exactly as loaded), so the queue job and the request
 * path agree on it. Stored system-role messages and stale runtime-context copies are not
 * conversation (prompt-thread.ts); they are skipped when counting and when summarizing.
 *
 * Schedule (R7.1), evaluated on the stored thread after a turn:
 *
 * - `count`   = conversation messages in the stored thread (`thread_msgs` of R3.4);
 * - `evicted` = where the window starts: the window is chosen with the real selection
 *   ({@link selectWindow}: window_size, max_history_tokens, groups), and every message
 *   before its first kept group has left the window. Because the window is group-aligned
 *   and always keeps the latest user turn, `evicted` never splits a tool group (parallel
 *   calls included) and never reaches into the latest user turn;
 * - `covers`  = how far the cached summary reaches ({@link effectiveCovers});
 * - `period`  = {@link summaryPeriod}: threshold - window_size, or window_size when the
 *   threshold is not above the window.
 *
 * No summary while `count < summarize_threshold`. Without a summary, the first one is due
 * as soon as something has left the window (`evicted > 0`) and covers all of it. With a
 * summary, the next one is due once `evicted - covers >= period`, and covers [covers, evicted).
 * Example (defaults: threshold 40, window 20, period 20; a turn = user + AI message): after
 * turn 20 the thread holds 40 messages, the window keeps the last 20, so the first summary
 * covers [0, 20); the next comes after turn 30 (evicted 40, covers [20, 40)), then after
 * turns 40, 50, … — one summarizer call every 10 turns, each over 20 messages.
 *
 * Trimmed threads (R4.2): a trim removes a prefix of the stored thread, which shifts
 * indices. So the cache also keeps `covers_id`, the id of the last summarized message,
 * and {@link effectiveCovers} re-anchors on it; when it is gone, the trim removed it with
 * everything before it, so every stored message is newer than the summary.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import { type MemoryConfig, summaryPeriod } from "./config.ts";
import { groupMessages } from "./groups.ts";
import { claimsSystemRole, isRuntimeContextMessage } from "./prompt-thread.ts";
import { selectWindow } from "./window.ts";

/** The persistent_memory key of the summary cache (R7.3). */
export const SUMMARY_KEY = "summary";

/** The value stored under {@link SUMMARY_KEY}: one row per thread, replaced on each summary. */
export interface SummaryCache {
  /** The summary text, injected as the `[이전 대화 요약]` block (R7.4). */
  text: string;
  /** Messages [0, covers) of the stored thread are summarized. */
  covers: number;
  /** Id of the last summarized message (index covers - 1), to re-anchor after a trim. */
  covers_id?: string | undefined;
  /**
   * Messages of the group at `covers` (a tool exchange longer than one job may read,
   * queue/summarize.ts) already in the summary: the next job goes on after them. `covers`
   * itself stays a group boundary, so trims and the schedule count that group as not
   * covered until a job has summarized all of it. Absent (0) otherwise.
   */
  partial?: number | undefined;
  /** ISO time the summary was made ('' when unknown: an older shape). */
  updated_at: string;
  version: 1;
}

const whole = z.number().int().nonnegative();
const currentShape = z.object({
  text: z.string(),
  covers: whole.optional(),
  covers_id: z.string().min(1).optional(),
  partial: whole.optional(),
  updated_at: z.string().optional(),
  version: z.number().optional(),
  // Older / foreign shapes: `summary` for the text, `upto` for the covered count.
  summary: z.string().optional(),
  upto: whole.optional(),
});
const legacyShape = z.object({ summary: z.string(), upto: whole.optional() });

/**
 * Reads a stored summary value, tolerating older shapes: a bare string, `{text}`,
 * `{text, covers}` (no time, no version), `{summary, upto}`. Returns undefined for
 * anything else (no usable summary: the next one starts from scratch and replaces it).
 */
export function parseSummaryCache(value: unknown): SummaryCache | undefined {
  if (typeof value === "string") {
    return value.trim() === "" ? undefined : { text: value, covers: 0, updated_at: "", version: 1 };
  }
  const current = currentShape.safeParse(value);
  if (current.success) {
    const v = current.data;
    return {
      text: v.text,
      covers: v.covers ?? v.upto ?? 0,
      ...(v.covers_id === undefined ? {} : { covers_id: v.covers_id }),
      ...(v.partial === undefined || v.partial === 0 ? {} : { partial: v.partial }),
      updated_at: v.updated_at ?? "",
      version: 1,
    };
  }
  const legacy = legacyShape.safeParse(value);
  if (legacy.success) {
    return { text: legacy.data.summary, covers: legacy.data.upto ?? 0, updated_at: "", version: 1 };
  }
  return undefined;
}

/** The summary text to inject (R7.4), from a stored value of any tolerated shape. */
export function summaryTextOf(value: unknown): string | undefined {
  const text = parseSummaryCache(value)?.text.trim();
  return text === undefined || text === "" ? undefined : text;
}

/** The cache value to store for a summary of messages [0, upto) of `thread`. */
export function newSummaryCache(
  text: string,
  thread: readonly BaseMessage[],
  upto: number,
  now: Date = new Date(),
): SummaryCache {
  const last = upto > 0 ? thread[upto - 1]?.id : undefined;
  return {
    text,
    covers: upto,
    ...(last ? { covers_id: last } : {}),
    updated_at: now.toISOString(),
    version: 1,
  };
}

/** True for stored messages that are conversation (what windows and summaries use). */
export function isConversationMessage(message: BaseMessage): boolean {
  return !claimsSystemRole(message) && !isRuntimeContextMessage(message);
}

/**
 * How far the cached summary reaches in the stored thread as it is now: after its
 * `covers_id` when that message is still stored; 0 when it is gone (a trim removed it and
 * everything before it); otherwise `covers`, at most the thread length. 0 without a cache.
 */
export function effectiveCovers(
  thread: readonly BaseMessage[],
  cache: SummaryCache | undefined,
  before: TranscriptPrefix = NO_PREFIX,
): number {
  if (cache === undefined) return 0;
  if (cache.covers_id !== undefined) {
    const at = thread.findIndex((message) => message.id === cache.covers_id);
    if (at >= 0) return before.messages + at + 1;
    // Not in the live tail: in the transcript (append-only, so `covers` still holds), or
    // removed by a trim with everything before it.
    return before.messages > 0 ? Math.min(cache.covers, before.messages) : 0;
  }
  return Math.min(cache.covers, before.messages + thread.length);
}

/**
 * The part of the stored thread that is not in `thread` because it moved to the transcript
 * (memory/live-tail.ts): `thread` starts at position `messages` of the whole thread. The
 * schedule's indices stay positions in the whole thread.
 */
export interface TranscriptPrefix {
  readonly messages: number;
  readonly conversation: number;
}
const NO_PREFIX: TranscriptPrefix = { messages: 0, conversation: 0 };

/**
 * Where the window starts in the stored thread: messages before this index have left the
 * window (see the file header). Group-aligned; never inside the latest user turn. 0 when the
 * window keeps nothing (a thread without a well-formed group).
 */
export function evictedBoundary(
  thread: readonly BaseMessage[],
  config: Pick<MemoryConfig, "window_size" | "max_history_tokens">,
): number {
  const conversation: BaseMessage[] = [];
  const stored: number[] = [];
  thread.forEach((message, index) => {
    if (!isConversationMessage(message)) return;
    conversation.push(message);
    stored.push(index);
  });
  const window = selectWindow(conversation, {
    window_size: config.window_size,
    max_history_tokens: config.max_history_tokens,
  });
  const first = window.groups[0];
  return first === undefined ? 0 : (stored[first.start] ?? 0);
}

/**
 * The largest index ≤ `upto` that is a safe summary boundary of `thread`: not inside a
 * message group (a tool exchange stays whole) and not past the start of the latest user
 * turn. For jobs whose index was computed on a slightly different thread.
 */
export function alignSummaryBoundary(thread: readonly BaseMessage[], upto: number): number {
  let bound = Math.max(0, Math.min(Math.floor(upto), thread.length));
  for (let i = thread.length - 1; i >= 0; i--) {
    if (thread[i]?.getType() === "human" && isConversationMessage(thread[i] as BaseMessage)) {
      bound = Math.min(bound, i);
      break;
    }
  }
  for (const group of groupMessages(thread)) {
    if (group.start < bound && bound < group.end) return group.start;
  }
  return bound;
}

export type SummaryConfig = Pick<
  MemoryConfig,
  "summarize_threshold" | "window_size" | "max_history_tokens"
>;

export type SummaryDue = { due: false } | { due: true; upto: number };

/** Where the thread stands against the R7.1 schedule (see the file header). */
export interface SummaryStanding {
  /** Conversation messages in the stored thread. */
  count: number;
  /** Messages before this stored index have left the window. */
  evicted: number;
  /** The cached summary covers [0, covers). */
  covers: number;
  /** The R7.1 period. */
  period: number;
  due: SummaryDue;
}

export function summaryStanding(
  thread: readonly BaseMessage[],
  cache: SummaryCache | undefined,
  config: SummaryConfig,
  before: TranscriptPrefix = NO_PREFIX,
): SummaryStanding {
  const count = before.conversation + thread.filter(isConversationMessage).length;
  const evicted = before.messages + evictedBoundary(thread, config);
  const covers = effectiveCovers(thread, cache, before);
  const period = summaryPeriod(config);
  let due: SummaryDue = { due: false };
  if (count >= config.summarize_threshold) {
    const first = cache === undefined;
    if (first ? evicted > 0 : evicted - covers >= period) due = { due: true, upto: evicted };
  }
  return { count, evicted, covers, period, due };
}

/**
 * R7.1: is a (re)summary due for the stored thread, and up to which index? See the file
 * header for the rule. `thread` is the stored thread after the turn (its messages, because
 * the window is group-aligned); `cache` the parsed `summary` row, if any.
 */
export function summaryDue(
  thread: readonly BaseMessage[],
  cache: SummaryCache | undefined,
  config: SummaryConfig,
  before: TranscriptPrefix = NO_PREFIX,
): SummaryDue {
  return summaryStanding(thread, cache, config, before).due;
}
