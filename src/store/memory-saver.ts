/**
 * InMemorySaver — the `in_memory` backend (R1): LangGraph's own MemorySaver, living in
 * the conversation's Durable Object, so the thread is lost when the object is evicted,
 * redeployed or crashes ("in-memory: lost on restart"). It adds what our turns need and
 * NeonSaver offers:
 *
 * - Ownership (R2.3): thread ids are stored as `<agent_id>:<thread_id>`; reads and writes are
 *   scoped to the saver's agent, and `list()` without a thread id lists this agent's only.
 * - Storage of what a turn keeps besides its checkpoint, read and written by its thread store
 *   (store/memory-thread-store.ts): persistent_memory rows in a {@link MemoryMap}, and the id
 *   of every user message a turn stored (store/message-ids.ts, R11.2), kept for the life of the
 *   thread, so a resend of a turn trimmed away (R4.2) is refused rather than answered twice.
 * - A turn's writes are held until its store commits them ({@link InMemorySaver.flushTurn}).
 *   The saver keeps nothing else of a turn.
 */

import type { RunnableConfig } from "@langchain/core/runnables";
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type DeltaChannelHistory,
  JsonPlusSerializer,
  MemorySaver,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { LlamonError } from "../errors.ts";
import { canPruneOlder } from "./delta.ts";
import type { MemoryMap, ThreadSaver } from "./do-memory.ts";
import { HeldWrites } from "./held-writes.ts";
import type { MessageIdEntry } from "./message-ids.ts";
import { PrimedHead } from "./primed-head.ts";
import {
  assertAgentId,
  assertThreadId,
  storageThreadId,
  threadIdFromStorage,
} from "./thread-key.ts";

export interface InMemorySaverOptions {
  readonly agentId: string;
  readonly serde?: SerializerProtocol;
  /** Where the memory rows live; pass one Map to share it with a PersistentMemory. */
  readonly memoryRows?: MemoryMap;
  /** Keep only the newest checkpoint of each thread (trim, R4.2). Default false. */
  readonly keepLatestOnly?: boolean;
}

/** What a thread store writes with a turn's root checkpoint (see flushTurn). */
export interface RootWrite {
  /** Before the checkpoint is stored: throws to refuse the whole write. */
  readonly check: () => void;
  /** After it was stored. */
  readonly apply: () => void;
}

export class InMemorySaver extends MemorySaver implements ThreadSaver {
  readonly agentId: string;
  readonly memoryRows: MemoryMap;
  /** Keep only the newest checkpoint with each save (trim); settable per turn. */
  keepLatestOnly: boolean;
  /** The head a ThreadStore read ahead of the graph (store/primed-head.ts). */
  readonly primedHead = new PrimedHead();
  /** A turn's writes; a flush's root write goes around the root checkpoint's put. */
  readonly turnWrites = new HeldWrites<RootWrite>();
  /** Per stored thread id: message id → its position and the end of its turn. */
  private readonly storedIds = new Map<string, Map<string, { seq: number; end: number }>>();

  constructor(options: InMemorySaverOptions) {
    super(options.serde ?? new JsonPlusSerializer());
    assertAgentId(options.agentId);
    this.agentId = options.agentId;
    this.memoryRows = options.memoryRows ?? new Map();
    this.keepLatestOnly = options.keepLatestOnly ?? false;
  }

  /** The stored turn of `messageId` in the thread (R11.2): its position and its turn's end. */
  messageIdOf(threadId: string, messageId: string): { seq: number; end: number } | undefined {
    return this.storedIds.get(storageThreadId(this.agentId, threadId))?.get(messageId);
  }

  /** A message id the thread stored already is THREAD_CONFLICT (R11.2): nothing is written. */
  assertNewMessageId(threadId: string, messageId: string): void {
    if (this.messageIdOf(threadId, messageId) === undefined) return;
    throw new LlamonError(
      "THREAD_CONFLICT",
      `message "${messageId}" is already stored in conversation "${threadId}"; nothing of this turn was written`,
      { details: { threadId } },
    );
  }

  /** Record a turn's user message for the life of the thread. */
  recordMessageId(threadId: string, entry: MessageIdEntry): void {
    const storageId = storageThreadId(this.agentId, threadId);
    const ids = this.storedIds.get(storageId) ?? new Map<string, { seq: number; end: number }>();
    ids.set(entry.id, { seq: entry.seq, end: entry.end });
    this.storedIds.set(storageId, ids);
  }

  /**
   * Apply the writes held for the thread (store/held-writes.ts), with `root` around its root
   * checkpoint: `check` before it is stored (a refusal writes nothing), `apply` after.
   * Nothing held: nothing is written, `root` included.
   */
  flushTurn(threadId: string, root?: RootWrite): Promise<void> {
    return this.turnWrites.flush(threadId, root);
  }

  discardTurn(threadId: string): void {
    this.turnWrites.discard(threadId);
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = config.configurable?.thread_id;
    if (threadId === undefined) return undefined;
    // The head a ThreadStore's load read for the turn (store/primed-head.ts).
    const primed = this.primedHead.take(config);
    if (primed !== undefined) return primed.tuple;
    assertThreadId(threadId);
    const tuple = await super.getTuple(this.inward(config));
    return tuple === undefined ? undefined : this.outwardTuple(tuple);
  }

  override async *list(
    config: RunnableConfig,
    options?: CheckpointListOptions,
  ): AsyncGenerator<CheckpointTuple> {
    if (config.configurable?.thread_id !== undefined && config.configurable.thread_id !== null) {
      for await (const tuple of super.list(this.inward(config, { listing: true }), options)) {
        yield this.outwardTuple(tuple);
      }
      return;
    }
    // All of this agent's threads: filter MemorySaver's listing, then apply the limit.
    let remaining = options?.limit;
    if (remaining !== undefined && remaining <= 0) return;
    const { thread_id: _ignored, ...rest } = config.configurable ?? {};
    for await (const tuple of super.list(
      { ...config, configurable: rest },
      { ...options, limit: undefined },
    )) {
      const stored = tuple.config.configurable?.thread_id;
      if (typeof stored !== "string" || threadIdFromStorage(this.agentId, stored) === undefined) {
        continue;
      }
      yield this.outwardTuple(tuple);
      if (remaining !== undefined && --remaining <= 0) return;
    }
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    _newVersions?: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = config.configurable?.thread_id;
    assertThreadId(threadId);
    if (this.turnWrites.hold(threadId, () => this.put(config, checkpoint, metadata))) {
      const ns = config.configurable?.checkpoint_ns ?? "";
      return {
        configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id },
      };
    }
    const ns = config.configurable?.checkpoint_ns ?? "";
    // A flushTurn's writes go with the root checkpoint (taken once).
    const write = ns === "" ? this.turnWrites.takeRoot(threadId) : undefined;
    write?.check();
    const saved = await super.put(this.inward(config), checkpoint, metadata);
    if (this.keepLatestOnly && canPruneOlder(checkpoint, metadata)) {
      this.pruneOlder(
        storageThreadId(this.agentId, threadId),
        config.configurable?.checkpoint_ns ?? "",
        checkpoint.id,
      );
    }
    write?.apply();
    return this.outward(saved);
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const threadId = config.configurable?.thread_id;
    if (
      typeof threadId === "string" &&
      this.turnWrites.hold(threadId, () => this.putWrites(config, writes, taskId, taskPath))
    ) {
      return;
    }
    await super.putWrites(this.inward(config), writes, taskId, taskPath);
  }

  /**
   * Trim (R4.2): what was cut must be gone from memory too, not only from the newest
   * checkpoint — drop the thread namespace's other checkpoints and their pending writes.
   */
  private pruneOlder(storageId: string, ns: string, keep: string): void {
    const checkpoints = this.storage[storageId]?.[ns];
    if (checkpoints === undefined) return;
    for (const id of Object.keys(checkpoints)) {
      if (id === keep) continue;
      delete checkpoints[id];
      delete this.writes[JSON.stringify([storageId, ns, id])];
    }
  }

  /** Erase a conversation of this agent: checkpoints, writes, its memory rows and message ids. */
  override async deleteThread(threadId: string): Promise<void> {
    assertThreadId(threadId);
    await super.deleteThread(storageThreadId(this.agentId, threadId));
    this.memoryRows.delete(storageThreadId(this.agentId, threadId));
    this.storedIds.delete(storageThreadId(this.agentId, threadId));
  }

  override async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    return super.getDeltaChannelHistory({ ...options, config: this.inward(options.config) });
  }

  /**
   * The config as MemorySaver stores it: agent-scoped thread id; the namespace defaults to ''
   * (MemorySaver.putWrites would otherwise key writes under `null`), except for list(),
   * where no namespace means every namespace.
   */
  private inward(config: RunnableConfig, options: { listing?: boolean } = {}): RunnableConfig {
    const c = config.configurable ?? {};
    assertThreadId(c.thread_id);
    const scoped: Record<string, unknown> = {
      ...c,
      thread_id: storageThreadId(this.agentId, c.thread_id),
    };
    if (!options.listing) scoped.checkpoint_ns = c.checkpoint_ns ?? "";
    return { ...config, configurable: scoped };
  }

  private outward(config: RunnableConfig): RunnableConfig {
    const c = config.configurable;
    const stored = c?.thread_id;
    if (typeof stored !== "string") return config;
    return {
      ...config,
      configurable: { ...c, thread_id: threadIdFromStorage(this.agentId, stored) ?? stored },
    };
  }

  private outwardTuple(tuple: CheckpointTuple): CheckpointTuple {
    const out: CheckpointTuple = { ...tuple, config: this.outward(tuple.config) };
    if (tuple.parentConfig !== undefined) out.parentConfig = this.outward(tuple.parentConfig);
    return out;
  }
}
