/**
 * Starts a Worker for the bench in workerd (wrangler's startWorker, the runtime of `wrangler
 * dev`): on a free local port, no inspector, nothing persisted, its vars given as plain-text
 * bindings. No network here, so Cloudflare's `Request.cf` object is never fetched.
 */
import { unstable_startWorker } from "wrangler";

export type BenchWorker = Awaited<ReturnType<typeof unstable_startWorker>>;

export async function startBenchWorker(
  config: string,
  vars: Record<string, string>,
): Promise<BenchWorker> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const worker = await unstable_startWorker({
    config,
    bindings: Object.fromEntries(
      Object.entries(vars).map(([k, value]) => [k, { type: "plain_text", value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      persist: false,
      logLevel: "error",
    },
  } as Parameters<typeof unstable_startWorker>[0]);
  await worker.ready;
  return worker;
}
