/**
 * `llamon-worker`: the reference Worker itself, run in workerd (wrangler's startWorker, the
 * same runtime as `wrangler dev`), each turn a real A2A `message/send` through its fetch
 * handler — so this row counts every round trip a deployed turn makes (request context,
 * run-time config, read batch, write batch), not only those of runTurn.
 *
 * Same settings as `llamon` (window 20, history note, heuristic facts, recall, summaries),
 * given as the Worker's vars; the summaries are made between turns from here, unmeasured. The
 * caller authenticates with an API key (A2A_AUTH=api_key), as callers of a deployed agent do,
 * so conversations are stored under its principal. The isolate stays up between turns, as a
 * busy deployment's does; it keeps no thread between requests, so every turn reads its thread
 * from the database as on a cold isolate. CPU is the workerd process's own
 * (./process-cpu.ts, Linux): everything the runtime did for the request — the A2A handler,
 * the turn, the offline model (a few hundredths of a millisecond), the two database requests,
 * and what the request left running after its answer — so it is an upper bound of what
 * Cloudflare meters for the request. The memory layer's share is not split out ("–");
 * `llamon` measures it for the same code in Node.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { threadKey } from "../../src/runtime/thread-keys.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { measureRequest, startBenchWorker, workerCpu, workerTurnSample } from "./bench-worker.ts";
import { TimedOfflineModel, userText } from "./measure.ts";
import type { ChildProxy } from "./proxy.ts";
import { summarizeWhileDue } from "./summaries.ts";
import {
  AGENT_ID,
  type BenchSystem,
  benchSaver,
  llamonStoredBytes,
  memoryConfig,
  prefillThread,
} from "./systems.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** The caller the bench authenticates as, and its API key (A2A_API_KEYS holds its SHA-256). */
const BENCH_PRINCIPAL = "bench-client";
const BENCH_KEY = "llamon-bench-key-8c1f0a5e";
const BENCH_KEY_SHA256 = createHash("sha256").update(BENCH_KEY).digest("hex");

/** The thread key the Worker stores a bench conversation under (its caller's principal). */
const storedKey = (contextId: string) => threadKey(BENCH_PRINCIPAL, contextId);

export interface WorkerSystem extends BenchSystem {
  /** CPU the workerd process spent until the Worker was ready (ms): boot, compile, evaluate. */
  readonly startupCpuMs: number;
}

/** `vars` override the Worker's settings below (bench/cold-start.ts: facts off/heuristic). */
export async function workerSystem(
  proxy: ChildProxy,
  neonDsn: string,
  overrides: Record<string, string> = {},
  /** An inspector on this port (bench/profile-worker.ts --whole). */
  inspectorPort?: number,
): Promise<WorkerSystem> {
  const vars: Record<string, string> = {
    AGENT_ID,
    POSTGRES_MEMORY_DSN: neonDsn,
    LLAMON_NEON_FETCH_ENDPOINT: proxy.url,
    MEMORY_BACKEND: "postgres",
    MEMORY_WINDOW_SIZE: "20",
    MEMORY_HISTORY_AWARE: "true",
    // Summaries are made between turns from here (./summaries.ts), as for `llamon`: the
    // Worker's own queue consumer would run them in workerd a few seconds after the turn that
    // enqueued them, inside a later turn's measurement. The summary row is read and placed in
    // the prompt either way.
    MEMORY_SUMMARIZE: "false",
    MEMORY_FACTS_MODE: "heuristic",
    // A deployed agent authenticates its callers (docs/auth.en.md): the bench calls with an API
    // key, so the request pays for the check. (`none` on a host that is not localhost would
    // add the warning every call logs, a misconfiguration's cost, not a deployment's.)
    A2A_AUTH: "api_key",
    A2A_API_KEYS: `${BENCH_PRINCIPAL}=${BENCH_KEY_SHA256}`,
    ...overrides,
  };
  const worker = await startBenchWorker(resolve(ROOT, "wrangler.toml"), vars, inspectorPort);
  const cpu = workerCpu(worker);
  const startupCpuMs = cpu.now() / 1e6;
  const model = new TimedOfflineModel();
  const summarizer = new TimedOfflineModel();
  const config = memoryConfig();
  const summaryDb = createNeonDb({ connectionString: neonDsn, fetchEndpoint: proxy.url });
  return {
    name: "llamon-worker",
    startupCpuMs,
    async turn(threadId, i) {
      const measured = await measureRequest(
        worker,
        cpu,
        proxy,
        {
          jsonrpc: "2.0",
          id: i,
          method: "message/send",
          params: {
            message: {
              contextId: threadId,
              messageId: `${threadId}-m${i}`,
              role: "user",
              parts: [{ kind: "text", text: userText(i) }],
            },
          },
        },
        { authorization: `Bearer ${BENCH_KEY}` },
      );
      const error = (measured.answer as { error?: unknown }).error;
      if (measured.status !== 200 || error !== undefined) {
        throw new Error(
          `turn ${i}: the Worker answered ${measured.status} ${JSON.stringify(error)}`,
        );
      }
      // The queue consumer's work, off the turn (not counted), as for `llamon`.
      await summarizeWhileDue(summaryDb, AGENT_ID, storedKey(threadId), config, summarizer);
      return workerTurnSample(measured);
    },
    prefill: (threadId, from, to) =>
      prefillThread(benchSaver(summaryDb), model, config, storedKey(threadId), from, to, "tail"),
    stored: (threadId, admin) => llamonStoredBytes(storedKey(threadId), admin),
    close: () => worker.dispose(),
  };
}
