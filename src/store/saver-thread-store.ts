/**
 * The ThreadStore of each backend (store/thread-store.ts):
 *
 * | backend            | store                          | checkpointer                      |
 * |--------------------|--------------------------------|-----------------------------------|
 * | postgres           | {@link postgresThreadStore}    | NeonSaver over Neon HTTP          |
 * | sqlite (object)    | {@link sqliteThreadStore}      | SqliteSaver on the object's SQLite|
 * | in_memory (object) | {@link memoryThreadStore}      | InMemorySaver in the object       |
 * | off                | {@link OFF_THREAD_STORE}       | none: keeps nothing               |
 * | another saver      | {@link checkpointerThreadStore} | any LangGraph checkpointer (no memory rows, no message id index) |
 *
 * llamon's three stores (local-thread-store.ts) hold a turn's state themselves — what it read
 * besides its head and what it staged — and read it with the head in one read and write it
 * with the head compare-and-set in one atomic write, through their saver's `readHead` and
 * `flushTurn`. The savers stay LangGraph checkpointers with no side channels.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { InMemorySaver } from "./memory-saver.ts";
import { memoryThreadStore } from "./memory-thread-store.ts";
import { NeonSaver } from "./neon-saver.ts";
import type { MemoryRows } from "./persistent-memory.ts";
import { postgresThreadStore } from "./postgres-thread-store.ts";
import { SqliteSaver } from "./sqlite-saver.ts";
import { sqliteThreadStore } from "./sqlite-thread-store.ts";
import type { ThreadStore, TurnQuery, TurnSnapshot, TurnStage } from "./thread-store.ts";

export { memoryThreadStore, postgresThreadStore, sqliteThreadStore };

/** A store over a plain store-less checkpointer: LangGraph's own reads and writes. */
class PlainThreadStore implements ThreadStore {
  readonly keepsTranscript = false;
  readonly recallInLoad = false;

  constructor(readonly checkpointer: BaseCheckpointSaver | undefined) {}

  configure(): void {}
  begin(): () => void {
    return () => {};
  }
  async load(query: TurnQuery): Promise<TurnSnapshot> {
    return {
      threadId: query.threadId,
      memory: undefined,
      recall: undefined,
      storedTurn: undefined,
    };
  }
  stage(): TurnStage {
    return {};
  }
  async commit(): Promise<MemoryRows | undefined> {
    return undefined;
  }
  discard(): void {}
  generation(): string | undefined {
    return undefined;
  }
}

/** `off`: nothing is read or kept; every request is a fresh conversation. */
export const OFF_THREAD_STORE: ThreadStore = new PlainThreadStore(undefined);

/**
 * Any other LangGraph checkpointer (the official savers, in interop tests and for callers who
 * bring their own): the thread is LangGraph's alone — no memory rows, no transcript, no
 * message id index beyond the live thread.
 */
export function checkpointerThreadStore(checkpointer: BaseCheckpointSaver): ThreadStore {
  return new PlainThreadStore(checkpointer);
}

/** The store of a checkpointer a caller hands the turn (undefined: `off`). */
export function threadStoreOf(checkpointer: BaseCheckpointSaver | undefined): ThreadStore {
  if (checkpointer === undefined) return OFF_THREAD_STORE;
  if (checkpointer instanceof NeonSaver) return postgresThreadStore(checkpointer);
  if (checkpointer instanceof SqliteSaver) return sqliteThreadStore(checkpointer);
  if (checkpointer instanceof InMemorySaver) return memoryThreadStore(checkpointer);
  return checkpointerThreadStore(checkpointer);
}
