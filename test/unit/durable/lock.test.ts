/**
 * The per-object turn lock (R2.4): FIFO, never interleaving, released on errors. Holders
 * await explicit gates instead of timers, so the interleavings are deterministic.
 */
import { describe, expect, it } from "vitest";
import { AsyncLock } from "../../../src/durable/lock.ts";

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets every queued microtask and promise continuation run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("AsyncLock", () => {
  it("R2.4 runs holders one at a time, in the order they asked (FIFO)", async () => {
    const lock = new AsyncLock();
    const log: string[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      lock.run(async () => {
        log.push(`start ${i}`);
        await g.promise;
        log.push(`end ${i}`);
        return i;
      }),
    );
    await settle();
    expect(log).toEqual(["start 0"]);
    expect(lock.pending).toBe(4);
    // Open the gates in reverse: order must still follow arrival, never the gates.
    for (const g of [...gates].reverse()) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(log).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`start ${i}`, `end ${i}`]));
    expect(lock.locked).toBe(false);
  });

  it("R2.4 never interleaves concurrent callers that await in the middle of their work", async () => {
    const lock = new AsyncLock();
    let inside = 0;
    let maxInside = 0;
    const log: number[] = [];
    const callers = Array.from({ length: 20 }, (_, i) =>
      lock.run(async () => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        for (let step = 0; step < 3; step++) {
          await settle(); // other callers get every chance to run here
          log.push(i);
        }
        inside--;
      }),
    );
    await Promise.all(callers);
    expect(maxInside).toBe(1);
    expect(log).toEqual(Array.from({ length: 20 }, (_, i) => [i, i, i]).flat());
  });

  it("a newcomer does not overtake waiters when the holder releases", async () => {
    const lock = new AsyncLock();
    const order: string[] = [];
    const first = gate();
    const a = lock.run(async () => {
      await first.promise;
      order.push("a");
    });
    const b = lock.run(async () => {
      order.push("b");
    });
    await settle();
    first.open();
    // Ask right as `a` is about to release: `b` was queued first and must go first.
    const c = lock.run(async () => {
      order.push("c");
    });
    await Promise.all([a, b, c]);
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("releases the lock when a holder rejects or throws synchronously", async () => {
    const lock = new AsyncLock();
    const rejected = lock.run(async () => {
      await settle();
      throw new Error("model failed");
    });
    const thrown = lock.run((): Promise<never> => {
      throw new Error("bad input");
    });
    const after = lock.run(async () => "still works");
    await expect(rejected).rejects.toThrow("model failed");
    await expect(thrown).rejects.toThrow("bad input");
    expect(await after).toBe("still works");
    expect(lock.locked).toBe(false);
    expect(lock.pending).toBe(0);
  });
});
