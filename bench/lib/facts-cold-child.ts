/**
 * One measurement of bench/facts-cold.ts, in a fresh process: the CPU of the first fact
 * turn (updateFacts + recallFacts on one message) in this isolate, then of the same turn
 * once every rule has run. Prints one JSON line. Run with --expose-gc (bench/facts-cold.ts does).
 */
import { recallFacts, updateFacts } from "../../src/memory/facts/index.ts";
import { COLD_SAMPLES } from "./facts-cold-samples.ts";

const index = Number(process.argv[2] ?? "0");
const message = COLD_SAMPLES[index] ?? "";
const followUp = "내가 뭐라고 했는지 기억해? What do you remember about me?";

const cpu = (f: () => void): number => {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const turn = () => {
  const facts = updateFacts([], message, { turn: 0 });
  recallFacts(facts, followUp, 3);
};

// tsx leaves megabytes of loading garbage and an incremental marking in progress; a
// bundled Worker has neither. Collect it first, or a major GC lands in the measured turn.
(globalThis as { gc?: () => void }).gc?.();
const first = cpu(turn);
// Warm: every sample through every rule a few times (compiled, tiered up), then the mean.
for (let round = 0; round < 5; round++) {
  for (const sample of COLD_SAMPLES) recallFacts(updateFacts([], sample), followUp, 3);
}
const runs = 50;
const warm =
  cpu(() => {
    for (let i = 0; i < runs; i++) turn();
  }) / runs;
console.log(JSON.stringify({ index, first, warm }));
