/**
 * A NeonSaver whose turn can read first: {@link ReadFirstNeonSaver.readFirst} runs the
 * thread's read batch (checkpoint, message history, persistent_memory rows — the agent's
 * `settings` row among them) before the graph is built, and the graph's own getTuple of the
 * thread head is then answered from it, without a second round trip.
 *
 * The Worker needs this on postgres: the turn's config depends on the agent's run-time
 * layer, which lives in that very `settings` row, so reading it separately would cost a
 * third round trip per turn. What the turn reads with its head — recall, its messageId
 * (R11.2) — is asked before readFirst, so it is in that batch.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { NeonSaver } from "./neon-saver.ts";
import type { MemoryRows } from "./persistent-memory.ts";
import type { RecallQuery } from "./recall-prefetch.ts";
import { checkpointTarget, ROOT_NS } from "./saver-target.ts";

export class ReadFirstNeonSaver extends NeonSaver {
  private primed:
    | { readonly threadId: string; readonly tuple: CheckpointTuple | undefined }
    | undefined;

  /** Read the thread's head now (one round trip); returns the memory rows read with it. */
  async readFirst(threadId: string): Promise<MemoryRows | undefined> {
    const tuple = await super.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: ROOT_NS },
    });
    this.primed = { threadId, tuple };
    return this.memoryOf(threadId);
  }

  /** Recall asked after readFirst already read it for this thread: that read stands. */
  override prefetchRecall(threadId: string, query: RecallQuery) {
    if (this.primed?.threadId === threadId) return;
    super.prefetchRecall(threadId, query);
  }

  /**
   * A messageId asked after readFirst read the thread: that read stands (ask before readFirst,
   * so it is in its batch). A later read of the thread (a turn run again) asks again.
   */
  override lookupMessageId(threadId: string, messageId: string) {
    if (this.primed?.threadId === threadId) return;
    super.lookupMessageId(threadId, messageId);
  }

  /** The head read by readFirst, once; any other read goes to the database. */
  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const primed = this.primed;
    this.primed = undefined;
    if (primed !== undefined && config.configurable?.thread_id !== undefined) {
      const target = checkpointTarget(config);
      if (
        target.threadId === primed.threadId &&
        target.ns === ROOT_NS &&
        target.checkpointId === undefined
      ) {
        return primed.tuple;
      }
    }
    return super.getTuple(config);
  }
}
