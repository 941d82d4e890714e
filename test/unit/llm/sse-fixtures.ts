/**
 * Streamed answers for the adapter tests: a `fetch` that answers with server-sent events cut
 * into the byte pieces a test chooses (mid-line, mid-character), and records the request body.
 */
import type { FetchLike } from "../../../src/llm/http.ts";

/** `data: <json>` events, one string per event. */
export function sseText(events: readonly (object | string)[], eventNames?: readonly string[]) {
  return events
    .map((e, i) => {
      const name = eventNames?.[i];
      const data = typeof e === "string" ? e : JSON.stringify(e);
      return `${name ? `event: ${name}\n` : ""}data: ${data}\n\n`;
    })
    .join("");
}

/** The bytes of `text` cut every `size` bytes (so events and characters straddle pieces). */
export function pieces(text: string, size = 7): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

/** A fetch answering each call with `text` as SSE (or `status` with a JSON error body). */
export function sseFetch(text: string, options: { status?: number; size?: number } = {}) {
  const bodies: Record<string, unknown>[] = [];
  const fetch: FetchLike = async (_url, init) => {
    bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
    if (options.status !== undefined && options.status !== 200) {
      return new Response(text, { status: options.status });
    }
    return new Response(streamOf(pieces(text, options.size)), {
      headers: { "content-type": "text/event-stream" },
    });
  };
  return { fetch, bodies };
}
