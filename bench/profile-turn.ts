/**
 * A CPU profile of llamon's turns (the bench's `llamon` system), for finding what a turn
 * spends its CPU on: runs `--turns N` turns (default 120) on a fresh database and writes a
 * V8 profile of turns 21…N only (start-up and the first turns left out) to `--out`.
 *
 *   npx tsx bench/profile-turn.ts [--turns 120] [--out /tmp/llamon-turn.cpuprofile] [--no-profile]
 *     [--no-aliases]   (without the Worker bundle's langsmith alias, bench/lib/worker-aliases.ts)
 *
 * It also prints the mean and median CPU per turn of those turns (model excluded), for
 * comparing two revisions on this shared machine (`--no-profile`: without the profiler).
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";

// The Worker bundle's aliases first (as bench/run.ts), unless --no-aliases; the rest after.
if (!process.argv.includes("--no-aliases")) await import("./lib/worker-aliases.ts");
const { migrate } = await import("../src/store/migrate.ts");
const { createTestDatabase } = await import("../test/helpers/pg.ts");
const { startChildProxy } = await import("./lib/proxy.ts");
const { llamonSystem } = await import("./lib/systems.ts");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const turns = Number(arg("--turns", "120"));
const out = arg("--out", "/tmp/llamon-turn.cpuprofile");
const profiling = !process.argv.includes("--no-profile");
process.env.LLAMON_TEST_DSN ??= "postgresql://postgres@localhost:5432/postgres";
const db = await createTestDatabase("llamon_profile");
await migrate({ connectionString: db.dsn });
const proxy = await startChildProxy(db.dsn);
const system = llamonSystem(proxy, `postgresql://postgres:local@localhost/${db.name}`);
const session = new Session();
session.connect();
try {
  const own: number[] = [];
  let whole: NodeJS.CpuUsage | undefined;
  for (let i = 1; i <= turns; i++) {
    if (i === 21) whole = process.cpuUsage();
    if (i === 21 && profiling) {
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 100 });
      await session.post("Profiler.start");
    }
    const r = await system.turn("profiled", i);
    if (i > 20) own.push(r.ownCpuMicros / 1000);
  }
  if (profiling) {
    const { profile } = await session.post("Profiler.stop");
    await writeFile(out, JSON.stringify(profile));
    process.stderr.write(`profile of turns 21…${turns} → ${out}\n`);
  }
  const split = process.cpuUsage(whole);
  const mean = own.reduce((a, b) => a + b, 0) / own.length;
  const median = [...own].sort((a, b) => a - b)[Math.floor(own.length / 2)] ?? 0;
  process.stderr.write(
    `CPU per turn, turns 21…${turns} (model excluded): mean ${mean.toFixed(2)} ms, median ${median.toFixed(2)} ms; the process's user / system CPU per turn (model included): ${(split.user / own.length / 1000).toFixed(2)} / ${(split.system / own.length / 1000).toFixed(2)} ms\n`,
  );
} finally {
  session.disconnect();
  await system.close();
  await proxy.close();
  await db.drop();
}
