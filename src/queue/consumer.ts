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
import { agentRequestContext } from "../agent/registry.ts";
import { isLlamonError } from "../errors.ts";
import { createLogger, type Logger } from "../log.ts";
import type { Env } from "../runtime/env.ts";
import { threadObjectName, threadsObject } from "../runtime/objects.ts";
import { zodIssueLines } from "../zod-issues.ts";
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

/**
 * Run one valid job on the configured backend, with the same config a turn of this
 * isolate uses (the run-time layer included). Throws on failure (the caller retries).
 */
export async function runQueueJob(
  env: Env,
  job: SummarizeJob,
  options: { log?: Logger } = {},
): Promise<QueueJobOutcome> {
  const threadId = job.thread_id;
  const ctx = agentRequestContext({ env, log: options.log });
  if (job.agent_id !== ctx.agentId) {
    return { status: "declined", threadId, reason: "other_agent" };
  }
  const config = await ctx.config();
  if (!config.enabled || config.backend === "off") {
    return { status: "declined", threadId, reason: "memory_off" };
  }
  if (!config.summarize) return { status: "declined", threadId, reason: "summarize_off" };
  const log = ctx.log.child({ context_id: threadId });
  if (config.backend === "postgres") return summarizeInPostgres(env, job, { log });
  // ThreadDO implements SummaryHost (summarize(job) RPC).
  const host = threadsObject<SummaryHost>(
    env,
    threadObjectName(ctx.agentId, threadId),
    `MEMORY_BACKEND=${config.backend}`,
  );
  return host.summarize(job);
}

function describe(outcome: QueueJobOutcome): string {
  switch (outcome.status) {
    case "summarized":
      return outcome.partial === undefined
        ? `summarized [${outcome.from}, ${outcome.covers})`
        : `summarized [${outcome.from}, ${outcome.covers + outcome.partial}), inside the tool exchange at ${outcome.covers}`;
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
    const problems = zodIssueLines(parsed.error.issues, { rootField: "body" }).join("; ");
    log.error(
      `${queue}: dropped invalid job ${message.id} (acknowledged, not retried): ${problems}`,
    );
    message.ack();
    return "ack";
  }
  const job = parsed.data;
  const where = `agent=${job.agent_id} thread=${job.thread_id} upto=${job.upto}`;
  try {
    const outcome = await runQueueJob(env, job, { log });
    (outcome.status === "declined" ? log.warn : log.info)(
      `${queue}: job ${message.id} ${where}: ${describe(outcome)}`,
    );
    message.ack();
    return "ack";
  } catch (error) {
    const delaySeconds = retryDelaySeconds(message.attempts);
    log.error(
      `${queue}: job ${message.id} ${where} failed on attempt ${message.attempts}; retrying in ${delaySeconds}s (after max_retries it goes to the dead-letter queue); the previous summary stays in use`,
      {
        agent_id: job.agent_id,
        context_id: job.thread_id,
        code: isLlamonError(error) ? error.code : "INTERNAL",
        error: error instanceof Error ? error.message : String(error),
      },
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
