/**
 * The task store of one request, for an agent whose memory may keep nothing (R11.3: memory
 * `off` keeps no conversation text after the request, task records included).
 *
 * A task holds the user's message and the agent's reply, so it is conversation text: it is
 * saved to the durable store only when this request's conversation is kept. Otherwise it lives
 * in this object, which lives as long as the request: the SDK still reads the task back while
 * it answers (a streaming send re-reads it after each write), and afterwards no request finds
 * it — tasks/get, cancel and resubscribe answer TaskNotFound, and ListTasks does not list it.
 *
 * - `durable` undefined: nothing of this agent is ever kept (memory off at deploy time), so no
 *   read touches storage either: every other task is unknown and every list is empty.
 * - `durable` set: reads go there (tasks kept while memory was on stay readable, as their
 *   conversations do). Whether this request keeps its tasks is decided once, at the first
 *   save that can know it: `keeps.now()` when the request knows already (no read); a task
 *   still working before its turn (a streaming send's first event) is saved provisionally
 *   when it does not, so other requests can follow and cancel it while its turn runs; any
 *   other save asks `keeps.decide()`. Tasks saved provisionally that turn out not to be kept
 *   are deleted at their next save, when the turn has answered.
 *
 * Make one per request.
 */
import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { canFollow } from "./task-follow.ts";
import { listTasksResponse, taskListQuery } from "./task-list-query.ts";

/** A task store that can also delete one of the caller's tasks (KvTaskStore). */
export interface DeletingTaskStore extends TaskStore {
  delete(taskId: string, context: ServerCallContext): Promise<void>;
}

/** Whether the request's tasks are kept after it. */
export interface TaskKeeping {
  /** The answer when known without reading anything, else undefined. */
  now(): boolean | undefined;
  /** The answer (may read what decides it). */
  decide(): Promise<boolean>;
}

export interface GatedTaskStoreOptions {
  /** Where kept tasks live; undefined when nothing is ever kept. */
  readonly durable?: DeletingTaskStore | undefined;
  /** Default (with `durable`): every task is kept. */
  readonly keeps?: TaskKeeping | undefined;
}

/** States of a task whose turn has not answered yet. */
const UNANSWERED = new Set<TaskState>([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

export class GatedTaskStore implements TaskStore {
  /** This request's tasks that are not kept. */
  private readonly own = new Map<string, Task>();
  /** Ids saved to `durable` before it was known whether they are kept. */
  private readonly provisional = new Set<string>();
  private kept: boolean | undefined;

  constructor(private readonly options: GatedTaskStoreOptions) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const own = this.own.get(taskId);
    if (own !== undefined) return structuredClone(own);
    return this.options.durable?.load(taskId, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const { durable } = this.options;
    const kept = durable === undefined ? false : await this.decide(task);
    if (durable !== undefined && kept !== false) {
      await durable.save(task, context);
      if (kept === undefined) this.provisional.add(task.id);
      return;
    }
    this.own.set(task.id, structuredClone(task));
    if (durable !== undefined && this.provisional.delete(task.id)) {
      await durable.delete(task.id, context);
    }
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    if (this.options.durable !== undefined) return this.options.durable.list(params, context);
    // Nothing is kept, so nothing is listed; a forged page token is still -32602.
    taskListQuery(params, (taskId) => taskId);
    return listTasksResponse(params, [], { total: 0, more: false });
  }

  /** Following a kept task (task-follow.ts); a task kept only by this request is not followed. */
  follow(
    taskId: string,
    context: ServerCallContext,
    signal: AbortSignal,
  ): AsyncIterable<Task> | undefined {
    const { durable } = this.options;
    if (this.own.has(taskId) || durable === undefined || !canFollow(durable)) return undefined;
    return durable.follow(taskId, context, signal);
  }

  /** Whether `task` is kept: true or false once decided, undefined while provisional. */
  private async decide(task: Task): Promise<boolean | undefined> {
    if (this.kept !== undefined) return this.kept;
    const { keeps } = this.options;
    if (keeps === undefined) {
      this.kept = true;
      return true;
    }
    const known = keeps.now();
    if (
      known === undefined &&
      UNANSWERED.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)
    ) {
      return undefined;
    }
    this.kept = known ?? (await keeps.decide());
    return this.kept;
  }
}
