/**
 * SqliteSaver — a LangGraph.js checkpointer over synchronous SQLite: a Durable Object's
 * `ctx.storage.sql` (the `sqlite` backend, R1) or Node's `node:sqlite` (conformance
 * suite). Same API and semantics as NeonSaver:
 *
 * - Ownership (R2.3): threads are stored as `<agent_id>:<thread_id>` and every read and
 *   write is scoped to the saver's agent, so agents sharing one storage never meet.
 * - `put` writes blobs and the checkpoint in one transaction; a turn's writes are held until
 *   its thread store commits them ({@link SqliteSaver.flushTurn}), with what the store adds in
 *   the root checkpoint's transaction (store/sqlite-thread-store.ts: memory rows, transcript,
 *   the messageId); the store's load reads its rows in the head's synchronous read
 *   ({@link SqliteSaver.readHead}). The saver keeps nothing of a turn but its held writes.
 * - Pending writes come back in writesSortKey order (task_path, task_id, idx); checkpoints
 *   before format v4 get their Send packets migrated into the TASKS channel on read.
 * - `getDeltaChannelHistory` (how LangGraph rebuilds the thread's messages, a DeltaChannel)
 *   walks the ancestors in one recursive query instead of a getTuple per ancestor.
 * - The live tail (memory/live-tail.ts): a transcript (table `llamon_messages`,
 *   sqlite-transcript-sql.ts) read by position ({@link SqliteSaver.readTranscript}).
 */

import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type DeltaChannelHistory,
  JsonPlusSerializer,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import { LlamonError } from "../errors.ts";
import { assembleDeltaHistory, canPruneOlder, withMessageList } from "./delta.ts";
import type { ThreadSaver } from "./do-memory.ts";
import { HeldWrites } from "./held-writes.ts";
import { PrimedHead } from "./primed-head.ts";
import { checkpointTarget, listQuery, ROOT_NS } from "./saver-target.ts";
import { serializeBlobs } from "./saver-tuple.ts";
import { SQ_DELETE_THREAD_MESSAGE_IDS } from "./sqlite-message-ids-sql.ts";
import {
  ensureSqliteSchema,
  rows,
  SQ_DELETE_THREAD,
  SQ_DELETE_THREAD_MEMORY,
  SQ_INSERT_BLOB,
  SQ_INSERT_WRITE,
  SQ_LIST_CHECKPOINTS,
  SQ_PRUNE_OLDER,
  SQ_PRUNE_UNREFERENCED_BLOBS,
  SQ_SELECT_CHECKPOINT,
  SQ_SELECT_HEAD,
  SQ_UPSERT_CHECKPOINT,
  SQ_UPSERT_WRITE,
  type SqliteExec,
} from "./sqlite-sql.ts";
import { readSqliteTranscript } from "./sqlite-transcript.ts";
import { SQ_DELETE_THREAD_TRANSCRIPT } from "./sqlite-transcript-sql.ts";
import {
  type CheckpointRow,
  jsonContains,
  readCheckpointTuple,
  readDeltaChain,
} from "./sqlite-tuple.ts";
import {
  assertAgentId,
  assertThreadId,
  storageThreadId,
  threadIdFromStorage,
} from "./thread-key.ts";
import { fromTranscriptRows, type TranscriptReader } from "./transcript.ts";

export interface SqliteSaverOptions {
  readonly sql: SqliteExec;
  readonly agentId: string;
  readonly serde?: SerializerProtocol;
  /**
   * Compare-and-set on the thread head in `put` (root namespace): the checkpoint is written
   * only if its parent is still the thread's latest checkpoint, else THREAD_CONFLICT and
   * nothing is written. Inside a Durable Object the per-object lock already serialises
   * turns; this is the same safety net NeonSaver offers. Forks and time travel need it off.
   */
  readonly guardHead?: boolean;
  /** Keep only the newest checkpoint of each thread (trim, R4.2), in the same transaction. */
  readonly keepLatestOnly?: boolean;
}

export class SqliteSaver extends BaseCheckpointSaver implements ThreadSaver, TranscriptReader {
  readonly sql: SqliteExec;
  readonly agentId: string;
  private readonly guardHead: boolean;
  /** Keep only the newest checkpoint with each save (trim); settable per turn. */
  keepLatestOnly: boolean;
  /** The head a ThreadStore read ahead of the graph (store/primed-head.ts). */
  readonly primedHead = new PrimedHead();
  /** A turn's writes; a flush's root write runs inside the root checkpoint's transaction. */
  readonly turnWrites = new HeldWrites<() => void>();
  /**
   * Deliver a root checkpoint's `messages` as a plain list even when stored as deltas (a
   * thread stored before the live tail); the turn's store sets it for a `tail` graph.
   */
  plainMessages = false;

  constructor(options: SqliteSaverOptions) {
    super(options.serde ?? new JsonPlusSerializer());
    assertAgentId(options.agentId);
    this.sql = options.sql;
    this.agentId = options.agentId;
    this.guardHead = options.guardHead ?? false;
    this.keepLatestOnly = options.keepLatestOnly ?? false;
    ensureSqliteSchema(this.sql);
  }

  async readTranscript(threadId: string, from: number, to?: number): Promise<BaseMessage[]> {
    assertThreadId(threadId);
    return fromTranscriptRows(
      this.serde,
      readSqliteTranscript(this.sql, this.agentId, threadId, from, to),
    );
  }

  /**
   * Apply the writes held for the thread (store/held-writes.ts); `inRootWrite` runs inside the
   * transaction of its root checkpoint, after it (a thread store's rows: they land with the
   * checkpoint or not at all). Nothing held: nothing is written, `inRootWrite` included.
   */
  flushTurn(threadId: string, inRootWrite?: () => void): Promise<void> {
    return this.turnWrites.flush(threadId, inRootWrite);
  }

  discardTurn(threadId: string): void {
    this.turnWrites.discard(threadId);
  }

  /**
   * The thread's newest root checkpoint, and what `extra` reads of the object's SQLite in the
   * same synchronous read (a thread store's rows: nothing else runs between the two).
   */
  async readHead<T>(
    threadId: string,
    extra: () => T,
  ): Promise<{ readonly tuple: CheckpointTuple | undefined; readonly extra: T }> {
    assertThreadId(threadId);
    const storageId = storageThreadId(this.agentId, threadId);
    const [row] = rows<CheckpointRow>(this.sql, SQ_SELECT_CHECKPOINT, storageId, ROOT_NS, null);
    const read = extra();
    if (row === undefined) return { tuple: undefined, extra: read };
    return { tuple: await this.headTuple(row, threadId, ROOT_NS), extra: read };
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (config.configurable?.thread_id === undefined) return undefined;
    // The head a ThreadStore's load read for the turn (store/primed-head.ts).
    const primed = this.primedHead.take(config);
    if (primed !== undefined) return primed.tuple;
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    const storageId = storageThreadId(this.agentId, threadId);
    const [row] = rows<CheckpointRow>(
      this.sql,
      SQ_SELECT_CHECKPOINT,
      storageId,
      ns,
      checkpointId ?? null,
    );
    return row === undefined ? undefined : this.headTuple(row, threadId, ns);
  }

  private async headTuple(row: CheckpointRow, threadId: string, ns: string) {
    const tuple = await this.toTuple(row, threadId);
    return this.plainMessages && ns === ROOT_NS ? withMessageList(this, tuple) : tuple;
  }

  /**
   * LangGraph's ancestor walk for delta channels, with the base implementation's result: from
   * the parent of the checkpoint (the latest if none is named) up to, per channel, the nearest
   * ancestor storing its value — even for channels the checkpoint itself stores. One recursive
   * query returns the chain with only the seeds and writes it needs; only those are
   * deserialised. TASKS is left to the base walk: its value can come from the pre-v4 Send
   * migration of getTuple, which is no stored blob.
   */
  override async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    const { config, channels } = options;
    if (channels.length === 0) return {};
    if (channels.includes(TASKS)) return super.getDeltaChannelHistory(options);
    if (config.configurable?.thread_id === undefined) return assembleDeltaHistory([], channels);
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    const chain = await readDeltaChain(
      this.sql,
      this.serde,
      { storageId: storageThreadId(this.agentId, threadId), ns, checkpointId },
      channels,
    );
    return assembleDeltaHistory(chain, channels);
  }

  override async *list(
    config: RunnableConfig,
    options?: CheckpointListOptions,
  ): AsyncGenerator<CheckpointTuple> {
    const q = listQuery(config, options);
    let remaining = q.limit === null ? -1 : q.limit;
    if (remaining === 0) return;
    const found = rows<CheckpointRow>(
      this.sql,
      SQ_LIST_CHECKPOINTS,
      q.threadId === null ? null : storageThreadId(this.agentId, q.threadId),
      `${this.agentId}:`,
      q.ns,
      q.checkpointId,
      q.before,
      q.filter === null ? remaining : -1,
    );
    for (const row of found) {
      const external = threadIdFromStorage(this.agentId, row.thread_id);
      if (external === undefined) continue;
      if (q.filter !== null && !jsonContains(JSON.parse(row.metadata), q.filter)) continue;
      yield await this.toTuple(row, external);
      if (remaining > 0 && --remaining === 0) return;
    }
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { threadId, ns, checkpointId: parentId } = checkpointTarget(config);
    if (this.turnWrites.hold(threadId, () => this.put(config, checkpoint, metadata, newVersions))) {
      return {
        configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id },
      };
    }
    const storageId = storageThreadId(this.agentId, threadId);
    const { channel_values: values, ...rest } = checkpoint;
    const blobs = (await serializeBlobs(this.serde, values, newVersions)).map(
      ({ channel, version, type, bytes }) => [channel, version, type, bytes] as const,
    );
    const [, metaBytes] = await this.serde.dumpsTyped(metadata);
    const metadataJson = new TextDecoder().decode(metaBytes);
    // A flushTurn's rows join the root checkpoint's transaction.
    const inRootWrite = ns === ROOT_NS ? this.turnWrites.takeRoot(threadId) : undefined;
    this.sql.transaction(() => {
      if (ns === ROOT_NS && this.guardHead) {
        const [head] = rows<{ checkpoint_id: string }>(this.sql, SQ_SELECT_HEAD, storageId);
        if ((head?.checkpoint_id ?? null) !== (parentId ?? null)) {
          throw new LlamonError(
            "THREAD_CONFLICT",
            `another turn on conversation "${threadId}" was saved first; nothing of this turn was written`,
            { details: { threadId } },
          );
        }
      }
      for (const [channel, version, type, blob] of blobs) {
        rows(this.sql, SQ_INSERT_BLOB, storageId, ns, channel, version, type, blob);
      }
      rows(
        this.sql,
        SQ_UPSERT_CHECKPOINT,
        storageId,
        ns,
        checkpoint.id,
        parentId ?? null,
        JSON.stringify(rest),
        metadataJson,
      );
      if (this.keepLatestOnly && canPruneOlder(checkpoint, metadata)) {
        for (const text of SQ_PRUNE_OLDER) rows(this.sql, text, storageId, ns, checkpoint.id);
        rows(
          this.sql,
          SQ_PRUNE_UNREFERENCED_BLOBS,
          storageId,
          ns,
          JSON.stringify(checkpoint.channel_versions),
        );
      }
      inRootWrite?.();
    });
    return {
      configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id },
    };
  }

  override async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
  ): Promise<void> {
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    if (checkpointId === undefined) {
      throw new LlamonError("INPUT_INVALID", "putWrites needs configurable.checkpoint_id");
    }
    if (writes.length === 0) return;
    if (this.turnWrites.hold(threadId, () => this.putWrites(config, writes, taskId, taskPath))) {
      return;
    }
    const statement = writes.every(([channel]) => channel in WRITES_IDX_MAP)
      ? SQ_UPSERT_WRITE
      : SQ_INSERT_WRITE;
    const serialised = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return [WRITES_IDX_MAP[channel] ?? idx, channel, type, bytes] as const;
      }),
    );
    const storageId = storageThreadId(this.agentId, threadId);
    this.sql.transaction(() => {
      for (const [idx, channel, type, bytes] of serialised) {
        rows(
          this.sql,
          statement,
          storageId,
          ns,
          checkpointId,
          taskId,
          taskPath,
          idx,
          channel,
          type,
          bytes,
        );
      }
    });
  }

  /**
   * Erase a conversation of this agent: checkpoints, blobs, writes, its memory rows, its
   * transcript (its FTS5 index entries go with it, sqlite-transcript-sql.ts) and message ids.
   */
  override async deleteThread(threadId: string): Promise<void> {
    assertThreadId(threadId);
    const storageId = storageThreadId(this.agentId, threadId);
    this.sql.transaction(() => {
      for (const statement of SQ_DELETE_THREAD) rows(this.sql, statement, storageId);
      rows(this.sql, SQ_DELETE_THREAD_MEMORY, this.agentId, threadId);
      rows(this.sql, SQ_DELETE_THREAD_TRANSCRIPT, this.agentId, threadId);
      rows(this.sql, SQ_DELETE_THREAD_MESSAGE_IDS, this.agentId, threadId);
    });
  }

  private toTuple(row: CheckpointRow, threadId: string): Promise<CheckpointTuple> {
    return readCheckpointTuple(this.sql, this.serde, row, threadId, () =>
      this.getNextVersion(undefined),
    );
  }
}
