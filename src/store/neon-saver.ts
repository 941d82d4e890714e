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
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  maxChannelVersion,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import { dbErrorFields, LlamonError } from "../errors.ts";
import type { Db, SqlStatement } from "./db.ts";
import {
  type JsonValue,
  type MemoryRows,
  memoryThreadColumn,
  toMemoryRows,
} from "./persistent-memory.ts";
import { checkpointTarget, listQuery, ROOT_NS } from "./saver-target.ts";
import {
  CAS_THREAD_HEAD,
  DELETE_MEMORY_KEYS,
  DELETE_THREAD,
  DELETE_THREAD_MEMORY,
  DELETE_THREAD_REGISTRY,
  INSERT_BLOBS,
  INSERT_WRITES,
  LIST_TUPLES,
  PRUNE_OLDER_CHECKPOINTS,
  PRUNE_OLDER_WRITES,
  PRUNE_UNREFERENCED_BLOBS,
  SELECT_MEMORY_ROWS,
  SELECT_TUPLE,
  SQLSTATE_HEAD_MOVED,
  TOUCH_THREAD,
  UPSERT_CHECKPOINT,
  UPSERT_MEMORY,
  UPSERT_WRITES,
} from "./sql.ts";
import {
  assertAgentId,
  assertThreadId,
  storageThreadId,
  threadIdFromStorage,
} from "./thread-key.ts";

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

export class NeonSaver extends BaseCheckpointSaver {
  readonly db: Db;
  readonly agentId: string;
  private readonly guardHead: boolean;
  private readonly prefetchMemory: boolean;
  private readonly keepLatestOnly: boolean;
  private readonly loadedMemory = new Map<string, MemoryRows>();
  private readonly staged = new Map<string, StagedMemory>();

  constructor(options: NeonSaverOptions) {
    super(options.serde);
    assertAgentId(options.agentId);
    this.db = options.db;
    this.agentId = options.agentId;
    this.guardHead = options.guardHead ?? false;
    this.prefetchMemory = options.prefetchMemory ?? true;
    this.keepLatestOnly = options.keepLatestOnly ?? false;
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
    const { threadId, ns, checkpointId } = checkpointTarget(config);
    const statements: SqlStatement[] = [
      {
        text: SELECT_TUPLE,
        params: [storageThreadId(this.agentId, threadId), ns, checkpointId ?? null],
      },
    ];
    if (this.prefetchMemory)
      statements.push({ text: SELECT_MEMORY_ROWS, params: [this.agentId, threadId] });
    const [tuple, memory] = await this.db.batch(statements, { readOnly: true });
    if (memory) {
      this.loadedMemory.set(
        threadId,
        toMemoryRows(memory.rows as { thread_id: string; key: string; value: unknown }[]),
      );
    }
    const row = tuple?.rows[0] as TupleRow | undefined;
    return row === undefined ? undefined : this.toTuple(row, threadId);
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
    const blobs = await Promise.all(
      Object.entries(newVersions).map(async ([channel, version]) => {
        if (!(channel in values))
          return { channel, version: String(version), type: "empty", blob: null };
        const [type, bytes] = await this.serde.dumpsTyped(values[channel]);
        return { channel, version: String(version), type, blob: toBase64(bytes) };
      }),
    );
    const [, metaBytes] = await this.serde.dumpsTyped(metadata);
    const metadataJson = new TextDecoder().decode(metaBytes).replace(/\\u0000|\0/g, "");
    const messages = (values as Record<string, unknown>).messages;
    const messageCount = Array.isArray(messages) ? messages.length : null;

    const statements: SqlStatement[] = [];
    if (ns === ROOT_NS && this.guardHead) {
      statements.push({
        text: CAS_THREAD_HEAD,
        params: [this.agentId, threadId, storageId, checkpoint.id, messageCount, parentId ?? null],
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
      params: [storageId, ns, checkpoint.id, parentId ?? null, JSON.stringify(rest), metadataJson],
    });
    if (this.keepLatestOnly) {
      statements.push(
        { text: PRUNE_OLDER_WRITES, params: [storageId, ns, checkpoint.id] },
        { text: PRUNE_OLDER_CHECKPOINTS, params: [storageId, ns, checkpoint.id] },
        {
          text: PRUNE_UNREFERENCED_BLOBS,
          params: [storageId, ns, JSON.stringify(checkpoint.channel_versions)],
        },
      );
    }
    statements.push(...this.stagedStatements(threadId));
    try {
      await this.db.batch(statements);
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
    const special = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return { idx: WRITES_IDX_MAP[channel] ?? idx, channel, type, blob: toBase64(bytes) };
      }),
    );
    await this.db.query(special ? UPSERT_WRITES : INSERT_WRITES, [
      storageThreadId(this.agentId, threadId),
      ns,
      checkpointId,
      taskId,
      taskPath,
      JSON.stringify(rows),
    ]);
  }

  /** Erase a conversation of this agent everywhere: checkpoints, blobs, writes, memory, registry. */
  override async deleteThread(threadId: string): Promise<void> {
    assertThreadId(threadId);
    const storageId = storageThreadId(this.agentId, threadId);
    await this.db.batch([
      ...DELETE_THREAD.map((text) => ({ text, params: [storageId] })),
      { text: DELETE_THREAD_MEMORY, params: [this.agentId, threadId] },
      { text: DELETE_THREAD_REGISTRY, params: [this.agentId, threadId] },
    ]);
    this.loadedMemory.delete(threadId);
    this.staged.delete(threadId);
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

  private async toTuple(row: TupleRow, threadId: string): Promise<CheckpointTuple> {
    const channelValues: Record<string, unknown> = {};
    for (const [channel, type, blob] of row.channel_values) {
      if (type === "empty" || blob === null) continue;
      channelValues[channel] = await this.serde.loadsTyped(type, fromBase64(blob));
    }
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      row.pending_writes.map(
        async ([taskId, channel, type, blob]) =>
          [
            taskId,
            channel,
            await this.serde.loadsTyped(type, fromBase64(blob)),
          ] as CheckpointPendingWrite,
      ),
    );
    if (row.pending_sends !== null && row.pending_sends.length > 0) {
      channelValues[TASKS] = await Promise.all(
        row.pending_sends.map(([type, blob]) => this.serde.loadsTyped(type, fromBase64(blob))),
      );
      const versions = Object.values(row.checkpoint.channel_versions ?? {});
      row.checkpoint.channel_versions = {
        ...row.checkpoint.channel_versions,
        [TASKS]:
          versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined),
      };
    }
    const checkpoint: Checkpoint = {
      ...row.checkpoint,
      channel_versions: row.checkpoint.channel_versions ?? {},
      versions_seen: row.checkpoint.versions_seen ?? {},
      channel_values: channelValues,
    } as Checkpoint;
    const ns = row.checkpoint_ns;
    return {
      config: {
        configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: row.checkpoint_id },
      },
      checkpoint,
      metadata: (await this.serde.loadsTyped(
        "json",
        JSON.stringify(row.metadata),
      )) as CheckpointMetadata,
      parentConfig: row.parent_checkpoint_id
        ? {
            configurable: {
              thread_id: threadId,
              checkpoint_ns: ns,
              checkpoint_id: row.parent_checkpoint_id,
            },
          }
        : undefined,
      pendingWrites,
    };
  }
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

function fromBase64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}
