/**
 * Per-request state shared by the HTTP layer, the AgentExecutor and the task store, carried
 * in the SDK's `ServerCallContext.state` (one context per HTTP request).
 */
import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";

const TURN_STATE_KEY = "llamon.a2a.turn";

export interface TurnState {
  /** The validated user text (text parts joined with "\n"). */
  readonly text: string;
  readonly history: unknown;
  readonly hasHistory: boolean;
  /** message/stream, SendStreamingMessage: publish progress before the reply. */
  readonly streaming: boolean;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal | undefined;
  /** The Worker's `ctx.waitUntil` for this request; undefined outside workerd. */
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** The task id this request created (nothing stored under it yet before the first save). */
  newTaskId?: string;
  /** Tasks saved by this request (read back without a store round trip, blocking sends only). */
  saved?: Map<string, Task>;
  /** Why the turn failed; the HTTP layer answers a blocking send with the mapped error. */
  failure?: { error: unknown };
}

export function attachTurnState(context: ServerCallContext, state: TurnState): void {
  context.state.set(TURN_STATE_KEY, state);
}

export function turnStateOf(context: ServerCallContext): TurnState | undefined {
  return context.state.get(TURN_STATE_KEY) as TurnState | undefined;
}

/**
 * Cuts task-store round trips of a message send. The SDK re-loads a task before every write
 * and once more to answer; for a blocking send that is 2 reads + 1 write per turn, here 1 write:
 * - a task id this request just created has nothing stored yet: no read;
 * - a blocking send reads back its own write (nothing else writes the task during it).
 * Streaming sends read the store after their first write, so a cancel from another request in
 * the meantime is seen (the SDK then ignores the late "completed" for the canceled task).
 */
export class RequestScopedTaskStore implements TaskStore {
  constructor(private readonly inner: TaskStore) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const state = turnStateOf(context);
    if (state !== undefined) {
      const own = state.saved?.get(taskId);
      if (own !== undefined && !state.streaming) return structuredClone(own);
      if (state.newTaskId === taskId && own === undefined) return undefined;
    }
    return this.inner.load(taskId, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.inner.save(task, context);
    const state = turnStateOf(context);
    if (state !== undefined) {
      state.saved ??= new Map();
      state.saved.set(task.id, structuredClone(task));
    }
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}
