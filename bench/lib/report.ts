/** Tables, ratios and the issue-8 targets of a bench run, as console text and as Markdown. */
import type { WorkerCpuCheck } from "./bench-worker.ts";
import { type HeadToHead, OFFICIAL_PAIRS } from "./head-to-head.ts";
import type { PointResult } from "./run-conversation.ts";

export interface Report {
  command: string;
  machine: string;
  date: string;
  totalSeconds: number;
  /** Wall time of each system's measured conversation. */
  seconds: Record<string, number>;
  /** Turns written by prefill instead of run, per system. */
  prefilled: Record<string, number>;
  points: PointResult[];
  /** The turn-10 comparisons run head to head (./head-to-head.ts); none with --rounds 0. */
  headToHead?: readonly HeadToHead[];
  /** Where the Worker systems' CPU is read, checked (bench-worker.ts). */
  workerCpuCheck?: WorkerCpuCheck;
}

export interface JsonRow {
  system: string;
  turns: number;
  round_trips_per_turn: number;
  statements_per_turn: number;
  /** Bytes sent to the database in the turn (see "What is measured"). */
  bytes_written_per_turn: number;
  /** Mean bytes sent per turn over the last 50 turns (snapshots included). */
  bytes_written_per_turn_mean_50: number;
  cpu_ms_per_turn: number;
  /** Bytes the turn added to the thread's rows in Postgres. */
  bytes_stored_per_turn: number;
  /** CPU inside the checkpointer's methods (the memory layer). */
  memory_cpu_ms_per_turn: number;
  /** Milliseconds the database spent on the turn's requests (at the Neon-protocol proxy). */
  database_ms_per_turn: number | null;
  /** memory_cpu_ms_per_turn as a share of the Workers Free plan's 10 ms CPU per request. */
  memory_cpu_share_of_workers_free: number;
}

export const WORKERS_FREE_CPU_MS = 10;
export const TARGET_ROUND_TRIPS = 2;
export const TARGET_GROWTH = 1.5;
export const TARGET_CPU_MS = 2;
const BASELINE = "postgres-saver";

type Table = { head: string[]; rows: string[][]; right: boolean[] };

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
/** "–" where a system does not measure it (llamon-worker's memory-layer share). */
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
const ratio = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n >= 10 ? 1 : 2)}×` : "–");
const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : "–");

function costTable(points: PointResult[]): Table {
  return {
    head: [
      "system",
      "turn",
      "round trips",
      "statements",
      "bytes sent",
      "bytes sent, mean of 50",
      "bytes read",
      "bytes stored",
      "database ms",
      "CPU ms",
      "memory CPU ms",
      "memory of 10 ms",
    ],
    right: [false, true, true, true, true, true, true, true, true, true, true, true],
    rows: points.map((p) => [
      p.system,
      String(p.turns),
      int(p.roundTrips),
      int(p.statements),
      int(p.bytesSent),
      int(p.bytesSentMean),
      Number.isNaN(p.bytesRead) ? "–" : int(p.bytesRead),
      int(p.bytesStored),
      ms(p.databaseMs),
      ms(p.cpuMs),
      ms(p.memoryCpuMs),
      pct(p.memoryCpuMs / WORKERS_FREE_CPU_MS),
    ]),
  };
}

function ratioTable(points: PointResult[]): Table | undefined {
  const llamon = points.filter((p) => p.system === "llamon");
  const base = points.filter((p) => p.system === BASELINE);
  if (base.length === 0) return undefined;
  return {
    head: ["turn", "round trips", "statements", "bytes sent", "bytes stored", "CPU", "memory CPU"],
    right: [true, true, true, true, true, true, true],
    rows: llamon.flatMap((l) => {
      const b = base.find((p) => p.turns === l.turns);
      if (b === undefined) return [];
      return [
        [
          String(l.turns),
          ratio(b.roundTrips / l.roundTrips),
          ratio(b.statements / l.statements),
          ratio(b.bytesSent / l.bytesSent),
          ratio(b.bytesStored / l.bytesStored),
          ratio(b.cpuMs / l.cpuMs),
          ratio(b.memoryCpuMs / l.memoryCpuMs),
        ],
      ];
    }),
  };
}

function growthTable(points: PointResult[], systems: string[], turns: number[]): Table {
  const first = turns[0] as number;
  const later = turns.slice(1);
  return {
    head: [
      "system",
      ...later.map((t) => `bytes sent, turn ${t} ÷ turn ${first}`),
      ...later.map((t) => `mean of 50, turn ${t} ÷ turn ${first}`),
    ],
    right: [false, ...later.map(() => true), ...later.map(() => true)],
    rows: systems.map((s) => {
      // NaN ("–") where the system did not run that length (bench/lib/run-main.ts).
      const at = (t: number) => points.find((p) => p.system === s && p.turns === t);
      const grew = (t: number, field: "bytesSent" | "bytesSentMean") =>
        (at(t)?.[field] ?? Number.NaN) / (at(first)?.[field] ?? Number.NaN);
      return [
        s,
        ...later.map((t) => ratio(grew(t, "bytesSent"))),
        ...later.map((t) => ratio(grew(t, "bytesSentMean"))),
      ];
    }),
  };
}

interface Target {
  text: string;
  met: boolean;
  detail: string;
}

/** The same bound for a turn through the Worker's fetch handler (llamon-worker), when run. */
function workerRoundTrips(points: PointResult[]): Target[] {
  const worker = points.filter((p) => p.system === "llamon-worker");
  if (worker.length === 0) return [];
  return [
    {
      text: `… also through the Worker's fetch handler (llamon-worker: request context, run-time config, turn)`,
      met: Math.max(...worker.map((p) => p.roundTrips)) <= TARGET_ROUND_TRIPS,
      detail: worker.map((p) => `${p.roundTrips} at turn ${p.turns}`).join(", "),
    },
  ];
}

/**
 * At the first length, llamon's CPU per turn is no worse than the official saver's with
 * durability "exit": in Node (llamon vs postgres-saver-exit) and in workerd, the turn alone in
 * the same harness (llamon-turn-worker vs postgres-saver-worker, on a connection of its own).
 * Measured head to head in interleaved rounds when they ran (./head-to-head.ts), else from
 * the sample points of the main run.
 */
function officialAtFirst(
  points: PointResult[],
  first: PointResult,
  compared: readonly HeadToHead[],
): Target[] {
  const at = (system: string) => points.find((p) => p.system === system && p.turns === first.turns);
  return OFFICIAL_PAIRS.flatMap(([ours, theirs, where]) => {
    const text = `llamon's CPU per turn at turn ${first.turns} ≤ the official saver's with durability "exit", ${where} (${ours} vs ${theirs})`;
    const h = compared.find((c) => c.ours === ours && c.theirs === theirs);
    if (h !== undefined) {
      return [
        {
          text,
          met: h.oursMs <= h.theirsMs,
          detail: `${ms(h.oursMs)} ms vs ${ms(h.theirsMs)} ms, head to head (median of turns 2…${h.turns} over ${h.rounds} interleaved rounds; llamon lower in ${h.oursLower} of ${h.rounds} rounds)`,
        },
      ];
    }
    const a = at(ours);
    const b = at(theirs);
    if (a === undefined || b === undefined) return [];
    return [{ text, met: a.cpuMs <= b.cpuMs, detail: `${ms(a.cpuMs)} ms vs ${ms(b.cpuMs)} ms` }];
  });
}

/** The issue's long points: every length from 1000 on (1000 and 10,000 by default). */
const LONG_FROM = 1000;

/** CPU per turn at the long points ≤ TARGET_GROWTH × the first length, for one system. */
function cpuGrowth(series: PointResult[], label: string): Target[] {
  const first = series[0];
  const long = series.filter((p) => p.turns >= LONG_FROM && Number.isFinite(p.cpuMs));
  if (first === undefined || long.length === 0 || !Number.isFinite(first.cpuMs)) return [];
  return [
    {
      text: `${label} CPU per turn at turn ${long.map((p) => p.turns).join(" and ")} ≤ ${TARGET_GROWTH}× turn ${first.turns}`,
      met: long.every((p) => p.cpuMs / first.cpuMs <= TARGET_GROWTH),
      detail: long
        .map((p) => `${ratio(p.cpuMs / first.cpuMs)} at turn ${p.turns} (${ms(p.cpuMs)} ms)`)
        .join(", ")
        .concat(` vs ${ms(first.cpuMs)} ms at turn ${first.turns}`),
    },
  ];
}

/** The whole turn within the Workers Free plan's CPU per request, at every length. */
function wholeTurn(series: PointResult[], label: string, floor?: number): Target[] {
  const measured = series.filter((p) => Number.isFinite(p.cpuMs));
  if (measured.length === 0) return [];
  return [
    {
      text: `${label} within the Workers Free plan's ${WORKERS_FREE_CPU_MS} ms at every length`,
      met: Math.max(...measured.map((p) => p.cpuMs)) <= WORKERS_FREE_CPU_MS,
      detail: measured
        .map((p) => `${ms(p.cpuMs)} ms = ${pct(p.cpuMs / WORKERS_FREE_CPU_MS)} at turn ${p.turns}`)
        .join(", ")
        .concat(floor === undefined ? "" : `; memory off, the same turn costs ${ms(floor)} ms`),
    },
  ];
}

function targets(points: PointResult[], compared: readonly HeadToHead[] = []): Target[] {
  const llamon = points.filter((p) => p.system === "llamon");
  const worker = points.filter((p) => p.system === "llamon-worker");
  const first = llamon[0] as PointResult;
  const last = llamon.at(-1) as PointResult;
  const floor = points.filter((p) => p.system === "no-memory").at(-1)?.cpuMs;
  const maxRt = Math.max(...llamon.map((p) => p.roundTrips));
  const growth = last.bytesSent / first.bytesSent;
  const meanGrowth = last.bytesSentMean / first.bytesSentMean;
  return [
    {
      text: `≤ ${TARGET_ROUND_TRIPS} database round trips per turn at every length`,
      met: maxRt <= TARGET_ROUND_TRIPS,
      detail: llamon.map((p) => `${p.roundTrips} at turn ${p.turns}`).join(", "),
    },
    ...workerRoundTrips(points),
    {
      text: `bytes written per turn at turn ${last.turns} ≤ ${TARGET_GROWTH}× turn ${first.turns}`,
      met: growth <= TARGET_GROWTH,
      detail: `${ratio(growth)} (${int(last.bytesSent)} B at turn ${last.turns} vs ${int(first.bytesSent)} B at turn ${first.turns}); averaged over the last 50 turns, snapshots of the whole list included: ${ratio(meanGrowth)} (${int(last.bytesSentMean)} B vs ${int(first.bytesSentMean)} B)`,
    },
    {
      text: `bytes_read_per_turn at turn ${last.turns} ≤ ${TARGET_GROWTH}× turn ${first.turns} (window 20)`,
      met: last.bytesRead / first.bytesRead <= TARGET_GROWTH,
      detail: `${ratio(last.bytesRead / first.bytesRead)} (${int(last.bytesRead)} B at turn ${last.turns} vs ${int(first.bytesRead)} B at turn ${first.turns})`,
    },
    ...cpuGrowth(llamon, "cold (llamon, in Node)"),
    ...cpuGrowth(worker, "the Worker's (llamon-worker, in workerd)"),
    ...officialAtFirst(points, first, compared),
    {
      text: `llamon's own CPU per turn < ${TARGET_CPU_MS} ms at ${last.turns} turns (window 20; an earlier, stricter target)`,
      met: last.cpuMs < TARGET_CPU_MS,
      detail: `${ms(last.cpuMs)} ms`,
    },
    {
      text: `memory-layer CPU per turn (the checkpointer: read, (de)serialise, write) within the Workers Free plan's ${WORKERS_FREE_CPU_MS} ms per request`,
      met: Math.max(...llamon.map((p) => p.memoryCpuMs)) < WORKERS_FREE_CPU_MS,
      detail: llamon
        .map(
          (p) =>
            `${ms(p.memoryCpuMs)} ms = ${pct(p.memoryCpuMs / WORKERS_FREE_CPU_MS)} at turn ${p.turns}`,
        )
        .join(", "),
    },
    ...wholeTurn(
      llamon,
      "the whole turn's CPU in Node (llamon: LangGraph run + memory, model excluded)",
      floor,
    ),
    ...wholeTurn(
      worker,
      "the whole request's CPU in workerd (llamon-worker: the workerd process for the A2A request, model included)",
    ),
  ];
}

/** Lines about what the bench measures without a target of its own. */
function alsoMeasured(points: PointResult[]): string[] {
  const llamon = points.filter((p) => p.system === "llamon" && Number.isFinite(p.databaseMs));
  const first = llamon[0];
  if (first === undefined || llamon.length < 2) return [];
  return [
    `database time per turn (llamon, both requests at the Neon-protocol proxy, Postgres on this machine): ${llamon
      .map((p) => `${ms(p.databaseMs)} ms at turn ${p.turns}`)
      .join(
        ", ",
      )} — ${ratio((llamon.at(-1) as PointResult).databaseMs / first.databaseMs)} turn ${first.turns}`,
  ];
}

function textTable(t: Table): string {
  const widths = t.head.map((h, i) =>
    Math.max(h.length, ...t.rows.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (t.right[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join("  ");
  return [line(t.head), line(widths.map((w) => "-".repeat(w))), ...t.rows.map(line)].join("\n");
}

function mdTable(t: Table): string {
  const sep = t.right.map((r) => (r ? "---:" : "---"));
  return [t.head, sep, ...t.rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}

export function renderReport(report: Report): {
  console: string;
  markdown: string;
  rows: JsonRow[];
} {
  const systems = [...new Set(report.points.map((p) => p.system))];
  const turns = [...new Set(report.points.map((p) => p.turns))].sort((a, b) => a - b);
  const ordered = turns.flatMap((t) =>
    systems.flatMap((s) => report.points.filter((p) => p.system === s && p.turns === t)),
  );
  const cost = costTable(ordered);
  const ratios = ratioTable(report.points);
  const growth = growthTable(report.points, systems, turns);
  const goals = targets(report.points, report.headToHead);
  const check = report.workerCpuCheck;
  const seen = [
    ...alsoMeasured(report.points),
    ...(check === undefined
      ? []
      : [
          `the Worker systems' CPU is the workerd process that runs the Worker, not wrangler's dev proxy in front of it (checked: a Worker spinning ${check.spinMs} ms per request measured ${ms(check.spinRequestMs)} ms there); an empty request costs ${ms(check.emptyRequestMs)} ms in that process, and the dev proxy another ${ms(check.proxyRequestMs)} ms (not counted)`,
        ]),
  ];
  const mark = (g: Target) => (g.met ? "met" : "NOT MET");

  const consoleText = [
    `Per-turn cost at turn N (one conversation per system; CPU = median of turns N−8…N, model excluded; llamon-worker: the workerd process, model included)`,
    textTable(cost),
    "",
    ...(ratios
      ? [
          `${BASELINE} ÷ llamon (how many times llamon's cost the official saver pays)`,
          textTable(ratios),
          "",
        ]
      : []),
    "Growth with the conversation",
    textTable(growth),
    "",
    "Targets",
    ...goals.map((g) => `  [${mark(g)}] ${g.text}: ${g.detail}`),
    ...(seen.length > 0 ? ["", "Also measured (no target)", ...seen.map((l) => `  ${l}`)] : []),
    "",
    `${report.machine}; ${report.totalSeconds.toFixed(0)} s in all`,
  ].join("\n");

  const markdown = [
    "## Per-turn cost as the conversation grows",
    "",
    "Produced by:",
    "",
    "```sh",
    report.command,
    "```",
    "",
    `Machine: ${report.machine}. Run ${report.date}, ${report.totalSeconds.toFixed(0)} s in all (${Object.entries(
      report.seconds,
    )
      .map(([s, sec]) => `${s} ${sec.toFixed(0)} s`)
      .join(", ")}).`,
    "",
    "### Targets",
    "",
    ...goals.map((g) => `- **${mark(g)}** — ${g.text}: ${g.detail}.`),
    ...(seen.length > 0
      ? ["", "Also measured (no target):", "", ...seen.map((l) => `- ${l}.`)]
      : []),
    "",
    "### Per-turn cost at turn N",
    "",
    mdTable(cost),
    "",
    ...(ratios
      ? [
          `### ${BASELINE} ÷ llamon`,
          "",
          "How many times llamon's per-turn cost the official PostgresSaver pays at the same turn (above 1× = llamon is cheaper).",
          "",
          mdTable(ratios),
          "",
        ]
      : []),
    "### Growth with the conversation",
    "",
    mdTable(growth),
  ].join("\n");

  const rows: JsonRow[] = ordered.map((p) => ({
    system: p.system,
    turns: p.turns,
    round_trips_per_turn: p.roundTrips,
    statements_per_turn: p.statements,
    bytes_written_per_turn: p.bytesSent,
    bytes_written_per_turn_mean_50: Math.round(p.bytesSentMean),
    bytes_read_per_turn: Number.isNaN(p.bytesRead) ? null : p.bytesRead,
    cpu_ms_per_turn: Number(p.cpuMs.toFixed(3)),
    bytes_stored_per_turn: p.bytesStored,
    memory_cpu_ms_per_turn: Number(p.memoryCpuMs.toFixed(3)),
    database_ms_per_turn: Number.isFinite(p.databaseMs) ? Number(p.databaseMs.toFixed(3)) : null,
    memory_cpu_share_of_workers_free: Number((p.memoryCpuMs / WORKERS_FREE_CPU_MS).toFixed(3)),
  }));
  return { console: consoleText, markdown, rows };
}
