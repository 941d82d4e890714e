/**
 * Jobs on the summary queue (R7.5). Delivery is at least once, so a job names exactly what
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

export const queueJobSchema = summarizeJobSchema;
export type QueueJob = z.infer<typeof queueJobSchema>;
