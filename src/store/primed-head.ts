/**
 * A thread head read ahead of the graph (a ThreadStore's `load`, store/thread-store.ts): the
 * snapshot of a turn is read before its graph runs, and the graph's own read of the head
 * (LangGraph's getTuple of the thread's newest root checkpoint) is then answered from it — the
 * turn reads its head once. A saver asks {@link PrimedHead.take} first thing in its getTuple.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import type { CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { checkpointTarget, ROOT_NS } from "./saver-target.ts";

export class PrimedHead {
  #primed: { readonly threadId: string; readonly tuple: CheckpointTuple | undefined } | undefined;

  /** Keep `tuple` as the head of `threadId` for the next read of it. */
  set(threadId: string, tuple: CheckpointTuple | undefined): void {
    this.#primed = { threadId, tuple };
  }

  /** Forget a primed head (a turn that failed before its graph read it). */
  clear(): void {
    this.#primed = undefined;
  }

  /**
   * The primed head when `config` asks for that thread's newest root checkpoint — once; any
   * other read (and every read after it) goes to storage. A read of another thread forgets it.
   */
  take(config: RunnableConfig): { readonly tuple: CheckpointTuple | undefined } | undefined {
    const primed = this.#primed;
    if (primed === undefined || config.configurable?.thread_id === undefined) return undefined;
    this.#primed = undefined;
    const target = checkpointTarget(config);
    const head =
      target.threadId === primed.threadId &&
      target.ns === ROOT_NS &&
      target.checkpointId === undefined;
    return head ? { tuple: primed.tuple } : undefined;
  }
}
