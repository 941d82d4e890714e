/**
 * Two builds of the reference Worker head to head, for changes smaller than a shared
 * machine's noise: a run of the whole bench moves more from one minute to the next than a
 * small change to the A2A request does, so running it twice cannot show one. Here both
 * Workers live at once (each in its own workerd, as `llamon-worker` in the bench) and take
 * turns: each round runs one fresh 10-turn conversation on each, the order alternating, after
 * a warm-up conversation on each (./lib/head-to-head.ts, as the bench's turn-10 comparison).
 * Printed: the median CPU per A2A request (the Worker process's, turns 2…10) of each, and in
 * how many rounds B was lower.
 *
 *   npx tsx bench/ab-worker.ts --base <git revision> [--rounds 30]
 *       A = the Worker at that revision (a temporary git worktree), B = this checkout
 *   npx tsx bench/ab-worker.ts --a-vars '{"MEMORY_FACTS_MODE":"off"}' [--b-vars '{…}'] [--rounds 30]
 *       A and B = this checkout with different Worker vars (what a setting costs)
 *   … --cold [--rounds 12]
 *       the first request of a new isolate instead: each round starts a fresh Worker of each
 *       side (order alternating), sends one A2A request and stops it; printed are the medians
 *       of that first request's CPU (module evaluation and first-use compilation included) and
 *       of workerd's start-up CPU, and in how many rounds B's first request was lower
 *
 * Each side is started by its own revision's bench/lib/worker-system.ts (its vars, its calls),
 * so a change to that harness shows as a difference too. Both go through one Neon-protocol
 * proxy to one database. The numbers are upper bounds, as
 * in the bench (docs/performance.md): the process also runs workerd's own per-request work and,
 * locally, the Durable Objects the request calls.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isWorkerAliased } from "./lib/worker-aliases.ts";

if (!(await isWorkerAliased())) {
  throw new Error("bench/ab-worker.ts: the Worker bundle's langsmith alias did not take effect");
}
const { arg } = await import("./lib/args.ts");
const { headToHead } = await import("./lib/head-to-head.ts");
const { median } = await import("./lib/measure.ts");
const { migrate } = await import("../packages/cli/src/store/migrate.ts");
const { createTestDatabase } = await import("../test/helpers/pg.ts");
const { createWorkerRole } = await import("../test/helpers/backend.ts");
const { startChildProxy } = await import("./lib/proxy.ts");
const ours = await import("./lib/worker-system.ts");

const TURNS = 10;

function varsArg(name: string): Record<string, string> {
  const text = arg(name, "{}");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${name} takes a JSON object of Worker vars, got ${text}`);
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Array.isArray(parsed) ||
    Object.values(parsed).some((v) => typeof v !== "string")
  ) {
    throw new Error(`${name} takes a JSON object of string values, got ${text}`);
  }
  return parsed as Record<string, string>;
}

const cold = process.argv.includes("--cold");
const rounds = Number(arg("--rounds", cold ? "12" : "30"));
if (!Number.isInteger(rounds) || rounds < 1) {
  throw new Error("--rounds takes a whole number of at least 1");
}
const base = process.argv.includes("--base") ? arg("--base", "") : undefined;
if (base === "") throw new Error("--base takes a git revision, e.g. --base HEAD~1");
const aVars = varsArg("--a-vars");
const bVars = varsArg("--b-vars");
if (
  base === undefined &&
  !process.argv.includes("--a-vars") &&
  !process.argv.includes("--b-vars")
) {
  throw new Error("give --base <revision>, or --a-vars / --b-vars to compare two settings");
}

const ROOT = resolve(import.meta.dirname, "..");
let worktree: string | undefined;
let theirs = ours;
if (base !== undefined) {
  worktree = join(mkdtempSync(join(tmpdir(), "llamon-ab-")), "base");
  try {
    execFileSync("git", ["-C", ROOT, "worktree", "add", "--detach", worktree, base], {
      stdio: "inherit",
    });
  } catch (error) {
    rmSync(resolve(worktree, ".."), { recursive: true, force: true });
    throw new Error(`--base ${base}: git could not check that revision out (see above)`, {
      cause: error,
    });
  }
  // The base builds with this checkout's packages (the lock file may differ: say so).
  symlinkSync(join(ROOT, "node_modules"), join(worktree, "node_modules"));
  const entry = join(worktree, "bench/lib/worker-system.ts");
  if (!existsSync(entry)) throw new Error(`${base} has no bench/lib/worker-system.ts to start`);
  theirs = (await import(entry)) as typeof ours;
}

process.env.LLAMON_TEST_DSN ??= "postgresql://postgres@localhost:5432/postgres";
const db = await createTestDatabase("llamon_ab");
await migrate({ connectionString: db.dsn });
const proxy = await startChildProxy(db.dsn);
const worker = await createWorkerRole(db.dsn, "server");
const dsn = worker.neonDsn;
const label = base === undefined ? "A (--a-vars)" : `A (${base})`;
const bLabel = base === undefined ? "B (--b-vars)" : "B (this checkout)";

/** One fresh Worker of a side: workerd's start-up CPU and its first A2A request's (ms). */
interface First {
  startupMs: number;
  firstMs: number;
}

async function firstRequest(
  side: typeof ours,
  vars: Record<string, string>,
  id: string,
): Promise<First> {
  const worker = await side.workerSystem(proxy, dsn, vars);
  try {
    const sample = await worker.turn(id, 1);
    return { startupMs: worker.startupCpuMs, firstMs: sample.ownCpuMicros / 1000 };
  } finally {
    await worker.close();
  }
}

try {
  if (cold) {
    const got: Record<"a" | "b", First[]> = { a: [], b: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const);
      for (const side of order) {
        got[side].push(
          await firstRequest(
            side === "a" ? theirs : ours,
            side === "a" ? aVars : bVars,
            `ab-cold-${side}-${round}`,
          ),
        );
      }
    }
    // Round i's two Workers are got.a[i] and got.b[i].
    const bLower = got.b.filter((b, i) => b.firstMs < (got.a[i] as First).firstMs).length;
    const med = (side: "a" | "b", key: "startupMs" | "firstMs") =>
      median(got[side].map((r) => r[key])).toFixed(1);
    process.stdout.write(
      `first request of a new isolate: ${label} ${med("a", "firstMs")} ms, ${bLabel} ${med("b", "firstMs")} ms (medians of ${rounds} Workers each; workerd start-up ${med("a", "startupMs")} and ${med("b", "startupMs")} ms); B lower in ${bLower} of ${rounds} rounds\n`,
    );
  } else {
    await warmRounds();
  }
} finally {
  await proxy.close();
  await db.drop();
  await worker.drop();
  if (worktree !== undefined) {
    execFileSync("git", ["-C", ROOT, "worktree", "remove", "--force", worktree]);
    rmSync(resolve(worktree, ".."), { recursive: true, force: true });
  }
}

async function warmRounds(): Promise<void> {
  const a = await theirs.workerSystem(proxy, dsn, aVars);
  const b = await ours.workerSystem(proxy, dsn, bVars);
  try {
    // Named apart: the rounds' conversation ids are made from the names.
    const result = await headToHead(
      { ours: { ...b, name: "ab-b" }, theirs: { ...a, name: "ab-a" }, where: "in workerd" },
      TURNS,
      rounds,
    );
    process.stdout.write(
      `${label}: ${result.theirsMs.toFixed(2)} ms; ${bLabel}: ${result.oursMs.toFixed(2)} ms per A2A request (median of turns 2…${TURNS} over ${rounds} rounds); B lower in ${result.oursLower} of ${rounds} rounds\n`,
    );
  } finally {
    await a.close();
    await b.close();
  }
}
