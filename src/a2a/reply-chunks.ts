/**
 * The reply's artifact chunks of one streaming send (R12.1), sent to the client past the SDK's
 * event bus: through the bus, each chunk would be a task-store read and write (the SDK's
 * ResultManager saves the task on every event) and the stored artifact would keep one part per
 * token. So the executor pushes chunks here, and the request handler merges them into the
 * SDK's stream ({@link withReplyChunks}); the SDK's own events carry the task's states and
 * the whole reply, which is what is stored.
 *
 * Order: the chunks follow the stream's first event (the working task) and come before any
 * later event of the SDK's — the executor pushes a chunk before it publishes the event that
 * follows it, so every chunk pushed when an event arrives is sent first.
 */
import type { StreamResponse } from "@a2a-js/sdk";

export class ReplyChunks {
  readonly #waiting: StreamResponse[] = [];
  #wake: (() => void) | undefined;

  push(event: StreamResponse): void {
    this.#waiting.push(event);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** The chunks pushed so far, oldest first; they are taken. */
  take(): StreamResponse[] {
    return this.#waiting.splice(0);
  }

  /** Resolves once a chunk waits. */
  ready(): Promise<void> {
    if (this.#waiting.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }
}

/** The SDK's events of a streaming send with the reply's chunks merged in (see above). */
export async function* withReplyChunks(
  events: AsyncGenerator<StreamResponse, void, undefined>,
  chunks: ReplyChunks,
): AsyncGenerator<StreamResponse, void, undefined> {
  const first = await events.next();
  if (first.done) return;
  yield first.value;
  let pending = events.next();
  try {
    for (;;) {
      const next = await Promise.race([pending, chunks.ready().then(() => undefined)]);
      yield* chunks.take();
      if (next === undefined) continue;
      if (next.done) return;
      yield next.value;
      pending = events.next();
    }
  } finally {
    // A consumer that stops early: the SDK's stream ends too (it stops its event queue).
    void events.return(undefined).catch(() => undefined);
  }
}
