/**
 * The A2A surface of the Worker as a Hono app:
 *
 * - `POST /`: one JSON-RPC endpoint for A2A v0.3 (`message/send`, `message/stream`,
 *   `tasks/get`, `tasks/cancel`, `tasks/resubscribe`) and v1.0 (`SendMessage`,
 *   `SendStreamingMessage`, `GetTask`, `CancelTask`, `SubscribeToTask`, `ListTasks`), routed
 *   by method name (the names of the two versions do not overlap, so the product document's
 *   body works without an `A2A-Version` header). Streams are SSE (`text/event-stream`).
 * - `GET /.well-known/agent-card.json` (and the older `/.well-known/agent.json`): the card.
 *
 * Decisions:
 * - Bodies over `maxBodyBytes` (default 1 MiB) are refused before parsing: HTTP 413 with a
 *   JSON-RPC error -32600 and id null (the id was never read). Bodies are decoded as strict
 *   UTF-8 (invalid bytes: -32700) and may nest at most 64 levels (-32600; validate.ts).
 * - Every JSON-RPC error is answered with HTTP 200 (as the SDK does); clients read `error`.
 *   Only a bug in this module answers 500, still with a JSON-RPC body and no internals.
 * - A request without `id` is a JSON-RPC notification, which strictly gets no answer. The
 *   product document sends exactly that and expects the reply, so it is answered, with
 *   `id: null`.
 * - The Content-Type header is not enforced (curl -d sends form encoding); the body must be
 *   JSON either way.
 */
import { A2A_VERSION_HEADER, formatSSEErrorEvent, formatSSEEvent } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  type ServerCallContext,
  type TaskStore,
  UnauthenticatedUser,
} from "@a2a-js/sdk/server";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createLogger, type Logger } from "../log.ts";
import { decodeUtf8 } from "../runtime/json-body.ts";
import { A2ACallContext, RequestScopedTaskStore, type TurnState } from "./call-context.ts";
import { buildAgentCard, legacyAgentCard, wantsLegacyCard } from "./card.ts";
import { TurnExecutor } from "./executor.ts";
import {
  type Dialect,
  errorResponse,
  GENERIC_INTERNAL_MESSAGE,
  type JsonRpcErrorObject,
  type JsonRpcId,
  protocolError,
  RPC_CODE,
  sanitizeErrorObject,
  sdkErrorObject,
  turnErrorObject,
} from "./rpc-errors.ts";
import type { A2AAppOptions, ExecuteTurn } from "./types.ts";
import { type ValidCall, validateRpcBody } from "./validate.ts";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const AGENT_CARD_PATHS = ["/.well-known/agent-card.json", "/.well-known/agent.json"];

const SSE_RESPONSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

interface Envelope {
  jsonrpc: string;
  id: JsonRpcId;
  result?: unknown;
  error?: unknown;
}

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
  const requestHandler = new DefaultRequestHandler(
    buildAgentCard(options.card, options.card.url ?? "/"),
    new RequestScopedTaskStore(typeof taskStoreOption === "function" ? undefined : taskStoreOption),
    new TurnExecutor(options.execute as ExecuteTurn<unknown>, log),
  );
  const transports: Record<Dialect, Transport> = {
    "v1.0": new JsonRpcTransportHandler(requestHandler),
    "v0.3": new LegacyJsonRpcTransportHandler(requestHandler),
  };
  const app = new Hono();

  for (const path of AGENT_CARD_PATHS) {
    app.get(path, (c) => {
      const card = buildAgentCard(options.card, options.card.url ?? endpointUrl(c.req.url, path));
      const body = wantsLegacyCard(c.req.header(A2A_VERSION_HEADER)) ? legacyAgentCard(card) : card;
      return c.json(body as Record<string, unknown>, 200, {
        Vary: A2A_VERSION_HEADER,
        "Cache-Control": "public, max-age=300",
      });
    });
  }

  app.post(
    "/",
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        c.json(
          errorResponse(
            null,
            protocolError(
              "v0.3",
              "invalidRequest",
              `the request body is larger than ${maxBodyBytes} bytes`,
            ),
          ),
          413,
        ),
    }),
    async (c) => {
      // Strict UTF-8: replacement characters would make distinct byte strings one contextId.
      const text = decodeUtf8(await c.req.arrayBuffer());
      if (text === undefined) {
        const error = protocolError("v0.3", "parse", "the request body is not valid UTF-8");
        return c.json(errorResponse(null, error));
      }
      const call = validateRpcBody(text);
      if (!call.ok) return c.json(errorResponse(call.id, call.error));
      const request = options.request ? options.request(c) : (undefined as R);
      const requestLog = options.requestLog ? options.requestLog(request) : log;
      const state: TurnState | undefined =
        call.turn === undefined
          ? undefined
          : { ...call.turn, streaming: call.streaming, signal: c.req.raw.signal };
      const context: ServerCallContext = new A2ACallContext<R>({
        requestedVersion: call.dialect === "v1.0" ? "1.0" : "0.3",
        user: new UnauthenticatedUser(),
        request,
        turn: state,
        taskStore: taskStoreFor(request),
        log: requestLog,
      });
      let result: Envelope | AsyncGenerator<Envelope, void, undefined>;
      try {
        result = await transports[call.dialect].handle(call.body, context);
      } catch (error) {
        return c.json(errorResponse(call.id, finalError(call, error, state, requestLog)));
      }
      if (isAsyncGenerator(result)) {
        return streamResponse(result, call, state, requestLog, waitUntilOf(c));
      }
      return c.json(finishEnvelope(result, call, state, requestLog));
    },
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

/** The JSON-RPC endpoint next to a card served at `cardPath`: origin + mount path + "/". */
function endpointUrl(requestUrl: string, cardPath: string): string {
  const url = new URL(requestUrl);
  const mount = url.pathname.endsWith(cardPath)
    ? url.pathname.slice(0, url.pathname.length - cardPath.length)
    : "";
  return `${url.origin}${mount}/`;
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
  return sanitizeErrorObject(error);
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

/** The Worker's `ctx.waitUntil` when running in workerd; undefined elsewhere (Node tests). */
function waitUntilOf(c: Context): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

async function streamResponse(
  stream: AsyncGenerator<Envelope, void, undefined>,
  call: ValidCall,
  state: TurnState | undefined,
  log: Logger,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
): Promise<Response> {
  let first: IteratorResult<Envelope, void>;
  try {
    first = await stream.next();
  } catch (error) {
    // Nothing was streamed yet: a plain JSON-RPC error (both SDK clients read it).
    return Response.json(errorResponse(call.id, finalError(call, error, state, log)));
  }
  if (first.done && state?.failure !== undefined) {
    return Response.json(
      errorResponse(call.id, turnErrorObject(call.dialect, state.failure.error)),
    );
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(formatSSEEvent(first.value)));
    },
    async pull(controller) {
      try {
        const next = await stream.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
      } catch (error) {
        const envelope = errorResponse(call.id, finalError(call, error, state, log));
        controller.enqueue(encoder.encode(formatSSEErrorEvent(envelope)));
        controller.close();
      }
    },
    cancel() {
      // The client went away. Keep consuming the events so the SDK still records how the
      // task ends (the turn itself is aborted through the request's signal where the runtime
      // provides one); otherwise the stored task would stay "working" for ever.
      const rest = (async () => {
        for await (const _event of stream) {
          // drained
        }
      })().catch(() => undefined);
      waitUntil?.(rest);
    },
  });
  return new Response(body, { status: 200, headers: SSE_RESPONSE_HEADERS });
}
