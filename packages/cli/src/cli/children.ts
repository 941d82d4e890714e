/**
 * Child processes of a long-running command (`llamon run`): each child starts in its own
 * process group, so stopping it also stops what it started (wrangler → workerd), and none
 * outlives llamon — whether llamon stops on Ctrl-C, because a child exited, or because
 * something inside it failed (an uncaught exception is reported in one line, the children
 * are stopped, and the exit code is 1). A child that exited by itself may leave what it started
 * behind in its group (wrangler failing to start left its `esbuild --service`): the group is
 * killed all the same when the children are stopped.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { warn } from "./output.ts";

const POSIX = process.platform !== "win32";

export class ChildGroup {
  private readonly children = new Set<ChildProcess>();
  private guarded = false;

  /** spawn(), in a process group of its own (POSIX), tracked until it is stopped. */
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
    const child = spawn(command, [...args], { ...options, detached: POSIX });
    this.children.add(child);
    return child;
  }

  /**
   * SIGTERM to the child's group, SIGKILL after `graceMs`; resolves once it exited. A child
   * that has exited already gets SIGKILL for whatever is left of its group.
   */
  async stop(child: ChildProcess, graceMs = 5000): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) {
      signal(child, "SIGKILL");
      this.children.delete(child);
      return;
    }
    const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    signal(child, "SIGTERM");
    const timer = setTimeout(() => signal(child, "SIGKILL"), graceMs);
    await gone;
    clearTimeout(timer);
    // What the child started may still be stopping: the group gets the last word.
    signal(child, "SIGKILL");
    this.children.delete(child);
  }

  async stopAll(graceMs?: number): Promise<void> {
    await Promise.all([...this.children].map((c) => this.stop(c, graceMs)));
  }

  /** Synchronous last resort (process 'exit'): SIGKILL every group still running. */
  killAll(): void {
    for (const child of this.children) signal(child, "SIGKILL");
  }

  /**
   * From now on, if this process dies of an uncaught exception or unhandled rejection, say
   * so in one line (the stack with LLAMON_DEBUG=1), stop the children, exit 1; and whatever
   * ends this process, kill what is left.
   */
  guard(cleanup: () => Promise<void> = async () => {}): void {
    if (this.guarded) return;
    this.guarded = true;
    let crashing = false;
    const crash = (error: unknown) => {
      if (crashing) return;
      crashing = true;
      warn(`llamon stopped after an unexpected error: ${describe(error)}`);
      if (process.env.LLAMON_DEBUG && error instanceof Error && error.stack) warn(error.stack);
      else warn("(set LLAMON_DEBUG=1 to see the stack trace, and please report this as a bug)");
      const done = () => process.exit(1);
      Promise.all([this.stopAll(3000), cleanup().catch(() => {})]).then(done, done);
      setTimeout(done, 8000).unref();
    };
    process.on("uncaughtException", crash);
    process.on("unhandledRejection", crash);
    process.on("exit", () => this.killAll());
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (POSIX && child.pid !== undefined) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // already gone
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
