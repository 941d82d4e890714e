/**
 * Server-sent events of the streaming methods (`message/stream`, `tasks/resubscribe`,
 * `SendStreamingMessage`, `SubscribeToTask`): every answer of a streaming call that reached
 * the SDK is `text/event-stream`, errors included. An error before the first event (an
 * unknown task, a task already in a terminal state, a failed turn) is one SSE event carrying
 * the JSON-RPC error, then the end of the stream — what both SDK clients and the a2a-tck
 * read. Errors found before the SDK (parse, version, params) stay plain JSON-RPC answers.
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
}

export const JSON_RPC_SSE: SseFormat = { event: formatSSEEvent, error: formatSSEErrorEvent };

/** One SSE event carrying a JSON-RPC error, then the end of the stream. */
export function sseError(
  id: JsonRpcId,
  error: JsonRpcErrorObject,
  format: SseFormat = JSON_RPC_SSE,
): Response {
  return new Response(format.error(errorResponse(id, error)), {
    status: 200,
    headers: SSE_RESPONSE_HEADERS,
  });
}

/** The Worker's `ctx.waitUntil` when running in workerd; undefined elsewhere (Node tests). */
export function waitUntilOf(c: Context): ((promise: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (promise) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}

export async function streamResponse(
  stream: AsyncGenerator<Envelope, void, undefined>,
  id: JsonRpcId,
  errors: StreamErrors,
  waitUntil: ((promise: Promise<unknown>) => void) | undefined,
  format: SseFormat = JSON_RPC_SSE,
): Promise<Response> {
  let first: IteratorResult<Envelope, void>;
  try {
    first = await stream.next();
  } catch (error) {
    return sseError(id, errors.thrown(error), format);
  }
  const failed = first.done ? errors.failure() : undefined;
  if (failed !== undefined) return sseError(id, failed, format);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(format.event(first.value)));
    },
    async pull(controller) {
      try {
        const next = await stream.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(format.event(next.value)));
      } catch (error) {
        controller.enqueue(encoder.encode(format.error(errorResponse(id, errors.thrown(error)))));
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
