/**
 * The port a turn talks to (docs/architecture.md "One turn"): everything the turn reads of a
 * thread in one `load`, and everything it writes in one `commit`. The turn (agent/turn/)
 * never asks which backend it runs on; each backend has its implementation
 * (store/saver-thread-store.ts: postgres over Neon HTTP, the Durable Object's SQLite and its
 * memory, `off` which keeps nothing, and any other LangGraph checkpointer as a plain one).
 *
 *   load(query)  → TurnSnapshot: the head (read once: the graph's own read of it is answered
 *                  from this one), the thread's and the agent's persistent_memory rows, the
 *                  conversation recall asked, the turn stored for this messageId, the
 *                  generation — one database round trip on Postgres;
 *   stage(id)    → what the graph adds to the write as it runs (memory rows, transcript);
 *   commit(…)    → the head compare-and-set, checkpoint, message id, memory rows and
 *                  transcript in one atomic batch — refused (THREAD_CONFLICT) when the head
 *                  or the thread's generation moved since the load (an erase, R11.1): the
 *                  turn then loads again, recall included, and runs again;
 *   discard(id)  → a failed or refused turn leaves nothing behind, staged or read.
 *
 * The LangGraph checkpointer (`checkpointer`) writes LangGraph's own format; a turn's
 * checkpoint reaches storage only through `commit`.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { MessageIdEntry, StoredTurn } from "./message-ids.ts";
import type { JsonValue, MemoryRows } from "./persistent-memory.ts";
import type { PrefetchedRecall, RecallQuery } from "./recall-prefetch.ts";
import type { TranscriptIndex, TranscriptTrim } from "./transcript.ts";

/** What a turn asks of its thread before it runs. */
export interface TurnQuery {
  readonly threadId: string;
  /** The incoming A2A messageId: its stored turn, if any, is read with the head (R11.2). */
  readonly messageId: string;
  /**
   * Conversation recall to read with the head, for a store that searches its transcript
   * there ({@link ThreadStore.recallInLoad}); ignored by the others.
   */
  readonly recall?: RecallQuery | undefined;
}

/** A thread as a turn read it, in one read. */
export interface TurnSnapshot {
  readonly threadId: string;
  /**
   * persistent_memory rows read with the head: the thread's (summary, facts, last turn) and
   * the agent's (run-time settings); undefined for a store without them.
   */
  readonly memory: MemoryRows | undefined;
  /** Conversation recall over the transcript, when asked and the store searches in its read. */
  readonly recall: PrefetchedRecall | undefined;
  /** The turn this messageId stored earlier in the thread (R11.2), or undefined. */
  readonly storedTurn: StoredTurn | undefined;
}

/** What the turn's graph adds to the turn's write while it runs (written by `commit`). */
export interface TurnStage {
  /** A persistent_memory row of the thread (null deletes it). */
  readonly memory?: ((key: string, value: JsonValue | null) => void) | undefined;
  /** Messages leaving the live tail for the transcript at positions `from`, … */
  readonly archive?:
    | ((from: number, messages: readonly BaseMessage[], index: TranscriptIndex) => void)
    | undefined;
  /** What a trim deletes of the transcript (memory/trim.ts). */
  readonly trimTranscript?: ((trim: TranscriptTrim) => void) | undefined;
}

/** The end of a turn: what `commit` writes besides what was staged and the graph's checkpoint. */
export interface TurnCommit {
  /** The turn's user message: its id and place (R11.2); absent for a turn that added none. */
  readonly messageId?: MessageIdEntry | undefined;
  /** Messages stored in the thread after the turn (the registry's count). */
  readonly messageCount: number;
  /** The live tail after the turn (what the new head holds). */
  readonly messages: readonly BaseMessage[];
}

export interface ThreadStore {
  /** LangGraph's checkpointer for the turn's graph; undefined keeps nothing (`off`). */
  readonly checkpointer: BaseCheckpointSaver | undefined;
  /**
   * The store keeps a transcript: the turn's graph holds a bounded live tail and archives
   * what leaves it (memory/live-tail.ts) instead of storing the whole thread in its head.
   */
  readonly keepsTranscript: boolean;
  /** Conversation recall is read with the head ({@link TurnQuery.recall}). */
  readonly recallInLoad: boolean;
  /**
   * How this turn writes its head: `liveTail` — the messages channel as a plain list (older
   * threads stored as deltas are read as one); `keepLatestOnly` — older checkpoints go with
   * the write (a trim, or a live tail whose head holds all the thread needs).
   */
  configure(options: { readonly liveTail: boolean; readonly keepLatestOnly: boolean }): void;
  /** Start a turn: its writes are held until `commit`. Returns what ends it. */
  begin(): () => void;
  load(query: TurnQuery): Promise<TurnSnapshot>;
  stage(threadId: string): TurnStage;
  /**
   * Resolves to the thread's persistent_memory rows as the store knows them after the write
   * (the load's, with what the store applied of this turn — a trim it counts itself).
   */
  commit(threadId: string, commit: TurnCommit): Promise<MemoryRows | undefined>;
  discard(threadId: string): void;
  /**
   * The thread's generation as this store last read or wrote it (store/thread-fence.ts), where
   * the backend keeps one: the turn's task record carries it (R11.1).
   */
  generation(threadId: string): string | undefined;
}
