/**
 * A subscription that follows a live task (`SubscribeToTask`, 0.3 `tasks/resubscribe`): the
 * task's snapshot, then what later saves of it change — from any request, in any isolate —
 * until it reaches a terminal state. A task store that can follow its records
 * ({@link FollowingTaskStore}: the Worker's task list objects, durable/task-followers.ts;
 * InMemoryKv in tests) yields each saved version of the task; the events between two
 * versions are an `artifactUpdate` per new or changed artifact, then a `statusUpdate` when the
 * status changed.
 *
 * The subscription starts following before it reads the snapshot, so no save between the two
 * is missed; versions not newer than what was sent are skipped. The backend bounds how long a
 * subscription waits without any save (docs/a2a.en.md).
 */
import { type Artifact, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";

/** A task store that can follow a task's later saves. */
export interface FollowingTaskStore extends TaskStore {
  /**
   * The caller's task `taskId` as each save from now on stores it; ends when the backend
   * stops following (a terminal state, the record erased, the idle bound, `signal`).
   * Undefined when this store cannot follow.
   */
  follow(
    taskId: string,
    context: ServerCallContext,
    signal: AbortSignal,
  ): AsyncIterable<Task> | undefined;
}

export function canFollow(store: TaskStore): store is FollowingTaskStore {
  return typeof (store as Partial<FollowingTaskStore>).follow === "function";
}

const TERMINAL = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export function isTerminal(state: TaskState | undefined): boolean {
  return state !== undefined && TERMINAL.has(state);
}

/**
 * The stream of a subscription to `taskId`: its snapshot, then its changes until a terminal
 * state. `follow`: the saves of the task, asked before this reads the snapshot.
 */
export async function* followTask(
  store: TaskStore,
  follow: AsyncIterable<Task>,
  taskId: string,
  context: ServerCallContext,
): AsyncGenerator<StreamResponse, void, undefined> {
  const task = await store.load(taskId, context);
  if (task === undefined) throw new TaskNotFoundError(`Task not found: ${taskId}`);
  const state = task.status?.state;
  if (isTerminal(state)) {
    throw new UnsupportedOperationError(
      `Task ${taskId} is in a terminal state (${state}) and cannot be subscribed to.`,
    );
  }
  yield { payload: { $case: "task", value: task } };
  let last = task;
  for await (const next of follow) {
    if (!isNewer(next, last)) continue;
    yield* changes(last, next);
    last = next;
    if (isTerminal(next.status?.state)) return;
  }
}

/** Whether `next` is a later version than `last` (a later status, or more artifacts). */
function isNewer(next: Task, last: Task): boolean {
  const at = (t: Task) => Date.parse(t.status?.timestamp ?? "") || 0;
  if (at(next) !== at(last)) return at(next) > at(last);
  return next.artifacts.length > last.artifacts.length || next.status?.state !== last.status?.state;
}

function* changes(last: Task, next: Task): Generator<StreamResponse, void, undefined> {
  const before = new Map(last.artifacts.map((a) => [a.artifactId, a] as const));
  for (const artifact of next.artifacts) {
    if (sameArtifact(before.get(artifact.artifactId), artifact)) continue;
    yield {
      payload: {
        $case: "artifactUpdate",
        value: {
          taskId: next.id,
          contextId: next.contextId,
          artifact,
          append: false,
          lastChunk: true,
          metadata: undefined,
        },
      },
    };
  }
  if (
    next.status?.state !== last.status?.state ||
    next.status?.timestamp !== last.status?.timestamp
  ) {
    yield {
      payload: {
        $case: "statusUpdate",
        value: {
          taskId: next.id,
          contextId: next.contextId,
          status: next.status,
          metadata: next.metadata,
        },
      },
    };
  }
}

function sameArtifact(a: Artifact | undefined, b: Artifact): boolean {
  return a !== undefined && JSON.stringify(a.parts) === JSON.stringify(b.parts);
}
