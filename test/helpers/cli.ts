/**
 * Child processes for the end-to-end tests: run a command (the llamon CLI, npm, a project's
 * tools) with its output collected, wait for it, or read its output while it runs. Node only.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";

/** This checkout (where packages/cli/dist/cli/bin.js lives). */
export const REPO = resolve(import.meta.dirname, "../..");
export const LLAMON_BIN = resolve(REPO, "packages/cli/dist/cli/bin.js");

export interface Finished {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when it exits. */
  readonly done: Promise<Finished>;
  /** What it wrote so far. */
  stdout(): string;
  stderr(): string;
}

export interface RunOptions {
  readonly cwd?: string | undefined;
  /** Over this process's environment. */
  readonly env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (closed at once when not given). */
  readonly input?: string;
  /** Keep stdin open (for interactive tests that write to it). */
  readonly keepStdin?: boolean;
}

export function start(command: string, args: readonly string[], options: RunOptions = {}): Running {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  // A child that exits before reading its stdin closes the pipe: the EPIPE that follows is
  // not the test's failure (the exit code and output say what happened), and unhandled it
  // would surface as an error of whichever test file is running.
  child.stdin.on("error", () => {});
  if (!options.keepStdin) child.stdin.end(options.input ?? "");
  // "close", not "exit": it comes after the child's stdout and stderr have been read to the end.
  const done = once(child, "close").then(([code]) => ({
    code: (code as number | null) ?? 1,
    stdout,
    stderr,
  }));
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

/** Runs `command` to its end. */
export function run(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<Finished> {
  return start(command, args, options).done;
}

/** `node packages/cli/dist/cli/bin.js <args>` (the entry `npx llamon` uses), started. */
export function startLlamon(args: readonly string[], options: RunOptions = {}): Running {
  return start(process.execPath, [LLAMON_BIN, ...args], options);
}

/** `node packages/cli/dist/cli/bin.js <args>` to its end. */
export function runLlamon(args: readonly string[], options: RunOptions = {}): Promise<Finished> {
  return startLlamon(args, options).done;
}
