/**
 * A durable SDK TaskStore over a minimal key/value backend, so `tasks/get` works from any
 * isolate (the SDK's InMemoryTaskStore lives in one isolate only).
 *
 * Layout: one value per task, key `a2a-task:<agent_id>:<task_id>`, value a JSON string
 * `{"v":1,"task":<Task as proto-JSON>,"owner":"<principal>"}`. Keys are scoped by agent
 * (R2.3): agent ids cannot contain ':' and the prefix is fixed before the client-supplied task
 * id, so one agent never reads another's tasks through the same backend.
 *
 * Owner: each record names the principal that created it (`owner`; absent = `anonymous`, as
 * in records stored before authentication existed). A load, a list or a save by any other
 * principal sees nothing — to the SDK the task does not exist, so GetTask, CancelTask,
 * SubscribeToTask and a message naming the task answer TaskNotFound. Task ids are made by
 * the SDK (crypto.randomUUID); a client cannot pick one for a new task.
 *
 * Size limits assumed: a stored task is at most `maxTaskBytes` (default 1 MiB) of UTF-8 JSON,
 * inside the 2 MB key+value limit of a SQLite-backed Durable Object (a KV-backed one allows
 * 128 KiB: pass `maxTaskBytes: 120 * 1024` there). A task holds one user message (at most
 * MAX_MESSAGE_TEXT_CHARS) and one reply, so it normally stays small; an oversized task is
 * stored without its history, and one still too large fails with DB_PAYLOAD_TOO_LARGE.
 * Task ids longer than 256 characters are never stored nor looked up.
 *
 * Tasks are deleted one by one only by the request that saved them ({@link KvTaskStore.delete}:
 * a task it turns out not to keep, gated-task-store.ts). The Worker's backend indexes each
 * task under its conversation, and erasing a conversation (DELETE
 * /api/v1/memory/threads/:contextId) erases its tasks.
 */
import { type ListTasksRequest, type ListTasksResponse, Task } from "@a2a-js/sdk";
import { LegacyA2AError } from "@a2a-js/sdk/compat/v0_3/server";
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { LlamonError } from "../errors.ts";
import { ANONYMOUS_PRINCIPAL, threadKey } from "../runtime/thread-keys.ts";
import { assertAgentId } from "../store/thread-key.ts";
import { principalOf } from "./auth/user.ts";
import { MAX_ID_CHARS } from "./schemas.ts";
import {
  listTasksResponse,
  normaliseTimestamp,
  type TaskListPage,
  type TaskListQuery,
  type TaskListRow,
  taskListQuery,
} from "./task-list-query.ts";

/** The storage a KvTaskStore needs; Durable Object storage fits it directly. */
export interface KvBackend {
  /** `owner`: the caller's principal; a backend that files records by owner looks there. */
  get(key: string, owner?: string): Promise<unknown>;
  /**
   * `threadId`: the thread key of the conversation the task belongs to (its owner and
   * contextId; a backend may index the task there for erasure).
   */
  put(key: string, value: unknown, meta?: TaskMeta): Promise<void>;
  /**
   * Optional: one page of `owner`'s tasks, filtered and ordered (task-list-query.ts). The
   * Worker's backend answers it in one round trip; ListTasks prefers it over `list`.
   */
  query?(owner: string, query: TaskListQuery): Promise<TaskListPage>;
  /** Optional: entries whose key starts with `prefix` (ListTasks by scanning, in tests). */
  list?(prefix: string): Promise<Iterable<readonly [string, unknown]>>;
  /** Optional: remove what `put` stored under `key` for `owner` (none stored: no error). */
  delete?(key: string, owner: string): Promise<void>;
  /**
   * Optional: each value `put` under `key` for `owner` from now on, until the backend stops
   * (the record erased, its idle bound) or `signal` aborts (a subscription, task-follow.ts).
   */
  follow?(key: string, owner: string, signal: AbortSignal): AsyncIterable<unknown>;
}

/** What a backend may index a saved task by (its owner's list, its conversation). */
export interface TaskMeta {
  /** The thread key of the task's conversation (its owner and contextId). */
  readonly threadId: string;
  readonly owner: string;
  /** The row of the owner's task list (record = the value put). */
  readonly row: TaskListRow;
  /**
   * The generation of the conversation the task's turn read and wrote (R11.1), once the turn
   * has run: a backend refuses the save when an erase has retired it since.
   */
  readonly generation?: string | undefined;
}

/** A KvBackend in memory (tests; one isolate only). Values are copied like real storage. */
export class InMemoryKv implements KvBackend {
  readonly entries = new Map<string, unknown>();
  private readonly puts = new EventTarget();

  async get(key: string): Promise<unknown> {
    return structuredClone(this.entries.get(key));
  }

  async put(key: string, value: unknown): Promise<void> {
    this.entries.set(key, structuredClone(value));
    this.puts.dispatchEvent(new CustomEvent(key, { detail: structuredClone(value) }));
  }

  async *follow(key: string, _owner: string, signal: AbortSignal): AsyncIterable<unknown> {
    const queue: unknown[] = [];
    let wake: (() => void) | undefined;
    const onPut = (event: Event) => {
      queue.push((event as CustomEvent).detail);
      wake?.();
    };
    const onAbort = () => wake?.();
    this.puts.addEventListener(key, onPut);
    signal.addEventListener("abort", onAbort);
    try {
      while (!signal.aborted) {
        const next = queue.shift();
        if (next !== undefined) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      this.puts.removeEventListener(key, onPut);
      signal.removeEventListener("abort", onAbort);
    }
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async list(prefix: string): Promise<Iterable<readonly [string, unknown]>> {
    return [...this.entries]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => [key, structuredClone(value)] as const);
  }
}

export const TASK_KEY_PREFIX = "a2a-task:";
export const DEFAULT_MAX_TASK_BYTES = 1024 * 1024;
const FORMAT_VERSION = 1;

export interface KvTaskStoreOptions {
  kv: KvBackend;
  agentId: string;
  maxTaskBytes?: number;
  /** The conversation generation this request's turn saw (undefined before it ran). */
  generation?: (() => string | undefined) | undefined;
}

export class KvTaskStore implements TaskStore {
  private readonly kv: KvBackend;
  private readonly prefix: string;
  private readonly maxTaskBytes: number;
  private readonly generation: () => string | undefined;

  constructor(options: KvTaskStoreOptions) {
    assertAgentId(options.agentId);
    this.generation = options.generation ?? (() => undefined);
    this.kv = options.kv;
    this.prefix = `${TASK_KEY_PREFIX}${options.agentId}:`;
    this.maxTaskBytes = options.maxTaskBytes ?? DEFAULT_MAX_TASK_BYTES;
  }

  /** The backend key of a task of this agent. */
  keyOf(taskId: string): string {
    return `${this.prefix}${taskId}`;
  }

  async load(taskId: string, context?: ServerCallContext): Promise<Task | undefined> {
    if (!validTaskId(taskId)) return undefined;
    const owner = principalOf(context);
    const record = decode(await this.kv.get(this.keyOf(taskId), owner), taskId);
    return record?.owner === owner ? record.task : undefined;
  }

  async save(task: Task, context?: ServerCallContext): Promise<void> {
    if (!validTaskId(task.id)) {
      throw new LlamonError("INTERNAL", `task id must be 1–${MAX_ID_CHARS} characters`);
    }
    const owner = principalOf(context);
    let value = encode(task, owner);
    if (utf8Length(value) > this.maxTaskBytes) value = encode({ ...task, history: [] }, owner);
    const bytes = utf8Length(value);
    if (bytes > this.maxTaskBytes) {
      throw new LlamonError(
        "DB_PAYLOAD_TOO_LARGE",
        `task ${task.id} is ${bytes} bytes as JSON; the task store accepts at most ${this.maxTaskBytes}`,
      );
    }
    const key = this.keyOf(task.id);
    await this.kv.put(key, value, {
      threadId: threadKey(owner, task.contextId),
      owner,
      row: {
        key,
        contextId: task.contextId,
        state: task.status?.state ?? 0,
        timestamp: normaliseTimestamp(task.status?.timestamp),
        record: value,
      },
      generation: this.generation(),
    });
  }

  /**
   * The caller's task `taskId` as each later save stores it (task-follow.ts), when the backend
   * can follow; another principal's records are never yielded.
   */
  follow(
    taskId: string,
    context: ServerCallContext,
    signal: AbortSignal,
  ): AsyncIterable<Task> | undefined {
    const kv = this.kv;
    if (kv.follow === undefined || !validTaskId(taskId)) return undefined;
    const owner = principalOf(context);
    const values = kv.follow(this.keyOf(taskId), owner, signal);
    return (async function* () {
      for await (const value of values) {
        const record = decode(value, taskId);
        if (record?.owner === owner) yield record.task;
      }
    })();
  }

  /**
   * Delete the caller's task `taskId` (a task this request saved and does not keep). A task of
   * another principal is not touched: the backend files records by owner.
   */
  async delete(taskId: string, context?: ServerCallContext): Promise<void> {
    if (!validTaskId(taskId)) return;
    if (this.kv.delete === undefined) {
      throw new LlamonError("INTERNAL", "this task store's backend cannot delete tasks");
    }
    await this.kv.delete(this.keyOf(taskId), principalOf(context));
  }

  /**
   * ListTasks: the caller's page from the backend's query (one round trip), else by reading
   * every task of this agent and keeping the caller's (a backend that can only scan).
   */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    if (this.kv.query !== undefined) {
      const query = taskListQuery(params, (taskId) => this.keyOf(taskId));
      const page = await this.kv.query(principalOf(context), query);
      const tasks: Task[] = [];
      for (const value of page.values) {
        const record = decode(value);
        if (record !== undefined) tasks.push(record.task);
      }
      return listTasksResponse(params, tasks, page);
    }
    if (this.kv.list === undefined) {
      throw LegacyA2AError.unsupportedOperation(
        "ListTasks (this task store's backend cannot list keys)",
      );
    }
    const all = new InMemoryTaskStore();
    const caller = principalOf(context);
    for (const [key, value] of await this.kv.list(this.prefix)) {
      const record = decode(value, key.slice(this.prefix.length));
      if (record !== undefined && record.owner === caller) await all.save(record.task, context);
    }
    return all.list(params, context);
  }
}

function validTaskId(taskId: unknown): taskId is string {
  return typeof taskId === "string" && taskId.length > 0 && taskId.length <= MAX_ID_CHARS;
}

/** Anonymous records carry no owner (the format of records stored before owners existed). */
function encode(task: Task, owner: string): string {
  const record: Record<string, unknown> = { v: FORMAT_VERSION, task: Task.toJSON(task) };
  if (owner !== ANONYMOUS_PRINCIPAL) record.owner = owner;
  return JSON.stringify(record);
}

/** A stored record; `taskId`, when given, must be the record's task id. */
function decode(value: unknown, taskId?: string): { task: Task; owner: string } | undefined {
  if (typeof value !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const record = parsed as { v?: unknown; task?: unknown; owner?: unknown };
  if (record.v !== FORMAT_VERSION || typeof record.task !== "object" || record.task === null) {
    return undefined;
  }
  if (record.owner !== undefined && typeof record.owner !== "string") return undefined;
  const task = Task.fromJSON(record.task);
  if (taskId !== undefined && task.id !== taskId) return undefined;
  return { task, owner: record.owner ?? ANONYMOUS_PRINCIPAL };
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  // ASCII-only strings (the common case for ids and JSON punctuation) need no encoding pass.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is intended
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).length;
}
