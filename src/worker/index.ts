/** The Worker entry: HTTP (Hono app), the summary queue consumer, and the ThreadDO class. */
import { handleQueueBatch } from "../queue/consumer.ts";
import { createApp } from "./app.ts";
import type { Env } from "./env.ts";

export { ThreadDO } from "../durable/thread-do.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: handleQueueBatch,
} satisfies ExportedHandler<Env>;
