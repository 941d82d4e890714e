/**
 * The summary queue consumer (R7.5). Summaries are produced off the request path.
 *
 * Status: the job format and its validation are in place; producing summaries lands with
 * the summary feature (issue 5). Until then nothing enqueues jobs, and any job that does
 * arrive is retried — after `max_retries` it lands in the dead-letter queue, so nothing is
 * silently dropped.
 */
import type { Env } from "../worker/env.ts";
import { queueJobSchema } from "./jobs.ts";

export async function handleQueueBatch(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
  for (const message of batch.messages) {
    const job = queueJobSchema.safeParse(message.body);
    if (!job.success) {
      console.error(
        `queue ${batch.queue}: invalid job ${message.id}: ${job.error.issues[0]?.message}`,
      );
    } else {
      console.error(`queue ${batch.queue}: no handler for ${job.data.type} jobs in this build`);
    }
    message.retry();
  }
}
