/**
 * What ends a long-running command (`llamon run`): Ctrl-C (SIGINT), SIGTERM, SIGHUP (its
 * terminal closed), or its parent process going away (`npm start` killed: npm does not pass
 * SIGTERM on, and a process whose parent is gone is never told). It listens from the moment it
 * is made, so a stop that comes while the command is still starting is not lost; a second
 * signal while stopping calls `onRepeat` (stop at once).
 */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export interface StopRequestOptions {
  /** A signal that comes after the first one (the user insists). */
  readonly onRepeat?: (why: string) => void;
  /** How often to check that the parent process is still there (default 500 ms). */
  readonly parentPollMs?: number;
}

export class StopRequest {
  /** Resolves with why the command is asked to stop ("SIGTERM", "parent process … exited"). */
  readonly reason: Promise<string>;
  private requested = false;
  private readonly disposers: (() => void)[] = [];

  constructor(options: StopRequestOptions = {}) {
    let resolve: (why: string) => void = () => {};
    this.reason = new Promise((r) => {
      resolve = r;
    });
    const request = (why: string) => {
      if (this.requested) {
        options.onRepeat?.(why);
        return;
      }
      this.requested = true;
      resolve(why);
    };
    for (const signal of SIGNALS) {
      const handler = () => request(signal);
      process.on(signal, handler);
      this.disposers.push(() => process.off(signal, handler));
    }
    const parent = process.ppid;
    const timer = setInterval(() => {
      if (process.ppid !== parent) request(`parent process ${parent} exited`);
    }, options.parentPollMs ?? 500);
    timer.unref();
    this.disposers.push(() => clearInterval(timer));
  }

  /** Whether a stop was asked for. */
  get stopped(): boolean {
    return this.requested;
  }

  /** Stops listening (the process's default signal handling is back). */
  dispose(): void {
    for (const dispose of this.disposers.splice(0)) dispose();
  }
}
