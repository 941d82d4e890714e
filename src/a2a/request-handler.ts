/**
 * The SDK's request handler, with the answers where A2A and @a2a-js/sdk differ:
 *
 * - Cancelling a task that is already canceled is TaskNotCancelableError (-32002; HTTP 409 on
 *   the HTTP+JSON binding): the spec lists `canceled` among the states a task cannot be
 *   canceled from, while the SDK returns the task unchanged.
 */
import { TaskState } from "@a2a-js/sdk";
import { TaskNotCancelableError } from "@a2a-js/sdk/errors";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";

type Card = ConstructorParameters<typeof DefaultRequestHandler>[0];
type CancelTaskRequest = Parameters<DefaultRequestHandler["cancelTask"]>[0];
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
}
