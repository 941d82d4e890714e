/**
 * Facts CPU per turn inside workerd, the runtime that bills a Worker's CPU: extraction and
 * recall as a turn runs them (agent/turn/fact-recall.ts in heuristic mode: parse the stored
 * facts, retraction cues, extract, merge, stage; then recall the block for the message),
 * over every user message of the fact fixtures (test/fixtures/facts/dialogues.json and
 * changes.json; each dialogue one thread, its messages in order).
 *
 *   npx tsx bench/facts-cpu-worker.ts [--rounds 7] [--chunk 60] [--json]
 *
 * The Worker (bench/lib/facts-cpu-worker-entry.ts) runs in workerd (wrangler's startWorker,
 * as the bench's Workers: bench/lib/bench-worker.ts). Each round sends every chunk of
 * `--chunk` threads twice, the order alternating: once with the facts step and once walking
 * the same messages without it; the difference of the workerd process's CPU
 * (/proc/<pid>/task/*\/schedstat), divided by the messages, is the facts CPU per turn. A
 * warm-up round first (first-use compilation is the cold-start bench's business:
 * bench/facts-cold.ts, bench/ab-worker.ts --cold). Printed: the median over the rounds, and
 * the lowest and highest. The machine is shared: compare two revisions by running both in
 * the same minute, or several times.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadChanges } from "./facts-changes.ts";
import { loadDialogues } from "./facts-eval.ts";
import { arg } from "./lib/args.ts";
import { type BenchWorker, startBenchWorker, workerCpu } from "./lib/bench-worker.ts";
import type { ProcessCpu } from "./lib/process-cpu.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** Every dialogue of both fact fixtures as a thread of user messages. */
export function factThreads(): string[][] {
  return [
    ...loadDialogues().map((d) => d.turns),
    ...loadChanges().map((d) => d.sessions.flatMap((s) => s.turns)),
  ];
}

async function startFactsWorker(): Promise<{ worker: BenchWorker; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "llamon-facts-cpu-"));
  const shim = resolve(ROOT, "src/shims/langsmith.ts");
  const config = join(dir, "wrangler.toml");
  await writeFile(
    config,
    [
      `name = "llamon-bench-facts-cpu"`,
      `main = ${JSON.stringify(resolve(ROOT, "bench/lib/facts-cpu-worker-entry.ts"))}`,
      `compatibility_date = "2026-11-01"`,
      `compatibility_flags = ["nodejs_compat"]`,
      "[alias]",
      ...["langsmith", "langsmith/run_trees", "langsmith/singletons/traceable"].map(
        (m) => `${JSON.stringify(m)} = ${JSON.stringify(shim)}`,
      ),
      "",
    ].join("\n"),
  );
  return { worker: await startBenchWorker(config, {}), dir };
}

/** The workerd process's CPU (ns) for one request. */
async function requestCpu(
  worker: BenchWorker,
  cpu: ProcessCpu,
  threads: readonly string[][],
  facts: boolean,
): Promise<{ nanos: number; turns: number }> {
  const before = await cpu.settle();
  const res = await worker.fetch("http://bench.local/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ threads, facts }),
  });
  const answer = (await res.json()) as { turns?: number; error?: string };
  const after = await cpu.settle();
  if (res.status !== 200 || answer.turns === undefined) {
    throw new Error(
      `facts-cpu-worker: the Worker answered ${res.status} ${JSON.stringify(answer)}`,
    );
  }
  return { nanos: after - before, turns: answer.turns };
}

export interface FactsCpuReport {
  threads: number;
  turns: number;
  rounds: number;
  /** Facts CPU per turn in workerd, µs: the median over the rounds, and the extremes. */
  perTurnMicros: { median: number; min: number; max: number };
  /** The request's own cost without the facts step, µs per turn (median). */
  baselinePerTurnMicros: number;
}

export async function measureFactsCpu(rounds: number, chunk: number): Promise<FactsCpuReport> {
  const threads = factThreads();
  const chunks: string[][][] = [];
  for (let i = 0; i < threads.length; i += chunk) chunks.push(threads.slice(i, i + chunk));
  const { worker, dir } = await startFactsWorker();
  try {
    const cpu = workerCpu(worker);
    const perTurn: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      let with_ = 0;
      let without = 0;
      let turns = 0;
      for (const [i, part] of chunks.entries()) {
        const order = (round + i) % 2 === 0 ? [true, false] : [false, true];
        for (const facts of order) {
          const r = await requestCpu(worker, cpu, part, facts);
          if (facts) {
            with_ += r.nanos;
            turns += r.turns;
          } else without += r.nanos;
        }
      }
      if (round === 0) continue; // warm-up
      perTurn.push((with_ - without) / turns / 1000);
      baseline.push(without / turns / 1000);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const r1 = (x: number) => Math.round(x * 10) / 10;
    return {
      threads: threads.length,
      turns: threads.reduce((n, t) => n + t.length, 0),
      rounds,
      perTurnMicros: {
        median: r1(median(perTurn)),
        min: r1(Math.min(...perTurn)),
        max: r1(Math.max(...perTurn)),
      },
      baselinePerTurnMicros: r1(median(baseline)),
    };
  } finally {
    await worker.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rounds = Number(arg("--rounds", "7"));
  const chunk = Number(arg("--chunk", "60"));
  if (!(rounds >= 1 && chunk >= 1)) throw new Error("facts-cpu-worker: --rounds and --chunk >= 1");
  const report = await measureFactsCpu(rounds, chunk);
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(report));
    return;
  }
  const p = report.perTurnMicros;
  console.log(
    `facts CPU per turn in workerd (update + recall, heuristic; ${report.turns} user messages of ${report.threads} threads, ${report.rounds} rounds after a warm-up): median ${p.median} µs (lowest ${p.min}, highest ${p.max}); the request without the facts step: ${report.baselinePerTurnMicros} µs per message`,
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
