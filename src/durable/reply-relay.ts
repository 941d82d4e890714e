/**
 * The reply text of a turn that runs in a conversation object, on its way back to the Worker
 * that streams it to the client (R12.1). The Worker's callback is an RPC stub here: each call
 * is a message back, delivered in the order made; none is awaited on the model's path. A
 * Worker that is gone (its client left) fails those calls: the turn goes on and is stored as
 * ever. {@link ReplyRelay.flush} waits for the last one, so every piece arrives before the
 * turn's outcome.
 */
import type { ReplyPiece, ReplyStream } from "../agent/execute.ts";

export interface ReplyRelay {
  readonly send: ReplyStream;
  flush(): Promise<void>;
}

export function replyRelay(target: (piece: ReplyPiece) => unknown): ReplyRelay {
  let last: Promise<unknown> = Promise.resolve();
  return {
    send: (piece) => {
      try {
        last = Promise.resolve(target(piece)).catch(() => undefined);
      } catch {
        // the Worker is gone; the turn goes on
      }
    },
    flush: async () => {
      await last;
    },
  };
}
