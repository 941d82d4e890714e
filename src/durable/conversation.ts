/**
 * The conversation role of a THREADS object (`thread:<agent>:<context>`): it serialises the
 * turns of one conversation (a FIFO lock, R2.4) and, for the object backends of R1,
 * keeps the thread itself:
 *
 * | MEMORY_BACKEND | here                                                              |
 * |----------------|-------------------------------------------------------------------|
 * | `in_memory`    | InMemorySaver in an instance field: lost when the object is evicted |
 * | `sqlite`       | SqliteSaver on the object's SQLite storage: survives eviction      |
 * | `postgres`     | nothing stored here; the object only serialises turns              |
 * | `off`          | nothing stored here (`MEMORY_ENABLED=false` counts as `off`)       |
 *
 * The backend comes from the deploy-time layers (code, env, registry; runtime/config.ts)
 * when the role starts; a bad configuration fails loudly instead of picking a default.
 */
import { mapChatMessagesToStoredMessages } from "@langchain/core/messages";
import { readThreadPage } from "../admin/thread-page.ts";
import { DEFAULT_MESSAGE_PAGE, type InspectedThread, type InspectQuery } from "../admin/threads.ts";
import {
  executeTurnHere,
  type ReplyStream,
  type TurnInput,
  type TurnOutput,
} from "../agent/execute.ts";
import { agentRequestContext } from "../agent/registry.ts";
import { LlamonError } from "../errors.ts";
import type { MemoryBackend, MemoryConfig } from "../memory/config.ts";
import { EMPTY_PREFIX } from "../memory/live-tail.ts";
import { SUMMARY_KEY } from "../memory/summary.ts";
import { summaryAfterTurn } from "../queue/enqueue.ts";
import { factsAfterTurn } from "../queue/enqueue-facts.ts";
import type { FactsOutcome } from "../queue/facts.ts";
import { factsHere, summarizeHere } from "../queue/host.ts";
import type { FactsJob, SummarizeJob } from "../queue/jobs.ts";
import type { SummarizeOutcome } from "../queue/summarize.ts";
import { type TurnContext, turnContext, withPrincipal } from "../runtime/context.ts";
import type { Env } from "../runtime/env.ts";
import { threadIndexObjectName, threadsObject } from "../runtime/objects.ts";
import { readThreadMessages } from "../store/delta.ts";
import { createMapMemory, createSqliteMemory, type ThreadSaver } from "../store/do-memory.ts";
import { InMemorySaver } from "../store/memory-saver.ts";
import type { PersistentMemory } from "../store/persistent-memory.ts";
import {
  memoryThreadStore,
  OFF_THREAD_STORE,
  sqliteThreadStore,
} from "../store/saver-thread-store.ts";
import { SqliteSaver } from "../store/sqlite-saver.ts";
import type { SqliteExec } from "../store/sqlite-sql.ts";
import { Generations } from "../store/thread-fence.ts";
import type { ThreadStore } from "../store/thread-store.ts";
import { AsyncLock } from "./lock.ts";
import { ObjectRecall } from "./object-recall.ts";
import { replyRelay } from "./reply-relay.ts";
import type { ThreadIndexHost } from "./thread-index.ts";

/** What the inspector and tests read about a stored thread. */
export interface ThreadState {
  checkpointId: string | null;
  messageCount: number;
}

/** The checkpointer and memory store of one agent inside this object. */
interface LocalStore {
  readonly saver: ThreadSaver;
  readonly memory: PersistentMemory;
  /** What a turn reads and writes through (store/thread-store.ts). */
  readonly turns: ThreadStore;
}

/** A Durable Object's SQLite storage behind the SqliteExec interface. */
export function durableObjectSqlite(storage: DurableObjectStorage): SqliteExec {
  return {
    exec: (query, ...params) => storage.sql.exec(query, ...params),
    transaction: (fn) => storage.transactionSync(fn),
  };
}

export class Conversation {
  readonly backend: MemoryBackend;
  /**
   * persist_trim_keep_groups is set in a deploy-time layer: older checkpoints are deleted
   * with each save (R4.2). A turn's config (run-time layer included) overrides it per turn.
   */
  private readonly trim: boolean;
  /** AGENT_ID when the thread is kept here (in_memory, sqlite), else undefined. */
  private readonly agentId: string | undefined;
  private readonly lock = new AsyncLock();
  private readonly sql: SqliteExec | undefined;
  /** Per agent id; normally only AGENT_ID's. In-memory state lives exactly as long as this. */
  private readonly stores = new Map<string, LocalStore>();
  /** in_memory: conversation recall over the threads kept here (object-recall.ts). */
  private readonly recall: ObjectRecall | undefined;
  /** Moved by every erase: a summary job that read the thread before is dropped (R11.1). */
  private readonly generations = new Generations();

  constructor(
    private readonly state: DurableObjectState,
    private readonly env: Env,
  ) {
    const { deployConfig, agentId } = agentRequestContext({ env });
    this.trim = deployConfig.persist_trim_keep_groups !== undefined;
    this.backend = deployConfig.enabled ? deployConfig.backend : "off";
    const local = this.backend === "in_memory" || this.backend === "sqlite";
    this.agentId = local ? agentId : undefined;
    this.sql = this.backend === "sqlite" ? durableObjectSqlite(state.storage) : undefined;
    this.recall = this.backend === "in_memory" ? new ObjectRecall() : undefined;
  }

  /** The checkpointer of AGENT_ID's threads kept here, or undefined (postgres, off). */
  get saver(): ThreadSaver | undefined {
    return this.agentId === undefined ? undefined : this.storeFor(this.agentId)?.saver;
  }

  /** persistent_memory of AGENT_ID kept here, or undefined. */
  get memory(): PersistentMemory | undefined {
    return this.agentId === undefined ? undefined : this.storeFor(this.agentId)?.memory;
  }

  /** Runs fn under the FIFO turn lock. Not re-entrant. */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(fn);
  }

  /**
   * One turn under the lock, with the config the Worker resolved for its request.
   * `replyStream`: the Worker's callback for the reply text as it arrives (a streaming send).
   */
  turn(input: TurnInput, config?: MemoryConfig, replyStream?: ReplyStream): Promise<TurnOutput> {
    return this.withLock(async () => {
      const request = agentRequestContext({
        env: this.env,
        config,
        waitUntil: (promise) => this.state.waitUntil(promise),
      });
      const ctx = turnContext(
        input.principal === undefined ? request : withPrincipal(request, input.principal),
        input,
      );
      // The Worker always sends its request's config; a bare call gets the deploy-time one.
      const effective = config ?? request.deployConfig;
      const local = this.agentId === undefined ? undefined : this.storeFor(this.agentId);
      const saver = local?.saver;
      if (saver !== undefined) {
        saver.keepLatestOnly = effective.persist_trim_keep_groups !== undefined;
      }
      const relay = replyStream === undefined ? undefined : replyRelay(replyStream);
      let out: TurnOutput;
      try {
        out = await executeTurnHere(ctx, input, {
          replyStream: relay?.send,
          store: local?.turns ?? OFF_THREAD_STORE,
          config: effective,
          conversationRecallOnThread: this.recall?.forTurn(input.threadId),
          afterTurn: (turn, turnConfig) => {
            const after = {
              env: this.env,
              config: turnConfig,
              saver,
              memory: this.memory,
              fence: this.memory === undefined ? undefined : this.generations.fence(this.memory),
              waitUntil: ctx.waitUntil,
              log: ctx.log,
            };
            return Promise.all([summaryAfterTurn(turn, after), factsAfterTurn(turn, after)]);
          },
        });
      } finally {
        this.recall?.endTurn(input.threadId);
        await relay?.flush();
      }
      if (saver !== undefined) this.noteInIndex(ctx, saver.agentId, out.messageCount);
      return out;
    });
  }

  /** The agent's conversation list (object backends): updated after the response. */
  private noteInIndex(ctx: TurnContext, agentId: string, messageCount: number): void {
    if (this.env.THREADS === undefined) return;
    const index = threadsObject<ThreadIndexHost>(
      this.env,
      threadIndexObjectName(agentId),
      "the conversation list",
    );
    this.state.waitUntil(
      index.noteThread(ctx.threadId, messageCount).catch((error: unknown) => {
        ctx.log.warn("thread index: could not note the conversation", {
          error: error instanceof Error ? error.message : String(error),
        });
      }),
    );
  }

  /**
   * One page of the stored thread of `agentId` kept here, for the inspector (admin/
   * thread-page.ts): the head and the page only, never the whole thread — sqlite reads the
   * page's transcript rows by position; in_memory slices its thread here and sends a tail of
   * `query.window_size` + TAIL_MARGIN messages as the head. Empty for another agent.
   */
  async inspect(
    agentId: string,
    threadId: string,
    query: InspectQuery = { limit: DEFAULT_MESSAGE_PAGE },
  ): Promise<InspectedThread> {
    const store = this.storeFor(agentId);
    if (store === undefined) {
      return {
        checkpointId: null,
        before: [],
        head: [],
        headFrom: 0,
        headTo: 0,
        from: 0,
        older: false,
        archived: EMPTY_PREFIX,
        memory: {},
      };
    }
    const memory = (await store.memory.load(threadId)).thread;
    const read = await readThreadPage(store.saver, threadId, query, {
      windowSize: query.window_size,
      summary: memory[SUMMARY_KEY],
    });
    return {
      checkpointId: read.tuple?.checkpoint.id ?? null,
      before: mapChatMessagesToStoredMessages(read.before),
      head: mapChatMessagesToStoredMessages(read.head),
      headFrom: read.headFrom,
      headTo: read.headTo,
      from: read.from,
      older: read.older,
      archived: read.archived,
      memory,
      flow: read.tuple?.checkpoint.channel_values?.flow,
    };
  }

  /**
   * Erase everything of one conversation of `agentId` kept here. `generation`: the one the
   * erase retired (a task record of a turn that read it is refused afterwards).
   */
  erase(agentId: string, threadId: string): Promise<{ erased: boolean; generation?: string }> {
    return this.withLock(async () => {
      const store = this.storeFor(agentId);
      if (store === undefined) return { erased: false };
      // First: a summary or facts job of this thread in flight (not under the turn lock) writes nothing.
      const generation = this.generations.move(threadId);
      await store.saver.deleteThread(threadId);
      this.recall?.forget(threadId);
      if (this.env.THREADS !== undefined) {
        await threadsObject<ThreadIndexHost>(
          this.env,
          threadIndexObjectName(agentId),
          "the conversation list",
        ).dropThread(threadId);
      }
      return { erased: true, generation };
    });
  }

  /** A summary job of the queue consumer (in_memory/sqlite, R7.5). Not under the turn lock. */
  async summarize(job: SummarizeJob): Promise<SummarizeOutcome> {
    const { store, fence, log } = this.jobThread(job);
    return summarizeHere(this.env, job, store.saver, store.memory, fence, { log });
  }

  /** A facts job of the queue consumer (in_memory/sqlite, R8.1). Not under the turn lock. */
  async extractFacts(job: FactsJob): Promise<FactsOutcome> {
    const { store, fence, log } = this.jobThread(job);
    return factsHere(this.env, job, store.saver, store.memory, fence, { log });
  }

  /** A queue job's thread here: its store, the fence of its generation, a log for it. */
  private jobThread(job: SummarizeJob | FactsJob) {
    const store = job.agent_id === this.agentId ? this.storeFor(job.agent_id) : undefined;
    if (store === undefined) {
      throw new LlamonError(
        "INPUT_INVALID",
        `this conversation object keeps no thread of agent "${job.agent_id}" (MEMORY_BACKEND=${this.backend})`,
      );
    }
    const log = agentRequestContext({ env: this.env }).log.child({ context_id: job.thread_id });
    return { store, fence: this.generations.fence(store.memory), log };
  }

  /** The latest root checkpoint of `threadId` as `agentId` sees it (R2.3). */
  async threadState(agentId: string, threadId: string): Promise<ThreadState> {
    const store = this.storeFor(agentId);
    if (store === undefined) {
      throw new LlamonError(
        "INPUT_INVALID",
        `this conversation object keeps no thread state with MEMORY_BACKEND=${this.backend}; read the thread from its backend`,
      );
    }
    const { tuple, messages } = await readThreadMessages(store.saver, {
      configurable: { thread_id: threadId, checkpoint_ns: "" },
    });
    return { checkpointId: tuple?.checkpoint.id ?? null, messageCount: messages.length };
  }

  private storeFor(agentId: string): LocalStore | undefined {
    const known = this.stores.get(agentId);
    if (known !== undefined) return known;
    const generation = (threadId: string) => this.generations.current(threadId);
    let store: LocalStore;
    if (this.sql !== undefined) {
      const saver = new SqliteSaver({ sql: this.sql, agentId, keepLatestOnly: this.trim });
      store = {
        saver,
        memory: createSqliteMemory(this.sql, agentId),
        turns: sqliteThreadStore(saver, generation),
      };
    } else if (this.backend === "in_memory") {
      const saver = new InMemorySaver({ agentId, keepLatestOnly: this.trim });
      store = {
        saver,
        memory: createMapMemory(saver.memoryRows, agentId),
        turns: memoryThreadStore(saver, generation),
      };
    } else {
      return undefined;
    }
    this.stores.set(agentId, store);
    return store;
  }
}
