/**
 * A CPU profile of llamon's turns (the bench's `llamon` system), for finding what a turn
 * spends its CPU on: runs `--threads K` conversations (default 1) of `--turns N` turns
 * (default 120) on a fresh database and writes a V8 profile of turns F…N of each (`--from F`,
 * default 21: start-up and the first turns left out) to `--out`. The bench's turn-10 point is
 * the median of turns 2…10: `--turns 10 --from 2 --threads 40` profiles turns like those.
 *
 *   npx tsx bench/profile-turn.ts [--turns 120] [--from 21] [--threads 1]
 *     [--out /tmp/llamon-turn.cpuprofile] [--no-profile]
 *     [--no-aliases]   (without the Worker bundle's langsmith alias, bench/lib/worker-aliases.ts)
 *     [--official]     (the official saver's turns instead of llamon's)
 *
 * It also prints the mean and median CPU per turn of those turns (model excluded), for
 * comparing two revisions on this shared machine (`--no-profile`: without the profiler).
 * `--official` profiles the baseline instead: the official PostgresSaver under runTurn
 * (`postgres-saver-exit`), for comparing where the two spend a turn.
 */
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";

// The Worker bundle's aliases first (as bench/run.ts), unless --no-aliases; the rest after.
if (!process.argv.includes("--no-aliases")) await import("./lib/worker-aliases.ts");
const { migrate } = await import("../packages/cli/src/store/migrate.ts");
const { createTestDatabase } = await import("../test/helpers/pg.ts");
const { createWorkerRole } = await import("../test/helpers/backend.ts");
const { startChildProxy } = await import("./lib/proxy.ts");
const { llamonSystem, postgresSaverSystem } = await import("./lib/systems.ts");

const { arg } = await import("./lib/args.ts");

const turns = Number(arg("--turns", "120"));
const from = Number(arg("--from", "21"));
const threads = Number(arg("--threads", "1"));
if (!(from >= 1 && from <= turns && threads >= 1)) {
  throw new Error(`profile-turn: need 1 <= --from (${from}) <= --turns (${turns}), --threads >= 1`);
}
const out = arg("--out", "/tmp/llamon-turn.cpuprofile");
const profiling = !process.argv.includes("--no-profile");
process.env.LLAMON_TEST_DSN ??= "postgresql://postgres@localhost:5432/postgres";
const db = await createTestDatabase("llamon_profile");
await migrate({ connectionString: db.dsn });
const worker = await createWorkerRole(db.dsn, "server");
const proxy = await startChildProxy(db.dsn);
const system = process.argv.includes("--official")
  ? await postgresSaverSystem(db.dsn, "exit")
  : llamonSystem(proxy, worker.neonDsn);
const session = new Session();
session.connect();
try {
  const own: number[] = [];
  let whole: NodeJS.CpuUsage | undefined;
  // The profiler runs from the first measured turn on (the first thread's turns before
  // --from are start-up); later threads' early turns are in it but not in the numbers.
  for (let t = 1; t <= threads; t++) {
    for (let i = 1; i <= turns; i++) {
      if (t === 1 && i === from) {
        whole = process.cpuUsage();
        if (profiling) {
          await session.post("Profiler.enable");
          await session.post("Profiler.setSamplingInterval", { interval: 100 });
          await session.post("Profiler.start");
        }
      }
      const r = await system.turn(threads === 1 ? "profiled" : `profiled-${t}`, i);
      if (i >= from) own.push(r.ownCpuMicros / 1000);
    }
  }
  if (profiling) {
    const { profile } = await session.post("Profiler.stop");
    await writeFile(out, JSON.stringify(profile));
    process.stderr.write(
      `profile of turns ${from}…${turns} of ${threads} conversation(s) → ${out}\n`,
    );
  }
  const split = process.cpuUsage(whole);
  const mean = own.reduce((a, b) => a + b, 0) / own.length;
  const median = [...own].sort((a, b) => a - b)[Math.floor(own.length / 2)] ?? 0;
  process.stderr.write(
    `CPU per turn, turns ${from}…${turns} of ${threads} conversation(s) (model excluded): mean ${mean.toFixed(2)} ms, median ${median.toFixed(2)} ms; the process's user / system CPU per turn (model included): ${(split.user / own.length / 1000).toFixed(2)} / ${(split.system / own.length / 1000).toFixed(2)} ms\n`,
  );
} finally {
  session.disconnect();
  await system.close();
  await proxy.close();
  await db.drop();
  await worker.drop();
}
