/**
 * The SDK AgentExecutor: one `execute(...)` call per user message, published as a Task so
 * `tasks/get` can return it afterwards (a bare Message would never reach the task store).
 *
 * - Blocking sends (message/send, SendMessage): a single completed Task after the turn (or
 *   input-required, when the turn says it waits for the user: a flow between its steps) —
 *   status.message is the agent reply, the reply is also the "reply" artifact, history holds
 *   the user message and the reply. One task-store write per turn. Non-blocking sends
 *   (v0.3 `blocking: false`, v1.0 `returnImmediately: true`) are accepted and also answer when
 *   the turn ends, since the completed task is their first event: a Worker could not keep
 *   running the turn after its response anyway (no waitUntil here).
 * - Streaming sends: a working Task first (the client learns taskId/contextId at once), then
 *   the reply as the model writes it — `artifact-update` chunks of the "reply" artifact, the
 *   first of each model call with `append: false` (it replaces the text streamed before: a
 *   tool call's preamble, a run repeated after a conflict), the rest `append: true` — then the
 *   whole reply as the artifact's last chunk (`append: false`, `lastChunk: true`: the artifact
 *   a client holds at the end, and the one stored with the task, is exactly the reply), then
 *   the completed (or input-required) status. The chunks go to the client past the task store
 *   (reply-chunks.ts); the task is saved at its states, as for any send.
 * - A streaming client that goes away does not stop its turn: the turn runs to its end, is
 *   stored, and its task is recorded as it ended (R2.4; sse.ts drains the events). A blocking
 *   send's turn is aborted with its request. Only `tasks/cancel` cancels a streaming turn.
 * - A streaming turn may publish progress notes (`A2ATurnInput.progress`) as working status
 *   updates before its reply.
 * - A failed turn: blocking sends publish nothing and the HTTP layer answers with the mapped
 *   JSON-RPC error (nothing stored); streaming sends end with a failed status whose message is
 *   the same safe text. The executor never throws: the SDK would otherwise store and return a
 *   failed task carrying the raw error message.
 *
 * Cancel: a turn runs inside its request, so another request normally sees the task only when
 * it is terminal (completed/failed) and `tasks/cancel` answers TaskNotCancelable (-32002). A
 * streaming task is visible as "working" while its turn runs; a cancel reaching the same
 * isolate aborts the turn's signal and publishes "canceled"; a cancel from another isolate
 * marks the stored task canceled (SDK) and the late "completed" is ignored. Either way the
 * turn may already have been stored in the conversation: cancel is best effort.
 *
 * Resubscribe (`tasks/resubscribe`, `SubscribeToTask`): for a terminal task the answer is
 * UnsupportedOperation (-32004, "… is in a terminal state …"), which is what A2A specifies;
 * use `tasks/get` for the result. A task that is not terminal yields its stored snapshot, then
 * every later save of it from any request and isolate (request-handler.ts, task-follow.ts).
 */
import { type ListTasksRequest, type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import type { Logger } from "../log.ts";
import { threadKey } from "../runtime/thread-keys.ts";
import { principalOf } from "./auth/user.ts";
import { callContextOf } from "./call-context.ts";
import { describeTurnFailure } from "./rpc-errors.ts";
import type { A2ATurnInput, A2ATurnOutput, ExecuteTurn } from "./types.ts";

const REPLY_ARTIFACT_NAME = "reply";
/** JSON-RPC "invalid params": the request was the caller's mistake. */
const INVALID_PARAMS = -32602;

interface Running {
  readonly contextId: string;
  readonly controller: AbortController;
  canceled: boolean;
}

function textPart(text: string) {
  return {
    content: { $case: "text" as const, value: text },
    mediaType: "text/plain",
    filename: "",
    metadata: undefined,
  };
}

function agentMessage(
  taskId: string,
  contextId: string,
  text: string,
  metadata?: Record<string, unknown>,
): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

function textOf(message: Message): string {
  return message.parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("\n");
}

function isTurnOutput(value: unknown): value is A2ATurnOutput {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { reply?: unknown }).reply === "string"
  );
}

/**
 * Complete the context's other `input-required` tasks (their flow went on in `taskId`), with
 * a status message that names the task it continued in.
 */
async function closeWaitingTasks(
  store: TaskStore,
  context: ServerCallContext | undefined,
  contextId: string,
  taskId: string,
): Promise<void> {
  if (context === undefined) return;
  const page = await store.list(
    {
      tenant: "",
      contextId,
      status: TaskState.TASK_STATE_INPUT_REQUIRED,
      pageSize: 100,
      pageToken: "",
      historyLength: 0,
      includeArtifacts: false,
    } as ListTasksRequest,
    context,
  );
  for (const waiting of page.tasks) {
    if (waiting.id === taskId || waiting.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
      continue;
    }
    const full = (await store.load(waiting.id, context)) ?? waiting;
    const note = agentMessage(
      waiting.id,
      contextId,
      `continued in task ${taskId}: the answer came without this task's taskId`,
    );
    await store.save(
      {
        ...full,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: note, timestamp: now() },
      },
      context,
    );
  }
}

export class TurnExecutor implements AgentExecutor {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly executeTurn: ExecuteTurn<unknown>,
    private readonly log: Logger,
  ) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const call = callContextOf(ctx.context);
    const state = call?.turn;
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    const streaming = state?.streaming ?? false;
    if (call !== undefined && ctx.task === undefined) call.newTaskId = taskId;
    const principal = principalOf(ctx.context);
    const input: A2ATurnInput = {
      contextId,
      principal,
      threadId: threadKey(principal, contextId),
      messageId: user.messageId,
      taskId,
      text: state?.text ?? textOf(user),
    };
    if (state?.hasHistory) input.history = state.history;
    if (ctx.task !== undefined) input.continuesTask = true;
    const artifactId = crypto.randomUUID();
    const chunks = call?.replyChunks;
    if (streaming && chunks !== undefined) {
      input.replyText = ({ text, restart }) => {
        if (entry.canceled) return;
        const artifact = {
          artifactId,
          name: REPLY_ARTIFACT_NAME,
          description: "",
          parts: [textPart(text)],
          metadata: undefined,
          extensions: [],
        };
        const value = {
          taskId,
          contextId,
          artifact,
          append: !restart,
          lastChunk: false,
          metadata: undefined,
        };
        chunks.push({ payload: { $case: "artifactUpdate", value } });
      };
    }
    if (streaming) {
      input.progress = (text) => {
        if (entry.canceled) return;
        const note = agentMessage(taskId, contextId, text);
        const status = { state: TaskState.TASK_STATE_WORKING, message: note, timestamp: now() };
        bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined }));
      };
    }
    const history = ctx.task !== undefined ? [...ctx.task.history] : [user];
    const entry: Running = { contextId, controller: new AbortController(), canceled: false };
    // A blocking send's turn ends with its request; a streaming one is finished and stored.
    const onClientGone = () => entry.controller.abort(state?.signal?.reason);
    const clientSignal = streaming ? undefined : state?.signal;
    if (clientSignal?.aborted) onClientGone();
    clientSignal?.addEventListener("abort", onClientGone, { once: true });
    this.running.set(taskId, entry);
    try {
      if (streaming) {
        bus.publish(
          AgentEvent.task(this.task(taskId, contextId, TaskState.TASK_STATE_WORKING, history)),
        );
      }
      const output: unknown = await this.executeTurn(input, entry.controller.signal, call?.request);
      if (!isTurnOutput(output)) throw new TypeError("execute() must resolve to { reply: string }");
      if (entry.canceled) return;
      const metadata =
        output.seedReport === undefined ? undefined : { seed_report: output.seedReport };
      // A flow's message sent without the taskId of the step that asked: that task would wait
      // forever; the flow went on here, so it is completed, pointing at this task.
      if (output.flow && ctx.task === undefined && call !== undefined) {
        await closeWaitingTasks(call.taskStore, ctx.context, contextId, taskId);
      }
      if (output.message === true && !streaming && ctx.task === undefined) {
        // A direct Message answer: no task is created (A2A: SendMessage returns a Message).
        bus.publish(AgentEvent.message({ ...agentMessage("", contextId, output.reply) }));
        return;
      }
      const reply = agentMessage(taskId, contextId, output.reply);
      const artifact = {
        artifactId,
        name: REPLY_ARTIFACT_NAME,
        description: "",
        parts: output.artifactParts ?? [textPart(output.reply)],
        metadata: undefined,
        extensions: [],
      };
      // A flow between its steps waits for the user: input-required, continued by taskId.
      const completed = {
        state: output.inputRequired
          ? TaskState.TASK_STATE_INPUT_REQUIRED
          : TaskState.TASK_STATE_COMPLETED,
        message: reply,
        timestamp: now(),
      };
      if (streaming) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact,
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
        bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: completed, metadata }));
      } else {
        bus.publish(
          AgentEvent.task({
            id: taskId,
            contextId,
            status: completed,
            artifacts: [artifact],
            history: [...history, reply],
            metadata,
          }),
        );
        // The SDK keeps an input-required task's event bus open for the follow-up message, so
        // a blocking send returns only at a status update: publish one (a second task write).
        if (output.inputRequired) {
          bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: completed, metadata }));
        }
      }
    } catch (error) {
      if (entry.canceled) return;
      const failure = describeTurnFailure(error);
      // The caller's mistake (invalid params: a bad seed, a resend of a trimmed turn) is a
      // warning; the agent's or the platform's failure is an error.
      const level = failure.code === INVALID_PARAMS ? "warn" : "error";
      (call?.log ?? this.log)[level]("a2a: turn failed", {
        code: failure.reason,
        retryable: failure.retryable,
        context_id: contextId,
        message_id: user.messageId,
        task_id: taskId,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      if (state !== undefined) state.failure = { error };
      if (streaming) {
        const message = agentMessage(taskId, contextId, failure.message, {
          error_reason: failure.reason,
          retryable: failure.retryable,
        });
        bus.publish(
          AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: { state: TaskState.TASK_STATE_FAILED, message, timestamp: now() },
            metadata: undefined,
          }),
        );
      }
    } finally {
      clientSignal?.removeEventListener("abort", onClientGone);
      this.running.delete(taskId);
    }
  };

  /** Called by the SDK only while the task's turn runs in this isolate. */
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const entry = this.running.get(taskId);
    if (entry !== undefined) {
      entry.canceled = true;
      entry.controller.abort(new Error("task canceled"));
    }
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: entry?.contextId ?? "",
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
  };

  private task(taskId: string, contextId: string, state: TaskState, history: Message[]): Task {
    return {
      id: taskId,
      contextId,
      status: { state, message: undefined, timestamp: now() },
      artifacts: [],
      history,
      metadata: undefined,
    };
  }
}

function now(): string {
  return new Date().toISOString();
}
