/**
 * The turn-10 comparison with the official saver, measured head to head: both systems live
 * at once, and in each round each runs a fresh conversation of `turns` turns, the order
 * alternating from round to round. CPU per turn is the median of turns 2…N over all rounds.
 *
 * A sample point of the main run is one conversation per system, minutes apart from the
 * other system's: on a shared machine the load moves in between, and nine turns are few.
 * Interleaved rounds put both systems under the same conditions, and the rounds won say how
 * stable the order is.
 */
import { median } from "./measure.ts";
import { CPU_WINDOW, WARMUP_TURNS } from "./run-conversation.ts";
import type { BenchSystem } from "./systems.ts";

/**
 * The pairs compared at the first length: llamon's system, the official saver's, and where
 * they run (the bench runs them head to head; the report judges the target on them).
 */
export const OFFICIAL_PAIRS = [
  ["llamon", "postgres-saver-exit", "in Node"],
  ["llamon-turn-worker", "postgres-saver-worker", "in workerd"],
] as const;

/**
 * Rounds per pair by default (`--rounds`). With 7 the Node pair, a few tenths of a
 * millisecond apart, came out either way from run to run; 15 steady the medians.
 */
export const DEFAULT_ROUNDS = 15;

export interface HeadToHead {
  readonly ours: string;
  readonly theirs: string;
  /** "in Node" or "in workerd". */
  readonly where: string;
  readonly turns: number;
  readonly rounds: number;
  /** Median CPU per turn of turns 2…N (at most the last CPU_WINDOW) over all rounds, ms. */
  readonly oursMs: number;
  readonly theirsMs: number;
  /** Rounds whose own median was lower for llamon. */
  readonly oursLower: number;
}

async function conversation(system: BenchSystem, threadId: string, turns: number) {
  const cpu: number[] = [];
  for (let i = 1; i <= turns; i++) {
    const r = await system.turn(threadId, i);
    if (i > 1 && i > turns - CPU_WINDOW) cpu.push(r.ownCpuMicros / 1000);
  }
  return cpu;
}

export async function headToHead(
  pair: { ours: BenchSystem; theirs: BenchSystem; where: string },
  turns: number,
  rounds: number,
): Promise<HeadToHead> {
  const { ours, theirs, where } = pair;
  if (turns < 2) throw new Error(`head to head: needs at least 2 turns, got ${turns}`);
  for (const s of [ours, theirs]) {
    for (let i = 1; i <= WARMUP_TURNS; i++) await s.turn(`h2h-warm-${s.name}`, i);
  }
  const all = { ours: [] as number[], theirs: [] as number[] };
  let oursLower = 0;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["ours", "theirs"] as const) : (["theirs", "ours"] as const);
    const got = { ours: [] as number[], theirs: [] as number[] };
    for (const side of order) {
      const system = side === "ours" ? ours : theirs;
      got[side] = await conversation(system, `h2h-${system.name}-${round}`, turns);
      all[side].push(...got[side]);
    }
    if (median(got.ours) < median(got.theirs)) oursLower++;
  }
  return {
    ours: ours.name,
    theirs: theirs.name,
    where,
    turns,
    rounds,
    oursMs: median(all.ours),
    theirsMs: median(all.theirs),
    oursLower,
  };
}
