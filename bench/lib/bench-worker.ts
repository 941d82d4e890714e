/**
 * Starts a Worker for the bench in workerd (wrangler's startWorker, the runtime of `wrangler
 * dev`): on a free local port, no inspector unless asked, nothing persisted, its vars given as plain-text
 * bindings. No network here, so Cloudflare's `Request.cf` object is never fetched.
 */
import { unstable_startWorker } from "wrangler";
import type { ProcessCpu } from "./process-cpu.ts";
import type { ChildProxy } from "./proxy.ts";

export type BenchWorker = Awaited<ReturnType<typeof unstable_startWorker>>;

export async function startBenchWorker(
  config: string,
  vars: Record<string, string>,
  /** An inspector (DevTools protocol) on this port, for bench/profile-worker.ts; none by default. */
  inspectorPort?: number,
): Promise<BenchWorker> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const worker = await unstable_startWorker({
    config,
    bindings: Object.fromEntries(
      Object.entries(vars).map(([k, value]) => [k, { type: "plain_text", value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: inspectorPort === undefined ? false : { port: inspectorPort },
      persist: false,
      logLevel: "error",
    },
  } as Parameters<typeof unstable_startWorker>[0]);
  await worker.ready;
  return worker;
}

/** What one measured request to a bench Worker cost (see {@link measureRequest}). */
export interface MeasuredRequest {
  readonly status: number;
  readonly answer: unknown;
  /** The database counters over the request (NaN without a proxy). */
  readonly roundTrips: number;
  readonly statements: number;
  readonly bytesSent: number;
  readonly bytesRead: number;
  readonly databaseMs: number;
  /** The workerd process's CPU for the request, µs (NaN where it cannot be read). */
  readonly cpuMicros: number;
}

/**
 * POSTs `body` as JSON to the Worker and measures the request: the workerd process's CPU,
 * settled before and after (so what the request left running is counted), and, with `proxy`,
 * the database counters around it. A database request that failed meanwhile is an error.
 */
export async function measureRequest(
  worker: BenchWorker,
  cpu: ProcessCpu | undefined,
  proxy: ChildProxy | undefined,
  body: unknown,
): Promise<MeasuredRequest> {
  const before = await proxy?.counters();
  const cpuBefore = await cpu?.settle();
  const res = await worker.fetch("http://bench.local/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer: unknown = await res.json();
  const cpuAfter = await cpu?.settle();
  const after = await proxy?.counters();
  if (before !== undefined && after !== undefined && after.failed !== before.failed) {
    throw new Error("a database request failed during the Worker's request");
  }
  const delta = (k: "requests" | "statements" | "requestBytes" | "responseBytes" | "databaseMs") =>
    before === undefined || after === undefined ? Number.NaN : after[k] - before[k];
  return {
    status: res.status,
    answer,
    roundTrips: delta("requests"),
    statements: delta("statements"),
    bytesSent: delta("requestBytes"),
    bytesRead: delta("responseBytes"),
    databaseMs: delta("databaseMs"),
    cpuMicros:
      cpuBefore === undefined || cpuAfter === undefined
        ? Number.NaN
        : (cpuAfter - cpuBefore) / 1000,
  };
}
