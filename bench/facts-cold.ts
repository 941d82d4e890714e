/**
 * Cold isolate start of fact extraction: for each sample message, a fresh
 * Node process measures the CPU of its first fact turn (updateFacts + recallFacts) and of
 * the same turn once warm; the difference is what a fresh isolate pays. Target: ≤ 10 ms
 * for the typical messages (printed as met/not met; never asserted in tests).
 *
 *   npx tsx bench/facts-cold.ts [--repeat N] [--json]
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { COLD_SAMPLES } from "./lib/facts-cold-samples.ts";

const child = fileURLToPath(new URL("./lib/facts-cold-child.ts", import.meta.url));

interface Sample {
  index: number;
  first: number;
  warm: number;
}

function measure(index: number): Sample {
  // --expose-gc: the child collects tsx's loading garbage before it measures (see the child).
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", child, String(index)],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Sample;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

function main(argv: readonly string[]): void {
  const at = argv.indexOf("--repeat");
  const repeat = at >= 0 ? Number(argv[at + 1]) : 3;
  const rows = COLD_SAMPLES.map((message, index) => {
    const runs = Array.from({ length: repeat }, () => measure(index));
    const first = median(runs.map((r) => r.first));
    const warm = median(runs.map((r) => r.warm));
    return { index, message: message.slice(0, 60), first, warm, extra: first - warm };
  });
  if (argv.includes("--json")) {
    console.log(JSON.stringify(rows));
    return;
  }
  console.log(`first fact turn in a fresh process vs warm (CPU ms, median of ${repeat} processes)`);
  for (const r of rows) {
    console.log(
      `${String(r.index).padStart(2)} first ${r.first.toFixed(2).padStart(7)}  warm ${r.warm.toFixed(3).padStart(6)}  extra ${r.extra.toFixed(2).padStart(7)}  ${r.message}`,
    );
  }
  const typical = rows.slice(0, -1);
  const worst = Math.max(...typical.map((r) => r.extra));
  console.log(
    `target: a typical first fact turn costs <= 10 ms more CPU than a warm one (worst typical ${worst.toFixed(2)} ms): ${worst <= 10 ? "met" : "NOT met"}; all categories in one message: ${(rows.at(-1)?.extra ?? 0).toFixed(2)} ms`,
  );
}

main(process.argv.slice(2));
