/**
 * `postgres-saver-worker`: the official PostgresSaver's turn inside workerd
 * (./official-worker-entry.ts), so it can be compared with `llamon-worker` in the runtime that
 * bills a Worker's CPU: the workerd process's CPU per request (./process-cpu.ts). Statements
 * and bytes are not counted here (`postgres-saver-exit` counts them for the same turn in
 * Node); the round trips of a turn are its statements, plus the connection's start-up.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { unstable_startWorker } from "wrangler";
import { memoryConfig } from "./bench-agent.ts";
import { storedBytes, TimedOfflineModel, userText } from "./measure.ts";
import { workerdCpu } from "./process-cpu.ts";
import { type BenchSystem, prefillThread } from "./systems.ts";

const ROOT = resolve(import.meta.dirname, "../..");

export async function officialWorkerSystem(dsn: string): Promise<BenchSystem> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const setup = new pg.Pool({ connectionString: dsn, max: 2 });
  const saver = new PostgresSaver(setup);
  await saver.setup();
  // Its own config (the repository's wrangler.toml is the reference agent's): the entry, the
  // runtime flags, and the Worker bundle's LangSmith stand-in, as in every deployed Worker.
  const dir = await mkdtemp(join(tmpdir(), "llamon-official-"));
  const shim = resolve(ROOT, "src/shims/langsmith.ts");
  const config = join(dir, "wrangler.toml");
  await writeFile(
    config,
    [
      `name = "llamon-bench-official"`,
      `main = ${JSON.stringify(resolve(ROOT, "bench/lib/official-worker-entry.ts"))}`,
      `compatibility_date = "2026-11-01"`,
      `compatibility_flags = ["nodejs_compat"]`,
      "[alias]",
      ...["langsmith", "langsmith/run_trees", "langsmith/singletons/traceable"].map(
        (m) => `${JSON.stringify(m)} = ${JSON.stringify(shim)}`,
      ),
      "",
    ].join("\n"),
  );
  const worker = await unstable_startWorker({
    config,
    bindings: { BENCH_PG_DSN: { type: "plain_text", value: dsn } },
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      persist: false,
      logLevel: "error",
    },
  } as Parameters<typeof unstable_startWorker>[0]);
  await worker.ready;
  const cpu = workerdCpu();
  const model = new TimedOfflineModel();
  return {
    name: "postgres-saver-worker",
    async turn(threadId, i) {
      const before = await cpu?.settle();
      const res = await worker.fetch("http://bench.local/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ threadId, text: userText(i), messageId: `${threadId}-m${i}` }),
      });
      const body = (await res.json()) as { error?: string };
      if (res.status !== 200) throw new Error(`turn ${i}: the Worker answered ${body.error}`);
      const after = await cpu?.settle();
      return {
        roundTrips: Number.NaN,
        statements: Number.NaN,
        bytesSent: Number.NaN,
        bytesRead: Number.NaN,
        databaseMs: Number.NaN,
        ownCpuMicros:
          before === undefined || after === undefined ? Number.NaN : (after - before) / 1000,
        memoryCpuMicros: Number.NaN,
        modelCpuMicros: Number.NaN,
      };
    },
    prefill: (threadId, from, to) =>
      prefillThread(saver, model, memoryConfig(), threadId, from, to, "full"),
    stored: (threadId, admin) => storedBytes(admin, threadId),
    async close() {
      await worker.dispose();
      await setup.end();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
