/**
 * SqliteSaver — a LangGraph.js checkpointer over synchronous SQLite: a Durable Object's
 * `ctx.storage.sql` (the `sqlite` backend, SPEC R1) or Node's `node:sqlite` (conformance
 * suite). Same API and semantics as NeonSaver:
 *
 * - Ownership (R2.3): threads are stored as `<agent_id>:<thread_id>` and every read and
 *   write is scoped to the saver's agent, so agents sharing one storage never meet.
 * - `put` writes blobs, the checkpoint and the memory rows staged with `stageMemory` in one
 *   transaction; `getTuple` also loads the thread's persistent_memory rows (`memoryOf`).
 * - Pending writes come back in writesSortKey order (task_path, task_id, idx); checkpoints
 *   before format v4 get their Send packets migrated into the TASKS channel on read.
 * - `getDeltaChannelHistory` (how LangGraph rebuilds the thread's messages, a DeltaChannel)
 *   walks the ancestors in one recursive query instead of a getTuple per ancestor.
 * - The live tail (memory/live-tail.ts): a transcript (store/transcript.ts TranscriptAccess;
 *   table `llamon_messages`, sqlite-transcript-sql.ts) takes the messages that leave the
 *   checkpoint, in the transaction of the root checkpoint that no longer holds them, and
 *   conversation recall searches it with FTS5 in the same synchronous read as the checkpoint
 *   (store/recall-prefetch.ts RecallPrefetch, as NeonSaver's read batch).
 * - Message ids (store/message-ids.ts MessageIdIndex, R11.2): the read looks the turn's
 *   messageId up with the checkpoint; the root put records a new one in its transaction.
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
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import { LlamonError } from "../errors.ts";
import { assembleDeltaHistory, canPruneOlder, withMessageList } from "./delta.ts";
import {
  MemoryStaging,
  readSqliteMemory,
  type ThreadSaver,
  writeSqliteMemory,
} from "./do-memory.ts";
import { HeldWrites } from "./held-writes.ts";
import {
  type MessageIdEntry,
  type MessageIdIndex,
  MessageIdStage,
  type StoredTurn,
  storedTurnOf,
} from "./message-ids.ts";
import type { JsonValue, MemoryRows } from "./persistent-memory.ts";
import { PrimedHead } from "./primed-head.ts";
import type { PrefetchedRecall, RecallPrefetch } from "./recall-prefetch.ts";
import { checkpointTarget, listQuery, ROOT_NS } from "./saver-target.ts";
import { serializeBlobs } from "./saver-tuple.ts";
import { CheckpointSerializer } from "./serde.ts";
import {
  findSqliteTurn,
  insertSqliteMessageId,
  recordSqliteTranscriptIds,
} from "./sqlite-message-ids.ts";
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
import {
  appendSqliteTranscript,
  readSqliteTranscript,
  searchSqliteTranscript,
} from "./sqlite-transcript.ts";
import { SQ_DELETE_THREAD_TRANSCRIPT, SQ_TRIM_TRANSCRIPT } from "./sqlite-transcript-sql.ts";
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
import {
  fromTranscriptRows,
  TRIMMED_KEY,
  type TranscriptAccess,
  type TranscriptIndex,
  TranscriptStage,
  type TranscriptTrim,
  trimmedCountOf,
} from "./transcript.ts";

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
  /** Load the thread's persistent_memory rows with every getTuple. Default true. */
  readonly prefetchMemory?: boolean;
  /** Keep only the newest checkpoint of each thread (trim, R4.2), in the same transaction. */
  readonly keepLatestOnly?: boolean;
}

export class SqliteSaver
  extends BaseCheckpointSaver
  implements ThreadSaver, TranscriptAccess, RecallPrefetch, MessageIdIndex
{
  readonly sql: SqliteExec;
  readonly agentId: string;
  private readonly guardHead: boolean;
  private readonly prefetchMemory: boolean;
  /** Keep only the newest checkpoint with each save (trim); settable per turn. */
  keepLatestOnly: boolean;
  /** The head a ThreadStore read ahead of the graph (store/primed-head.ts). */
  readonly primedHead = new PrimedHead();
  private readonly memory = new MemoryStaging();
  readonly turnWrites = new HeldWrites((threadId) => {
    this.memory.committed(threadId);
    this.transcript.forget(threadId);
    this.messageIds.take(threadId);
  });
  /** Message ids looked up with the thread's next read, found, and staged for its put. */
  private readonly messageIds = new MessageIdStage();
  /** Transcript rows staged for the thread's next root checkpoint (stageTranscript). */
  private readonly transcript: TranscriptStage;
  /** Recall asked for the thread's next read, and what that read found. */
  private readonly recallQueries = new Map<string, { terms: string[]; limit: number }>();
  private readonly recalled = new Map<string, PrefetchedRecall>();
  /**
   * Deliver a root checkpoint's `messages` as a plain list even when stored as deltas (a
   * thread stored before the live tail); the turn runner sets it for a `tail` graph.
   */
  plainMessages = false;

  constructor(options: SqliteSaverOptions) {
    // LangGraph's format, read and written with less CPU (./serde.ts).
    super(options.serde ?? new CheckpointSerializer());
    this.transcript = new TranscriptStage(this.serde);
    assertAgentId(options.agentId);
    this.sql = options.sql;
    this.agentId = options.agentId;
    this.guardHead = options.guardHead ?? false;
    this.prefetchMemory = options.prefetchMemory ?? true;
    this.keepLatestOnly = options.keepLatestOnly ?? false;
    ensureSqliteSchema(this.sql);
  }

  memoryOf(threadId: string): MemoryRows | undefined {
    return this.memory.loadedRows(threadId);
  }

  stageMemory(threadId: string | null, key: string, value: JsonValue | null): void {
    this.memory.stage(threadId, key, value);
  }

  stageTranscript(
    threadId: string,
    from: number,
    messages: readonly BaseMessage[],
    index?: TranscriptIndex,
  ): void {
    this.transcript.stage(threadId, from, messages, index);
  }

  stageTranscriptTrim(threadId: string, trim: TranscriptTrim): void {
    this.transcript.stageTrim(threadId, trim);
  }

  async readTranscript(threadId: string, from: number, to?: number): Promise<BaseMessage[]> {
    assertThreadId(threadId);
    if (this.turnWrites.has(threadId)) await this.turnWrites.flush(threadId);
    return fromTranscriptRows(
      this.serde,
      readSqliteTranscript(this.sql, this.agentId, threadId, from, to),
    );
  }

  prefetchRecall(threadId: string, query: { terms: readonly string[]; limit: number }): void {
    this.recalled.delete(threadId);
    if (query.terms.length === 0 || query.limit < 1) return;
    this.recallQueries.set(threadId, { terms: [...query.terms], limit: Math.floor(query.limit) });
  }

  prefetchedRecall(threadId: string): PrefetchedRecall | undefined {
    return this.recalled.get(threadId);
  }

  lookupMessageId(threadId: string, messageId: string): void {
    this.messageIds.ask(threadId, messageId);
  }

  storedTurn(threadId: string): StoredTurn | undefined {
    return this.messageIds.found(threadId);
  }

  stageMessageId(threadId: string, entry: MessageIdEntry): void {
    this.messageIds.stage(threadId, entry);
  }

  // A turn's writes, held while it runs (store/held-writes.ts).
  flushTurn = (threadId: string): Promise<void> => this.turnWrites.flush(threadId);
  discardTurn = (threadId: string): void => this.turnWrites.discard(threadId);

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (config.configurable?.thread_id === undefined) return undefined;
    // The head a ThreadStore's load read for the turn (store/primed-head.ts).
    const primed = this.primedHead.take(config);
    if (primed !== undefined) return primed.tuple;
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    if (this.turnWrites.has(threadId)) await this.turnWrites.flush(threadId);
    const storageId = storageThreadId(this.agentId, threadId);
    const [row] = rows<CheckpointRow>(
      this.sql,
      SQ_SELECT_CHECKPOINT,
      storageId,
      ns,
      checkpointId ?? null,
    );
    if (this.prefetchMemory) {
      this.memory.remember(threadId, readSqliteMemory(this.sql, this.agentId, threadId));
    }
    const recallQuery = ns === ROOT_NS ? this.recallQueries.get(threadId) : undefined;
    if (recallQuery !== undefined) {
      this.recallQueries.delete(threadId);
      this.recalled.set(
        threadId,
        searchSqliteTranscript(this.sql, this.agentId, threadId, recallQuery),
      );
    }
    const messageId = ns === ROOT_NS ? this.messageIds.takeAsked(threadId) : undefined;
    if (messageId !== undefined) {
      const found = findSqliteTurn(this.sql, this.agentId, threadId, messageId);
      this.messageIds.setFound(threadId, await storedTurnOf(this.serde, found));
    }
    if (row === undefined) return undefined;
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
    const staged = this.memory.pending(threadId);
    // The messages this checkpoint no longer holds join the transcript in its transaction.
    const { rows: transcript, trim } =
      ns === ROOT_NS ? await this.transcript.take(threadId) : { rows: [], trim: undefined };
    const messageId = ns === ROOT_NS ? this.messageIds.take(threadId) : undefined;
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
      // The turn's user message first: the rows appended record ids only where none is.
      if (messageId !== undefined)
        insertSqliteMessageId(this.sql, this.agentId, threadId, messageId);
      appendSqliteTranscript(this.sql, this.agentId, threadId, transcript);
      recordSqliteTranscriptIds(this.sql, this.agentId, threadId, transcript);
      if (trim?.all === true) {
        rows(this.sql, SQ_DELETE_THREAD_TRANSCRIPT, this.agentId, threadId);
        writeSqliteMemory(this.sql, this.agentId, threadId, TRIMMED_KEY, undefined);
      } else if (trim !== undefined) {
        const { before, keepGroups, archived } = trim;
        const gone = rows<{ conversation: number | null }>(
          this.sql,
          SQ_TRIM_TRANSCRIPT,
          this.agentId,
          threadId,
          before,
          keepGroups,
          archived,
        );
        if (gone.length > 0) this.countTrimmed(threadId, gone);
      }
      for (const [column, key, value] of staged) {
        writeSqliteMemory(this.sql, this.agentId, column, key, value);
      }
    });
    this.memory.committed(threadId);
    return {
      configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id },
    };
  }

  /**
   * Add rows a partial trim deleted to the thread's `trimmed` count (inside put's
   * transaction), and to the rows the turn loaded, so what it reports after the write (the
   * thread index's message count) is the stored thread's.
   */
  private countTrimmed(threadId: string, gone: readonly { conversation: number | null }[]): void {
    const stored = readSqliteMemory(this.sql, this.agentId, threadId);
    const before = trimmedCountOf(stored.thread[TRIMMED_KEY]);
    const count = {
      messages: before.messages + gone.length,
      conversation: before.conversation + gone.filter((row) => Boolean(row.conversation)).length,
    };
    writeSqliteMemory(this.sql, this.agentId, threadId, TRIMMED_KEY, count);
    const loaded = this.memory.loadedRows(threadId);
    if (loaded !== undefined) {
      this.memory.remember(threadId, {
        ...loaded,
        thread: { ...loaded.thread, [TRIMMED_KEY]: count },
      });
    }
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
    this.memory.forget(threadId);
    this.messageIds.forget(threadId);
    this.transcript.forget(threadId);
    this.recalled.delete(threadId);
  }

  private toTuple(row: CheckpointRow, threadId: string): Promise<CheckpointTuple> {
    return readCheckpointTuple(this.sql, this.serde, row, threadId, () =>
      this.getNextVersion(undefined),
    );
  }
}
