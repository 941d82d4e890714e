/**
 * ThreadDO — the one Durable Object class of the THREADS binding, a typed router over the
 * roles an object can play (runtime/objects.ts names them; the name decides the role):
 *
 * | object name                 | role module                       | RPC methods                         |
 * |-----------------------------|-----------------------------------|-------------------------------------|
 * | `thread:<agent>:<context>`  | conversation.ts (+ task-index.ts) | turn, inspect, erase, summarize, extractFacts, threadState, backend; indexTask (earlier releases), eraseTasks |
 * | `index:<agent>`             | thread-index.ts                   | noteThread, dropThread, listThreads |
 * | `tasks:<agent>:<principal>` | task-list.ts                      | upsertTaskRow, getTaskRecord, queryTasks, deleteTaskRows, eraseContextTasks, followTask |
 * | `task:<key>`, `settings:<agent>` | kv-slot.ts                   | kvGet, kvPut, kvDelete              |
 * | `settings:<agent>`          | settings-slot.ts                  | changeSettings                      |
 *
 * One class, so objects and data stored by earlier releases keep working without a
 * wrangler migration. Each role module is created on first use: an index or task object
 * never resolves a memory config or opens a thread store. The class declares each caller's
 * role interface (`implements`), so the compiler checks every RPC a caller makes.
 */
import { DurableObject } from "cloudflare:workers";
import type { TaskListPage, TaskListQuery, TaskListRow } from "../a2a/task-list-query.ts";
import type {
  ThreadIndexHost as AdminThreadIndexHost,
  InspectedThread,
  InspectQuery,
  ThreadInspectionHost,
} from "../admin/threads.ts";
import {
  outcomeOf,
  type ReplyStream,
  type TurnHost,
  type TurnInput,
  type TurnOutcome,
  type TurnOutput,
} from "../agent/execute.ts";
import type { MemoryBackend, MemoryConfig } from "../memory/config.ts";
import type { FactsOutcome } from "../queue/facts.ts";
import type { FactsHost, SummaryHost } from "../queue/host.ts";
import type { FactsJob, SummarizeJob } from "../queue/jobs.ts";
import type { SummarizeOutcome } from "../queue/summarize.ts";
import type { Env } from "../runtime/env.ts";
import type { RuntimeSettings, SettingsChange, SettingsHost } from "../runtime/runtime-layer.ts";
import type { KeyScope } from "../runtime/thread-keys.ts";
import type { ThreadSaver } from "../store/do-memory.ts";
import type { PersistentMemory } from "../store/persistent-memory.ts";
import { Conversation, type ThreadState } from "./conversation.ts";
import { KvSlot, type TaskRecordHost } from "./kv-slot.ts";
import { SettingsSlot } from "./settings-slot.ts";
import { TaskIndex, type TaskIndexHost } from "./task-index.ts";
import { TaskList, type TaskListHost } from "./task-list.ts";
import { type IndexedThread, ThreadIndex, type ThreadIndexHost } from "./thread-index.ts";

export { durableObjectSqlite, type ThreadState } from "./conversation.ts";

export class ThreadDO
  extends DurableObject<Env>
  implements
    TurnHost,
    SummaryHost,
    FactsHost,
    ThreadInspectionHost,
    TaskIndexHost,
    ThreadIndexHost,
    AdminThreadIndexHost,
    TaskRecordHost,
    TaskListHost,
    SettingsHost
{
  private conversationRole: Conversation | undefined;
  private threadIndexRole: ThreadIndex | undefined;
  private taskIndexRole: TaskIndex | undefined;
  private kvRole: KvSlot | undefined;
  private settingsRole: SettingsSlot | undefined;
  private taskListRole: TaskList | undefined;

  private get conversation(): Conversation {
    this.conversationRole ??= new Conversation(this.ctx, this.env);
    return this.conversationRole;
  }

  private get threadIndex(): ThreadIndex {
    this.threadIndexRole ??= new ThreadIndex(this.ctx.storage);
    return this.threadIndexRole;
  }

  private get taskIndex(): TaskIndex {
    this.taskIndexRole ??= new TaskIndex(this.ctx.storage, this.env);
    return this.taskIndexRole;
  }

  private get kv(): KvSlot {
    this.kvRole ??= new KvSlot(this.ctx.storage);
    return this.kvRole;
  }

  private get settings(): SettingsSlot {
    this.settingsRole ??= new SettingsSlot(this.ctx.storage);
    return this.settingsRole;
  }

  private get taskList(): TaskList {
    this.taskListRole ??= new TaskList(this.ctx.storage);
    return this.taskListRole;
  }

  describe(): { sqlite: boolean } {
    return { sqlite: typeof this.ctx.storage.sql?.exec === "function" };
  }

  // ---- conversation (`thread:<agent>:<context>`) ----------------------------------------

  /** The effective memory backend of this object. */
  backend(): MemoryBackend {
    return this.conversation.backend;
  }

  /** The checkpointer of AGENT_ID's threads kept here (in_memory, sqlite), else undefined. */
  get saver(): ThreadSaver | undefined {
    return this.conversation.saver;
  }

  /** persistent_memory of AGENT_ID kept here (in_memory, sqlite), else undefined. */
  get memory(): PersistentMemory | undefined {
    return this.conversation.memory;
  }

  /** Runs fn under this conversation's FIFO turn lock. Not re-entrant. */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.conversation.withLock(fn);
  }

  /** Answer one user message (backends in_memory and sqlite), under the lock (R2.4). */
  turn(input: TurnInput, config?: MemoryConfig): Promise<TurnOutput> {
    return this.conversation.turn(input, config);
  }

  /**
   * {@link turn} for the Worker: its LlamonError comes back as data, code included.
   * `replyStream`: the Worker's callback (an RPC stub) for the reply text as it arrives.
   */
  turnOutcome(
    input: TurnInput,
    config?: MemoryConfig,
    replyStream?: ReplyStream,
  ): Promise<TurnOutcome> {
    return outcomeOf(() => this.conversation.turn(input, config, replyStream));
  }

  inspect(agentId: string, threadId: string, query?: InspectQuery): Promise<InspectedThread> {
    return this.conversation.inspect(agentId, threadId, query);
  }

  erase(agentId: string, threadId: string): Promise<{ erased: boolean; generation?: string }> {
    return this.conversation.erase(agentId, threadId);
  }

  summarize(job: SummarizeJob): Promise<SummarizeOutcome> {
    return this.conversation.summarize(job);
  }

  extractFacts(job: FactsJob): Promise<FactsOutcome> {
    return this.conversation.extractFacts(job);
  }

  threadState(agentId: string, threadId: string): Promise<ThreadState> {
    return this.conversation.threadState(agentId, threadId);
  }

  indexTask(key: string, listObject?: string, ownObject?: boolean): Promise<void> {
    return this.taskIndex.indexTask(key, listObject, ownObject);
  }

  eraseTasks(before?: number): Promise<number> {
    return this.taskIndex.eraseTasks(before);
  }

  // ---- the agent's conversation list (`index:<agent>`) -----------------------------------

  noteThread(contextId: string, messageCount: number): Promise<void> {
    return this.threadIndex.noteThread(contextId, messageCount);
  }

  dropThread(contextId: string): Promise<void> {
    return this.threadIndex.dropThread(contextId);
  }

  listThreads(
    cursor: { at: string; id: string } | undefined,
    limit: number,
    scope?: KeyScope,
  ): Promise<{ threads: IndexedThread[]; more: boolean }> {
    return this.threadIndex.listThreads(cursor, limit, scope);
  }

  // ---- a principal's task list (`tasks:<agent>:<principal>`) ----------------------------

  upsertTaskRow(row: TaskListRow, generation?: string): Promise<boolean> {
    return this.taskList.upsertTaskRow(row, generation);
  }

  getTaskRecord(key: string): Promise<string | undefined> {
    return this.taskList.getTaskRecord(key);
  }

  queryTasks(query: TaskListQuery): Promise<TaskListPage> {
    return this.taskList.queryTasks(query);
  }

  deleteTaskRows(keys: string[], before?: number): Promise<void> {
    return this.taskList.deleteTaskRows(keys, before);
  }

  followTask(key: string): ReadableStream<Uint8Array> {
    return this.taskList.followTask(key);
  }

  eraseContextTasks(contextId: string, before?: number, generation?: string): Promise<string[]> {
    return this.taskList.eraseContextTasks(contextId, before, generation);
  }

  // ---- key/value slots (`task:<key>`, `settings:<agent>`) --------------------------------

  kvGet(key: string): Promise<unknown> {
    return this.kv.kvGet(key);
  }

  kvPut(key: string, value: unknown): Promise<void> {
    return this.kv.kvPut(key, value);
  }

  kvDelete(key: string): Promise<void> {
    return this.kv.kvDelete(key);
  }

  // ---- the agent's run-time settings (`settings:<agent>`; read with kvGet) ---------------

  /** One PATCH or DELETE of the run-time layer, applied in one step (R10.2). */
  changeSettings(change: SettingsChange): Promise<RuntimeSettings> {
    return this.settings.changeSettings(change);
  }
}
