/**
 * A FIFO async mutex. A Durable Object handles one event at a time, but `await fetch()`
 * (calling the model) lets the next request in; turns on one conversation hold this lock so
 * they never interleave (R2.4). Waiters run in arrival order; the lock is handed straight to
 * the next waiter, so a newcomer can never overtake the queue. A holder that throws (or
 * rejects) releases the lock like any other.
 *
 * Not re-entrant: calling `run` from inside a holder waits for itself forever.
 */
export class AsyncLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  /** Whether a holder is running. */
  get locked(): boolean {
    return this.held;
  }

  /** How many callers wait behind the current holder. */
  get pending(): number {
    return this.waiters.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next === undefined) this.held = false;
    else next(); // hand over: `held` stays true
  }
}
