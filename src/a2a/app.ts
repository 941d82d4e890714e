/**
 * The A2A surface of the Worker as a Hono app:
 *
 * - `POST /`: one JSON-RPC endpoint for A2A v0.3 (`message/send`, `message/stream`,
 *   `tasks/get`, `tasks/cancel`, `tasks/resubscribe`) and v1.0 (`SendMessage`,
 *   `SendStreamingMessage`, `GetTask`, `CancelTask`, `SubscribeToTask`, `ListTasks`), routed
 *   by the `A2A-Version` header (version.ts: unsupported → -32009; absent → 0.3, and then
 *   by method name, so the product document's body works as is). Streams are SSE.
 * - `GET /.well-known/agent-card.json` (and the older `/.well-known/agent.json`): the card.
 *
 * Decisions:
 * - Before the body is parsed, every call passes the guard (guard.ts): a JSON Content-Type
 *   (415), the size cap `maxBodyBytes` (default 1 MiB, 413), the caller's credentials
 *   (`options.auth`, 401) and the per-principal rate limit (429). Its refusals are JSON-RPC
 *   errors with id null (the id was never read).
 * - The caller's principal travels to the SDK as a real `User` (auth/user.ts): the task
 *   store keeps each task's owner, and a turn's thread key is made of the principal and the
 *   contextId (executor.ts), so one principal never reaches another's conversation or tasks.
 * - Bodies are decoded as strict UTF-8 (invalid bytes: -32700) and may nest at most 64 levels
 *   (-32600; validate.ts).
 * - Every JSON-RPC error is answered with HTTP 200 (as the SDK does); clients read `error`.
 *   Only a bug in this module answers 500, still with a JSON-RPC body and no internals.
 * - A request without `id` is a JSON-RPC notification, which strictly gets no answer. The
 *   product document sends exactly that and expects the reply, so it is answered, with
 *   `id: null`.
 * - The card (public: clients read it to learn how to authenticate) declares the auth scheme.
 */
import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import {
  JsonRpcTransportHandler,
  type ServerCallContext,
  type TaskStore,
} from "@a2a-js/sdk/server";
import { type Context, Hono } from "hono";
import { createLogger, type Logger } from "../log.ts";
import { decodeUtf8 } from "../runtime/json-body.ts";
import { A2AUser } from "./auth/user.ts";
import { A2ACallContext, RequestScopedTaskStore, type TurnState } from "./call-context.ts";
import { buildAgentCard } from "./card.ts";
import { mountCardRoutes } from "./card-route.ts";
import { TurnExecutor } from "./executor.ts";
import { a2aGuard } from "./guard.ts";
import { LlamonRequestHandler } from "./request-handler.ts";
import { type Dispatched, mountRestRoutes } from "./rest-route.ts";
import {
  type Dialect,
  errorResponse,
  GENERIC_INTERNAL_MESSAGE,
  type JsonRpcErrorObject,
  legacyExtendedCardError,
  protocolError,
  RPC_CODE,
  sanitizeErrorObject,
  sdkErrorObject,
  turnErrorObject,
  withStateNames,
} from "./rpc-errors.ts";
import {
  type Envelope,
  JSON_RPC_SSE,
  JSON_RPC_SSE_ALWAYS,
  type StreamErrors,
  streamResponse,
  waitUntilOf,
} from "./sse.ts";
import type { A2AAppOptions, ExecuteTurn } from "./types.ts";
import { type ValidCall, validateRpcBody } from "./validate.ts";
import { negotiateVersion, type VersionOutcome } from "./version.ts";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export { AGENT_CARD_PATHS } from "./card-route.ts";

type Transport = {
  handle(
    body: Record<string, unknown>,
    context: ServerCallContext,
  ): Promise<Envelope | AsyncGenerator<Envelope, void, undefined>>;
};

/**
 * The A2A app. Build it once per isolate (the executor's in-isolate cancel needs one
 * instance); everything that depends on the request (env, task store, logger) comes from
 * `options.request` per request.
 */
export function createA2AApp<R = undefined>(options: A2AAppOptions<R>): Hono {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? createLogger();
  const taskStoreOption = options.taskStore;
  const taskStoreFor: (request: R) => TaskStore =
    typeof taskStoreOption === "function" ? taskStoreOption : () => taskStoreOption;
  // The card the handler serves; its supportedInterfaces are the versions negotiated.
  const servedCard = buildAgentCard(options.card, options.card.url ?? "/");
  const requestHandler = new LlamonRequestHandler(
    servedCard,
    new RequestScopedTaskStore(typeof taskStoreOption === "function" ? undefined : taskStoreOption),
    new TurnExecutor(options.execute as ExecuteTurn<unknown>, log),
  );
  const transports: Record<Dialect, Transport> = {
    "v1.0": new JsonRpcTransportHandler(requestHandler),
    "v0.3": new LegacyJsonRpcTransportHandler(requestHandler),
  };
  const app = new Hono();
  const guardLog = (c: Context) => options.guardLog?.(c) ?? log;

  mountCardRoutes(app, options, guardLog);

  const guard = a2aGuard({
    maxBodyBytes,
    auth: options.auth,
    rateLimit: options.rateLimit,
    log: guardLog,
  });

  /** One call, validated and handed to the SDK: an envelope, or a stream of them. */
  const dispatch = async (
    c: Context,
    text: string | undefined,
    version: VersionOutcome,
  ): Promise<Dispatched> => {
    // Strict UTF-8: replacement characters would make distinct byte strings one contextId.
    if (text === undefined) {
      const error = protocolError("v0.3", "parse", "the request body is not valid UTF-8");
      return { kind: "envelope", envelope: errorResponse(null, error) };
    }
    const call = validateRpcBody(text, version);
    if (!call.ok) return { kind: "envelope", envelope: errorResponse(call.id, call.error) };
    const caller = c.get("a2aCaller");
    const request = options.request ? options.request(c, caller) : (undefined as R);
    const requestLog = options.requestLog ? options.requestLog(request) : log;
    const state: TurnState | undefined =
      call.turn === undefined
        ? undefined
        : { ...call.turn, streaming: call.streaming, signal: c.req.raw.signal };
    const context: ServerCallContext = new A2ACallContext<R>({
      requestedVersion: call.dialect === "v1.0" ? "1.0" : "0.3",
      user: new A2AUser(caller.principal, caller.authenticated),
      request,
      turn: state,
      taskStore: taskStoreFor(request),
      log: requestLog,
    });
    let result: Envelope | AsyncGenerator<Envelope, void, undefined>;
    try {
      result = await transports[call.dialect].handle(call.body, context);
    } catch (error) {
      const envelope = errorResponse(call.id, finalError(call, error, state, requestLog));
      return { kind: "envelope", envelope };
    }
    if (!isAsyncGenerator(result)) {
      return { kind: "envelope", envelope: finishEnvelope(result, call, state, requestLog) };
    }
    const errors: StreamErrors = {
      thrown: (error) => finalError(call, error, state, requestLog),
      failure: () =>
        state?.failure === undefined
          ? undefined
          : turnErrorObject(call.dialect, state.failure.error),
    };
    return { kind: "stream", stream: result, id: call.id, method: call.method, errors };
  };

  app.post("/", guard, async (c) => {
    const version = negotiateVersion(c.req.header(A2A_VERSION_HEADER), servedCard, "JSONRPC");
    const out = await dispatch(c, decodeUtf8(await c.req.arrayBuffer()), version);
    if (out.kind === "envelope") return c.json(out.envelope);
    const format = out.method === "tasks/resubscribe" ? JSON_RPC_SSE_ALWAYS : JSON_RPC_SSE;
    return streamResponse(out.stream, out.id, out.errors, waitUntilOf(c), format, out.method);
  });

  // HTTP+JSON (rest-route.ts): the same guard, the same handler, the same memory.
  // Its refusals carry that binding's error body (guard.ts).
  const restGuard = a2aGuard({
    maxBodyBytes,
    auth: options.auth,
    rateLimit: options.rateLimit,
    log: guardLog,
    binding: "HTTP+JSON",
  });
  mountRestRoutes(app, restGuard, (c, body, method) =>
    dispatch(
      c,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: body }),
      negotiateVersion(c.req.header(A2A_VERSION_HEADER), servedCard, "HTTP+JSON"),
    ),
  );

  app.onError((error, c) => {
    log.error("a2a: unhandled error", {
      code: "INTERNAL",
      error: `${error.name}: ${error.message}`,
    });
    return c.json(
      errorResponse(null, { code: RPC_CODE.INTERNAL_ERROR, message: GENERIC_INTERNAL_MESSAGE }),
      500,
    );
  });

  return app;
}

function isAsyncGenerator<T>(value: unknown): value is AsyncGenerator<T, void, undefined> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as AsyncGenerator<T>)[Symbol.asyncIterator] === "function"
  );
}

/** The error to send for `error` raised while handling `call` (turn failures win). */
function finalError(
  call: ValidCall,
  error: unknown,
  state: TurnState | undefined,
  log: Logger,
): JsonRpcErrorObject {
  if (state?.failure !== undefined) return turnErrorObject(call.dialect, state.failure.error);
  const mapped = sdkErrorObject(call.dialect, error);
  return logInternal(mapped, call, log);
}

function logInternal(error: JsonRpcErrorObject, call: ValidCall, log: Logger): JsonRpcErrorObject {
  if (error.code === RPC_CODE.INTERNAL_ERROR) {
    log.error("a2a: internal error", {
      code: "INTERNAL",
      method: call.method,
      error: error.message,
    });
  }
  return sanitizeErrorObject(
    withStateNames(call.dialect, legacyExtendedCardError(call.method, error)),
  );
}

function finishEnvelope(
  envelope: Envelope,
  call: ValidCall,
  state: TurnState | undefined,
  log: Logger,
): Envelope {
  if (envelope.error === undefined || envelope.error === null) return envelope;
  const error =
    state?.failure !== undefined
      ? turnErrorObject(call.dialect, state.failure.error)
      : logInternal(envelope.error as JsonRpcErrorObject, call, log);
  return { jsonrpc: "2.0", id: envelope.id, error };
}
