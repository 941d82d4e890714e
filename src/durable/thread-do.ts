/**
 * ThreadDO — one Durable Object per (AGENT_ID, contextId), named `<agent_id>:<context_id>`
 * and reached with `env.THREADS.getByName(name)`. It serialises the turns of one
 * conversation (a FIFO lock, R2.4) and, for the object backends of SPEC R1, keeps the
 * thread itself:
 *
 * | MEMORY_BACKEND | here                                                              |
 * |----------------|-------------------------------------------------------------------|
 * | `in_memory`    | InMemorySaver in an instance field: lost when the object is evicted |
 * | `sqlite`       | SqliteSaver on the object's SQLite storage: survives eviction      |
 * | `postgres`     | nothing stored here; the object only serialises turns              |
 * | `off`          | nothing stored here (`MEMORY_ENABLED=false` counts as `off`)       |
 *
 * The backend is read from `env` (resolveMemoryConfig) when the object starts; a bad
 * configuration fails the object loudly instead of silently picking a default.
 */
import { DurableObject } from "cloudflare:workers";
import { mapChatMessagesToStoredMessages, type StoredMessage } from "@langchain/core/messages";
import {
  executeTurnHere,
  type TurnInput,
  type TurnOutput,
  taskRecordObjectName,
  threadIndexObjectName,
} from "../agent/execute.ts";
import { findRegisteredAgent } from "../agent/registry.ts";
import { LlamonError } from "../errors.ts";
import { createLogger } from "../log.ts";
import { type MemoryBackend, type MemoryConfig, resolveMemoryConfig } from "../memory/config.ts";
import { summaryAfterTurn } from "../queue/enqueue.ts";
import { summarizeHere } from "../queue/host.ts";
import type { SummarizeJob } from "../queue/jobs.ts";
import type { SummarizeOutcome } from "../queue/summarize.ts";
import { readThreadMessages } from "../store/delta.ts";
import { createMapMemory, createSqliteMemory, type ThreadSaver } from "../store/do-memory.ts";
import { InMemorySaver } from "../store/memory-saver.ts";
import type { PersistentMemory } from "../store/persistent-memory.ts";
import { SqliteSaver } from "../store/sqlite-saver.ts";
import type { SqliteExec } from "../store/sqlite-sql.ts";
import { type Env, parseWorkerVars } from "../worker/env.ts";
import { AsyncLock } from "./lock.ts";
import {
  type IndexedThread,
  indexTime,
  pageOfThreads,
  THREAD_INDEX_PREFIX,
  touchedEntry,
} from "./thread-index.ts";

/** Storage keys of the conversation's task index (the task-store keys follow the prefix). */
const TASK_INDEX_PREFIX = "task-index:";

/** What the inspector and tests read about a stored thread. */
export interface ThreadState {
  checkpointId: string | null;
  messageCount: number;
}

/** The checkpointer and memory store of one agent inside this object. */
interface LocalStore {
  readonly saver: ThreadSaver;
  readonly memory: PersistentMemory;
}

/** A Durable Object's SQLite storage behind the SqliteExec interface. */
export function durableObjectSqlite(storage: DurableObjectStorage): SqliteExec {
  return {
    exec: (query, ...params) => storage.sql.exec(query, ...params),
    transaction: (fn) => storage.transactionSync(fn),
  };
}

export class ThreadDO extends DurableObject<Env> {
  private readonly memoryBackend: MemoryBackend;
  /**
   * persist_trim_keep_groups is set in code/env/registry: older checkpoints are deleted with
   * each save (R4.2). A turn's run-time configuration overrides it for that turn.
   */
  private readonly trim: boolean;
  private readonly agentId: string | undefined;
  private readonly lock = new AsyncLock();
  private readonly sql: SqliteExec | undefined;
  /** Per agent id; normally only AGENT_ID's. In-memory state lives exactly as long as this. */
  private readonly stores = new Map<string, LocalStore>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The same layers as the Worker: the agent's code config, then env.
    const registered = findRegisteredAgent();
    const registry = registered?.registryLayer?.(String(env.AGENT_ID ?? ""));
    const { config } = resolveMemoryConfig({ code: registered?.agent.memory, env, registry });
    this.trim = config.persist_trim_keep_groups !== undefined;
    this.memoryBackend = config.enabled ? config.backend : "off";
    const local = this.memoryBackend === "in_memory" || this.memoryBackend === "sqlite";
    this.agentId = local ? parseWorkerVars(env).AGENT_ID : undefined;
    this.sql = this.memoryBackend === "sqlite" ? durableObjectSqlite(ctx.storage) : undefined;
  }

  describe(): { sqlite: boolean } {
    return { sqlite: typeof this.ctx.storage.sql?.exec === "function" };
  }

  /** The effective memory backend of this object (RPC). */
  backend(): MemoryBackend {
    return this.memoryBackend;
  }

  /**
   * The checkpointer of AGENT_ID's threads kept in this object (in_memory, sqlite), or
   * undefined when the thread lives elsewhere (postgres) or nowhere (off).
   */
  get saver(): ThreadSaver | undefined {
    return this.agentId === undefined ? undefined : this.storeFor(this.agentId)?.saver;
  }

  /** persistent_memory of AGENT_ID in this object (in_memory, sqlite), else undefined. */
  get memory(): PersistentMemory | undefined {
    return this.agentId === undefined ? undefined : this.storeFor(this.agentId)?.memory;
  }

  /**
   * Runs fn under this object's FIFO lock: turns on one conversation never interleave, even
   * though awaiting the model lets other requests into the object. Not re-entrant.
   */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(fn);
  }

  /**
   * Answer one user message of this conversation (RPC from the Worker, backends in_memory
   * and sqlite): the whole turn runs under the lock, so concurrent sends on one contextId
   * are applied one after another and none is lost (R2.4).
   */
  turn(input: TurnInput, config?: MemoryConfig): Promise<TurnOutput> {
    return this.withLock(async () => {
      // The turn's effective configuration (the run-time layer included) decides trim.
      const saver = this.saver;
      if (saver !== undefined) {
        saver.keepLatestOnly =
          config === undefined ? this.trim : config.persist_trim_keep_groups !== undefined;
      }
      const out = await executeTurnHere(
        this.env,
        input,
        saver,
        (turn, config) =>
          summaryAfterTurn(turn, {
            env: this.env,
            config,
            saver,
            memory: this.memory,
            waitUntil: (promise) => this.ctx.waitUntil(promise),
          }),
        config,
      );
      if (saver !== undefined) this.noteInIndex(saver.agentId, input.contextId, out.messageCount);
      return out;
    });
  }

  /** The agent's conversation list (object backends): updated after the response. */
  private noteInIndex(agentId: string, contextId: string, messageCount: number): void {
    const index = this.env.THREADS?.getByName(threadIndexObjectName(agentId));
    if (index === undefined) return;
    this.ctx.waitUntil(
      index.noteThread(contextId, messageCount).catch((error: unknown) => {
        createLogger().warn(
          `thread index: could not note conversation ${contextId}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }),
    );
  }

  /** Index object RPC: a turn of `contextId` was saved with this many messages. */
  async noteThread(contextId: string, messageCount: number): Promise<void> {
    const key = `${THREAD_INDEX_PREFIX}${contextId}`;
    const previous = await this.ctx.storage.get<IndexedThread>(key);
    await this.ctx.storage.put(key, touchedEntry(previous, contextId, messageCount, indexTime()));
  }

  /** Index object RPC: the conversation was erased. */
  async dropThread(contextId: string): Promise<void> {
    await this.ctx.storage.delete(`${THREAD_INDEX_PREFIX}${contextId}`);
  }

  /** Index object RPC: one page of the agent's conversations, newest activity first. */
  async listThreads(
    cursor: { at: string; id: string } | undefined,
    limit: number,
  ): Promise<{ threads: IndexedThread[]; more: boolean }> {
    const entries = await this.ctx.storage.list<IndexedThread>({ prefix: THREAD_INDEX_PREFIX });
    return pageOfThreads(entries.values(), cursor, limit);
  }

  /**
   * The stored thread of `agentId` kept in this object, for the memory inspector (RPC):
   * messages as LangChain StoredMessages (plain data), the thread's memory keys. Empty when
   * this object keeps nothing for that agent (R2.3).
   */
  async inspect(
    agentId: string,
    threadId: string,
  ): Promise<{
    checkpointId: string | null;
    messages: StoredMessage[];
    memory: Record<string, unknown>;
  }> {
    const store = this.storeFor(agentId);
    if (store === undefined) return { checkpointId: null, messages: [], memory: {} };
    const { tuple, messages } = await readThreadMessages(store.saver, {
      configurable: { thread_id: threadId, checkpoint_ns: "" },
    });
    return {
      checkpointId: tuple?.checkpoint.id ?? null,
      messages: mapChatMessagesToStoredMessages(messages),
      memory: (await store.memory.load(threadId)).thread,
    };
  }

  /** Erase everything of one conversation of `agentId` kept here (RPC; right to be forgotten). */
  erase(agentId: string, threadId: string): Promise<{ erased: boolean }> {
    return this.withLock(async () => {
      const store = this.storeFor(agentId);
      if (store === undefined) return { erased: false };
      await store.saver.deleteThread(threadId);
      await this.env.THREADS?.getByName(threadIndexObjectName(agentId)).dropThread(threadId);
      return { erased: true };
    });
  }

  /** Summary RPC from the queue consumer (in_memory/sqlite, R7.5). Not under the turn lock. */
  async summarize(job: SummarizeJob): Promise<SummarizeOutcome> {
    const store = job.agent_id === this.agentId ? this.storeFor(job.agent_id) : undefined;
    if (store === undefined) {
      throw new LlamonError(
        "INPUT_INVALID",
        `this conversation object keeps no thread of agent "${job.agent_id}" (MEMORY_BACKEND=${this.memoryBackend})`,
      );
    }
    return summarizeHere(this.env, job, store.saver, store.memory);
  }

  /** A small durable key/value slot (task records of the A2A task store). */
  async kvGet(key: string): Promise<unknown> {
    return this.ctx.storage.get(key);
  }

  async kvPut(key: string, value: unknown): Promise<void> {
    await this.ctx.storage.put(key, value);
  }

  async kvDelete(key: string): Promise<void> {
    await this.ctx.storage.delete(key);
  }

  /**
   * Remember that an A2A task record of this conversation exists (this is the conversation's
   * object; the record lives in its own object), so erasing the conversation can find it.
   */
  async indexTask(key: string): Promise<void> {
    await this.ctx.storage.put(`${TASK_INDEX_PREFIX}${key}`, 1);
  }

  /**
   * Erase every A2A task record indexed here (each holds the task's user message and reply),
   * then the index. Returns how many records were erased. Right to be forgotten (R10.2).
   */
  async eraseTasks(): Promise<number> {
    const threads = this.env.THREADS;
    const indexed = await this.ctx.storage.list({ prefix: TASK_INDEX_PREFIX });
    if (indexed.size === 0) return 0;
    if (threads === undefined) {
      throw new LlamonError("CONFIG_INVALID", "the THREADS Durable Object binding is missing");
    }
    let erased = 0;
    for (const name of indexed.keys()) {
      const key = name.slice(TASK_INDEX_PREFIX.length);
      await threads.getByName(taskRecordObjectName(key)).kvDelete(key);
      await this.ctx.storage.delete(name);
      erased += 1;
    }
    return erased;
  }

  /**
   * The latest root checkpoint of `threadId` as `agentId` sees it (RPC, for the inspector
   * and tests). Another agent's id sees nothing of this agent's threads (R2.3).
   */
  async threadState(agentId: string, threadId: string): Promise<ThreadState> {
    const store = this.storeFor(agentId);
    if (store === undefined) {
      throw new LlamonError(
        "INPUT_INVALID",
        `this conversation object keeps no thread state with MEMORY_BACKEND=${this.memoryBackend}; read the thread from its backend`,
      );
    }
    const { tuple, messages } = await readThreadMessages(store.saver, {
      configurable: { thread_id: threadId, checkpoint_ns: "" },
    });
    return {
      checkpointId: tuple?.checkpoint.id ?? null,
      messageCount: messages.length,
    };
  }

  private storeFor(agentId: string): LocalStore | undefined {
    const known = this.stores.get(agentId);
    if (known !== undefined) return known;
    let store: LocalStore;
    if (this.sql !== undefined) {
      store = {
        saver: new SqliteSaver({ sql: this.sql, agentId, keepLatestOnly: this.trim }),
        memory: createSqliteMemory(this.sql, agentId),
      };
    } else if (this.memoryBackend === "in_memory") {
      const saver = new InMemorySaver({ agentId, keepLatestOnly: this.trim });
      store = { saver, memory: createMapMemory(saver.memoryRows, agentId) };
    } else {
      return undefined;
    }
    this.stores.set(agentId, store);
    return store;
  }
}
