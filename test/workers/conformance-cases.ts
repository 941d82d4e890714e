/**
 * A CI-sized replay of the a2a-tck's MUST requirements over JSON-RPC, written
 * from reading the tck (github.com/a2aproject/a2a-tck, branches `1.0-dev`
 * tests/compatibility and `0.3.x` tests/mandatory) — its requirement ids and what each
 * checks, not its code. Each case is one request (after an optional setup task) and the
 * answer the requirement demands. a2a-conformance.test.ts replays them against the Worker.
 */

export type Setup = "completed" | "input-required" | "working";

export interface Prior {
  taskId: string;
  contextId: string;
}

export interface ConformanceCase {
  /** The tck requirement id (1.0) or test name (0.3). */
  id: string;
  title: string;
  version: "1.0" | "0.3";
  /** A task made first, whose ids the params may use. */
  setup?: Setup;
  method: string;
  params: (prior: Prior) => Record<string, unknown>;
  /** HTTP header A2A-Version to send instead of `version` (null: none). */
  versionHeader?: string | null;
  expect:
    | { error: number; sse?: boolean }
    | { result: (result: Record<string, unknown>, prior: Prior) => string | undefined };
}

const v1Message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: {
    role: "ROLE_USER",
    parts: [{ text }],
    messageId: `tck-${crypto.randomUUID()}`,
    ...extra,
  },
});
const v03Message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: {
    kind: "message",
    role: "user",
    parts: [{ kind: "text", text }],
    messageId: crypto.randomUUID(),
    ...extra,
  },
});

const check = (ok: boolean, why: string) => (ok ? undefined : why);
type Json = Record<string, unknown>;
const taskOf = (r: Json) => (r.task ?? r) as Json;
const stateOf = (r: Json) => (taskOf(r).status as Json | undefined)?.state;

export const CONFORMANCE_CASES: ConformanceCase[] = [
  // ---- A2A 1.0 (tests/compatibility) ----------------------------------------------------
  {
    id: "CORE-SEND-001",
    title: "SendMessage returns a Task or a Message",
    version: "1.0",
    method: "SendMessage",
    params: () => v1Message("hello"),
    expect: {
      result: (r) => check(r.task !== undefined || r.message !== undefined, "no task/message"),
    },
  },
  {
    id: "CORE-SEND-002",
    title: "SendMessage to a terminal task is refused",
    version: "1.0",
    setup: "completed",
    method: "SendMessage",
    params: (p) => v1Message("more", { taskId: p.taskId }),
    expect: { error: -32004 },
  },
  {
    id: "CORE-SEND-003",
    title: "SendMessage with only unsupported media is ContentTypeNotSupportedError",
    version: "1.0",
    method: "SendMessage",
    params: () => ({
      message: {
        role: "ROLE_USER",
        parts: [{ url: "https://example.com/a.png", mediaType: "image/png" }],
        messageId: `tck-${crypto.randomUUID()}`,
      },
    }),
    expect: { error: -32005 },
  },
  {
    id: "CORE-GET-001",
    title: "GetTask returns the current task state",
    version: "1.0",
    setup: "completed",
    method: "GetTask",
    params: (p) => ({ id: p.taskId }),
    expect: {
      result: (r, p) =>
        check(r.id === p.taskId && stateOf(r) === "TASK_STATE_COMPLETED", "wrong task or state"),
    },
  },
  {
    id: "CORE-GET-002",
    title: "GetTask of an unknown id is TaskNotFoundError",
    version: "1.0",
    method: "GetTask",
    params: () => ({ id: crypto.randomUUID() }),
    expect: { error: -32001 },
  },
  {
    id: "CORE-LIST-001",
    title: "ListTasks returns the caller's tasks (filtered by contextId)",
    version: "1.0",
    setup: "completed",
    method: "ListTasks",
    params: (p) => ({ contextId: p.contextId }),
    expect: {
      result: (r, p) => {
        const tasks = r.tasks as Json[];
        return check(tasks.length === 1 && tasks[0]?.id === p.taskId, "not exactly the task");
      },
    },
  },
  {
    id: "CORE-LIST-004",
    title: "ListTasks nextPageToken is an empty string on the final page",
    version: "1.0",
    setup: "completed",
    method: "ListTasks",
    params: (p) => ({ contextId: p.contextId, pageSize: 10 }),
    expect: { result: (r) => check(r.nextPageToken === "", "nextPageToken not empty") },
  },
  {
    id: "CORE-LIST-005",
    title: "ListTasks omits artifacts unless includeArtifacts",
    version: "1.0",
    setup: "completed",
    method: "ListTasks",
    params: (p) => ({ contextId: p.contextId }),
    expect: {
      result: (r) => {
        const tasks = r.tasks as Json[];
        return check(
          tasks.every((t) => ((t.artifacts as unknown[] | undefined) ?? []).length === 0),
          "artifacts present",
        );
      },
    },
  },
  {
    id: "CORE-CANCEL-001",
    title: "CancelTask of a working task returns it canceled",
    version: "1.0",
    setup: "working",
    method: "CancelTask",
    params: (p) => ({ id: p.taskId }),
    expect: { result: (r) => check(stateOf(r) === "TASK_STATE_CANCELED", "not canceled") },
  },
  {
    id: "CORE-CANCEL-002",
    title: "CancelTask of a terminal task is TaskNotCancelableError",
    version: "1.0",
    setup: "completed",
    method: "CancelTask",
    params: (p) => ({ id: p.taskId }),
    expect: { error: -32002 },
  },
  {
    id: "CORE-CANCEL-003",
    title: "CancelTask of an unknown id is TaskNotFoundError",
    version: "1.0",
    method: "CancelTask",
    params: () => ({ id: crypto.randomUUID() }),
    expect: { error: -32001 },
  },
  {
    id: "CORE-EXECUTION-MODE-001",
    title: "A blocking send returns at an interrupted state (input-required)",
    version: "1.0",
    method: "SendMessage",
    params: () => v1Message("/input-required"),
    expect: { result: (r) => check(stateOf(r) === "TASK_STATE_INPUT_REQUIRED", "not interrupted") },
  },
  {
    id: "CORE-MULTI-001a",
    title: "A generated contextId is in the response",
    version: "1.0",
    method: "SendMessage",
    params: () => v1Message("no context"),
    expect: {
      result: (r) => check(typeof taskOf(r).contextId === "string", "no contextId returned"),
    },
  },
  {
    id: "CORE-MULTI-004",
    title: "A message naming an unknown taskId is TaskNotFoundError",
    version: "1.0",
    method: "SendMessage",
    params: () => v1Message("x", { taskId: crypto.randomUUID() }),
    expect: { error: -32001 },
  },
  {
    id: "CORE-MULTI-005",
    title: "The contextId is inferred from the task when only taskId is given",
    version: "1.0",
    setup: "input-required",
    method: "SendMessage",
    params: (p) => v1Message("continue", { taskId: p.taskId }),
    expect: {
      result: (r, p) => check(taskOf(r).contextId === p.contextId, "contextId not inferred"),
    },
  },
  {
    id: "CORE-MULTI-006",
    title: "A contextId that does not match the task's is refused",
    version: "1.0",
    setup: "input-required",
    method: "SendMessage",
    params: (p) => v1Message("continue", { taskId: p.taskId, contextId: "another-context" }),
    expect: { error: -32602 },
  },
  {
    id: "CORE-HIST-002",
    title: "GetTask history does not exceed historyLength",
    version: "1.0",
    setup: "completed",
    method: "GetTask",
    params: (p) => ({ id: p.taskId, historyLength: 1 }),
    expect: {
      result: (r) => check(((r.history as unknown[] | undefined) ?? []).length <= 1, "too long"),
    },
  },
  {
    id: "CORE-CAP-001",
    title: "Push notification config without the capability is an error",
    version: "1.0",
    setup: "completed",
    method: "CreateTaskPushNotificationConfig",
    params: (p) => ({ taskId: p.taskId, config: { url: "https://example.com/hook" } }),
    expect: { error: -32003 },
  },
  {
    id: "CORE-CAP-003",
    title: "GetExtendedAgentCard without the capability is an error",
    version: "1.0",
    method: "GetExtendedAgentCard",
    params: () => ({}),
    expect: { error: -32004 },
  },
  {
    id: "STREAM-SUB-004",
    title: "SubscribeToTask of an unknown id is TaskNotFoundError, a plain error (no stream opens)",
    version: "1.0",
    method: "SubscribeToTask",
    params: () => ({ id: crypto.randomUUID() }),
    expect: { error: -32001, sse: false },
  },
  {
    id: "STREAM-SUB-003",
    title: "SubscribeToTask of a terminal task is refused with a plain error (no stream opens)",
    version: "1.0",
    setup: "completed",
    method: "SubscribeToTask",
    params: (p) => ({ id: p.taskId }),
    expect: { error: -32004, sse: false },
  },
  {
    id: "VER-SERVER-002",
    title: "An unsupported A2A-Version is VersionNotSupportedError",
    version: "1.0",
    versionHeader: "99.0",
    method: "SendMessage",
    params: () => v1Message("version test"),
    expect: { error: -32009 },
  },
  {
    id: "VER-SERVER-003",
    title: "An empty A2A-Version is 0.3 (a v0.3 method answers)",
    version: "0.3",
    versionHeader: "",
    method: "message/send",
    params: () => v03Message("empty version"),
    expect: { result: (r) => check(r.kind === "task", "no task") },
  },
  {
    id: "JSONRPC-ERR-001",
    title: "An unknown method is -32601",
    version: "1.0",
    method: "NoSuchMethod",
    params: () => ({}),
    expect: { error: -32601 },
  },
  // ---- A2A 0.3 (tests/mandatory) --------------------------------------------------------
  {
    id: "test_message_send_valid_text",
    title: "message/send returns a task with the reply",
    version: "0.3",
    method: "message/send",
    params: () => v03Message("hello"),
    expect: { result: (r) => check((r.status as Json).state === "completed", "not completed") },
  },
  {
    id: "test_tasks_get_nonexistent",
    title: "tasks/get of an unknown id is -32001",
    version: "0.3",
    method: "tasks/get",
    params: () => ({ id: crypto.randomUUID() }),
    expect: { error: -32001 },
  },
  {
    id: "test_tasks_cancel_nonexistent",
    title: "tasks/cancel of an unknown id is -32001",
    version: "0.3",
    method: "tasks/cancel",
    params: () => ({ id: crypto.randomUUID() }),
    expect: { error: -32001 },
  },
  {
    id: "test_tasks_resubscribe_nonexistent",
    title: "tasks/resubscribe of an unknown id answers SSE carrying -32001",
    version: "0.3",
    method: "tasks/resubscribe",
    params: () => ({ id: crypto.randomUUID() }),
    expect: { error: -32001, sse: true },
  },
  {
    id: "test_message_stream_terminal_task",
    title: "message/stream naming a terminal task answers a plain error (no stream opens)",
    version: "0.3",
    setup: "completed",
    method: "message/stream",
    params: (p) => v03Message("more", { taskId: p.taskId }),
    expect: { error: -32004, sse: false },
  },
  {
    id: "test_content_type_not_supported_error_32005",
    title: "a message of only a file part is -32005",
    version: "0.3",
    method: "message/send",
    params: () => ({
      message: {
        kind: "message",
        role: "user",
        messageId: crypto.randomUUID(),
        parts: [
          { kind: "file", file: { uri: "https://example.com/a.pdf", mimeType: "application/pdf" } },
        ],
      },
    }),
    expect: { error: -32005 },
  },
  {
    id: "test_authenticated_extended_card_not_configured_32007",
    title: "agent/getAuthenticatedExtendedCard without one is -32007",
    version: "0.3",
    method: "agent/getAuthenticatedExtendedCard",
    params: () => ({}),
    expect: { error: -32007 },
  },
  {
    id: "test_invalid_params_32602",
    title: "a message without parts is -32602",
    version: "0.3",
    method: "message/send",
    params: () => ({ message: { kind: "message", role: "user", messageId: "m", parts: [] } }),
    expect: { error: -32602 },
  },
];
