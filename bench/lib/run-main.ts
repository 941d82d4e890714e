/**
 * The body of `bench/run.ts` (see there), loaded after the Worker bundle's module aliases
 * are registered (./worker-aliases.ts).
 */
import pg from "pg";
import { migrate } from "../../packages/cli/src/store/migrate.ts";
import { createWorkerRole } from "../../test/helpers/backend.ts";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/pg.ts";
import { checkWorkerCpu, type WorkerCpuCheck } from "./bench-worker.ts";
import { writeDocSection } from "./doc.ts";
import { DEFAULT_ROUNDS, type HeadToHead, headToHead, OFFICIAL_PAIRS } from "./head-to-head.ts";
import { commandLine, describeMachine } from "./machine.ts";
import { type ChildProxy, startChildProxy } from "./proxy.ts";
import { type Report, renderReport } from "./report.ts";
import { type PointResult, runConversation } from "./run-conversation.ts";
import { type BenchSystem, llamonSystem, noMemorySystem, postgresSaverSystem } from "./systems.ts";
import { turnWorkerSystem } from "./turn-worker.ts";
import { workerSystem } from "./worker-system.ts";

const ALL_SYSTEMS = [
  "llamon",
  "llamon-worker",
  "postgres-saver",
  "postgres-saver-exit",
  "postgres-saver-worker",
  "llamon-turn-worker",
  "llamon-trim20",
  "no-memory",
] as const;

/** The systems whose CPU is a workerd process's (bench-worker.ts). */
const WORKER_SYSTEMS = new Set(["llamon-worker", "llamon-turn-worker", "postgres-saver-worker"]);

/** The systems run at every length; the others stop at {@link SHORT_MAX_TURNS}. */
const LONG_SYSTEMS = new Set(["llamon", "llamon-worker"]);
/**
 * The longest conversation the other systems run by default: at turn 1000 the official
 * saver already sends 0.8 MB per turn and takes over half a second of CPU for it, so its
 * 10,000-turn point alone would take the bench past its budget (`--all-lengths` runs it).
 */
const SHORT_MAX_TURNS = 1000;

interface Args {
  allLengths: boolean;
  turns: number[];
  json: boolean;
  write: boolean;
  systems: string[];
  full: boolean;
  /** Head-to-head rounds at the first length (./head-to-head.ts); 0: none. */
  rounds: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    allLengths: false,
    turns: [10, 100, 1000, 10_000],
    json: false,
    write: true,
    systems: [...ALL_SYSTEMS],
    full: false,
    rounds: DEFAULT_ROUNDS,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--json") args.json = true;
    else if (a === "--no-write") args.write = false;
    else if (a === "--full") args.full = true;
    else if (a === "--all-lengths") args.allLengths = true;
    else if (a === "--rounds") {
      args.rounds = Number(value());
      if (!Number.isInteger(args.rounds) || args.rounds < 0) {
        throw new Error("--rounds takes a whole number ≥ 0 (0: no head-to-head comparison)");
      }
    } else if (a === "--turns") {
      args.turns = value()
        .split(",")
        .map((s) => Number(s.trim()));
      if (args.turns.some((n) => !Number.isInteger(n) || n < 1)) {
        throw new Error("--turns takes whole numbers ≥ 1, e.g. --turns 10,100,1000");
      }
      args.turns.sort((x, y) => x - y);
    } else if (a === "--systems") {
      args.systems = value().split(",");
      const unknown = args.systems.filter((s) => !(ALL_SYSTEMS as readonly string[]).includes(s));
      if (unknown.length > 0 || !args.systems.includes("llamon")) {
        throw new Error(`--systems: pick from ${ALL_SYSTEMS.join(", ")} (llamon is required)`);
      }
    } else
      throw new Error(
        `unknown argument ${a}; usage: bench/run.ts [--turns 10,100,1000,10000] [--json] [--systems …] [--full] [--all-lengths] [--rounds 15] [--no-write]`,
      );
  }
  return args;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const serverDsn =
    process.env.LLAMON_BENCH_DSN ??
    process.env.LLAMON_TEST_DSN ??
    "postgresql://postgres@localhost:5432/postgres";
  process.env.LLAMON_TEST_DSN = serverDsn;
  const machine = await describeMachine(serverDsn);
  log(`bench: ${machine}`);
  log(`bench: turns ${args.turns.join(", ")}; systems ${args.systems.join(", ")}`);

  const databases: TestDatabase[] = [];
  const closers: (() => Promise<void>)[] = [];
  let dropWorkerRole: (() => Promise<void>) | undefined;
  const started = Date.now();
  const points: PointResult[] = [];
  const seconds: Record<string, number> = {};
  const prefilled: Record<string, number> = {};
  const compared: HeadToHead[] = [];
  let cpuCheck: WorkerCpuCheck | undefined;
  try {
    if (args.systems.some((s) => WORKER_SYSTEMS.has(s))) {
      cpuCheck = await checkWorkerCpu();
      log(
        `bench: the Worker's workerd process: a ${cpuCheck.spinMs} ms spin measured ${cpuCheck.spinRequestMs.toFixed(1)} ms, an empty request ${cpuCheck.emptyRequestMs.toFixed(1)} ms`,
      );
    }
    const llamonDb = await createTestDatabase("llamon_bench");
    databases.push(llamonDb);
    await migrate({ connectionString: llamonDb.dsn });
    const proxy: ChildProxy = await startChildProxy(llamonDb.dsn);
    closers.push(() => proxy.close());
    const baselineDb = await createTestDatabase("llamon_bench_baseline");
    databases.push(baselineDb);

    const admins = new Map<string, pg.Client>();
    for (const db of [llamonDb, baselineDb]) {
      const c = new pg.Client({ connectionString: db.dsn });
      await c.connect();
      closers.push(() => c.end());
      admins.set(db.dsn, c);
    }
    const worker = await createWorkerRole(llamonDb.dsn, "server");
    // Dropped after the databases (a role outlives its database).
    dropWorkerRole = () => worker.drop();
    const neonDsn = worker.neonDsn;

    const makeSystem = async (name: string): Promise<{ system: BenchSystem; dsn: string }> => {
      if (name === "llamon") return { system: llamonSystem(proxy, neonDsn), dsn: llamonDb.dsn };
      if (name === "llamon-worker") {
        return { system: await workerSystem(proxy, neonDsn), dsn: llamonDb.dsn };
      }
      if (name === "llamon-trim20") {
        return {
          system: llamonSystem(proxy, neonDsn, { name, trimKeepGroups: 20 }),
          dsn: llamonDb.dsn,
        };
      }
      if (name === "no-memory") return { system: noMemorySystem(), dsn: llamonDb.dsn };
      if (name === "postgres-saver-worker") {
        return { system: await turnWorkerSystem("official", baselineDb.dsn), dsn: baselineDb.dsn };
      }
      if (name === "llamon-turn-worker") {
        return {
          system: await turnWorkerSystem("llamon", llamonDb.dsn, { proxy, dsn: neonDsn }),
          dsn: llamonDb.dsn,
        };
      }
      return {
        system: await postgresSaverSystem(
          baselineDb.dsn,
          name === "postgres-saver-exit" ? "exit" : "default",
        ),
        dsn: baselineDb.dsn,
      };
    };

    for (const name of args.systems) {
      const { system, dsn } = await makeSystem(name);
      const lengths =
        args.allLengths || LONG_SYSTEMS.has(name)
          ? args.turns
          : args.turns.filter((t) => t <= SHORT_MAX_TURNS);
      if (lengths.length === 0) {
        await system.close();
        continue;
      }
      log(`bench: ${name} … (turns ${lengths.join(", ")})`);
      const result = await runConversation(
        system,
        lengths,
        admins.get(dsn) as pg.Client,
        log,
        args.full ? Number.POSITIVE_INFINITY : undefined,
      );
      await system.close();
      points.push(...result.points);
      seconds[name] = result.seconds;
      prefilled[name] = result.prefilledTurns;
      log(
        `bench: ${name} done in ${result.seconds.toFixed(1)} s (${result.realTurns} real turns, ${result.prefilledTurns} prefilled)`,
      );
    }

    const first = args.turns[0] as number;
    for (const [ours, theirs, where] of OFFICIAL_PAIRS) {
      if (args.rounds === 0 || first < 2) break;
      if (!args.systems.includes(ours) || !args.systems.includes(theirs)) continue;
      log(`bench: ${ours} and ${theirs} head to head, ${args.rounds} rounds of ${first} turns …`);
      const a = await makeSystem(ours);
      const b = await makeSystem(theirs);
      try {
        const result = await headToHead(
          { ours: a.system, theirs: b.system, where },
          first,
          args.rounds,
        );
        compared.push(result);
        log(
          `bench: ${ours} ${result.oursMs.toFixed(2)} ms vs ${theirs} ${result.theirsMs.toFixed(2)} ms; lower in ${result.oursLower} of ${result.rounds} rounds`,
        );
      } finally {
        await a.system.close();
        await b.system.close();
      }
    }
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
    for (const db of databases) await db.drop().catch(() => {});
    await dropWorkerRole?.().catch(() => {});
  }

  const report: Report = {
    command: commandLine("bench/run.ts"),
    machine,
    date: new Date().toISOString(),
    totalSeconds: (Date.now() - started) / 1000,
    seconds,
    prefilled,
    points,
    headToHead: compared,
    ...(cpuCheck === undefined ? {} : { workerCpuCheck: cpuCheck }),
  };
  const { console: text, markdown, rows } = renderReport(report);
  process.stdout.write(`${text}\n`);
  if (args.write) {
    await writeDocSection("run", markdown);
    log("bench: wrote docs/performance.md (section bench:run)");
  }
  if (args.json) {
    const headToHeadRows = compared.map((h) => ({
      ours: h.ours,
      theirs: h.theirs,
      where: h.where,
      turns: h.turns,
      rounds: h.rounds,
      ours_cpu_ms_per_turn: h.oursMs,
      theirs_cpu_ms_per_turn: h.theirsMs,
      rounds_ours_lower: h.oursLower,
    }));
    process.stdout.write(`${JSON.stringify({ rows, head_to_head: headToHeadRows })}\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
