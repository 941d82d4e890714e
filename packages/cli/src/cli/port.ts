/**
 * Is a local TCP port free? `llamon run` asks before it starts anything: with the port held by
 * another process, wrangler fails after the database and the proxy are up, and that process
 * would answer the health poll in the Worker's place.
 */
import { createServer } from "node:net";
import { LlamonError } from "llamon/errors";

/** Throws PORT_IN_USE when `host:port` cannot be listened on because something holds it. */
export async function assertPortFree(port: number, host = "127.0.0.1"): Promise<void> {
  if (port === 0) return; // any free port: nothing to check
  const failure = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
  if (failure === undefined) return;
  const other = "pick another with --port <n> (or PORT=<n>)";
  if (failure.code === "EADDRINUSE") {
    throw new LlamonError(
      "PORT_IN_USE",
      `port ${port} on ${host} is already in use by another process (is the agent already running?): stop it, or ${other}`,
      { details: { port, host } },
    );
  }
  throw new LlamonError(
    "CONFIG_INVALID",
    `cannot listen on ${host}:${port} (${failure.code ?? failure.message}): ${other}`,
    { cause: failure, details: { port, host } },
  );
}
