import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Ports this process handed out already: never the same one twice. */
const given = new Set<number>();

/**
 * The first port of the kernel's ephemeral range (what a bind to port 0 is given), 32768 when
 * it cannot be read.
 */
function ephemeralFloor(): number {
  try {
    const low = Number(
      readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0],
    );
    return Number.isInteger(low) && low > 12_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port free on 127.0.0.1 at the time of asking, below the ephemeral range. A port the
 * kernel handed out for a bind to port 0 and that was then released is handed out again to the
 * next such bind: wrangler's own internal sockets (in another test file running at the same
 * time) can take the port `llamon run` is about to use, which then fails with "Address already
 * in use (socket direct:1:default)". A port below the range is never given that way.
 */
export async function freePort(): Promise<number> {
  const ceiling = Math.min(ephemeralFloor(), 32_768);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(10_000, ceiling);
    if (given.has(port)) continue;
    if (await canListen(port)) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port found between 10000 and ${ceiling} in 100 tries`);
}
