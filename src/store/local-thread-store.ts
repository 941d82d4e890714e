/**
 * What llamon's three thread stores share (postgres-thread-store.ts, sqlite-thread-store.ts,
 * memory-thread-store.ts): a turn's state between its load and its commit is the store's —
 * the memory rows it read, what its graph staged (memory rows, transcript rows, a trim, its
 * messageId) and the thread's generation. The saver under it stays a LangGraph checkpointer
 * that keeps nothing of a turn but LangGraph's own writes, held until the commit.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { MessageIdEntry } from "./message-ids.ts";
import { assertMemoryKey, type JsonValue, type MemoryRows } from "./persistent-memory.ts";
import type { PrimedHead } from "./primed-head.ts";
import type {
  ThreadStore,
  TurnCommit,
  TurnQuery,
  TurnSnapshot,
  TurnStage,
} from "./thread-store.ts";
import {
  type TranscriptIndex,
  type TranscriptRow,
  TranscriptStage,
  type TranscriptTrim,
} from "./transcript.ts";

/** The checkpointer side a local store drives: LangGraph's interface and the turn's writes. */
export interface TurnCheckpointer extends BaseCheckpointSaver {
  /** Keep only the newest checkpoint with each save (trim, R4.2; a live tail). */
  keepLatestOnly: boolean;
  /** A saver with a transcript: the `messages` channel as a plain list (transcript.ts). */
  plainMessages?: boolean;
  /** The head the store's load read, for the graph's own read of it (primed-head.ts). */
  readonly primedHead: PrimedHead;
  /** Drop the writes held for the thread (a failed or refused turn stores nothing). */
  discardTurn(threadId: string): void;
  /**
   * Whether the saver holds writes now: on for the length of a turn (begin), so the turn's
   * checkpoint is written only by its commit, with the store's rows (held-writes.ts; NeonSaver
   * may hold them always, `deferWrites`).
   */
  readonly turnWrites: { holding: boolean };
}

/** What a turn staged, taken off the store by its commit. */
export interface StagedTurn {
  /** The thread's memory rows to write (null deletes), in staging order. */
  readonly memory: readonly (readonly [key: string, value: JsonValue | null])[];
  readonly messageId: MessageIdEntry | undefined;
  readonly transcript: { readonly rows: TranscriptRow[]; readonly trim?: TranscriptTrim };
}

export abstract class LocalThreadStore<S extends TurnCheckpointer> implements ThreadStore {
  abstract readonly keepsTranscript: boolean;
  abstract readonly recallInLoad: boolean;
  /** The memory rows each thread's load read (updated by what its commit applied). */
  protected readonly loaded = new Map<string, MemoryRows>();
  readonly #memory = new Map<string, Map<string, JsonValue | null>>();
  readonly #transcript: TranscriptStage;

  constructor(protected readonly saver: S) {
    this.#transcript = new TranscriptStage(saver.serde);
  }

  get checkpointer(): BaseCheckpointSaver {
    return this.saver;
  }

  configure(options: { readonly liveTail: boolean; readonly keepLatestOnly: boolean }): void {
    // A live tail's graph keeps the messages as a plain list (older delta threads read as one).
    if (options.liveTail && this.keepsTranscript) this.saver.plainMessages = true;
    // Only ever turned on here: the backend sets it from the turn's config when it builds it.
    if (options.keepLatestOnly) this.saver.keepLatestOnly = true;
  }

  begin(): () => void {
    const release = holdWrites(this.saver.turnWrites);
    return () => {
      release();
      // A head read for a turn that ended before its graph read it is never served later.
      this.saver.primedHead.clear();
    };
  }

  abstract load(query: TurnQuery): Promise<TurnSnapshot>;
  abstract commit(threadId: string, commit: TurnCommit): Promise<MemoryRows | undefined>;
  abstract generation(threadId: string): string | undefined;

  stage(threadId: string): TurnStage {
    return {
      memory: (key, value) => {
        assertMemoryKey(key);
        const bucket = this.#memory.get(threadId) ?? new Map<string, JsonValue | null>();
        bucket.set(key, value);
        this.#memory.set(threadId, bucket);
      },
      archive: this.keepsTranscript
        ? (from: number, messages: readonly BaseMessage[], index: TranscriptIndex) =>
            this.#transcript.stage(threadId, from, messages, index)
        : undefined,
      trimTranscript: this.keepsTranscript
        ? (trim: TranscriptTrim) => this.#transcript.stageTrim(threadId, trim)
        : undefined,
    };
  }

  /**
   * A failed or refused turn leaves nothing behind: its held writes, what it staged and what
   * it read (the memory rows and recall belong to the head it read, which may since have been
   * erased, R11.1 — a turn that runs again loads them afresh).
   */
  discard(threadId: string): void {
    this.saver.discardTurn(threadId);
    this.saver.primedHead.clear();
    this.forget(threadId);
  }

  /** Start a load: nothing of an earlier run of the thread stays staged or read. */
  protected startLoad(threadId: string): void {
    this.saver.primedHead.clear();
    this.forget(threadId);
  }

  /** The head read with the load answers the graph's read of it (primed-head.ts). */
  protected prime(threadId: string, tuple: Parameters<PrimedHead["set"]>[1]): void {
    this.saver.primedHead.set(threadId, tuple);
  }

  /**
   * The memory rows the turn's load read (with what its commit applied), taken off the store:
   * nothing of a thread's rows stays in a long-lived store (a conversation object's) after its
   * turn, where an erase could not reach it.
   */
  protected takeLoaded(threadId: string): MemoryRows | undefined {
    const rows = this.loaded.get(threadId);
    this.loaded.delete(threadId);
    return rows;
  }

  /** What the turn staged, taken off the store (the commit writes it or it is gone). */
  protected async takeStaged(threadId: string, commit: TurnCommit): Promise<StagedTurn> {
    const memory = [...(this.#memory.get(threadId) ?? [])];
    this.#memory.delete(threadId);
    const transcript = await this.#transcript.take(threadId);
    return { memory, messageId: commit.messageId, transcript };
  }

  private forget(threadId: string): void {
    this.#memory.delete(threadId);
    this.#transcript.forget(threadId);
    this.loaded.delete(threadId);
  }
}

/** Turns running on each saver's switch, and what it was set to before the first began. */
const holders = new WeakMap<{ holding: boolean }, { turns: number; before: boolean }>();

/**
 * Hold the saver's writes while at least one turn runs on it (turns on different threads may
 * share one saver); the last to end sets the switch back.
 */
function holdWrites(writes: { holding: boolean }): () => void {
  const entry = holders.get(writes) ?? { turns: 0, before: writes.holding };
  if (entry.turns === 0) entry.before = writes.holding;
  entry.turns += 1;
  holders.set(writes, entry);
  writes.holding = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    entry.turns -= 1;
    if (entry.turns === 0) writes.holding = entry.before;
  };
}
