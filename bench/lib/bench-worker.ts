/**
 * Starts a Worker for the bench in workerd (wrangler's startWorker, the runtime of `wrangler
 * dev`): on a free local port, no inspector unless asked, nothing persisted, its vars given as
 * plain-text bindings. No network here, so Cloudflare's `Request.cf` object is never fetched.
 *
 * wrangler starts two workerd processes for it: first its dev proxy (which every request
 * passes through, spending CPU of its own that production has no counterpart of), then the
 * Worker's own runtime. The Worker's CPU is the second one's
 * ({@link workerCpu}); {@link checkWorkerCpu} shows that with a Worker that spins for a known
 * time, and measures what an empty request costs there.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import {
  descendantsNamed,
  type ProcessCpu,
  processesCpu,
  processStartTicks,
} from "./process-cpu.ts";
import type { ChildProxy } from "./proxy.ts";
import type { TurnSample } from "./systems.ts";

export type BenchWorker = Awaited<ReturnType<typeof unstable_startWorker>>;

/** The workerd processes wrangler started for each bench Worker. */
const processes = new WeakMap<BenchWorker, { readonly proxy: number; readonly runtime: number }>();

export async function startBenchWorker(
  config: string,
  vars: Record<string, string>,
  /** An inspector (DevTools protocol) on this port, for bench/profile-worker.ts; none by default. */
  inspectorPort?: number,
): Promise<BenchWorker> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const before = new Set(descendantsNamed("workerd"));
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
  // The Worker's runtime can start a moment after `ready`: wait for both processes.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const started = descendantsNamed("workerd").filter((pid) => !before.has(pid));
    if (started.length === 2) {
      const [proxy, runtime] = started.sort(
        (a, b) => processStartTicks(a) - processStartTicks(b) || a - b,
      ) as [number, number];
      processes.set(worker, { proxy, runtime });
      break;
    }
    if (started.length > 2 || Date.now() > deadline) {
      await worker.dispose();
      throw new Error(
        `bench: expected wrangler to start 2 workerd processes (its dev proxy, then the Worker), found ${started.length}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return worker;
}

/** The CPU of one of the Worker's workerd processes: its runtime or wrangler's dev proxy. */
function processCpuOf(worker: BenchWorker, which: "runtime" | "proxy"): ProcessCpu {
  const found = processes.get(worker);
  if (found === undefined) throw new Error("bench: not a Worker of startBenchWorker");
  return processesCpu([found[which]]);
}

/** The CPU of the workerd process that runs the Worker (not wrangler's dev proxy). */
export function workerCpu(worker: BenchWorker): ProcessCpu {
  return processCpuOf(worker, "runtime");
}

/** What {@link checkWorkerCpu} measured, ms per request. */
export interface WorkerCpuCheck {
  /** The Worker's process, for a request that spins `spinMs` of wall time. */
  readonly spinRequestMs: number;
  readonly spinMs: number;
  /** The Worker's process, for an empty request: workerd's own per-request work. */
  readonly emptyRequestMs: number;
  /** wrangler's dev proxy, per request (not counted as the Worker's). */
  readonly proxyRequestMs: number;
}

const SPIN_WORKER = `export default {
  async fetch(request) {
    const ms = Number(new URL(request.url).searchParams.get("ms") || "0");
    const end = Date.now() + ms;
    let x = 0;
    while (Date.now() < end) x += Math.sqrt(x + 1);
    return new Response(String(x));
  },
};
`;

/**
 * Checks that {@link workerCpu} sees the Worker's CPU: a Worker that spins for `spinMs` per
 * request must show about that much in the process measured (and not in the proxy), or the
 * bench stops. Returns the measurements, the empty request's cost among them.
 */
export async function checkWorkerCpu(spinMs = 20, requests = 5): Promise<WorkerCpuCheck> {
  const dir = await mkdtemp(join(tmpdir(), "llamon-cpu-check-"));
  try {
    await writeFile(join(dir, "spin.js"), SPIN_WORKER);
    await writeFile(
      join(dir, "wrangler.toml"),
      `name = "llamon-cpu-check"\nmain = "spin.js"\ncompatibility_date = "2026-11-01"\n`,
    );
    const worker = await startBenchWorker(join(dir, "wrangler.toml"), {});
    try {
      const own = workerCpu(worker);
      const proxy = processCpuOf(worker, "proxy");
      const perRequest = async (ms: number) => {
        await (await worker.fetch(`http://bench.local/?ms=${ms}`)).text(); // warm
        const a = await own.settle();
        const p = await proxy.settle();
        for (let i = 0; i < requests; i++) {
          await (await worker.fetch(`http://bench.local/?ms=${ms}`)).text();
        }
        return {
          own: ((await own.settle()) - a) / requests / 1e6,
          proxy: ((await proxy.settle()) - p) / requests / 1e6,
        };
      };
      const empty = await perRequest(0);
      const spin = await perRequest(spinMs);
      const check = {
        spinRequestMs: spin.own,
        spinMs,
        emptyRequestMs: empty.own,
        proxyRequestMs: empty.proxy,
      };
      // On a loaded machine a spin of wall time gets less CPU; half of it is plenty to tell.
      if (spin.own - empty.own < spinMs / 2 || spin.proxy - empty.proxy > spinMs / 4) {
        throw new Error(
          `bench: the Worker's CPU is not where it is measured: a ${spinMs} ms spin gave ${(spin.own - empty.own).toFixed(1)} ms in the measured workerd process and ${(spin.proxy - empty.proxy).toFixed(1)} ms in wrangler's proxy`,
        );
      }
      return check;
    } finally {
      await worker.dispose();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
  /** More request headers (the A2A credential). */
  headers: Record<string, string> = {},
): Promise<MeasuredRequest> {
  const before = await proxy?.counters();
  const cpuBefore = await cpu?.settle();
  const res = await worker.fetch("http://bench.local/", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
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

/**
 * A measured request as a bench turn: the Worker's counters and process CPU (the model runs
 * inside it, so no model or memory-layer split).
 */
export function workerTurnSample(measured: MeasuredRequest): TurnSample {
  return {
    roundTrips: measured.roundTrips,
    statements: measured.statements,
    bytesSent: measured.bytesSent,
    bytesRead: measured.bytesRead,
    databaseMs: measured.databaseMs,
    ownCpuMicros: measured.cpuMicros,
    memoryCpuMicros: Number.NaN,
    modelCpuMicros: Number.NaN,
  };
}
