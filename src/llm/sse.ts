/**
 * The events of a provider's streaming answer (`text/event-stream`), read with the event-stream
 * parser @langchain/core already ships (utils/event_source_parse: `getLines` splits on CR, LF
 * and CRLF across byte chunks, `getMessages` joins `data:` lines and reads `event:`/`id:`), so
 * no SSE parser of our own. As the WHATWG rules say, an event without data is not dispatched.
 * The consumer stopping early (an error, a cancel) cancels the body, which closes the
 * connection to the provider.
 */
import {
  type EventSourceMessage,
  getLines,
  getMessages,
} from "@langchain/core/utils/event_source_parse";

export type SseEvent = Pick<EventSourceMessage, "event" | "data">;

export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const ready: SseEvent[] = [];
  const push = getLines(
    getMessages((m) => {
      if (m.data !== "") ready.push({ event: m.event, data: m.data });
    }),
  );
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        push(new Uint8Array(), true);
      } else {
        push(value);
      }
      while (ready.length > 0) yield ready.shift() as SseEvent;
      if (finished) return;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
