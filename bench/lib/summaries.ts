/**
 * Summaries in the bench (config `summarize: true`): what the Worker's queue consumer does
 * off the request path, done here between turns, outside every measured window — so a
 * turn reads and sends the summary a real conversation of that length has (R7), and its
 * cost is the turn's alone. The summaries are the offline model's (a few hundred characters).
 */

import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { createLogger, silentSink } from "../../src/log.ts";
import type { MemoryConfig } from "../../src/memory/config.ts";
import { archivedPrefixOf } from "../../src/memory/live-tail.ts";
import { SUMMARY_KEY } from "../../src/memory/summary.ts";
import { summaryJobFor } from "../../src/queue/enqueue.ts";
import { runSummarizeJob, savedThread } from "../../src/queue/summarize.ts";
import type { Db } from "../../src/store/db.ts";
import { readThreadHead } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";

const quiet = createLogger({ sink: silentSink });

/** At most this many jobs for one catch-up (a prefill of 10,000 turns needs ~100). */
const MAX_JOBS = 1000;

/**
 * Runs the summary jobs the thread is due for now, one after the other, as the queue
 * consumer would (each covers at most SUMMARY_JOB_MAX_MESSAGES): after a turn, usually none
 * or one; after a prefill, as many as the prefilled messages need. Returns the jobs run.
 */
export async function summarizeWhileDue(
  db: Db,
  agentId: string,
  threadId: string,
  config: MemoryConfig,
  model: BaseChatModel,
): Promise<number> {
  if (!config.summarize) return 0;
  const memory = createPostgresMemory(db, agentId);
  for (let jobs = 0; jobs < MAX_JOBS; jobs++) {
    const saver = new NeonSaver({ db, agentId });
    const head = await readThreadHead(saver, { configurable: { thread_id: threadId } });
    const archived = archivedPrefixOf(head.tuple?.checkpoint.channel_values.archived);
    const job = summaryJobFor({
      config,
      agentId,
      threadId,
      thread: head.messages as BaseMessage[],
      cache: await memory.get(threadId, SUMMARY_KEY),
      archived,
    });
    if (job === undefined) return jobs;
    const outcome = await runSummarizeJob(
      { thread: savedThread(saver, threadId), memory, model, log: quiet },
      job,
    );
    if (outcome.status !== "summarized") return jobs + 1;
  }
  return MAX_JOBS;
}
