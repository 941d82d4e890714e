/**
 * The summary queue consumer (R7.5): summaries are made here, off the request path.
 *
 * Each message of a batch is handled on its own, one after another:
 *
 * | message                                   | result                                   |
 * |-------------------------------------------|------------------------------------------|
 * | not a valid job                            | logged, `ack()` — retrying cannot fix it |
 * | job of another agent (R2.3)                | logged, `ack()` — never touched          |
 * | memory off / `summarize` off at run time   | logged, `ack()`                          |
 * | summarized, or skipped as already covered  | `ack()` (duplicate delivery: no work)    |
 * | any failure (model, database, config)      | logged, `retry()` with a growing delay   |
 *
 * After `max_retries` (wrangler.toml: 3) the platform moves a failing message to the
 * dead-letter queue `llamon-summaries-dlq`; nothing is dropped silently. A failure never
 * changes the cached summary: the request path keeps using the previous one (or none).
 *
 * Where the job runs: postgres in this isolate (host.ts), in_memory / sqlite inside the
 * conversation's Durable Object (`THREADS.getByName(threadObjectName(...)).summarize(job)`).
 */
import { loadRuntimeLayer } from "../admin/runtime-config.ts";
import { effectiveMemoryConfig, threadObjectName } from "../agent/execute.ts";
import { isLlamonError, LlamonError } from "../errors.ts";
import { createLogger, type Logger } from "../log.ts";
import { type Env, parseWorkerVars } from "../worker/env.ts";
import { type SummaryHost, summarizeInPostgres } from "./host.ts";
import { queueJobSchema, type SummarizeJob } from "./jobs.ts";
import type { SummarizeOutcome } from "./summarize.ts";

/** A job the consumer acknowledged without running (see the table in the file header). */
export type DeclinedOutcome = {
  status: "declined";
  threadId: string;
  reason: "other_agent" | "memory_off" | "summarize_off";
};

export type QueueJobOutcome = SummarizeOutcome | DeclinedOutcome;

/** Seconds before a failed message is delivered again: 10, 20, 40, … at most 300. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 10 * 2 ** Math.max(0, attempts - 1));
}

/** Run one valid job on the configured backend. Throws on failure (the caller retries). */
export async function runQueueJob(env: Env, job: SummarizeJob): Promise<QueueJobOutcome> {
  const threadId = job.thread_id;
  const { AGENT_ID: agentId } = parseWorkerVars(env);
  if (job.agent_id !== agentId) return { status: "declined", threadId, reason: "other_agent" };
  const config = effectiveMemoryConfig(env, await loadRuntimeLayer(env));
  if (!config.enabled || config.backend === "off") {
    return { status: "declined", threadId, reason: "memory_off" };
  }
  if (!config.summarize) return { status: "declined", threadId, reason: "summarize_off" };
  if (config.backend === "postgres") return summarizeInPostgres(env, job);
  const threads = env.THREADS;
  if (threads === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `MEMORY_BACKEND=${config.backend} needs the THREADS Durable Object binding (class ThreadDO) in wrangler.toml`,
    );
  }
  // ThreadDO implements SummaryHost (summarize(job) RPC).
  const host: SummaryHost = threads.getByName(threadObjectName(agentId, threadId));
  return host.summarize(job);
}

function describe(outcome: QueueJobOutcome): string {
  switch (outcome.status) {
    case "summarized":
      return `summarized [${outcome.from}, ${outcome.covers})`;
    case "skipped":
      return `skipped (${outcome.reason}; the summary covers ${outcome.covers})`;
    case "declined":
      return `not run (${outcome.reason})`;
  }
}

/** Handle one queue message: ack or retry it (see the table in the file header). */
export async function handleQueueMessage(
  message: Message<unknown>,
  env: Env,
  options: { queue?: string; log?: Logger } = {},
): Promise<"ack" | "retry"> {
  const log = options.log ?? createLogger();
  const queue = options.queue ?? "summary queue";
  const parsed = queueJobSchema.safeParse(message.body);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
      .join("; ");
    log.error(
      `${queue}: dropped invalid job ${message.id} (acknowledged, not retried): ${problems}`,
    );
    message.ack();
    return "ack";
  }
  const job = parsed.data;
  const where = `agent=${job.agent_id} thread=${job.thread_id} upto=${job.upto}`;
  try {
    const outcome = await runQueueJob(env, job);
    (outcome.status === "declined" ? log.warn : log.info)(
      `${queue}: job ${message.id} ${where}: ${describe(outcome)}`,
    );
    message.ack();
    return "ack";
  } catch (error) {
    const delaySeconds = retryDelaySeconds(message.attempts);
    log.error(
      `${queue}: job ${message.id} ${where} failed on attempt ${message.attempts}; retrying in ${delaySeconds}s (after max_retries it goes to the dead-letter queue); the previous summary stays in use`,
      isLlamonError(error)
        ? { code: error.code, message: error.message }
        : { message: error instanceof Error ? error.message : String(error) },
    );
    message.retry({ delaySeconds });
    return "retry";
  }
}

/** The Worker's `queue` handler for the summary queue. */
export async function handleQueueBatch(
  batch: MessageBatch<unknown>,
  env: Env,
  _ctx?: ExecutionContext,
): Promise<void> {
  const log = createLogger();
  for (const message of batch.messages) {
    await handleQueueMessage(message, env, { queue: batch.queue, log });
  }
}
