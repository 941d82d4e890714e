/**
 * Progress for long work. On a terminal: @clack/prompts' spinner on stderr, replaced by the
 * final line. Elsewhere (pipes, CI, tests): plain lines, one when the work starts, one per
 * update and one at the end, with no frames or cursor movement to clutter a log.
 *
 * Stopping it: Ctrl-C, SIGINT, SIGTERM or SIGHUP ends the command with 128 + the signal's
 * number after a "cancelled" line, on a terminal or not; npm children end with it (npm.ts). The spinner puts the terminal in raw mode, so Ctrl-C is a
 * key, not a signal, and @clack/core answers that key with exit code 0 (bombshell-dev/clack
 * #573); the handler here comes first, passes SIGINT on to the process group as the terminal
 * would have (npm and other children stop too), and exits 130.
 */
import type { Writable } from "node:stream";
import { CANCELLED_EXIT_CODE, onStopSignals } from "./output.ts";

/**
 * How the work ended, said on the last line: a text (✔), or `{ failed }` for work that
 * returned a failure rather than throwing (e.g. an npm that exited non-zero), shown with ✖.
 */
export type Outcome = string | { readonly failed: string };

export interface Progress {
  /** Change the text shown next to the spinner. */
  update(text: string): void;
}

/** Where the progress goes; stderr, so a command's stdout stays its result (e.g. --json). */
export interface SpinnerOptions {
  readonly output?: Writable & { isTTY?: boolean };
}

export async function withSpinner<T>(
  text: string,
  work: (progress: Progress) => Promise<T>,
  done: (result: T) => Outcome = () => `${text} — done`,
  options: SpinnerOptions = {},
): Promise<T> {
  const out = options.output ?? process.stderr;
  if (out.isTTY !== true || process.env.CI) return plainProgress(out, text, work, done);
  // Loaded only here, when there is a terminal to draw on.
  const { spinner } = await import("@clack/prompts");
  const s = spinner({ output: out, withGuide: false, cancelMessage: `cancelled: ${text}` });
  let current = text;
  s.start(text);
  const stop = (code: number) => {
    s.cancel(`cancelled: ${current}`);
    process.exit(code);
  };
  const onKey = (_: unknown, key: { name?: string; ctrl?: boolean } | undefined) => {
    if ((key?.ctrl === true && key.name === "c") || key?.name === "escape") {
      try {
        process.kill(0, "SIGINT");
      } catch {
        // Without process groups to signal, this process still stops below.
      }
      stop(CANCELLED_EXIT_CODE);
    }
  };
  process.stdin.prependListener("keypress", onKey);
  const offSignals = onStopSignals(stop);
  const release = () => {
    process.stdin.off("keypress", onKey);
    offSignals();
  };
  try {
    const result = await work({
      update(next) {
        current = next;
        s.message(next);
      },
    });
    release();
    const outcome = done(result);
    if (typeof outcome === "string") s.stop(outcome);
    else s.error(outcome.failed);
    return result;
  } catch (error) {
    release();
    s.error(current);
    throw error;
  }
}

async function plainProgress<T>(
  out: Writable,
  text: string,
  work: (progress: Progress) => Promise<T>,
  done: (result: T) => Outcome,
): Promise<T> {
  let current = text;
  out.write(`${text} …\n`);
  const release = onStopSignals((code) => {
    out.write(`cancelled: ${current}\n`);
    process.exit(code);
  });
  try {
    const result = await work({
      update(next) {
        current = next;
        out.write(`  ${next}\n`);
      },
    });
    release();
    const outcome = done(result);
    out.write(typeof outcome === "string" ? `✔ ${outcome}\n` : `✖ ${outcome.failed}\n`);
    return result;
  } catch (error) {
    release();
    out.write(`✖ ${current}\n`);
    throw error;
  }
}
