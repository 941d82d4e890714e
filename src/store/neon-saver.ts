/**
 * NeonSaver — a LangGraph.js checkpointer on the official Postgres schema, over llamon's
 * SQL interface (Neon HTTP in the Worker, node-postgres in Node tools).
 *
 * Ownership (R2.3): threads are stored as `<agent_id>:<thread_id>`; every read and write is
 * scoped to the saver's agent, so agents sharing a database never see each other's threads.
 *
 * Round trips (DESIGN.md): with `durability: "exit"` a turn calls `getTuple` then `put`.
 * `getTuple` reads the checkpoint (with blobs and pending writes) *and* the thread's
 * persistent_memory rows in one read-only batch; `put` writes the thread registry
 * (optionally a compare-and-set on the head), the blobs, the checkpoint and any memory rows
 * staged during the turn in one atomic batch. So a turn costs two database round trips.
 */

import { Buffer } from "node:buffer";
import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type DeltaChannelHistory,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import { dbErrorFields, LlamonError } from "../errors.ts";
import type { Db, SqlStatement } from "./db.ts";
import {
  assembleDeltaHistory,
  canPruneOlder,
  type DeltaChainLink,
  readThreadHead,
  storedMessageCount,
  withMessageList,
} from "./delta.ts";
import {
  type MessageIdEntry,
  type MessageIdIndex,
  MessageIdStage,
  type StoredTurn,
  storedTurnOf,
} from "./message-ids.ts";
import {
  DELETE_THREAD_MESSAGE_IDS,
  INSERT_MESSAGE_ID,
  MAX_TURN_ROWS,
  SELECT_MESSAGE_TURN,
} from "./message-ids-sql.ts";
import {
  type JsonValue,
  type MemoryRows,
  memoryThreadColumn,
  toMemoryRows,
} from "./persistent-memory.ts";
import { PrimedHead } from "./primed-head.ts";
import {
  type PrefetchedRecall,
  parseRecallRow,
  parseVectorRows,
  type RecallPrefetch,
  type RecallQuery,
} from "./recall-prefetch.ts";
import { checkpointTarget, listQuery, ROOT_NS } from "./saver-target.ts";
import { assembleTuple, serializeBlobs } from "./saver-tuple.ts";
import { CheckpointSerializer } from "./serde.ts";
import {
  APPEND_TRANSCRIPT,
  DELETE_MEMORY_KEYS,
  DELETE_THREAD,
  DELETE_THREAD_MEMORY,
  DELETE_THREAD_REGISTRY,
  DELETE_THREAD_TRANSCRIPT,
  DELETE_TRIMMED_COUNT,
  INSERT_BLOBS,
  INSERT_WRITES,
  LIST_TUPLES,
  PRUNE_OLDER_CHECKPOINTS,
  PRUNE_OLDER_WRITES,
  PRUNE_UNREFERENCED_BLOBS,
  SELECT_DELTA_HISTORY,
  SELECT_RECALL,
  SELECT_TRANSCRIPT,
  SELECT_TUPLE,
  SET_THREAD_MESSAGE_COUNT,
  SQLSTATE_HEAD_MOVED,
  TOUCH_THREAD,
  TRIM_TRANSCRIPT,
  UPSERT_CHECKPOINT,
  UPSERT_MEMORY,
  UPSERT_WRITES,
} from "./sql.ts";
import {
  CAS_CHECKPOINT_HEAD,
  DROP_GONE_THREAD_ROWS,
  LOCK_THREAD,
  SELECT_LIVE_MEMORY_ROWS,
  SELECT_THREAD_GONE,
} from "./thread-head-sql.ts";
import {
  assertAgentId,
  assertThreadId,
  storageThreadId,
  threadIdFromStorage,
} from "./thread-key.ts";
import {
  fromTranscriptRows,
  type TranscriptAccess,
  type TranscriptIndex,
  TranscriptStage,
  type TranscriptTrim,
} from "./transcript.ts";
import { SELECT_RECALL_VECTORS } from "./vector-sql.ts";
import { semanticRecallError, vectorLiteral } from "./vectors.ts";

export interface NeonSaverOptions {
  readonly db: Db;
  readonly agentId: string;
  readonly serde?: SerializerProtocol;
  /**
   * Compare-and-set on the thread head in `put` (root namespace): the new checkpoint is
   * written only if its parent is still the thread's latest checkpoint; otherwise `put`
   * throws THREAD_CONFLICT and writes nothing. The turn runner turns this on; forks and
   * time travel (writing from an older checkpoint) need it off.
   */
  readonly guardHead?: boolean;
  /** Load the thread's persistent_memory rows with every getTuple (one batch). Default true. */
  readonly prefetchMemory?: boolean;
  /**
   * Keep only the newest checkpoint of each thread (in the same atomic write). Required
   * for `persist_trim_keep_groups` (R4.2): trimmed turns must not survive in older
   * checkpoints. Off by default (LangGraph keeps history for time travel).
   */
  readonly keepLatestOnly?: boolean;
  /**
   * Channels LangGraph rebuilds from deltas (`DeltaChannel`): `getTuple` reads their history
   * in the same round trip, so `getDeltaChannelHistory` right after it costs none.
   * Default `["messages"]` (llamon's graph; see store/delta.ts).
   */
  readonly deltaChannels?: readonly string[];
  /**
   * Hold every `put` and `putWrites` until {@link NeonSaver.flushTurn}, which writes them all
   * in one atomic batch (with the head compare-and-set and the staged memory rows); a failed
   * turn calls {@link NeonSaver.discardTurn} and nothing of it is stored. The turn runner
   * turns this on (LangGraph's `durability: "exit"` writes only at the end of a run). Never
   * use it without calling flushTurn: held writes are not visible to other savers.
   * Default: the value of `guardHead` — the head compare-and-set is only sound with it, since
   * a turn's message writes and its checkpoint must land (or fail) together.
   */
  readonly deferWrites?: boolean;
  /**
   * Return the `messages` channel of a root checkpoint as a plain list even when it was
   * stored as deltas (threads written before the live tail, issue 8): the list is rebuilt
   * from the history read in the same batch. The turn runner's graph keeps a plain channel.
   */
  readonly materializeMessages?: boolean;
}

interface TupleRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint: Omit<Checkpoint, "channel_values">;
  metadata: CheckpointMetadata;
  channel_values: [string, string, string | null][];
  pending_writes: [string, string, string, string][];
  pending_sends: [string, string][] | null;
}

type StagedMemory = Map<string, JsonValue | null>;

interface DeltaHistoryRow {
  target_id: string | null;
  needed: string[] | null;
  chain: [string, [string, string, string][], [string, string, string, string][]][];
}

/** History read with a checkpoint, for the getDeltaChannelHistory call that follows it. */
interface PrefetchedHistory {
  readonly key: string;
  readonly channels: ReadonlySet<string>;
  readonly row: DeltaHistoryRow;
}

/** A held write: its statements are built at flush time (the registry count is known then). */
interface HeldWrite {
  readonly threadId: string;
  /** A put of the root namespace: the checkpoint it writes (the new head). */
  readonly head?: string;
  readonly build: (messageCount: number | null) => SqlStatement[];
}

export class NeonSaver
  extends BaseCheckpointSaver
  implements TranscriptAccess, RecallPrefetch, MessageIdIndex
{
  readonly db: Db;
  readonly agentId: string;
  private readonly guardHead: boolean;
  private readonly prefetchMemory: boolean;
  /** See the option; a turn whose config is known only after its read sets it then. */
  keepLatestOnly: boolean;
  /** The head a ThreadStore read ahead of the graph (store/primed-head.ts). */
  readonly primedHead = new PrimedHead();
  private readonly deltaChannels: readonly string[];
  private readonly deferWrites: boolean;
  private held: HeldWrite[] = [];
  private prefetched: PrefetchedHistory | undefined;
  private readonly loadedMemory = new Map<string, MemoryRows>();
  private readonly staged = new Map<string, StagedMemory>();
  private readonly transcript: TranscriptStage;
  /** Threads whose registry head the last read found deleted (by another saver). */
  private readonly goneThreads = new Set<string>();
  /** Recall asked for the thread's next read, and what that read found (recall-prefetch.ts). */
  private readonly recallQueries = new Map<string, RecallQuery>();
  private readonly recalled = new Map<string, PrefetchedRecall>();
  /** The registry generation of each thread, as last read or written (generationOf). */
  private readonly generations = new Map<string, string>();
  /** Message ids looked up with the thread's next read, found, and staged for its write. */
  private readonly messageIds = new MessageIdStage();
  /** See the `materializeMessages` option; the turn runner sets it for a `tail` graph. */
  plainMessages: boolean;

  constructor(options: NeonSaverOptions) {
    // LangGraph's format, read and written with less CPU (./serde.ts).
    super(options.serde ?? new CheckpointSerializer());
    this.transcript = new TranscriptStage(this.serde);
    assertAgentId(options.agentId);
    this.db = options.db;
    this.agentId = options.agentId;
    this.guardHead = options.guardHead ?? false;
    this.prefetchMemory = options.prefetchMemory ?? true;
    this.keepLatestOnly = options.keepLatestOnly ?? false;
    this.deltaChannels = options.deltaChannels ?? ["messages"];
    this.deferWrites = options.deferWrites ?? this.guardHead;
    this.plainMessages = options.materializeMessages ?? false;
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
    const { rows } = await this.db.query<{ message: unknown }>(SELECT_TRANSCRIPT, [
      this.agentId,
      threadId,
      from,
      to ?? null,
    ]);
    return fromTranscriptRows(this.serde, rows);
  }

  prefetchRecall(threadId: string, query: RecallQuery): void {
    this.recalled.delete(threadId);
    if (query.terms.length === 0 || query.limit < 1) return;
    const vector =
      query.vector !== undefined && query.vector.embedding.length > 0 && query.vector.limit >= 1
        ? { ...query.vector, limit: Math.floor(query.vector.limit) }
        : undefined;
    this.recallQueries.set(threadId, {
      terms: [...query.terms],
      limit: Math.floor(query.limit),
      vector,
    });
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

  /** The persistent_memory rows read with the last getTuple of this thread. */
  memoryOf(threadId: string): MemoryRows | undefined {
    return this.loadedMemory.get(threadId);
  }

  /**
   * Stage a persistent_memory write (null deletes) for the thread's next `put`, so it lands
   * atomically with the checkpoint. Use `threadId: null` for an agent-level key — it is
   * written with the next put of whichever thread comes first.
   */
  stageMemory(threadId: string | null, key: string, value: JsonValue | null): void {
    const column = memoryThreadColumn(threadId);
    const bucket = this.staged.get(column) ?? new Map<string, JsonValue | null>();
    bucket.set(key, value);
    this.staged.set(column, bucket);
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (config.configurable?.thread_id === undefined) return undefined;
    // The head a ThreadStore's load read for the turn (store/primed-head.ts).
    const primed = this.primedHead.take(config);
    if (primed !== undefined) return primed.tuple;
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    if (this.held.some((h) => h.threadId === threadId)) await this.flushTurn(threadId);
    const storageId = storageThreadId(this.agentId, threadId);
    const statements: SqlStatement[] = [
      { text: SELECT_TUPLE, params: [storageId, ns, checkpointId ?? null] },
    ];
    if (this.deltaChannels.length > 0) {
      statements.push({
        text: SELECT_DELTA_HISTORY,
        params: [storageId, ns, checkpointId ?? null, [...this.deltaChannels], true, null],
      });
    }
    const memoryAt = statements.length;
    if (this.prefetchMemory)
      statements.push({ text: SELECT_LIVE_MEMORY_ROWS, params: [this.agentId, threadId] });
    const goneAt = this.guardHead && ns === ROOT_NS ? statements.length : -1;
    if (goneAt >= 0)
      statements.push({ text: SELECT_THREAD_GONE, params: [this.agentId, threadId] });
    const recallAt = statements.length;
    const recallQuery = ns === ROOT_NS ? this.recallQueries.get(threadId) : undefined;
    if (recallQuery !== undefined) {
      this.recallQueries.delete(threadId);
      statements.push({
        text: SELECT_RECALL,
        params: [this.agentId, threadId, recallQuery.terms, recallQuery.limit],
      });
    }
    const vectorAt = recallQuery?.vector !== undefined ? statements.length : -1;
    if (recallQuery?.vector !== undefined) {
      const v = recallQuery.vector;
      statements.push({
        text: SELECT_RECALL_VECTORS,
        params: [this.agentId, threadId, vectorLiteral(v.embedding), v.model, v.limit],
      });
    }
    // The incoming messageId (R11.2): a primary-key probe, and a resend's stored turn.
    const messageId = ns === ROOT_NS ? this.messageIds.takeAsked(threadId) : undefined;
    const messageIdAt = messageId !== undefined ? statements.length : -1;
    if (messageId !== undefined) {
      statements.push({
        text: SELECT_MESSAGE_TURN,
        params: [this.agentId, threadId, messageId, MAX_TURN_ROWS],
      });
    }
    // One snapshot for all statements: the history belongs to the checkpoint read with it.
    const results = await this.db
      .batch(statements, { readOnly: true, isolationLevel: "RepeatableRead" })
      .catch((error: unknown) => {
        throw vectorAt >= 0 ? semanticRecallError(error) : error;
      });
    const memory = this.prefetchMemory ? results[memoryAt] : undefined;
    if (memory) {
      this.loadedMemory.set(
        threadId,
        toMemoryRows(memory.rows as { thread_id: string; key: string; value: unknown }[]),
      );
    }
    if (goneAt >= 0) {
      const registry = results[goneAt]?.rows[0] as
        | { gone: boolean; llamon_generation: string }
        | undefined;
      if (registry === undefined) this.generations.delete(threadId);
      else this.generations.set(threadId, registry.llamon_generation);
      if (registry?.gone === true) this.goneThreads.add(threadId);
      else this.goneThreads.delete(threadId);
    }
    // A thread another saver deleted starts fresh: its old transcript (deleted by the next
    // write) must not be quoted to the model, so its recall answer is dropped.
    if (recallQuery !== undefined) {
      const gone = this.goneThreads.has(threadId);
      const recall = gone
        ? parseRecallRow(undefined)
        : parseRecallRow(results[recallAt]?.rows[0]?.recall);
      const semantic =
        vectorAt >= 0 && !gone ? parseVectorRows(results[vectorAt]?.rows ?? []) : undefined;
      this.recalled.set(threadId, semantic === undefined ? recall : { ...recall, semantic });
    }
    if (messageIdAt >= 0) {
      // A gone thread's ids belong to the old conversation (deleted by the next write).
      const found = this.goneThreads.has(threadId)
        ? undefined
        : (results[messageIdAt]?.rows[0] as Parameters<typeof storedTurnOf>[1]);
      this.messageIds.setFound(threadId, await storedTurnOf(this.serde, found));
    }
    const row = results[0]?.rows[0] as TupleRow | undefined;
    const history =
      this.deltaChannels.length > 0
        ? (results[1]?.rows[0] as unknown as DeltaHistoryRow | undefined)
        : undefined;
    this.prefetched =
      row !== undefined && history !== undefined && history.target_id === row.checkpoint_id
        ? {
            key: historyKey(storageId, ns, row.checkpoint_id),
            channels: new Set(history.needed ?? []),
            row: history,
          }
        : undefined;
    if (row === undefined) return undefined;
    const tuple = await this.toTuple(row, threadId);
    return this.plainMessages && ns === ROOT_NS ? withMessageList(this, tuple) : tuple;
  }

  /**
   * The ancestor walk that rebuilds delta channels (LangGraph calls it right after getTuple
   * when a channel's value is not stored in the checkpoint): served from what getTuple read
   * with the checkpoint, otherwise one query.
   */
  override async getDeltaChannelHistory(options: {
    config: RunnableConfig;
    channels: string[];
  }): Promise<Record<string, DeltaChannelHistory>> {
    const { channels } = options;
    if (channels.length === 0) return {};
    const { threadId, ns, checkpointId } = checkpointTarget(options.config);
    const storageId = storageThreadId(this.agentId, threadId);
    const cached = this.prefetched;
    let row: DeltaHistoryRow | undefined;
    if (
      cached !== undefined &&
      checkpointId !== undefined &&
      cached.key === historyKey(storageId, ns, checkpointId) &&
      channels.every((c) => cached.channels.has(c))
    ) {
      row = cached.row;
    } else {
      const result = await this.db.query<DeltaHistoryRow>(SELECT_DELTA_HISTORY, [
        storageId,
        ns,
        checkpointId ?? null,
        channels,
        false,
        null,
      ]);
      row = result.rows[0];
    }
    const chain: DeltaChainLink[] = await Promise.all(
      (row?.chain ?? []).map(async ([, seeds, writes]) => ({
        seeds: new Map(
          await Promise.all(
            seeds.map(
              async ([channel, type, blob]) =>
                [channel, await this.serde.loadsTyped(type, fromBase64(blob))] as const,
            ),
          ),
        ),
        writes: await Promise.all(
          writes.map(
            async ([taskId, channel, type, blob]) =>
              [
                taskId,
                channel,
                await this.serde.loadsTyped(type, fromBase64(blob)),
              ] as CheckpointPendingWrite,
          ),
        ),
      })),
    );
    return assembleDeltaHistory(chain, channels);
  }

  override async *list(
    config: RunnableConfig,
    options?: CheckpointListOptions,
  ): AsyncGenerator<CheckpointTuple> {
    const q = listQuery(config, options);
    const { rows } = await this.db.query<TupleRow>(LIST_TUPLES, [
      q.threadId === null ? null : storageThreadId(this.agentId, q.threadId),
      `${this.agentId}:`,
      q.ns,
      q.checkpointId,
      q.filter === null ? null : JSON.stringify(q.filter),
      q.before,
      q.limit,
    ]);
    for (const row of rows) {
      const external = threadIdFromStorage(this.agentId, row.thread_id);
      if (external !== undefined) yield await this.toTuple(row, external);
    }
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const { threadId, ns, checkpointId: parentId } = checkpointTarget(config);
    const storageId = storageThreadId(this.agentId, threadId);
    const { channel_values: values, ...rest } = checkpoint;
    const blobs = (await serializeBlobs(this.serde, values, newVersions)).map(
      ({ bytes, ...blob }) => ({ ...blob, blob: bytes === null ? null : toBase64(bytes) }),
    );
    const [, metaBytes] = await this.serde.dumpsTyped(metadata);
    const metadataJson = new TextDecoder().decode(metaBytes).replace(/\\u0000|\0/g, "");
    const storedCount = storedMessageCount(values as Record<string, unknown>);
    const prune = this.keepLatestOnly && canPruneOlder(checkpoint, metadata);

    const build = (heldCount: number | null): SqlStatement[] => {
      // The turn's own count first: with a live tail the checkpoint holds only the tail.
      const messageCount = heldCount ?? storedCount;
      const statements: SqlStatement[] = [];
      if (ns === ROOT_NS && this.guardHead) {
        // The head is the newest checkpoint in LangGraph's tables, not the registry's copy
        // (thread-head-sql.ts): the lock first, then the check in a snapshot taken after it.
        statements.push({ text: LOCK_THREAD, params: [this.agentId, threadId, storageId] });
        // Deleted by another saver (its deleteThread): the old conversation's rows go first.
        if (this.goneThreads.has(threadId))
          statements.push(
            ...DROP_GONE_THREAD_ROWS.map((text) => ({ text, params: [this.agentId, threadId] })),
          );
        statements.push({
          text: CAS_CHECKPOINT_HEAD,
          params: [
            this.agentId,
            threadId,
            storageId,
            checkpoint.id,
            messageCount,
            parentId ?? null,
          ],
        });
      } else {
        statements.push({
          text: TOUCH_THREAD,
          params: [
            this.agentId,
            threadId,
            storageId,
            ns === ROOT_NS ? checkpoint.id : null,
            messageCount,
          ],
        });
      }
      if (blobs.length > 0)
        statements.push({ text: INSERT_BLOBS, params: [storageId, ns, JSON.stringify(blobs)] });
      statements.push({
        text: UPSERT_CHECKPOINT,
        params: [
          storageId,
          ns,
          checkpoint.id,
          parentId ?? null,
          JSON.stringify(rest),
          metadataJson,
        ],
      });
      if (prune) {
        statements.push(
          { text: PRUNE_OLDER_WRITES, params: [storageId, ns, checkpoint.id] },
          { text: PRUNE_OLDER_CHECKPOINTS, params: [storageId, ns, checkpoint.id] },
          {
            text: PRUNE_UNREFERENCED_BLOBS,
            params: [storageId, ns, JSON.stringify(checkpoint.channel_versions)],
          },
        );
      }
      return statements;
    };
    const result = {
      configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id },
    };
    if (this.deferWrites) {
      this.held.push(
        ns === ROOT_NS ? { threadId, build, head: checkpoint.id } : { threadId, build },
      );
      return result;
    }
    await this.write(threadId, build(null));
    // Messages stored as deltas: the count is known once the new head can be read back (an
    // unguarded write; a turn's own write passes its count to flushTurn instead).
    if (
      ns === ROOT_NS &&
      storedCount === null &&
      checkpoint.channel_versions.messages !== undefined
    )
      await this.recount(threadId, checkpoint.id, result);
    return result;
  }

  /** Set the registry's message count from the stored head `checkpointId` (still the head). */
  private async recount(threadId: string, checkpointId: string, config: RunnableConfig) {
    const head = await readThreadHead(this, config);
    await this.db.query(SET_THREAD_MESSAGE_COUNT, [
      this.agentId,
      threadId,
      checkpointId,
      head.offset + head.messages.length,
    ]);
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
    const special = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return { idx: WRITES_IDX_MAP[channel] ?? idx, channel, type, blob: toBase64(bytes) };
      }),
    );
    const statement: SqlStatement = {
      text: special ? UPSERT_WRITES : INSERT_WRITES,
      params: [
        storageThreadId(this.agentId, threadId),
        ns,
        checkpointId,
        taskId,
        taskPath,
        JSON.stringify(rows),
      ],
    };
    if (this.deferWrites) {
      this.held.push({ threadId, build: () => [statement] });
      return;
    }
    await this.db.query(statement.text, statement.params);
  }

  /**
   * Write everything held for this thread (deferWrites) in one atomic batch, with the memory
   * rows staged for it. `messageCount` is the thread's length after the turn, for the
   * registry when the checkpoint does not store the whole list. THREAD_CONFLICT when another
   * turn moved the head first: then nothing was written and the held writes are dropped.
   */
  async flushTurn(
    threadId: string,
    options: { messageCount?: number; messages?: readonly unknown[] } = {},
  ): Promise<void> {
    const mine = this.held.filter((h) => h.threadId === threadId);
    if (mine.length === 0) return;
    this.held = this.held.filter((h) => h.threadId !== threadId);
    const transcript = await this.transcriptStatements(threadId);
    await this.write(threadId, [
      ...mine.flatMap((h) => h.build(options.messageCount ?? null)),
      ...transcript,
    ]);
  }

  /**
   * Drop what is held for this thread (a failed turn stores nothing), with everything the
   * turn read or staged from its read: the memory rows it staged and the recall it quoted
   * belong to the head it read, which may since have been erased (R11.1) — a turn that runs
   * again reads and stages them afresh.
   */
  discardTurn(threadId: string): void {
    this.held = this.held.filter((h) => h.threadId !== threadId);
    this.transcript.forget(threadId);
    this.staged.delete(threadId);
    this.recalled.delete(threadId);
    this.recallQueries.delete(threadId);
    this.messageIds.take(threadId);
  }

  /**
   * The writes staged for the thread — its user message's id (R11.2), the transcript rows
   * appended, then a trim's deletion — taken off the stage. They run after the head
   * compare-and-set of the same batch.
   */
  private async transcriptStatements(threadId: string): Promise<SqlStatement[]> {
    const { rows, trim } = await this.transcript.take(threadId);
    const statements: SqlStatement[] = [];
    // The turn's user message first: the rows appended after it record ids only where none is.
    const entry = this.messageIds.take(threadId);
    if (entry !== undefined) {
      statements.push({
        text: INSERT_MESSAGE_ID,
        params: [this.agentId, threadId, entry.id, entry.seq, entry.end],
      });
    }
    if (rows.length > 0) {
      statements.push({
        text: APPEND_TRANSCRIPT,
        params: [this.agentId, threadId, JSON.stringify(rows)],
      });
    }
    if (trim?.all === true) {
      statements.push(
        { text: DELETE_THREAD_TRANSCRIPT, params: [this.agentId, threadId] },
        { text: DELETE_TRIMMED_COUNT, params: [this.agentId, threadId] },
      );
    } else if (trim !== undefined) {
      statements.push({
        text: TRIM_TRANSCRIPT,
        params: [this.agentId, threadId, trim.before, trim.keepGroups, trim.archived],
      });
    }
    return statements;
  }

  /** One atomic batch: the statements, then the memory rows staged for the thread. */
  private async write(threadId: string, statements: SqlStatement[]): Promise<void> {
    try {
      const results = await this.db.batch([...statements, ...this.stagedStatements(threadId)]);
      // The head compare-and-set answers the generation the write landed in.
      for (const result of results) {
        const row = result.rows[0] as { llamon_generation?: unknown } | undefined;
        if (typeof row?.llamon_generation === "string") {
          this.generations.set(threadId, row.llamon_generation);
        }
      }
    } catch (error) {
      // Staged memory writes stay staged, so a retried put still carries them.
      if (dbErrorFields(error)?.sqlstate === SQLSTATE_HEAD_MOVED) {
        throw new LlamonError(
          "THREAD_CONFLICT",
          `another turn on conversation "${threadId}" was saved first; nothing of this turn was written`,
          { cause: error, details: { threadId } },
        );
      }
      throw error;
    }
    this.staged.delete(threadId);
    this.staged.delete("");
    this.goneThreads.delete(threadId);
  }

  /**
   * Erase a conversation of this agent everywhere: checkpoints, blobs, writes, memory, registry,
   * transcript, message ids.
   */
  override async deleteThread(threadId: string): Promise<void> {
    await this.eraseThread(threadId);
  }

  /**
   * {@link deleteThread}, answering the generation the erase retired (undefined when llamon
   * had no registry row): the conversation's task records refuse it from then on (R11.1).
   */
  async eraseThread(threadId: string): Promise<string | undefined> {
    assertThreadId(threadId);
    const storageId = storageThreadId(this.agentId, threadId);
    // The registry row first: deleting it locks it, so a turn's write (LOCK_THREAD) and a
    // fenced job write (thread-fence.ts) either landed before — and are deleted here — or wait
    // and then find the thread gone (R11.1).
    const [registry] = await this.db.batch([
      { text: DELETE_THREAD_REGISTRY, params: [this.agentId, threadId] },
      ...DELETE_THREAD.map((text) => ({ text, params: [storageId] })),
      { text: DELETE_THREAD_MEMORY, params: [this.agentId, threadId] },
      { text: DELETE_THREAD_TRANSCRIPT, params: [this.agentId, threadId] },
      { text: DELETE_THREAD_MESSAGE_IDS, params: [this.agentId, threadId] },
    ]);
    this.transcript.forget(threadId);
    this.messageIds.forget(threadId);
    this.recalled.delete(threadId);
    this.loadedMemory.delete(threadId);
    this.staged.delete(threadId);
    this.generations.delete(threadId);
    const row = registry?.rows[0] as { generation?: unknown } | undefined;
    return typeof row?.generation === "string" ? row.generation : undefined;
  }

  /**
   * The thread's generation as this saver last read or wrote it (guarded reads and turn
   * writes; store/thread-fence.ts), or undefined.
   */
  generationOf(threadId: string): string | undefined {
    return this.generations.get(threadId);
  }

  /** Statements for the memory writes staged for this thread's put (its keys and agent keys). */
  private stagedStatements(threadId: string): SqlStatement[] {
    const statements: SqlStatement[] = [];
    for (const column of [threadId, ""]) {
      const bucket = this.staged.get(column);
      if (!bucket || bucket.size === 0) continue;
      const entries = [...bucket];
      const upserts = entries
        .filter(([, v]) => v !== null)
        .map(([key, value]) => ({ thread_id: column, key, value }));
      const deletes = entries.filter(([, v]) => v === null).map(([key]) => key);
      if (upserts.length > 0) {
        statements.push({ text: UPSERT_MEMORY, params: [this.agentId, JSON.stringify(upserts)] });
      }
      if (deletes.length > 0) {
        statements.push({ text: DELETE_MEMORY_KEYS, params: [this.agentId, column, deletes] });
      }
    }
    return statements;
  }

  private toTuple(row: TupleRow, threadId: string): Promise<CheckpointTuple> {
    return assembleTuple(this.serde, {
      threadId,
      ns: row.checkpoint_ns,
      checkpointId: row.checkpoint_id,
      parentId: row.parent_checkpoint_id,
      checkpoint: row.checkpoint,
      metadataJson: JSON.stringify(row.metadata),
      blobs: row.channel_values.map(
        ([channel, type, blob]) =>
          [channel, type, blob === null ? null : fromBase64(blob)] as const,
      ),
      writes: row.pending_writes.map(
        ([taskId, channel, type, blob]) => [taskId, channel, type, fromBase64(blob)] as const,
      ),
      sends: (row.pending_sends ?? []).map(([type, blob]) => [type, fromBase64(blob)] as const),
      firstVersion: () => this.getNextVersion(undefined),
    });
  }
}

function historyKey(storageId: string, ns: string, checkpointId: string): string {
  return `${storageId}\u0000${ns}\u0000${checkpointId}`;
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}
