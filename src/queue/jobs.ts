/**
 * Jobs on the summary queue: summaries (R7.5) and the `llm` mode's facts (R8.1). Delivery is at least once, so a job names exactly what
 * it must cover and running it twice does no double work:
 *
 * - `upto`: the summary must cover messages [0, upto) of the stored thread;
 * - `upto_id` (optional): the id of message `upto - 1`, so the job still means the same
 *   messages when the stored thread changed in between (a concurrent turn merged, a trim
 *   removed older turns).
 *
 * The job does not name a backend: the consumer uses the Worker's effective memory config,
 * the same one the request path used (a job never chooses where it reads from).
 * A job is a few hundred bytes (queue messages may be up to 128 KB).
 */
import { z } from "zod";
import { agentIdSchema } from "../runtime/env.ts";
import { MAX_THREAD_ID_LENGTH } from "../store/thread-key.ts";

export const summarizeJobSchema = z.strictObject({
  type: z.literal("summarize"),
  agent_id: agentIdSchema,
  /** The conversation's thread key (opaque here: principal + contextId, made by a2a/). */
  thread_id: z.string().min(1).max(MAX_THREAD_ID_LENGTH),
  upto: z.number().int().positive(),
  upto_id: z.string().min(1).max(512).optional(),
});

export type SummarizeJob = z.infer<typeof summarizeJobSchema>;

/** Most user messages one facts job asks about (a turn adds one; a few for slack). */
export const MAX_FACTS_JOB_MESSAGES = 8;

/**
 * A facts job (R8.1): the user messages a turn added, by id and position. It carries no text:
 * the job reads the messages from the stored thread, so a job whose messages were erased or
 * trimmed before it ran finds nothing and writes nothing; its message ids make it idempotent
 * (the state it writes records them: memory/facts/model-state.ts).
 */
export const factsJobSchema = z.strictObject({
  type: z.literal("facts"),
  agent_id: agentIdSchema,
  thread_id: z.string().min(1).max(MAX_THREAD_ID_LENGTH),
  messages: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(512),
        position: z.number().int().nonnegative(),
      }),
    )
    .min(1)
    .max(MAX_FACTS_JOB_MESSAGES),
});

export type FactsJob = z.infer<typeof factsJobSchema>;

export const queueJobSchema = z.discriminatedUnion("type", [summarizeJobSchema, factsJobSchema]);
export type QueueJob = z.infer<typeof queueJobSchema>;
