/**
 * Server-sent events of the streaming methods (`message/stream`, `tasks/resubscribe`,
 * `SendStreamingMessage`, `SubscribeToTask`). No stream opens for a call that fails before
 * its first event (an unknown task, a task already in a terminal state, a failed turn): it
 * gets the binding's plain error answer instead — a JSON-RPC error object (HTTP 200), or on
 * HTTP+JSON the mapped HTTP status — as @a2a-js/sdk's own server handlers answer and A2A 1.0
 * asks (the a2a-tck's STREAM-SUB-003). The exception is 0.3's `tasks/resubscribe`, whose
 * clients read an SSE stream even for an error (the SDK's 0.3 handler streams it too). An
 * error after the first event is an SSE error event, then the end of the stream.
 */
import { formatSSEErrorEvent, formatSSEEvent } from "@a2a-js/sdk";
import type { Context } from "hono";
import { errorResponse, type JsonRpcErrorObject, type JsonRpcId } from "./rpc-errors.ts";

export const SSE_RESPONSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

export interface Envelope {
  jsonrpc: string;
  id: JsonRpcId;
  result?: unknown;
  error?: unknown;
}

export interface StreamErrors {
  /** The error object to send for an error thrown while streaming. */
  thrown(error: unknown): JsonRpcErrorObject;
  /** The error of a failed turn, once the stream has ended (undefined: the turn did not fail). */
  failure(): JsonRpcErrorObject | undefined;
}

/** How a binding writes its SSE events: the JSON-RPC binding's are the SDK's. */
export interface SseFormat {
  event(envelope: Envelope): string;
  error(envelope: Envelope): string;
  /** The answer to a call that failed before its first event (no stream opens). */
  refusal(envelope: Envelope): Response;
}

export const JSON_RPC_SSE: SseFormat = {
  event: formatSSEEvent,
  error: formatSSEErrorEvent,
  refusal: (envelope) =>
    new Response(JSON.stringify(envelope), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    }),
};

/** 0.3's `tasks/resubscribe`: even an error before the first event is an SSE stream. */
export const JSON_RPC_SSE_ALWAYS: SseFormat = {
  ...JSON_RPC_SSE,
  refusal: (envelope) =>
    new Response(formatSSEErrorEvent(envelope), { status: 200, headers: SSE_RESPONSE_HEADERS }),
};

/** The Worker's `ctx.waitUntil` when running in workerd; undefined elsewhere (Node tests). */
export function waitUntilOf(c: Context): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

/** How often a stream waiting for its next event sends an SSE comment, so no proxy drops it. */
export const KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE = ": keep-alive\n\n";

/** A subscription's methods: a client that goes away ends it (nothing to record). */
const SUBSCRIPTIONS = new Set(["tasks/resubscribe", "SubscribeToTask"]);

export async function streamResponse(
  stream: AsyncGenerator<Envelope, void, undefined>,
  id: JsonRpcId,
  errors: StreamErrors,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
  format: SseFormat = JSON_RPC_SSE,
  method = "",
): Promise<Response> {
  let first: IteratorResult<Envelope, void>;
  try {
    first = await stream.next();
  } catch (error) {
    return format.refusal(errorResponse(id, errors.thrown(error)));
  }
  const failed = first.done ? errors.failure() : undefined;
  if (failed !== undefined) return format.refusal(errorResponse(id, failed));
  const encoder = new TextEncoder();
  /** The event being waited for, across keep-alive ticks. */
  let pending: Promise<IteratorResult<Envelope, void>> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(format.event(first.value)));
    },
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        pending ??= stream.next();
        const tick = new Promise<"tick">((resolve) => {
          timer = setTimeout(() => resolve("tick"), KEEP_ALIVE_MS);
        });
        const next = await Promise.race([pending, tick]);
        if (next === "tick") {
          controller.enqueue(encoder.encode(KEEP_ALIVE));
          return;
        }
        pending = undefined;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(format.event(next.value)));
      } catch (error) {
        pending = undefined;
        controller.enqueue(encoder.encode(format.error(errorResponse(id, errors.thrown(error)))));
        controller.close();
      } finally {
        clearTimeout(timer);
      }
    },
    cancel() {
      if (SUBSCRIPTIONS.has(method)) {
        // A subscriber went away: stop following (the task goes on without it).
        waitUntil?.(stream.return(undefined).catch(() => undefined));
        return;
      }
      // The client of a send went away. Keep consuming the events so the SDK still records
      // how the task ends (the turn itself is aborted through the request's signal where the
      // runtime provides one); otherwise the stored task would stay "working" for ever.
      const rest = (async () => {
        if (pending !== undefined) await pending;
        for await (const _event of stream) {
          // drained
        }
      })().catch(() => undefined);
      waitUntil?.(rest);
    },
  });
  return new Response(body, { status: 200, headers: SSE_RESPONSE_HEADERS });
}
