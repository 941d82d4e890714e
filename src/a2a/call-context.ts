/**
 * Per-request data of the A2A surface, explicit and typed: the SDK hands the
 * ServerCallContext it was given to the AgentExecutor and to the TaskStore, and it keeps the
 * instance (and its subclass) through the whole call. So this module's data rides on a
 * subclass of it, {@link A2ACallContext}, instead of in the SDK's untyped `state` bag:
 *
 * - `request`: the caller's own per-request context (the Worker's RequestContext: agent id,
 *   config, db, logger, waitUntil, signal), built once per HTTP request;
 * - `turn`: the validated message send, when the request is one (text, history, streaming);
 * - `taskStore`: this request's task store, and what it saved (read back without a round
 *   trip, see {@link RequestScopedTaskStore});
 * - `log`: this request's logger.
 *
 * What the SDK itself needs (the protocol version, the user) stays in the base class.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore, type User } from "@a2a-js/sdk/server";
import type { Logger } from "../log.ts";
import { ReplyChunks } from "./reply-chunks.ts";
import { canFollow } from "./task-follow.ts";

/** The validated message send of one request (a2a/validate.ts). */
export interface TurnState {
  /** The validated user text (text parts joined with "\n"). */
  readonly text: string;
  readonly history: unknown;
  readonly hasHistory: boolean;
  /** message/stream, SendStreamingMessage: publish progress before the reply. */
  readonly streaming: boolean;
  /** Aborts when the client goes away (a blocking send's turn stops; a streaming one goes on). */
  readonly signal: AbortSignal | undefined;
  /** Why the turn failed; the HTTP layer answers a blocking send with the mapped error. */
  failure?: { error: unknown };
}

export class A2ACallContext<R = unknown> extends ServerCallContext {
  readonly request: R;
  readonly turn: TurnState | undefined;
  readonly taskStore: TaskStore;
  /** This request's logger. */
  readonly log: Logger;
  /** The task id this request created (nothing stored under it before the first save). */
  newTaskId: string | undefined;
  /** Tasks saved by this request. */
  readonly saved: Map<string, Task> = new Map();
  /** A streaming send's reply chunks, on their way to the client (reply-chunks.ts). */
  readonly replyChunks: ReplyChunks | undefined;

  constructor(options: {
    requestedVersion: string;
    user: User;
    request: R;
    turn: TurnState | undefined;
    taskStore: TaskStore;
    log: Logger;
  }) {
    super({ requestedVersion: options.requestedVersion, user: options.user });
    this.request = options.request;
    this.turn = options.turn;
    this.taskStore = options.taskStore;
    this.log = options.log;
    this.replyChunks = options.turn?.streaming ? new ReplyChunks() : undefined;
  }
}

/** Our data of a call, or undefined for a context the SDK made itself. */
export function callContextOf(context: ServerCallContext): A2ACallContext | undefined {
  return context instanceof A2ACallContext ? context : undefined;
}

/**
 * The TaskStore the SDK sees (one per app): each call goes to the request's own store
 * (`A2ACallContext.taskStore`, else `fallback`), and task-store round trips of a message
 * send are cut. The SDK re-loads a task before every write and once more to answer; for a
 * blocking send that is 2 reads + 1 write per turn, here 1 write:
 * - a task id this request just created has nothing stored yet: no read;
 * - a blocking send reads back its own write (nothing else writes the task during it).
 * Streaming sends read the store after their first write, so a cancel from another request in
 * the meantime is seen (the SDK then ignores the late "completed" for the canceled task).
 */
export class RequestScopedTaskStore implements TaskStore {
  constructor(private readonly fallback: TaskStore | undefined) {}

  private storeOf(context: ServerCallContext): TaskStore {
    const store = callContextOf(context)?.taskStore ?? this.fallback;
    if (store === undefined) throw new Error("no task store for this call");
    return store;
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const call = callContextOf(context);
    if (call?.turn !== undefined) {
      const own = call.saved.get(taskId);
      if (own !== undefined && !call.turn.streaming) return structuredClone(own);
      if (call.newTaskId === taskId && own === undefined) return undefined;
    }
    return this.storeOf(context).load(taskId, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.storeOf(context).save(task, context);
    const call = callContextOf(context);
    if (call?.turn !== undefined) call.saved.set(task.id, structuredClone(task));
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.storeOf(context).list(params, context);
  }

  /** The request's store's following of a task (task-follow.ts), if it can. */
  follow(
    taskId: string,
    context: ServerCallContext,
    signal: AbortSignal,
  ): AsyncIterable<Task> | undefined {
    const store = this.storeOf(context);
    return canFollow(store) ? store.follow(taskId, context, signal) : undefined;
  }
}
