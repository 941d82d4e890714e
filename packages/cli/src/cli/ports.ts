/**
 * Ports a local run pins (`llamon run --proxy-port/--pg-port`, `llamon dev proxy
 * --port/--pg-port`): checked before anything starts, so a taken one is one clear error
 * (exit 1) instead of a half-started run. `llamon run --port` is only checked against the
 * others: wrangler reports its own port.
 */
import { createServer } from "node:net";
import { LlamonError } from "llamon/errors";

export interface PinnedPort {
  /** The flag that set it, for the message. */
  readonly flag: string;
  /** 0 or undefined: a free port is picked later, nothing to check. */
  readonly port: number | undefined;
  /** false: only check that no other flag has it (its server reports a taken port itself). */
  readonly probe?: boolean;
}

/** The error for a port another process holds on 127.0.0.1. */
export function portTakenError(port: number, flag: string, cause?: unknown): LlamonError {
  return new LlamonError(
    "PORT_IN_USE",
    `port ${port} (${flag}) is already in use on 127.0.0.1: stop what uses it, or pass another ${flag} (0 picks a free one)`,
    { cause, details: { port, host: "127.0.0.1" } },
  );
}

function tryListen(port: number): Promise<NodeJS.ErrnoException | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(undefined)));
  });
}

/** Throws PORT_IN_USE for a taken port, CONFIG_INVALID for one given twice or not ours to bind. */
export async function assertPortsFree(ports: readonly PinnedPort[]): Promise<void> {
  const seen = new Map<number, string>();
  for (const { flag, port, probe } of ports) {
    if (port === undefined || port === 0) continue;
    const first = seen.get(port);
    if (first !== undefined) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `${first} and ${flag} are both ${port}: each needs a port of its own`,
      );
    }
    seen.set(port, flag);
    if (probe === false) continue;
    const error = await tryListen(port);
    if (error === undefined) continue;
    if (error.code === "EADDRINUSE") throw portTakenError(port, flag, error);
    throw new LlamonError(
      "CONFIG_INVALID",
      `cannot listen on 127.0.0.1:${port} (${flag}): ${error.code ?? error.message}. Pick another port`,
      { cause: error },
    );
  }
}

/** A listen error of a server llamon starts, as the pinned-port error when the port was taken. */
export function listenError(error: unknown, port: number | undefined, flag: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "EADDRINUSE" && port !== undefined && port !== 0
    ? portTakenError(port, flag, error)
    : error;
}
