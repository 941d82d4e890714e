/**
 * Running one summarize job (R7.2–R7.5), whatever the backend: load the stored thread,
 * read the `summary` row, call the model with the previous summary + the newly evicted
 * messages only, upsert the row.
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
import {
  alignSummaryBoundary,
  effectiveCovers,
  newSummaryCache,
  parseSummaryCache,
  SUMMARY_KEY,
} from "../memory/summary.ts";
import { messageText, SUMMARY_MAX_CHARS, summarizerInput } from "../memory/summary-input.ts";
import { readThreadMessages } from "../store/delta.ts";
import type { JsonValue, PersistentMemory } from "../store/persistent-memory.ts";
import type { SummarizeJob } from "./jobs.ts";

export interface SummarizeDeps {
  /** The stored thread's messages (the latest checkpoint), read-only. */
  loadThread(): Promise<BaseMessage[]>;
  /** persistent_memory of the job's agent. */
  readonly memory: PersistentMemory;
  /** The agent's model (the summary is made with the agent's LLM). */
  readonly model: BaseChatModel;
  readonly log?: Logger | undefined;
  /** Clock for `updated_at` (tests). */
  readonly now?: (() => Date) | undefined;
}

export type SummarizeSkipReason =
  /** The cached summary already covers `upto` (a duplicate or outdated delivery). */
  | "already_covered"
  /** The messages the job names are not in the stored thread (trimmed, evicted, deleted). */
  | "not_in_thread";

/** What a job did; plain data, so it crosses Durable Object RPC. */
export type SummarizeOutcome =
  | { status: "summarized"; threadId: string; from: number; covers: number }
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

export async function runSummarizeJob(
  deps: SummarizeDeps,
  job: SummarizeJob,
): Promise<SummarizeOutcome> {
  const threadId = job.thread_id;
  const where = `agent=${job.agent_id} thread=${threadId} upto=${job.upto}`;
  const thread = await deps.loadThread();
  const cache = parseSummaryCache(await deps.memory.get(threadId, SUMMARY_KEY));
  const from = effectiveCovers(thread, cache);
  const upto = resolveUpto(thread, job);
  if (upto === undefined) {
    deps.log?.warn(`summary: skipped ${where}: those messages are not in the stored thread`);
    return { status: "skipped", threadId, reason: "not_in_thread", covers: from };
  }
  if (from >= upto) {
    deps.log?.info(`summary: skipped ${where}: the cached summary already covers ${from}`);
    return { status: "skipped", threadId, reason: "already_covered", covers: from };
  }

  const reply = await deps.model.invoke(summarizerInput(thread, cache, upto));
  const text = messageText(reply).trim().slice(0, SUMMARY_MAX_CHARS);
  if (text === "") {
    throw new LlamonError("MODEL_FAILED", `the model returned an empty summary (${where})`, {
      details: { threadId, upto },
    });
  }

  // Another delivery of this (or a later) job may have finished while the model ran.
  const latest = effectiveCovers(
    thread,
    parseSummaryCache(await deps.memory.get(threadId, SUMMARY_KEY)),
  );
  if (latest >= upto) {
    deps.log?.info(`summary: skipped ${where}: a concurrent run already covers ${latest}`);
    return { status: "skipped", threadId, reason: "already_covered", covers: latest };
  }
  const value = newSummaryCache(text, thread, upto, deps.now?.() ?? new Date());
  await deps.memory.set(threadId, SUMMARY_KEY, value as unknown as JsonValue);
  deps.log?.info(`summary: ${where} covered [${from}, ${upto}) → covers ${upto}`);
  return { status: "summarized", threadId, from, covers: upto };
}
