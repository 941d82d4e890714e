/**
 * Subscribers of a principal's task list object (task-list.ts): each follows one task record
 * and receives every later save of it, from whichever request made it, as one line of a byte
 * stream (the record's JSON text, then "\n") — the stream a subscription (`SubscribeToTask`,
 * a2a/task-follow.ts) reads over Durable Object RPC.
 *
 * A follower's stream ends when the record reaches a terminal state, when the record is
 * deleted or erased, or after {@link FOLLOW_IDLE_MS} without a save (the bound a subscriber
 * waits; its client gets SSE keep-alive comments meanwhile). Followers live in the object's
 * memory: the object stays up while a stream is open.
 */
import { isTerminal } from "../a2a/task-follow.ts";

/** How long a subscription waits for the next save of its task. */
export const FOLLOW_IDLE_MS = 10 * 60 * 1000;

interface Follower {
  readonly send: (line: Uint8Array) => void;
  readonly end: () => void;
  arm: () => void;
}

export class TaskFollowers {
  private readonly byKey = new Map<string, Set<Follower>>();
  private readonly encoder = new TextEncoder();

  constructor(private readonly idleMs: number = FOLLOW_IDLE_MS) {}

  /** The saves of record `key` from now on. */
  follow(key: string): ReadableStream<Uint8Array> {
    let follower: Follower | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const remove = () => {
      clearTimeout(timer);
      if (follower === undefined) return;
      const set = this.byKey.get(key);
      set?.delete(follower);
      if (set?.size === 0) this.byKey.delete(key);
    };
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        const self: Follower = {
          send: (line) => {
            try {
              controller.enqueue(line);
            } catch {
              // A stream its reader has gone from: forget it. A save never fails for a follower.
              self.end();
              return;
            }
            self.arm();
          },
          end: () => {
            remove();
            try {
              controller.close();
            } catch {
              // already closed or canceled
            }
          },
          arm: () => {
            clearTimeout(timer);
            timer = setTimeout(() => self.end(), this.idleMs);
          },
        };
        follower = self;
        const set = this.byKey.get(key) ?? new Set<Follower>();
        set.add(self);
        this.byKey.set(key, set);
        self.arm();
      },
      cancel: () => remove(),
    });
  }

  /** Record `key` was saved with `state`: its followers get it; a terminal one ends them. */
  saved(key: string, record: string, state: number): void {
    const set = this.byKey.get(key);
    if (set === undefined) return;
    const line = this.encoder.encode(`${record}\n`);
    for (const follower of [...set]) {
      follower.send(line);
      if (isTerminal(state)) follower.end();
    }
  }

  /** Records deleted or erased: their followers end. */
  gone(keys: Iterable<string>): void {
    for (const key of keys) {
      for (const follower of [...(this.byKey.get(key) ?? [])]) follower.end();
    }
  }
}
