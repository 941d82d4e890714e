/**
 * The bench's turn alone inside workerd (./turn-worker-entry.ts), one saver or the other, so
 * the two savers are compared in the runtime that bills a Worker's CPU, in the same harness:
 * the workerd process's CPU per request (./process-cpu.ts).
 *
 * - `postgres-saver-worker`: the official PostgresSaver (its own connection per request).
 *   Statements and bytes are not counted here (`postgres-saver-exit` counts them for the same
 *   turn in Node).
 * - `llamon-turn-worker`: NeonSaver through the Neon-protocol proxy, counted there like
 *   `llamon`. (`llamon-worker` is the whole reference Worker: A2A handling, task records.)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { memoryConfig } from "./bench-agent.ts";
import { measureRequest, startBenchWorker, workerCpu, workerTurnSample } from "./bench-worker.ts";
import { storedBytes, TimedOfflineModel, userText } from "./measure.ts";
import type { ChildProxy } from "./proxy.ts";
import { summarizeWhileDue } from "./summaries.ts";
import {
  AGENT_ID,
  type BenchSystem,
  benchSaver,
  llamonStoredBytes,
  prefillThread,
} from "./systems.ts";

const ROOT = resolve(import.meta.dirname, "../..");

export async function turnWorkerSystem(
  saverKind: "official" | "llamon",
  dsn: string,
  neon?: { proxy: ChildProxy; dsn: string },
  inspectorPort?: number,
): Promise<BenchSystem> {
  const setup = new pg.Pool({ connectionString: dsn, max: 2 });
  const official = new PostgresSaver(setup);
  if (saverKind === "official") await official.setup();
  const neonDb =
    neon === undefined
      ? undefined
      : createNeonDb({ connectionString: neon.dsn, fetchEndpoint: neon.proxy.url });
  // Its own config (the repository's wrangler.toml is the reference agent's): the entry, the
  // runtime flags, and the Worker bundle's LangSmith stand-in, as in every deployed Worker.
  const dir = await mkdtemp(join(tmpdir(), "llamon-turn-worker-"));
  const shim = resolve(ROOT, "src/shims/langsmith.ts");
  const wranglerToml = join(dir, "wrangler.toml");
  await writeFile(
    wranglerToml,
    [
      `name = "llamon-bench-turn"`,
      `main = ${JSON.stringify(resolve(ROOT, "bench/lib/turn-worker-entry.ts"))}`,
      `compatibility_date = "2026-11-01"`,
      `compatibility_flags = ["nodejs_compat"]`,
      "[alias]",
      ...["langsmith", "langsmith/run_trees", "langsmith/singletons/traceable"].map(
        (m) => `${JSON.stringify(m)} = ${JSON.stringify(shim)}`,
      ),
      "",
    ].join("\n"),
  );
  const worker = await startBenchWorker(
    wranglerToml,
    {
      BENCH_SAVER: saverKind,
      BENCH_DSN: neon?.dsn ?? dsn,
      BENCH_NEON_ENDPOINT: neon?.proxy.url ?? "",
      BENCH_AGENT_ID: AGENT_ID,
    },
    inspectorPort,
  );
  const cpu = workerCpu(worker);
  const model = new TimedOfflineModel();
  const summarizer = new TimedOfflineModel();
  const config = memoryConfig();
  return {
    name: saverKind === "official" ? "postgres-saver-worker" : "llamon-turn-worker",
    async turn(threadId, i) {
      const measured = await measureRequest(worker, cpu, neon?.proxy, {
        threadId,
        text: userText(i),
        messageId: `${threadId}-m${i}`,
      });
      if (measured.status !== 200) {
        const error = (measured.answer as { error?: string }).error;
        throw new Error(`turn ${i}: the Worker answered ${error}`);
      }
      // The queue consumer's work, off the turn (not counted), as for `llamon`.
      if (neonDb !== undefined) {
        await summarizeWhileDue(neonDb, AGENT_ID, threadId, config, summarizer);
      }
      return workerTurnSample(measured);
    },
    prefill: (threadId, from, to) =>
      neonDb === undefined
        ? prefillThread(official, model, config, threadId, from, to, "full")
        : prefillThread(benchSaver(neonDb), model, config, threadId, from, to, "tail"),
    stored: (threadId, admin) =>
      neonDb === undefined ? storedBytes(admin, threadId) : llamonStoredBytes(threadId, admin),
    async close() {
      await worker.dispose();
      await setup.end();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
