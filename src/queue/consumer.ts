/**
 * The summary queue consumer (R7.5): summaries are made here, off the request path — and
 * so are the `llm` mode's facts (R8.1, queue/facts.ts), on the same queue.
 *
 * Each message of a batch is handled on its own, one after another:
 *
 * | message                                   | result                                   |
 * |-------------------------------------------|------------------------------------------|
 * | not a valid job                            | logged, `ack()` — retrying cannot fix it |
 * | job of another agent (R2.3)                | logged, `ack()` — never touched          |
 * | memory off / `summarize` off at run time   | logged, `ack()`                          |
 * | a facts job while `facts_mode` is not llm  | logged, `ack()`                          |
 * | summarized, or skipped as already covered  | `ack()` (duplicate delivery: no work)    |
 * | facts applied, skipped, or failed on the model's answer (logged with its code) | `ack()` |
 * | any failure (model, database, config)      | logged, `retry()` with a growing delay   |
 *
 * After `max_retries` (wrangler.toml: 3) the platform moves a failing message to the
 * dead-letter queue `llamon-summaries-dlq`; nothing is dropped silently. A failure never
 * changes the cached summary: the request path keeps using the previous one (or none); a
 * failed facts job leaves the heuristic facts serving.
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
import type { FactsOutcome } from "./facts.ts";
import { type FactsHost, factsInPostgres, type SummaryHost, summarizeInPostgres } from "./host.ts";
import { type QueueJob, queueJobSchema } from "./jobs.ts";
import type { SummarizeOutcome } from "./summarize.ts";

/** A job the consumer acknowledged without running (see the table in the file header). */
export type DeclinedOutcome = {
  status: "declined";
  threadId: string;
  reason: "other_agent" | "memory_off" | "summarize_off" | "facts_llm_off";
};

export type QueueJobOutcome = SummarizeOutcome | FactsOutcome | DeclinedOutcome;

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
  job: QueueJob,
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
  const log = ctx.log.child({ context_id: threadId });
  if (job.type === "facts") {
    if (config.facts_mode !== "llm") {
      return { status: "declined", threadId, reason: "facts_llm_off" };
    }
    if (config.backend === "postgres") return factsInPostgres(env, job, { log });
    // ThreadDO implements FactsHost (extractFacts(job) RPC).
    const host = threadsObject<FactsHost>(
      env,
      threadObjectName(ctx.agentId, threadId),
      `MEMORY_BACKEND=${config.backend}`,
    );
    return host.extractFacts(job);
  }
  if (!config.summarize) return { status: "declined", threadId, reason: "summarize_off" };
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
      return "covers" in outcome
        ? `skipped (${outcome.reason}; the summary covers ${outcome.covers})`
        : `facts: skipped (${outcome.reason})`;
    case "declined":
      return `not run (${outcome.reason})`;
    case "applied":
      return `facts: ${outcome.accepted} operations accepted (${outcome.unchanged} changed nothing), ${outcome.rejected} refused`;
    case "failed":
      return `facts: not stored (${outcome.reason}); the heuristic facts stay`;
  }
}

/** The job in a log line. */
function jobWhere(job: QueueJob): string {
  const head = `agent=${job.agent_id} thread=${job.thread_id}`;
  return job.type === "facts"
    ? `${head} facts for ${job.messages.map((m) => m.id).join(",")}`
    : `${head} upto=${job.upto}`;
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
  const where = jobWhere(job);
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
      `${queue}: job ${message.id} ${where} failed on attempt ${message.attempts}; retrying in ${delaySeconds}s (after max_retries it goes to the dead-letter queue); ${job.type === "facts" ? "the heuristic facts stay in use" : "the previous summary stays in use"}`,
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
