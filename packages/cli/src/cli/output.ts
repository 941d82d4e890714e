/** How the CLI talks to people: plain lines, errors without stack traces, exit code 1. */
import { isLlamonError } from "llamon/errors";

export function info(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function warn(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Exit code of a command the user stopped: 128 + SIGINT, what shells report for Ctrl-C. */
export const CANCELLED_EXIT_CODE = 130;

/** The signals that stop a command, and its exit code for each: 128 + the signal's number. */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/**
 * `stop` with the exit code of SIGINT, SIGTERM or SIGHUP when one comes (the spinner, npm
 * children); returns the undo.
 */
export function onStopSignals(stop: (code: number) => void): () => void {
  const offs = Object.entries(SIGNAL_EXIT_CODES).map(([signal, code]) => {
    const handler = () => stop(code);
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  return () => {
    for (const off of offs) off();
  };
}

/** Print an error the way a user can act on it, and return the exit code. */
export function reportError(error: unknown): number {
  if (isLlamonError(error, "CANCELLED")) {
    warn(`cancelled: ${error.message}`);
    return CANCELLED_EXIT_CODE;
  }
  if (isLlamonError(error)) {
    warn(`error [${error.code}]: ${error.message}`);
    return 1;
  }
  if (error instanceof Error && error.name === "CommanderError") return 1;
  warn(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env.LLAMON_DEBUG && error instanceof Error && error.stack) warn(error.stack);
  else warn("(set LLAMON_DEBUG=1 to see the stack trace, and please report this as a bug)");
  return 1;
}

/** Resolve when the process is asked to stop (Ctrl-C, SIGTERM, or its terminal closing). */
export function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => resolve(signal);
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGHUP", () => stop("SIGHUP"));
  });
}
