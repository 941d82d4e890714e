/**
 * The request path's side of summaries (R7.5, DESIGN "One turn" step 6): after a turn is
 * saved, decide whether a summary is due (R7.1) and, if so, enqueue a job — never wait for
 * it, never fail the turn because of it.
 *
 * - `SUMMARY_QUEUE` bound: `await queue.send(job)` — one small call, only on the turn a
 *   summary became due; the summary itself is made later by the consumer;
 * - no queue (Node tools, tests): the job runs in the background through `runLocally`,
 *   handed to `waitUntil` (never awaited).
 *
 * Throttle: while a job is queued, retried or has failed, the cache does not move, so the
 * summary stays "due" on every later turn. A job is therefore enqueued only on the turn
 * that made it due, and again each time another full period of messages has left the
 * window (given `turnMessages`). Duplicates that still happen (concurrent turns) cost
 * nothing: jobs are idempotent.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createLogger, type Logger } from "../log.ts";
import type { MemoryConfig } from "../memory/config.ts";
import {
  parseSummaryCache,
  SUMMARY_KEY,
  type SummaryStanding,
  summaryStanding,
  type TranscriptPrefix,
} from "../memory/summary.ts";
import { type Env, parseWorkerVars } from "../runtime/env.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import {
  createPostgresMemory,
  type JsonValue,
  type PersistentMemory,
} from "../store/persistent-memory.ts";
import { postgresFence, type ThreadFence } from "../store/thread-fence.ts";
import { summarizeHere } from "./host.ts";
import type { SummarizeJob } from "./jobs.ts";

export type SummaryScheduleConfig = Pick<
  MemoryConfig,
  "enabled" | "backend" | "summarize" | "summarize_threshold" | "window_size" | "max_history_tokens"
>;

export interface SummaryJobInput {
  readonly config: SummaryScheduleConfig;
  readonly agentId: string;
  readonly threadId: string;
  /** The stored thread after the turn. */
  readonly thread: readonly BaseMessage[];
  /** The thread's stored `summary` value as read with the checkpoint (any shape, or undefined). */
  readonly cache: unknown;
  /** Messages this turn added to the end of `thread` (enables the throttle above). */
  readonly turnMessages?: number | undefined;
  /** The transcript before `thread` (a live tail, memory/live-tail.ts); none by default. */
  readonly archived?: TranscriptPrefix | undefined;
}

function behindPeriods(standing: SummaryStanding): number {
  return Math.floor(Math.max(0, standing.evicted - standing.covers) / standing.period);
}

/** The job to enqueue after this turn, or undefined (not due, off, or already enqueued). */
export function summaryJobFor(input: SummaryJobInput): SummarizeJob | undefined {
  const { config, thread } = input;
  if (!config.summarize || !config.enabled || config.backend === "off") return undefined;
  const cache = parseSummaryCache(input.cache);
  const archived = input.archived;
  const now = summaryStanding(thread, cache, config, archived);
  if (!now.due.due) return undefined;
  const added = input.turnMessages ?? 0;
  if (added > 0 && added < thread.length) {
    const earlier = thread.slice(0, thread.length - added);
    const before = summaryStanding(earlier, cache, config, archived);
    if (before.due.due && behindPeriods(now) <= behindPeriods(before)) return undefined;
  }
  const upto = now.due.upto;
  const uptoId = thread[upto - (archived?.messages ?? 0) - 1]?.id;
  return {
    type: "summarize",
    agent_id: input.agentId,
    thread_id: input.threadId,
    upto,
    ...(uptoId ? { upto_id: uptoId } : {}),
  };
}

export interface EnqueueSummaryInput extends SummaryJobInput {
  /** `env.SUMMARY_QUEUE` when bound. */
  readonly queue?: { send(job: SummarizeJob): Promise<unknown> } | undefined;
  /** Runs the job here when no queue is bound (Node tools, tests). */
  readonly runLocally?: ((job: SummarizeJob) => Promise<unknown>) | undefined;
  /** The request's (or object's) `waitUntil`; without it the work is only detached. */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  readonly log?: Logger | undefined;
}

/**
 * Enqueue a summary job when one is due (R7.1). Resolves with the job (or undefined) once
 * the queue accepted it — one small `send`, only on the turn a summary became due — and
 * never waits for the summary itself: a local run goes to `waitUntil`. Never rejects: a
 * failure here is logged and the turn's answer is unaffected (R7.5).
 */
export async function enqueueSummaryIfDue(
  input: EnqueueSummaryInput,
): Promise<SummarizeJob | undefined> {
  const log = input.log ?? createLogger();
  const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
  let job: SummarizeJob | undefined;
  try {
    job = summaryJobFor(input);
  } catch (error) {
    log.error(`summary: could not check the schedule: ${reason(error)}`);
    return undefined;
  }
  if (job === undefined) return undefined;
  const where = `agent=${job.agent_id} thread=${job.thread_id} upto=${job.upto}`;
  if (input.queue !== undefined) {
    try {
      await input.queue.send(job);
      log.info(`summary: enqueued ${where}`);
      return job;
    } catch (error) {
      log.error(
        `summary: enqueue failed (${where}); the previous summary stays in use: ${reason(error)}`,
      );
      return undefined;
    }
  }
  const run = input.runLocally;
  if (run === undefined) {
    log.warn(`summary: due (${where}) but there is no SUMMARY_QUEUE binding and no local runner`);
    return undefined;
  }
  const background = Promise.resolve()
    .then(() => run(job))
    .then(
      () => log.info(`summary: ran in the background ${where}`),
      (error: unknown) =>
        log.error(
          `summary: background run failed (${where}); the previous summary stays in use: ${reason(error)}`,
        ),
    );
  input.waitUntil?.(background);
  return job;
}

/** What the turn runner knows right after a turn was saved. */
export interface SavedTurn {
  readonly threadId: string;
  /** The stored thread after the turn (the graph's final messages). */
  readonly thread: readonly BaseMessage[];
  /** Messages the turn added. */
  readonly added: number;
  /** The transcript before `thread` when the thread is a live tail. */
  readonly archived?: TranscriptPrefix | undefined;
  /** The thread's persistent_memory rows the turn read with its head (its summary row). */
  readonly memory?: Readonly<Record<string, JsonValue>> | undefined;
}

export interface AfterTurnOptions {
  readonly env: Env;
  readonly config: SummaryScheduleConfig;
  /** The turn's checkpointer. */
  readonly saver: BaseCheckpointSaver | undefined;
  /** persistent_memory for the local fallback; derived from a NeonSaver when omitted. */
  readonly memory?: PersistentMemory | undefined;
  /** The thread's fence for the local fallback (R11.1); derived from a NeonSaver when omitted. */
  readonly fence?: ThreadFence | undefined;
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** The model of the local fallback; default: the agent's (summarizerModel(env)). */
  readonly model?: BaseChatModel | undefined;
  readonly log?: Logger | undefined;
}

/**
 * Step 6 of a turn, wired to a Worker env: the queue when `SUMMARY_QUEUE` is bound,
 * otherwise a background run with the turn's saver (handed to `waitUntil`). Never rejects.
 */
export async function summaryAfterTurn(
  turn: SavedTurn,
  options: AfterTurnOptions,
): Promise<SummarizeJob | undefined> {
  const { env, config, saver } = options;
  if (!config.summarize || saver === undefined) return undefined;
  const log = options.log ?? createLogger();
  try {
    // Our savers (NeonSaver, SqliteSaver, InMemorySaver) know their agent.
    const own = (saver as { agentId?: unknown }).agentId;
    const agentId = typeof own === "string" ? own : parseWorkerVars(env).AGENT_ID;
    const cache = turn.memory?.[SUMMARY_KEY];
    const memory =
      options.memory ??
      (saver instanceof NeonSaver ? createPostgresMemory(saver.db, agentId) : undefined);
    const fence =
      options.fence ?? (saver instanceof NeonSaver ? postgresFence(saver.db, agentId) : undefined);
    const runLocally =
      memory === undefined || fence === undefined
        ? undefined
        : (job: SummarizeJob) =>
            summarizeHere(env, job, saver, memory, fence, {
              log,
              ...(options.model ? { model: options.model } : {}),
            });
    return await enqueueSummaryIfDue({
      config,
      agentId,
      threadId: turn.threadId,
      thread: turn.thread,
      cache,
      turnMessages: turn.added,
      archived: turn.archived,
      queue: env.SUMMARY_QUEUE,
      runLocally,
      waitUntil: options.waitUntil,
      log,
    });
  } catch (error) {
    log.error(`summary: could not schedule a summary: ${String(error)}`);
    return undefined;
  }
}
