/**
 * Running one summarize job (R7.2–R7.5), whatever the backend: read the `summary` row and
 * the thread's head, then only the range [covers, upto) the job summarizes (from the
 * transcript by position, at most {@link SUMMARY_JOB_MAX_MESSAGES}: a longer range is left to
 * the next job), call the model with the previous summary + those messages, upsert the row.
 * A range ends at a group boundary (a tool exchange stays whole), except inside one group
 * longer than the cap: the job then summarizes the cap's worth of it and records how far it
 * got (`partial` of the cache), and the next job goes on after exactly that — so every job
 * stays bounded, and no message is skipped or summarized twice.
 *
 * - Idempotent (delivery is at least once): when the cached summary already reaches the
 *   job's `upto`, nothing is done and the outcome says so; the row is read again right
 *   before writing, so a concurrent delivery that finished first is not redone either.
 * - Read-only on the thread: stored checkpoints are never written (R7.4); only the one
 *   `summary` row of the thread is upserted (R7.3).
 * - Failures throw (model or database), so the queue retries the message and, after
 *   `max_retries`, moves it to the dead-letter queue. The previous row is left exactly as it
 *   was: it is written only after the model answered (R7.5).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { LlamonError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { groupMessages } from "../memory/groups.ts";
import {
  alignSummaryBoundary,
  effectiveCovers,
  isConversationMessage,
  newSummaryCache,
  parseSummaryCache,
  SUMMARY_KEY,
  type SummaryCache,
} from "../memory/summary.ts";
import { messageText, SUMMARY_MAX_CHARS, summarizerInputOf } from "../memory/summary-input.ts";
import { readThreadHead, readThreadMessages } from "../store/delta.ts";
import type { JsonValue, PersistentMemory } from "../store/persistent-memory.ts";
import type { ThreadFence } from "../store/thread-fence.ts";
import { hasTranscript } from "../store/transcript.ts";
import type { SummarizeJob } from "./jobs.ts";

/**
 * Most messages one job summarizes, and so reads of the transcript: a longer range (a first
 * summary of a long conversation, summaries switched on late) is covered by successive jobs,
 * each going on from the `covers` the one before stored.
 */
export const SUMMARY_JOB_MAX_MESSAGES = 200;

/**
 * How a job reads the stored thread: the part its head checkpoint holds, and ranges of the
 * transcript before it — so a job reads what it summarizes, not the whole conversation.
 */
export interface SummaryThread {
  /** The head's messages and the position of the first (0: `messages` is the whole thread). */
  head(): Promise<{ messages: BaseMessage[]; offset: number }>;
  /** The messages at positions [from, to) of the transcript (to ≤ the head's offset). */
  range(from: number, to: number): Promise<BaseMessage[]>;
}

export interface SummarizeDeps {
  /** The stored thread (latest checkpoint + transcript), read-only. */
  readonly thread?: SummaryThread | undefined;
  /** Or the whole thread's messages at once (tests). */
  loadThread?(): Promise<BaseMessage[]>;
  /** persistent_memory of the job's agent. */
  readonly memory: PersistentMemory;
  /**
   * The thread's generation (R11.1): read before the thread, and the summary row is written
   * only while it holds — a job that read a conversation that was then erased writes nothing.
   * Every host passes one; without it (unit tests of the range logic) the row is set plainly.
   */
  readonly fence?: ThreadFence | undefined;
  /** The agent's model (the summary is made with the agent's LLM). */
  readonly model: BaseChatModel;
  readonly log?: Logger | undefined;
  /** Clock for `updated_at` (tests). */
  readonly now?: (() => Date) | undefined;
  /** Default {@link SUMMARY_JOB_MAX_MESSAGES}. */
  readonly maxMessages?: number | undefined;
}

export type SummarizeSkipReason =
  /** The cached summary already covers `upto` (a duplicate or outdated delivery). */
  | "already_covered"
  /** The messages the job names are not in the stored thread (trimmed, evicted, deleted). */
  | "not_in_thread"
  /** The conversation was erased (or pruned) before or while the job ran: nothing written. */
  | "erased";

/** What a job did; plain data, so it crosses Durable Object RPC. */
export type SummarizeOutcome =
  | {
      status: "summarized";
      threadId: string;
      from: number;
      covers: number;
      /** Messages of the group at `covers` summarized so far (a group longer than a job). */
      partial?: number;
    }
  | { status: "skipped"; threadId: string; reason: SummarizeSkipReason; covers: number };

/** The thread's messages in its latest root checkpoint ([] when there is none). */
export async function loadThreadMessages(
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<BaseMessage[]> {
  const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
  return (await readThreadMessages(saver, config)).messages;
}

/**
 * A saver's thread as a job reads it: the head checkpoint, then transcript ranges by
 * position (NeonSaver; SqliteSaver inside the conversation's object). A saver without a
 * transcript (in_memory's, inside its object) holds the whole thread in its head, which is
 * then what a job reads — in the object's memory; only the outcome leaves the object.
 */
export function savedThread(saver: BaseCheckpointSaver, threadId: string): SummaryThread {
  const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
  return {
    head: () => readThreadHead(saver, config),
    range: async (from, to) =>
      to > from && hasTranscript(saver) ? saver.readTranscript(threadId, from, to) : [],
  };
}

/** A whole thread read at once, as a {@link SummaryThread}. */
function wholeThread(load: () => Promise<BaseMessage[]>): SummaryThread {
  return { head: async () => ({ messages: await load(), offset: 0 }), range: async () => [] };
}

/**
 * The job's `upto` in the thread as stored now: re-anchored on `upto_id` when given, then
 * aligned to a safe boundary (never inside a tool group or the latest user turn).
 * undefined when the named messages are not stored (any more).
 */
export function resolveUpto(thread: readonly BaseMessage[], job: SummarizeJob): number | undefined {
  let upto = job.upto;
  if (job.upto_id !== undefined) {
    const at = thread.findIndex((message) => message.id === job.upto_id);
    if (at < 0) return undefined;
    upto = at + 1;
  }
  if (upto > thread.length) return undefined;
  const aligned = alignSummaryBoundary(thread, upto);
  return aligned > 0 ? aligned : undefined;
}

type Head = Awaited<ReturnType<SummaryThread["head"]>>;

/** The job's `upto` as a position of the whole thread (before alignment), or undefined. */
async function locateUpto(
  reader: SummaryThread,
  head: Head,
  job: SummarizeJob,
): Promise<number | undefined> {
  const length = head.offset + head.messages.length;
  if (job.upto > length && job.upto_id === undefined) return undefined;
  if (job.upto_id === undefined) return job.upto;
  const at = head.messages.findIndex((message) => message.id === job.upto_id);
  if (at >= 0) return head.offset + at + 1;
  // In the transcript: positions there never move (append-only), so it is at upto - 1.
  if (job.upto > head.offset) return undefined;
  const [message] = await reader.range(job.upto - 1, job.upto);
  return message?.id === job.upto_id ? job.upto : undefined;
}

/** Messages at positions [from, to) of the whole thread; undefined when some are not stored. */
async function readSlice(
  reader: SummaryThread,
  head: Head,
  from: number,
  to: number,
): Promise<BaseMessage[] | undefined> {
  const older = await reader.range(from, Math.min(to, head.offset));
  if (older.length !== Math.max(0, Math.min(to, head.offset) - from)) return undefined;
  const start = Math.max(0, from - head.offset);
  return [...older, ...head.messages.slice(start, Math.max(start, to - head.offset))];
}

/**
 * The largest position ≤ `end` in `slice` (positions [from, …)) that is a safe summary
 * boundary: not inside a message group and not past `latestUser`, the start of the latest
 * user turn. `slice` holds the message at `end` when the thread has one, which is all it takes
 * to see whether `end` falls inside a group; `from` is a boundary already.
 */
function alignEnd(slice: readonly BaseMessage[], from: number, end: number, latestUser: number) {
  const bound = Math.min(end, latestUser) - from;
  for (const group of groupMessages(slice)) {
    if (group.start < bound && bound < group.end) return from + group.start;
  }
  return from + Math.max(0, bound);
}

/** Position of the latest user message of the whole thread (in the head), or Infinity. */
function latestUserAt(head: Head): number {
  for (let i = head.messages.length - 1; i >= 0; i--) {
    const message = head.messages[i] as BaseMessage;
    if (message.getType() === "human" && isConversationMessage(message)) return head.offset + i;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Where a job's range ends: a group boundary, a cut inside one long group, or nothing to do.
 * `slice` holds positions [from, …) (the message at `end` too, when stored); `partial`: the
 * cache's messages of the group at its `covers` already summarized (then `from` is inside
 * that group, after them).
 */
type RangeEnd =
  /** Summarize [from, upto); the summary then covers through upto (a group boundary). */
  | { readonly kind: "boundary"; readonly upto: number }
  /** Summarize [from, upto), inside the group starting at `group`: not yet all of it. */
  | { readonly kind: "inside"; readonly upto: number; readonly group: number }
  | { readonly kind: "none" };

/** True for the messages that go on a tool exchange: its tool results (and system lines). */
function continuesGroup(message: BaseMessage): boolean {
  const type = message.getType();
  return type === "tool" || type === "system";
}

/**
 * The end of a job's range [from, …): the largest safe boundary ≤ `end`. When the cap cut
 * (`end < located`) falls inside one group longer than the cap, the job covers the cap's
 * worth of that group (`inside`) and the next job goes on from there — every job reads and
 * summarizes at most the cap, and no message is summarized twice or skipped.
 */
function rangeEnd(
  slice: readonly BaseMessage[],
  at: { from: number; end: number; located: number; latestUser: number; partial: number },
): RangeEnd {
  const { from, end, located, latestUser, partial } = at;
  let start = from;
  if (partial > 0) {
    // Inside a group an earlier job began: its remaining tool results run up to `rest`.
    const after = slice.findIndex((message) => !continuesGroup(message));
    const rest = from + (after < 0 ? slice.length : after);
    if (rest > end) {
      return end < located && end > from
        ? { kind: "inside", upto: end, group: from - partial }
        : { kind: "none" };
    }
    start = rest;
  }
  const upto = alignEnd(slice.slice(start - from), start, end, latestUser);
  if (upto > start) return { kind: "boundary", upto };
  if (start > from) return { kind: "boundary", upto: start };
  // One group longer than the cap starts at `from`: cover the cap's worth of it.
  const [first] = groupMessages(slice);
  const cut = end - from;
  const startsHere =
    first !== undefined && slice.slice(0, first.start).every((m) => m.getType() === "system");
  if (end < located && end < latestUser && startsHere && first.end > cut && cut > 0) {
    return { kind: "inside", upto: end, group: from };
  }
  return { kind: "none" };
}

export async function runSummarizeJob(
  deps: SummarizeDeps,
  job: SummarizeJob,
): Promise<SummarizeOutcome> {
  const threadId = job.thread_id;
  const where = `agent=${job.agent_id} thread=${threadId} upto=${job.upto}`;
  const reader =
    deps.thread ?? wholeThread(deps.loadThread ?? (async (): Promise<BaseMessage[]> => []));
  // The generation first: whatever is read after it is of this generation or fenced off.
  const generation = deps.fence === undefined ? undefined : await deps.fence.generation(threadId);
  if (deps.fence !== undefined && generation === undefined) {
    deps.log?.warn(`summary: skipped ${where}: the conversation is not stored (erased or never)`);
    return { status: "skipped", threadId, reason: "not_in_thread", covers: 0 };
  }
  const cache = parseSummaryCache(await deps.memory.get(threadId, SUMMARY_KEY));
  const head = await reader.head();
  // How far a summary reaches: its covers, plus what it holds of the group there.
  const reach = (value: SummaryCache | undefined) => {
    const covers = effectiveCovers(head.messages, value, {
      messages: head.offset,
      conversation: 0,
    });
    return covers + (value?.partial ?? 0);
  };
  const from = reach(cache);
  const partial = cache?.partial ?? 0;
  const located = await locateUpto(reader, head, job);
  const length = head.offset + head.messages.length;
  const notInThread = (): SummarizeOutcome => {
    deps.log?.warn(`summary: skipped ${where}: those messages are not in the stored thread`);
    return { status: "skipped", threadId, reason: "not_in_thread", covers: from };
  };
  if (located === undefined) return notInThread();
  const alreadyCovered = (): SummarizeOutcome => {
    deps.log?.info(`summary: skipped ${where}: the cached summary already covers ${from}`);
    return { status: "skipped", threadId, reason: "already_covered", covers: from };
  };
  if (from >= located) return located > 0 ? alreadyCovered() : notInThread();

  // Read [from, end] (the message at `end` too, to align on it), at most maxMessages + 1.
  const max = Math.max(1, Math.floor(deps.maxMessages ?? SUMMARY_JOB_MAX_MESSAGES));
  const end = Math.min(located, from + max);
  const slice = await readSlice(reader, head, from, Math.min(end + 1, length));
  if (slice === undefined) return notInThread();
  const range = rangeEnd(slice, { from, end, located, latestUser: latestUserAt(head), partial });
  if (range.kind === "none") return from > 0 ? alreadyCovered() : notInThread();
  const upto = range.upto;
  const evicted = slice.slice(0, upto - from);

  const reply = await deps.model.invoke(summarizerInputOf(cache, evicted));
  const text = messageText(reply).trim().slice(0, SUMMARY_MAX_CHARS);
  if (text === "") {
    throw new LlamonError("MODEL_FAILED", `the model returned an empty summary (${where})`, {
      details: { threadId, upto },
    });
  }

  // Another delivery of this (or a later) job may have finished while the model ran.
  const latest = reach(parseSummaryCache(await deps.memory.get(threadId, SUMMARY_KEY)));
  if (latest >= upto) {
    deps.log?.info(`summary: skipped ${where}: a concurrent run already covers ${latest}`);
    return { status: "skipped", threadId, reason: "already_covered", covers: latest };
  }
  const now = deps.now?.() ?? new Date();
  const value: SummaryCache =
    range.kind === "boundary"
      ? { ...newSummaryCache(text, evicted, evicted.length, now), covers: upto }
      : {
          text,
          covers: range.group,
          // The group starts where the summary's covers is: its covers_id stays.
          ...(range.group > 0 && cache?.covers_id !== undefined
            ? { covers_id: cache.covers_id }
            : {}),
          partial: upto - range.group,
          updated_at: now.toISOString(),
          version: 1,
        };
  const stored = value as unknown as JsonValue;
  if (deps.fence === undefined || generation === undefined) {
    await deps.memory.set(threadId, SUMMARY_KEY, stored);
  } else if (!(await deps.fence.setIfCurrent(threadId, generation, SUMMARY_KEY, stored))) {
    deps.log?.warn(`summary: dropped ${where}: the conversation was erased while it ran`);
    return { status: "skipped", threadId, reason: "erased", covers: 0 };
  }
  const rest = upto < located ? ` (the next job goes on to ${located})` : "";
  const inside =
    range.kind === "inside"
      ? `, ${upto - range.group} messages into the group at ${range.group}`
      : "";
  deps.log?.info(
    `summary: ${where} covered [${from}, ${upto})${inside} → covers ${value.covers}${rest}`,
  );
  return range.kind === "inside"
    ? { status: "summarized", threadId, from, covers: range.group, partial: upto - range.group }
    : { status: "summarized", threadId, from, covers: upto };
}
