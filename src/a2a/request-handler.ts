/**
 * The SDK's request handler, with the answers where A2A and @a2a-js/sdk differ:
 *
 * - Cancelling a task that is already canceled is TaskNotCancelableError (-32002; HTTP 409 on
 *   the HTTP+JSON binding): the spec lists `canceled` among the states a task cannot be
 *   canceled from, while the SDK returns the task unchanged.
 * - A subscription to a task that is not terminal follows it until it is (task-follow.ts),
 *   whichever request and isolate change it; the SDK's follows only the events of a turn
 *   running in the same isolate, and otherwise waits on nothing.
 * - A streaming send carries the reply's artifact chunks as the model writes them, merged into
 *   the SDK's events past its task store (reply-chunks.ts).
 */
import { TaskState } from "@a2a-js/sdk";
import { TaskNotCancelableError } from "@a2a-js/sdk/errors";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { callContextOf } from "./call-context.ts";
import { withReplyChunks } from "./reply-chunks.ts";
import { canFollow, followTask } from "./task-follow.ts";

type Card = ConstructorParameters<typeof DefaultRequestHandler>[0];
type SubscribeRequest = Parameters<DefaultRequestHandler["resubscribe"]>[0];
type Subscription = ReturnType<DefaultRequestHandler["resubscribe"]>;
type CancelTaskRequest = Parameters<DefaultRequestHandler["cancelTask"]>[0];
type SendRequest = Parameters<DefaultRequestHandler["sendMessageStream"]>[0];
type SendStream = ReturnType<DefaultRequestHandler["sendMessageStream"]>;
type Task = Awaited<ReturnType<DefaultRequestHandler["cancelTask"]>>;

export class LlamonRequestHandler extends DefaultRequestHandler {
  readonly #tasks: TaskStore;

  constructor(card: Card, tasks: TaskStore, executor: AgentExecutor) {
    super(card, tasks, executor);
    this.#tasks = tasks;
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.#tasks.load(params.id, context);
    if (task?.status?.state === TaskState.TASK_STATE_CANCELED) {
      throw new TaskNotCancelableError(`Task not cancelable: ${params.id} is already canceled`);
    }
    return super.cancelTask(params, context);
  }

  override async *sendMessageStream(params: SendRequest, context: ServerCallContext): SendStream {
    const events = super.sendMessageStream(params, context);
    const chunks = callContextOf(context)?.replyChunks;
    if (chunks === undefined) yield* events;
    else yield* withReplyChunks(events, chunks);
  }

  override async *resubscribe(params: SubscribeRequest, context: ServerCallContext): Subscription {
    const tasks = this.#tasks;
    const stop = new AbortController();
    // Following starts before the snapshot is read: no save between the two is missed.
    const follow = canFollow(tasks) ? tasks.follow(params.id, context, stop.signal) : undefined;
    if (follow === undefined) {
      yield* super.resubscribe(params, context);
      return;
    }
    try {
      yield* followTask(tasks, follow, params.id, context);
    } finally {
      stop.abort();
    }
  }
}
