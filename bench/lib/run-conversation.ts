/**
 * Runs one conversation on a system and keeps the per-turn measurements at the sample points
 * (turn N for every N asked for):
 *
 * - round trips, statements, bytes sent: those of turn N itself (they do not vary by chance);
 * - bytes sent, mean of the last 50 turns (N−49…N): with delta storage a turn sends only its
 *   own messages, and about every 50th turn also a snapshot of the whole list; this mean is
 *   what a turn costs on average, snapshots included;
 * - bytes stored: what turn N added to the thread's rows (size after N minus size after N−1);
 * - CPU (of the turn, model excluded; and of the checkpointer's methods alone): the median of
 *   turns N−8…N (CPU time is noisy; the median of nine neighbours is not moved by a garbage
 *   collection or another process taking the core for a moment).
 *
 * Every turn up to `realUpTo` (default 100) runs for real. To reach a later sample point N the
 * conversation is brought to turn N−50 by `prefill` — the same messages, written in one state
 * update — and turns N−49…N run for real. So a 1000-turn point costs 50 real turns at that
 * length instead of 1000 (turns get slower as history grows; running all of them takes the
 * bench past its 10-minute budget). `--full` runs every turn (realUpTo = Infinity).
 *
 * A 20-turn warm-up conversation runs first on every system (JIT, pools, caches) and is not
 * measured.
 */
import type pg from "pg";
import { median } from "./measure.ts";
import type { BenchSystem, TurnSample } from "./systems.ts";

export const CPU_WINDOW = 9;
/** Turns over which the mean bytes sent is taken: one snapshot period of the messages. */
export const BYTES_WINDOW = 50;
export const WARMUP_TURNS = 20;
export const DEFAULT_REAL_UP_TO = 100;

export interface PointResult {
  system: string;
  turns: number;
  roundTrips: number;
  statements: number;
  bytesSent: number;
  /** Mean bytes sent per turn over turns N−49…N (those that ran). */
  bytesSentMean: number;
  /** Bytes the turn received from the database (NaN where not measured). */
  bytesRead: number;
  /** Database milliseconds per turn (median of the CPU window), at the proxy. */
  databaseMs: number;
  bytesStored: number;
  cpuMs: number;
  memoryCpuMs: number;
  modelCpuMs: number;
}

export interface ConversationRun {
  points: PointResult[];
  seconds: number;
  realTurns: number;
  prefilledTurns: number;
}

export async function runConversation(
  system: BenchSystem,
  points: readonly number[],
  admin: pg.Client,
  progress: (line: string) => void,
  realUpTo = DEFAULT_REAL_UP_TO,
): Promise<ConversationRun> {
  const warm = `warmup-${system.name}`;
  for (let i = 1; i <= WARMUP_TURNS; i++) await system.turn(warm, i);

  const threadId = `conv-${system.name}`;
  const samples = new Map<number, TurnSample>();
  const storedAfter = new Map<number, number>();
  const wanted = new Set(points.flatMap((n) => [n - 1, n]));
  const started = Date.now();
  let lastReport = started;
  let done = 0;
  let realTurns = 0;
  let prefilledTurns = 0;

  const real = async (i: number) => {
    samples.set(i, await system.turn(threadId, i));
    realTurns += 1;
    if (wanted.has(i)) storedAfter.set(i, await system.stored(threadId, admin));
    if (Date.now() - lastReport > 15_000) {
      lastReport = Date.now();
      progress(`  ${system.name}: turn ${i} (${Math.round((lastReport - started) / 1000)} s)`);
    }
  };

  for (const n of [...points].sort((a, b) => a - b)) {
    const firstReal = n > realUpTo ? Math.max(done + 1, n - BYTES_WINDOW + 1) : done + 1;
    if (firstReal > done + 1) {
      await system.prefill(threadId, done + 1, firstReal - 1);
      // What autovacuum's ANALYZE does after so many new rows: without it the planner
      // still sees the tables as before the bulk write.
      await admin.query("ANALYZE");
      prefilledTurns += firstReal - 1 - done;
    }
    for (let i = firstReal; i <= n; i++) await real(i);
    done = n;
  }

  const results = points.map((n) => {
    const turn = samples.get(n) as TurnSample;
    const window: TurnSample[] = [];
    for (let i = Math.max(1, n - CPU_WINDOW + 1); i <= n; i++) {
      const s = samples.get(i);
      if (s) window.push(s);
    }
    const sent: number[] = [];
    for (let i = Math.max(1, n - BYTES_WINDOW + 1); i <= n; i++) {
      const s = samples.get(i);
      if (s) sent.push(s.bytesSent);
    }
    return {
      system: system.name,
      turns: n,
      roundTrips: turn.roundTrips,
      statements: turn.statements,
      bytesSent: turn.bytesSent,
      bytesSentMean: sent.reduce((a, b) => a + b, 0) / sent.length,
      bytesRead: turn.bytesRead,
      databaseMs: median(window.map((s) => s.databaseMs)),
      bytesStored: (storedAfter.get(n) ?? 0) - (storedAfter.get(n - 1) ?? 0),
      cpuMs: median(window.map((s) => s.ownCpuMicros)) / 1000,
      memoryCpuMs: median(window.map((s) => s.memoryCpuMicros)) / 1000,
      modelCpuMs: median(window.map((s) => s.modelCpuMicros)) / 1000,
    };
  });
  return { points: results, seconds: (Date.now() - started) / 1000, realTurns, prefilledTurns };
}
