/**
 * The ThreadStore of each backend (store/thread-store.ts):
 *
 * | backend            | store                      | checkpointer                     |
 * |--------------------|----------------------------|----------------------------------|
 * | postgres           | {@link postgresThreadStore} | NeonSaver over Neon HTTP          |
 * | sqlite (object)    | {@link sqliteThreadStore}   | SqliteSaver on the object's SQLite|
 * | in_memory (object) | {@link memoryThreadStore}   | InMemorySaver in the object       |
 * | off                | {@link OFF_THREAD_STORE}    | none: keeps nothing               |
 * | another saver      | {@link checkpointerThreadStore} | any LangGraph checkpointer (no memory rows, no message id index) |
 *
 * llamon's three savers read a turn's extra rows (memory, recall, its messageId) in the same
 * read as the head and hold the turn's writes until `commit` sends them with the head
 * compare-and-set in one atomic write (NeonSaver `deferWrites`, store/held-writes.ts).
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { InMemorySaver } from "./memory-saver.ts";
import type { MessageIdIndex } from "./message-ids.ts";
import { NeonSaver } from "./neon-saver.ts";
import type { MemoryRows, TurnMemoryAccess, TurnWriteControl } from "./persistent-memory.ts";
import type { PrimedHead } from "./primed-head.ts";
import type { RecallPrefetch } from "./recall-prefetch.ts";
import { ROOT_NS } from "./saver-target.ts";
import { SqliteSaver } from "./sqlite-saver.ts";
import type {
  ThreadStore,
  TurnCommit,
  TurnQuery,
  TurnSnapshot,
  TurnStage,
} from "./thread-store.ts";
import type { TranscriptAccess } from "./transcript.ts";

/** What a llamon saver offers its store beyond LangGraph's interface. */
interface TurnSaver
  extends BaseCheckpointSaver,
    TurnMemoryAccess,
    TurnWriteControl,
    MessageIdIndex {
  keepLatestOnly: boolean;
  readonly primedHead: PrimedHead;
}

interface StoreParts {
  /** The saver's transcript (live tail storage). */
  readonly transcript?: TranscriptAccess | undefined;
  /** The saver searches its transcript with the head's read. */
  readonly recall?: RecallPrefetch | undefined;
  /** The saver holds writes only while a turn runs (the object backends). */
  readonly holding?: { holding: boolean } | undefined;
  readonly generation?: ((threadId: string) => string | undefined) | undefined;
}

class SaverThreadStore implements ThreadStore {
  readonly keepsTranscript: boolean;
  readonly recallInLoad: boolean;

  constructor(
    private readonly saver: TurnSaver,
    private readonly parts: StoreParts,
  ) {
    this.keepsTranscript = parts.transcript !== undefined;
    this.recallInLoad = parts.recall !== undefined;
  }

  get checkpointer(): BaseCheckpointSaver {
    return this.saver;
  }

  configure(options: { readonly liveTail: boolean; readonly keepLatestOnly: boolean }): void {
    if (options.liveTail && this.parts.transcript !== undefined)
      this.parts.transcript.plainMessages = true;
    // Only ever turned on here: the backend sets it from the turn's config when it builds it.
    if (options.keepLatestOnly) this.saver.keepLatestOnly = true;
  }

  begin(): () => void {
    const holding = this.parts.holding;
    if (holding !== undefined) holding.holding = true;
    return () => {
      if (holding !== undefined) holding.holding = false;
      // A head read for a turn that ended before its graph read it is never served later.
      this.saver.primedHead.clear();
    };
  }

  async load(query: TurnQuery): Promise<TurnSnapshot> {
    const { threadId } = query;
    this.saver.primedHead.clear();
    this.saver.lookupMessageId(threadId, query.messageId);
    const recall = query.recall !== undefined ? this.parts.recall : undefined;
    if (recall !== undefined && query.recall !== undefined)
      recall.prefetchRecall(threadId, query.recall);
    const tuple = await this.saver.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: ROOT_NS },
    });
    this.saver.primedHead.set(threadId, tuple);
    return {
      threadId,
      memory: this.saver.memoryOf(threadId),
      recall: recall?.prefetchedRecall(threadId),
      storedTurn: this.saver.storedTurn(threadId),
    };
  }

  stage(threadId: string): TurnStage {
    const { transcript } = this.parts;
    return {
      memory: (key, value) => this.saver.stageMemory(threadId, key, value),
      archive: transcript
        ? (from, messages, index) => transcript.stageTranscript(threadId, from, messages, index)
        : undefined,
      trimTranscript: transcript
        ? (trim) => transcript.stageTranscriptTrim(threadId, trim)
        : undefined,
    };
  }

  async commit(threadId: string, commit: TurnCommit): Promise<MemoryRows | undefined> {
    if (commit.messageId !== undefined) this.saver.stageMessageId(threadId, commit.messageId);
    await this.saver.flushTurn(threadId, {
      messageCount: commit.messageCount,
      messages: commit.messages,
    });
    return this.saver.memoryOf(threadId);
  }

  discard(threadId: string): void {
    this.saver.discardTurn(threadId);
    this.saver.primedHead.clear();
  }

  generation(threadId: string): string | undefined {
    return this.parts.generation?.(threadId);
  }
}

/** Postgres over Neon HTTP: the head, memory rows, recall and messageId in one read batch. */
export function postgresThreadStore(saver: NeonSaver): ThreadStore {
  return new SaverThreadStore(saver, {
    transcript: saver,
    recall: saver,
    generation: (threadId) => saver.generationOf(threadId),
  });
}

/** The Durable Object's SQLite; `generation`: the object's generations (thread-fence.ts). */
export function sqliteThreadStore(
  saver: SqliteSaver,
  generation?: (threadId: string) => string | undefined,
): ThreadStore {
  return new SaverThreadStore(saver, {
    transcript: saver,
    recall: saver,
    holding: saver.turnWrites,
    generation,
  });
}

/** The Durable Object's memory (in_memory): its recall runs over the object's threads. */
export function memoryThreadStore(
  saver: InMemorySaver,
  generation?: (threadId: string) => string | undefined,
): ThreadStore {
  return new SaverThreadStore(saver, { holding: saver.turnWrites, generation });
}

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
