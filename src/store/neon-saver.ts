/**
 * NeonSaver — a LangGraph.js checkpointer on the official Postgres schema, over llamon's
 * SQL interface (Neon HTTP in the Worker, node-postgres in Node tools).
 *
 * Ownership (R2.3): threads are stored as `<agent_id>:<thread_id>`; every read and write is
 * scoped to the saver's agent, so agents sharing a database never see each other's threads.
 *
 * Round trips (DESIGN.md): a turn reads its head with {@link NeonSaver.readHead} — the
 * checkpoint (with blobs, pending writes and delta history) and the statements its thread
 * store adds (memory rows, recall, its messageId: store/postgres-thread-store.ts) in one
 * read-only batch — and writes with {@link NeonSaver.flushTurn}: the thread registry (a
 * compare-and-set on the head), the blobs, the checkpoint and the store's statements in one
 * atomic batch. So a turn costs two database round trips. The saver keeps no state of a turn
 * but LangGraph's own held writes: what the turn read and staged is its store's.
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
  JsonPlusSerializer,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import { dbErrorFields, LlamonError } from "../errors.ts";
import type { Db, QueryResult, SqlStatement } from "./db.ts";
import {
  assembleDeltaHistory,
  canPruneOlder,
  type DeltaChainLink,
  readThreadHead,
  storedMessageCount,
  withMessageList,
} from "./delta.ts";
import { DELETE_THREAD_MESSAGE_IDS } from "./message-ids-sql.ts";
import { PrimedHead } from "./primed-head.ts";
import { checkpointTarget, listQuery, ROOT_NS } from "./saver-target.ts";
import { assembleTuple, serializeBlobs } from "./saver-tuple.ts";
import {
  DELETE_THREAD,
  DELETE_THREAD_MEMORY,
  DELETE_THREAD_REGISTRY,
  DELETE_THREAD_TRANSCRIPT,
  INSERT_BLOBS,
  INSERT_WRITES,
  LIST_TUPLES,
  PRUNE_OLDER_CHECKPOINTS,
  PRUNE_OLDER_WRITES,
  PRUNE_UNREFERENCED_BLOBS,
  SELECT_DELTA_HISTORY,
  SELECT_TRANSCRIPT,
  SELECT_TUPLE,
  SET_THREAD_MESSAGE_COUNT,
  SQLSTATE_HEAD_MOVED,
  TOUCH_THREAD,
  UPSERT_CHECKPOINT,
  UPSERT_WRITES,
} from "./sql.ts";
import {
  CAS_CHECKPOINT_HEAD,
  DROP_GONE_THREAD_ROWS,
  LOCK_THREAD,
  SELECT_THREAD_GONE,
} from "./thread-head-sql.ts";
import {
  assertAgentId,
  assertThreadId,
  storageThreadId,
  threadIdFromStorage,
} from "./thread-key.ts";
import { fromTranscriptRows, type TranscriptReader } from "./transcript.ts";

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
   * in one atomic batch (with the head compare-and-set and the caller's statements); a failed
   * turn calls {@link NeonSaver.discardTurn} and nothing of it is stored. The turn runner
   * turns this on (LangGraph's `durability: "exit"` writes only at the end of a run). Never
   * use it without calling flushTurn: held writes are not visible to other savers.
   * Default: the value of `guardHead` — the head compare-and-set is only sound with it, since
   * a turn's message writes and its checkpoint must land (or fail) together.
   */
  readonly deferWrites?: boolean;
  /**
   * Return the `messages` channel of a root checkpoint as a plain list even when it was
   * stored as deltas (threads written before the live tail): the list is rebuilt
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

/**
 * What {@link NeonSaver.readHead} read in one snapshot: the thread's newest root checkpoint,
 * the thread's registry row and the results of the caller's statements, in their order.
 */
export interface HeadRead {
  readonly tuple: CheckpointTuple | undefined;
  /** llamon's registry row of the thread; undefined when there is none. */
  readonly registry: { readonly gone: boolean; readonly generation: string } | undefined;
  readonly extra: readonly QueryResult[];
}

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

export class NeonSaver extends BaseCheckpointSaver implements TranscriptReader {
  readonly db: Db;
  readonly agentId: string;
  private readonly guardHead: boolean;
  /** See the option; a turn whose config is known only after its read sets it then. */
  keepLatestOnly: boolean;
  /** The head a ThreadStore read ahead of the graph (store/primed-head.ts). */
  readonly primedHead = new PrimedHead();
  private readonly deltaChannels: readonly string[];
  /**
   * Whether writes are held now (the `deferWrites` option; a thread store turns it on for the
   * length of a turn, so a turn's checkpoint always lands with its rows, in one batch).
   */
  readonly turnWrites: { holding: boolean };
  private held: HeldWrite[] = [];
  private prefetched: PrefetchedHistory | undefined;
  /** Threads whose registry head the last read found deleted (by another saver). */
  private readonly goneThreads = new Set<string>();
  /** See the `materializeMessages` option; the turn runner sets it for a `tail` graph. */
  plainMessages: boolean;

  constructor(options: NeonSaverOptions) {
    super(options.serde ?? new JsonPlusSerializer());
    assertAgentId(options.agentId);
    this.db = options.db;
    this.agentId = options.agentId;
    this.guardHead = options.guardHead ?? false;
    this.keepLatestOnly = options.keepLatestOnly ?? false;
    this.deltaChannels = options.deltaChannels ?? ["messages"];
    this.turnWrites = { holding: options.deferWrites ?? this.guardHead };
    this.plainMessages = options.materializeMessages ?? false;
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

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (config.configurable?.thread_id === undefined) return undefined;
    // The head a ThreadStore's load read for the turn (store/primed-head.ts).
    const primed = this.primedHead.take(config);
    if (primed !== undefined) return primed.tuple;
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    return (await this.read(threadId, ns, checkpointId, [])).tuple;
  }

  /**
   * The thread's newest root checkpoint, its registry row and the results of `extra` (read
   * only), in one snapshot and one round trip: a thread store's load (the statements of
   * what a turn reads besides its head). Held writes are not read: they are the running
   * turn's, stored by its commit or never.
   */
  readHead(threadId: string, extra: readonly SqlStatement[]): Promise<HeadRead> {
    assertThreadId(threadId);
    return this.read(threadId, ROOT_NS, undefined, extra);
  }

  private async read(
    threadId: string,
    ns: string,
    checkpointId: string | undefined,
    extra: readonly SqlStatement[],
  ): Promise<HeadRead> {
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
    const registryAt =
      (this.guardHead || extra.length > 0) && ns === ROOT_NS ? statements.length : -1;
    if (registryAt >= 0)
      statements.push({ text: SELECT_THREAD_GONE, params: [this.agentId, threadId] });
    const extraAt = statements.length;
    statements.push(...extra);
    // One snapshot for all statements: the history belongs to the checkpoint read with it.
    const results = await this.db.batch(statements, {
      readOnly: true,
      isolationLevel: "RepeatableRead",
    });
    let registry: HeadRead["registry"];
    if (registryAt >= 0) {
      const row = results[registryAt]?.rows[0] as
        | { gone: boolean; llamon_generation: string }
        | undefined;
      registry =
        row === undefined
          ? undefined
          : { gone: row.gone === true, generation: row.llamon_generation };
      if (registry?.gone === true) this.goneThreads.add(threadId);
      else this.goneThreads.delete(threadId);
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
    let tuple: CheckpointTuple | undefined;
    if (row !== undefined) {
      tuple = await this.toTuple(row, threadId);
      if (this.plainMessages && ns === ROOT_NS) tuple = await withMessageList(this, tuple);
    }
    return { tuple, registry, extra: results.slice(extraAt) };
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
    if (this.turnWrites.holding) {
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
    if (this.turnWrites.holding) {
      this.held.push({ threadId, build: () => [statement] });
      return;
    }
    await this.db.query(statement.text, statement.params);
  }

  /**
   * Write everything held for this thread (deferWrites) in one atomic batch, followed by
   * `after` (the statements of what the turn staged, run after the head compare-and-set).
   * `messageCount` is the thread's length after the turn, for the registry when the
   * checkpoint does not store the whole list. THREAD_CONFLICT when another turn moved the head
   * first: then nothing was written and the held writes are dropped. Resolves to the
   * generation the write landed in (the compare-and-set answers it), or undefined when nothing
   * was held (then nothing is written, `after` included).
   */
  async flushTurn(
    threadId: string,
    options: { messageCount?: number; after?: readonly SqlStatement[] } = {},
  ): Promise<{ readonly generation: string | undefined } | undefined> {
    const mine = this.held.filter((h) => h.threadId === threadId);
    if (mine.length === 0) return undefined;
    this.held = this.held.filter((h) => h.threadId !== threadId);
    const generation = await this.write(threadId, [
      ...mine.flatMap((h) => h.build(options.messageCount ?? null)),
      ...(options.after ?? []),
    ]);
    return { generation };
  }

  /** Drop what is held for this thread (a failed turn stores nothing). */
  discardTurn(threadId: string): void {
    this.held = this.held.filter((h) => h.threadId !== threadId);
  }

  /** One atomic batch; resolves to the generation a head compare-and-set answered. */
  private async write(threadId: string, statements: SqlStatement[]): Promise<string | undefined> {
    let generation: string | undefined;
    try {
      const results = await this.db.batch(statements);
      for (const result of results) {
        const row = result.rows[0] as { llamon_generation?: unknown } | undefined;
        if (typeof row?.llamon_generation === "string") generation = row.llamon_generation;
      }
    } catch (error) {
      if (dbErrorFields(error)?.sqlstate === SQLSTATE_HEAD_MOVED) {
        throw new LlamonError(
          "THREAD_CONFLICT",
          `another turn on conversation "${threadId}" was saved first; nothing of this turn was written`,
          { cause: error, details: { threadId } },
        );
      }
      throw error;
    }
    this.goneThreads.delete(threadId);
    return generation;
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
    this.discardTurn(threadId);
    const row = registry?.rows[0] as { generation?: unknown } | undefined;
    return typeof row?.generation === "string" ? row.generation : undefined;
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
