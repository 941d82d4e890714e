/**
 * The Worker's cold start, measured in workerd, the runtime of `wrangler
 * dev` and of Cloudflare:
 *
 *   npx tsx bench/cold-start.ts [--repeat 5] [--no-write]
 *
 * 1. What the reference agent's bundle holds (`wrangler deploy --dry-run --metafile`): bytes
 *    by package and by llamon folder, each marked with whether a turn runs it.
 * 2. Module evaluation: the CPU of importing the bundle in a fresh Node process (the same V8
 *    engine; `cloudflare:workers` replaced by a stub, the bundle's only import that Node
 *    lacks): parsing, compiling and running every module's top level — what a new isolate
 *    spends before its first request. (workerd's own start-up CPU is printed too; it also
 *    holds the runtime's boot and wrangler's local services, so it is not split.)
 * 3. The first request of an isolate against later ones: a turn on a new conversation each
 *    time (A2A message/send, postgres backend through the Neon-protocol proxy, offline
 *    model), the workerd process's CPU per request; with facts off and heuristic, so the
 *    first fact turn's extra cost is told apart from the rest of the first request's
 *    (functions compiled on first use).
 *
 * CPU is read from /proc (Linux; bench/lib/process-cpu.ts). docs/performance.md gets the
 * tables between its `bench:cold` markers (unless --no-write).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { migrate } from "../packages/cli/src/store/migrate.ts";
import { createWorkerRole } from "../test/helpers/backend.ts";
import { run } from "../test/helpers/cli.ts";
import { createTestDatabase } from "../test/helpers/pg.ts";
import { checkWorkerCpu } from "./lib/bench-worker.ts";
import { writeDocSection } from "./lib/doc.ts";
import { commandLine, describeMachine } from "./lib/machine.ts";
import { startChildProxy } from "./lib/proxy.ts";
import { workerSystem } from "./lib/worker-system.ts";

const ROOT = resolve(import.meta.dirname, "..");
/** This Node (the project's), run to its end with `args`. */
const runNode = (args: string[], options?: Parameters<typeof run>[2]) =>
  run(process.execPath, args, options);
const argv = process.argv.slice(2);
const repeatAt = argv.indexOf("--repeat");
const REPEAT = repeatAt >= 0 ? Number(argv[repeatAt + 1]) : 5;
if (!Number.isInteger(REPEAT) || REPEAT < 1) throw new Error("--repeat takes a whole number ≥ 1");
const WRITE = !argv.includes("--no-write");
/** Requests per started Worker: the first, then the steady state (median of 3…N). */
const REQUESTS = 12;

const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
const kib = (n: number) => (n / 1024).toFixed(1);

/**
 * Where a module of the bundle belongs, and whether a postgres turn without tools runs it.
 * First match wins; the reasons are what the docs list.
 */
const GROUPS: readonly { test: RegExp; group: string; turn: string }[] = [
  { test: /src\/studio\//, group: "llamon: Studio (the memory inspector page)", turn: "no" },
  { test: /src\/admin\//, group: "llamon: management API", turn: "no" },
  { test: /src\/a2a\/rest/, group: "llamon: A2A HTTP+JSON binding (/rest)", turn: "no" },
  { test: /src\/agent\/flow/, group: "llamon: flows (defineFlow)", turn: "flows only" },
  { test: /src\/durable\//, group: "llamon: Durable Objects", turn: "object backends" },
  { test: /src\/store\/sqlite/, group: "llamon: SQLite saver", turn: "sqlite only" },
  { test: /src\/memory\/facts\//, group: "llamon: facts", turn: "facts on" },
  { test: /src\/memory\/recall\//, group: "llamon: recall", turn: "yes" },
  { test: /src\/queue\//, group: "llamon: queue consumer, summaries", turn: "enqueue only" },
  { test: /src\/llm\//, group: "llamon: model adapters", turn: "one of them" },
  { test: /src\//, group: "llamon: turn, A2A, Worker, store, memory", turn: "yes" },
  { test: /node_modules\/jose\//, group: "jose (JWT auth)", turn: "A2A_AUTH=jwt only" },
  {
    // Imported only by core's deserialiser map, which the bundle's [alias] replaces with
    // llamon's (src/shims/langchain-import-map.ts); listed should they come back.
    test: /node_modules\/@langchain\/core\/dist\/(vectorstores|document_loaders|retrievers|embeddings|example_selectors|indexing|stores|utils\/testing|testing|prompts|output_parsers|structured_query|agents|chat_history|decisions|load\/import_map)/,
    group: "@langchain/core: modules only its full deserialiser map imports",
    turn: "no",
  },
  {
    test: /node_modules\/zod\/v3\//,
    group: "zod v3 (for @langchain/core's tool schemas)",
    turn: "tools only",
  },
  {
    test: /node_modules\/@langchain\/langgraph\/dist\/prebuilt/,
    group: "@langchain/langgraph prebuilt (ToolNode)",
    turn: "tools only",
  },
];

function packageOf(input: string): string {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return m ? (m[1] as string) : input.startsWith("src/") ? "llamon" : input;
}

interface BundleGroup {
  group: string;
  turn: string;
  bytes: number;
}

/** The stand-in for `cloudflare:workers` when the bundle is imported in Node. */
const WORKERS_STUB =
  "data:text/javascript,export class DurableObject{constructor(c,e){this.ctx=c;this.env=e}}export class WorkerEntrypoint{}export class RpcTarget{}export const env={};";

/** CPU of importing `module` in a fresh Node process (ms); median of `times`. */
async function moduleEvalMs(module: string, times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const run = await runNode([join(import.meta.dirname, "lib/module-eval-child.mjs"), module]);
    if (run.code !== 0) throw new Error(`importing the bundle failed:\n${run.stderr}`);
    samples.push((JSON.parse(run.stdout) as { cpuMs: number }).cpuMs);
  }
  return median(samples);
}

async function bundle(
  times: number,
): Promise<{ raw: number; gzip: number; groups: BundleGroup[]; evalMs: number }> {
  const out = await mkdtemp(join(tmpdir(), "llamon-cold-"));
  try {
    const run = await runNode(
      [
        join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
        "deploy",
        "--dry-run",
        "--outdir",
        out,
        "--metafile",
        join(out, "meta.json"),
      ],
      { cwd: ROOT, env: { WRANGLER_SEND_METRICS: "false" } },
    );
    if (run.code !== 0) {
      throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}${run.stderr}`);
    }
    const script = await readFile(join(out, "index.js"));
    const patched = join(out, "bundle-node.mjs");
    const text = script.toString("utf8");
    const importsWorkers = /from "cloudflare:workers"/g;
    if ((text.match(importsWorkers) ?? []).length !== 1) {
      throw new Error("the bundle's imports of cloudflare:workers changed; update WORKERS_STUB");
    }
    await writeFile(patched, text.replace(importsWorkers, `from "${WORKERS_STUB}"`));
    const evalMs = await moduleEvalMs(patched, times);
    const meta = JSON.parse(await readFile(join(out, "meta.json"), "utf8")) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const main = Object.entries(meta.outputs).find(([k]) => k.endsWith("index.js"));
    if (main === undefined) throw new Error("the metafile has no index.js output");
    const groups = new Map<string, BundleGroup>();
    for (const [input, { bytesInOutput }] of Object.entries(main[1].inputs)) {
      const known = GROUPS.find((g) => g.test.test(input));
      const group = known?.group ?? packageOf(input);
      const entry = groups.get(group) ?? { group, turn: known?.turn ?? "yes", bytes: 0 };
      entry.bytes += bytesInOutput;
      groups.set(group, entry);
    }
    return {
      raw: script.length,
      gzip: gzipSync(script).length,
      groups: [...groups.values()].sort((a, b) => b.bytes - a.bytes),
      evalMs,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

interface Start {
  startupMs: number;
  firstMs: number;
  laterMs: number;
}

async function main(): Promise<void> {
  const serverDsn = process.env.LLAMON_TEST_DSN ?? "postgresql://postgres@localhost:5432/postgres";
  process.env.LLAMON_TEST_DSN = serverDsn;
  const machine = await describeMachine(serverDsn);
  log(`cold-start: ${machine}`);
  log("cold-start: bundling the reference agent …");
  const built = await bundle(Math.max(REPEAT, 5));
  log("cold-start: checking where the Worker's CPU is measured …");
  const check = await checkWorkerCpu();

  const db = await createTestDatabase("llamon_cold");
  await migrate({ connectionString: db.dsn });
  const proxy = await startChildProxy(db.dsn);
  const worker = await createWorkerRole(db.dsn, "server");
  const neonDsn = worker.neonDsn;
  const runs: Record<"off" | "heuristic", Start[]> = { off: [], heuristic: [] };
  try {
    for (let r = 1; r <= REPEAT; r++) {
      log(`cold-start: round ${r} of ${REPEAT}`);
      // The order alternates from round to round, so drift of this shared machine's speed
      // within a round does not favour one setting.
      const order = r % 2 === 1 ? (["off", "heuristic"] as const) : (["heuristic", "off"] as const);
      for (const facts of order) {
        const worker = await workerSystem(proxy, neonDsn, { MEMORY_FACTS_MODE: facts });
        try {
          const perRequest: number[] = [];
          for (let i = 1; i <= REQUESTS; i++) {
            // A new conversation each time: every request is a first turn of its thread.
            const sample = await worker.turn(`cold-${facts}-${r}-${i}`, 1);
            perRequest.push(sample.ownCpuMicros / 1000);
          }
          runs[facts].push({
            startupMs: worker.startupCpuMs,
            firstMs: perRequest[0] as number,
            laterMs: median(perRequest.slice(2)),
          });
        } finally {
          await worker.close();
        }
      }
    }
  } finally {
    await proxy.close();
    await db.drop();
    await worker.drop();
  }

  const med = (k: keyof typeof runs, f: keyof Start) => median(runs[k].map((s) => s[f]));
  const rows = (["off", "heuristic"] as const).map((facts) => {
    const startup = med(facts, "startupMs");
    const first = med(facts, "firstMs");
    const later = med(facts, "laterMs");
    return { facts, startup, first, later, extra: first - later };
  });
  const off = rows[0] as (typeof rows)[number];
  const heuristic = rows[1] as (typeof rows)[number];
  const factsExtra = heuristic.extra - off.extra;

  const lines = [
    "## The Worker's cold start (workerd)",
    "",
    "Produced by:",
    "",
    "```sh",
    commandLine("bench/cold-start.ts"),
    "```",
    "",
    `Machine: ${machine}. Run ${new Date().toISOString()}; medians of ${REPEAT} Workers started per row (${REQUESTS} requests each).`,
    "",
    `CPU of the workerd process that runs the Worker (Linux \`/proc/<pid>/task/*/schedstat\`; not wrangler's dev proxy in front of it, which another process runs), so everything the runtime did for the request is counted, the Durable Objects it called included (locally they run in the same process): an upper bound of what Cloudflare meters. Checked at the start: a Worker that spins ${check.spinMs} ms per request measured ${ms(check.spinRequestMs)} ms there, and an empty request ${ms(check.emptyRequestMs)} ms (workerd's own work for any request; the dev proxy spent another ${ms(check.proxyRequestMs)} ms, not counted). workerd evaluates the Worker's modules at its first request, so "first request" includes the module evaluation below.`,
    "",
    "| MEMORY_FACTS_MODE | workerd start-up CPU (runtime boot + bundle) | first request | later requests (median) | first − later |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.facts} | ${ms(r.startup)} ms | ${ms(r.first)} ms | ${ms(r.later)} ms | ${ms(r.extra)} ms |`,
    ),
    "",
    `- **Module evaluation: ${ms(built.evalMs)} ms** of CPU to import the bundle in a fresh process (Node ${process.versions.node}, V8 ${process.versions.v8}; median of ${Math.max(REPEAT, 5)}): what a new isolate spends before its first request, against Workers' start-up limit of 400 ms. A V8 profile of the import puts about half of it in parsing and compiling the ${kib(built.raw)} KiB of JavaScript (so it follows the bundle's size) and most of the rest in the modules' top-level code, zod's schema construction the largest part.`,
    `- **Target (the first turn that extracts facts costs ≤ 10 ms more CPU than a later one): ${heuristic.extra <= 10 ? "met" : "NOT MET"}** — the whole first request of an isolate with facts on costs ${ms(heuristic.extra)} ms more than a later one (module evaluation and every function compiled on first use); with facts off ${ms(off.extra)} ms more, so the facts' own first-use share is ${ms(factsExtra)} ms, within the noise of these medians (\`npx tsx bench/facts-cold.ts\` measures that share alone, in Node).`,
    "",
    `Bundle: ${kib(built.raw)} KiB raw, ${kib(built.gzip)} KiB gzip. What it holds, largest first, and whether a turn (postgres backend, agent without tools) runs it:`,
    "",
    "| part | KiB | run by a turn |",
    "| --- | ---: | --- |",
    ...built.groups
      .filter((g) => g.bytes >= 4096)
      .map((g) => `| ${g.group} | ${kib(g.bytes)} | ${g.turn} |`),
  ];
  const markdown = lines.join("\n");
  process.stdout.write(`${markdown}\n`);
  if (WRITE) {
    await writeDocSection("cold", markdown);
    log("cold-start: wrote docs/performance.md (section bench:cold)");
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
