/**
 * Jobs on the summary queue. Delivery is at least once, so a job names exactly what it
 * must cover (`upto`: the message index the summary must reach) and running it twice
 * does no double work.
 */
import { z } from "zod";
import { agentIdSchema } from "../worker/env.ts";

export const summarizeJobSchema = z.strictObject({
  type: z.literal("summarize"),
  agent_id: agentIdSchema,
  thread_id: z.string().min(1).max(256),
  upto: z.number().int().nonnegative(),
});

export type SummarizeJob = z.infer<typeof summarizeJobSchema>;

export const queueJobSchema = summarizeJobSchema;
export type QueueJob = z.infer<typeof queueJobSchema>;
