/**
 * Running a queue job where the thread lives — a summary (R7.5) or the `llm` mode's facts
 * (R8.1) — with the Worker's env:
 *
 * - postgres: in the queue consumer itself ({@link summarizeInPostgres}): NeonSaver reads
 *   the thread over Neon HTTP, persistent_memory gets the row;
 * - in_memory / sqlite: inside the conversation's Durable Object, which implements
 *   {@link SummaryHost} and {@link FactsHost} by calling {@link summarizeHere} and
 *   {@link factsHere} with its own saver and memory.
 *
 * The model is the agent's own (the registered agent's `model(env)`, else the provider
 * configured by LLM_* variables), as the product document says.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { registeredAgent } from "../agent/registry.ts";
import { createModelFromEnv } from "../llm/select.ts";
import { createLogger, type Logger } from "../log.ts";
import { workerDb } from "../runtime/db.ts";
import type { Env } from "../runtime/env.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import { createPostgresMemory, type PersistentMemory } from "../store/persistent-memory.ts";
import { postgresFence, type ThreadFence } from "../store/thread-fence.ts";
import { type FactsOutcome, runFactsJob } from "./facts.ts";
import type { FactsJob, SummarizeJob } from "./jobs.ts";
import { runSummarizeJob, type SummarizeOutcome, savedThread } from "./summarize.ts";

/**
 * What the conversation's Durable Object offers the consumer for the object backends:
 * `ThreadDO.summarize(job)` (RPC). Its implementation is one call of {@link summarizeHere}
 * with the object's saver and memory of `job.agent_id`.
 */
export interface SummaryHost {
  summarize(job: SummarizeJob): Promise<SummarizeOutcome>;
}

/** What the conversation's Durable Object offers for facts jobs: `ThreadDO.extractFacts(job)`. */
export interface FactsHost {
  extractFacts(job: FactsJob): Promise<FactsOutcome>;
}

/** The agent's model for summaries and facts jobs. */
export function summarizerModel(env: Readonly<Record<string, unknown>>): BaseChatModel {
  const { model } = registeredAgent();
  return model ? model(env) : createModelFromEnv(env).model;
}

/**
 * Run the job against a thread kept by `saver` and a summary row kept in `memory`, fenced by
 * the thread's generation (`fence`, R11.1: an erase while the job runs drops its write).
 */
export function summarizeHere(
  env: Readonly<Record<string, unknown>>,
  job: SummarizeJob,
  saver: BaseCheckpointSaver,
  memory: PersistentMemory,
  fence: ThreadFence,
  options: { model?: BaseChatModel; log?: Logger } = {},
): Promise<SummarizeOutcome> {
  return runSummarizeJob(
    {
      thread: savedThread(saver, job.thread_id),
      memory,
      fence,
      model: options.model ?? summarizerModel(env),
      log: options.log ?? createLogger(),
    },
    job,
  );
}

/** The postgres backend: run the job in this isolate over Neon HTTP. */
export function summarizeInPostgres(
  env: Env,
  job: SummarizeJob,
  options: { model?: BaseChatModel; log?: Logger } = {},
): Promise<SummarizeOutcome> {
  const db = workerDb(env);
  const saver = new NeonSaver({ db, agentId: job.agent_id });
  const memory = createPostgresMemory(db, job.agent_id);
  return summarizeHere(env, job, saver, memory, postgresFence(db, job.agent_id), options);
}

/** What a caller may set for a facts job (tests: the model, the clock, the timeout). */
export interface FactsRunOptions {
  readonly model?: BaseChatModel | undefined;
  readonly log?: Logger | undefined;
  readonly now?: (() => Date) | undefined;
  readonly timeoutMs?: number | undefined;
}

/** Run a facts job against a thread kept by `saver`, its rows in `memory`, fenced by `fence`. */
export function factsHere(
  env: Readonly<Record<string, unknown>>,
  job: FactsJob,
  saver: BaseCheckpointSaver,
  memory: PersistentMemory,
  fence: ThreadFence,
  options: FactsRunOptions = {},
): Promise<FactsOutcome> {
  return runFactsJob(
    {
      thread: savedThread(saver, job.thread_id),
      memory,
      fence,
      model: options.model ?? summarizerModel(env),
      log: options.log ?? createLogger(),
      now: options.now,
      timeoutMs: options.timeoutMs,
    },
    job,
  );
}

/** The postgres backend: run the facts job in this isolate over Neon HTTP. */
export function factsInPostgres(
  env: Env,
  job: FactsJob,
  options: FactsRunOptions = {},
): Promise<FactsOutcome> {
  const db = workerDb(env);
  const saver = new NeonSaver({ db, agentId: job.agent_id });
  const memory = createPostgresMemory(db, job.agent_id);
  return factsHere(env, job, saver, memory, postgresFence(db, job.agent_id), options);
}
