/**
 * The HTTP+JSON (REST) binding of A2A 1.0, mounted at `/rest` next to JSON-RPC, behind the
 * same guard (JSON Content-Type for bodies, size cap, credentials, rate limit) and answered
 * by the same request handler, so conversations, tasks and owners are the same:
 *
 * | route                              | method                 |
 * |------------------------------------|------------------------|
 * | `POST /rest/message:send`          | SendMessage            |
 * | `POST /rest/message:stream`        | SendStreamingMessage (SSE of StreamResponse) |
 * | `GET  /rest/tasks/{id}`            | GetTask (`?historyLength=`) |
 * | `GET  /rest/tasks`                 | ListTasks (query: contextId, status, pageSize, pageToken, historyLength, statusTimestampAfter, includeArtifacts) |
 * | `POST /rest/tasks/{id}:cancel`     | CancelTask             |
 * | `GET\|POST /rest/tasks/{id}:subscribe` | SubscribeToTask (SSE) |
 * | `GET  /rest/extendedAgentCard`     | GetExtendedAgentCard   |
 * | `POST\|GET /rest/tasks/{id}/pushNotificationConfigs`, `GET\|DELETE …/{configId}` | the push notification config methods: PushNotificationNotSupported (400), this agent sends none |
 *
 * Only A2A 1.0 (`A2A-Version: 1.0`; absent means 0.3, which this binding does not serve:
 * VersionNotSupported). A call becomes the JSON-RPC request of its method (validated like
 * every other, app.ts); a result is the 200 body, an error an HTTP status with a
 * `google.rpc.Status`-shaped body `{ error: { code, status, message, details } }`.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { decodeUtf8, parseJsonText } from "../runtime/json-body.ts";
import type { JsonRpcErrorObject, JsonRpcId } from "./rpc-errors.ts";
import {
  type Envelope,
  type SseFormat,
  type StreamErrors,
  streamResponse,
  waitUntilOf,
} from "./sse.ts";

export const REST_PATH = "/rest";

export type Dispatched =
  | { kind: "envelope"; envelope: Envelope }
  | {
      kind: "stream";
      stream: AsyncGenerator<Envelope, void, undefined>;
      id: JsonRpcId;
      /** The JSON-RPC method called. */
      method: string;
      errors: StreamErrors;
    };

export type RestDispatch = (
  c: Context,
  params: Record<string, unknown>,
  method: string,
) => Promise<Dispatched>;

interface Route {
  method: string;
  params: Record<string, unknown>;
  body: boolean;
}

const NUMBER_QUERY = new Set(["pageSize", "historyLength"]);
const LIST_QUERY = [
  "contextId",
  "status",
  "pageSize",
  "pageToken",
  "historyLength",
  "statusTimestampAfter",
  "includeArtifacts",
];

/** The route of `verb path` (path after /rest), or undefined. */
function routeOf(verb: string, path: string, query: Record<string, string>): Route | undefined {
  const get = verb === "GET";
  const post = verb === "POST";
  if (post && path === "/message:send") return { method: "SendMessage", params: {}, body: true };
  if (post && path === "/message:stream") {
    return { method: "SendStreamingMessage", params: {}, body: true };
  }
  if (get && path === "/extendedAgentCard") {
    return { method: "GetExtendedAgentCard", params: {}, body: false };
  }
  if (get && path === "/tasks") {
    const params: Record<string, unknown> = {};
    for (const name of LIST_QUERY) {
      const value = query[name];
      if (value !== undefined) params[name] = queryValue(name, value);
    }
    return { method: "ListTasks", params, body: false };
  }
  const push = pushRoute(verb, path);
  if (push !== undefined) return push;
  const task = /^\/tasks\/([^/:]+)(?::(cancel|subscribe))?$/.exec(path);
  if (task === null) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(task[1] ?? "");
  } catch {
    return undefined; // a malformed %-escape names no task
  }
  if (task[2] === undefined && get) {
    const params: Record<string, unknown> = { id };
    if (query.historyLength !== undefined) {
      params.historyLength = queryValue("historyLength", query.historyLength);
    }
    return { method: "GetTask", params, body: false };
  }
  if (task[2] === "cancel" && post) return { method: "CancelTask", params: { id }, body: true };
  if (task[2] === "subscribe" && (get || post)) {
    return { method: "SubscribeToTask", params: { id }, body: false };
  }
  return undefined;
}

/** The push notification config routes (A2A 1.0 HTTP+JSON), answered by their methods. */
function pushRoute(verb: string, path: string): Route | undefined {
  const match = /^\/tasks\/([^/:]+)\/pushNotificationConfigs(?:\/([^/:]+))?$/.exec(path);
  if (match === null) return undefined;
  let taskId: string;
  let configId: string | undefined;
  try {
    taskId = decodeURIComponent(match[1] ?? "");
    configId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
  } catch {
    return undefined;
  }
  if (configId === undefined) {
    if (verb === "POST") {
      return { method: "CreateTaskPushNotificationConfig", params: { taskId }, body: true };
    }
    if (verb === "GET") {
      return { method: "ListTaskPushNotificationConfigs", params: { taskId }, body: false };
    }
    return undefined;
  }
  const params = { taskId, id: configId };
  if (verb === "GET") return { method: "GetTaskPushNotificationConfig", params, body: false };
  if (verb === "DELETE") {
    return { method: "DeleteTaskPushNotificationConfig", params, body: false };
  }
  return undefined;
}

function queryValue(name: string, value: string): unknown {
  if (NUMBER_QUERY.has(name) && /^\d{1,9}$/.test(value)) return Number(value);
  if (name === "includeArtifacts" && (value === "true" || value === "false")) {
    return value === "true";
  }
  return value;
}

/**
 * HTTP status and google.rpc status name of each JSON-RPC error code: the A2A 1.0 error
 * mapping table for the A2A errors (TaskNotCancelable 409, ContentTypeNotSupported 415,
 * InvalidAgentResponse 502), 400 for the others of the caller's making.
 */
const STATUS_OF: Readonly<Record<number, readonly [number, string]>> = {
  [-32700]: [400, "INVALID_ARGUMENT"],
  [-32600]: [400, "INVALID_ARGUMENT"],
  [-32602]: [400, "INVALID_ARGUMENT"],
  [-32601]: [404, "NOT_FOUND"],
  [-32001]: [404, "NOT_FOUND"],
  [-32002]: [409, "FAILED_PRECONDITION"],
  [-32003]: [400, "FAILED_PRECONDITION"],
  [-32004]: [400, "FAILED_PRECONDITION"],
  [-32005]: [415, "INVALID_ARGUMENT"],
  [-32006]: [502, "INTERNAL"],
  [-32007]: [400, "FAILED_PRECONDITION"],
  [-32008]: [400, "FAILED_PRECONDITION"],
  [-32009]: [400, "FAILED_PRECONDITION"],
  [-32040]: [401, "UNAUTHENTICATED"],
  [-32041]: [401, "UNAUTHENTICATED"],
  [-32042]: [503, "UNAVAILABLE"],
  [-32043]: [429, "RESOURCE_EXHAUSTED"],
  [-32050]: [502, "UNAVAILABLE"],
};

export function restErrorBody(error: JsonRpcErrorObject): {
  status: number;
  body: { error: { code: number; status: string; message: string; details: unknown[] } };
} {
  const [status, name] = STATUS_OF[error.code] ?? [500, "INTERNAL"];
  const details = Array.isArray(error.data) ? error.data : [];
  return {
    status,
    body: { error: { code: status, status: name, message: error.message, details } },
  };
}

function restError(c: Context, error: JsonRpcErrorObject): Response {
  const { status, body } = restErrorBody(error);
  return c.json(body, status as 400);
}

/** SSE events of the REST binding: the StreamResponse itself, or `{ error }`. */
const REST_SSE: SseFormat = {
  event: (envelope) => `data: ${JSON.stringify(envelope.result)}\n\n`,
  error: (envelope) =>
    `event: error\ndata: ${JSON.stringify(restErrorBody(envelope.error as JsonRpcErrorObject).body)}\n\n`,
  refusal: (envelope) => {
    const { status, body } = restErrorBody(envelope.error as JsonRpcErrorObject);
    return new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  },
};

export function mountRestRoutes(app: Hono, guard: MiddlewareHandler, dispatch: RestDispatch): void {
  app.on(["GET", "POST", "DELETE"], `${REST_PATH}/*`, guard, async (c) => {
    const path = new URL(c.req.url).pathname;
    const rest = path.slice(path.indexOf(REST_PATH) + REST_PATH.length);
    const route = routeOf(c.req.method, rest, c.req.query());
    if (route === undefined) {
      return restError(c, { code: -32601, message: `no HTTP+JSON route ${c.req.method} ${rest}` });
    }
    let params = route.params;
    if (route.body) {
      const text = decodeUtf8(await c.req.arrayBuffer());
      const parsed = text === undefined || text === "" ? undefined : parseJsonText(text);
      if (text !== "" && (parsed === undefined || !parsed.ok)) {
        return restError(c, { code: -32700, message: "the request body is not valid JSON" });
      }
      const value = parsed?.ok ? parsed.value : {};
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return restError(c, { code: -32600, message: "the request body must be a JSON object" });
      }
      params = { ...(value as Record<string, unknown>), ...params };
    }
    const out = await dispatch(c, params, route.method);
    if (out.kind === "stream") {
      return streamResponse(out.stream, out.id, out.errors, waitUntilOf(c), REST_SSE, out.method);
    }
    if (out.envelope.error !== undefined && out.envelope.error !== null) {
      return restError(c, out.envelope.error as JsonRpcErrorObject);
    }
    return c.json(out.envelope.result as Record<string, unknown>);
  });
}
