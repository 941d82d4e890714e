/**
 * Facts ended or changed in one message, said in ways no row was written for
 * (test/fixtures/facts/endings.json). Each item is two sessions: a plain statement of a fact
 * ("I work at Target."), then weeks later a message that ends or changes it ("Jumped ship from
 * Target to Costco"). Through the turn's facts step (bench/facts-changes.ts `runThread`):
 * - stale: the old value still shown as current (the dangerous failure);
 * - new missing: a new value the message gave is not stored;
 * - ok: neither.
 *
 * Writers (`source`): `engineer` wrote the phrasings the general ending rows came from (all
 * tuned); each `helper…` batch came from a writer who had seen neither the engine, its
 * fixtures nor the earlier batches. Every other item of a helper batch was held out before
 * its first run (`helper-4` is held out whole) and never looked at while tuning. The held-out
 * rows say how well the rows generalise to fresh phrasings; `--show` lists the failing tuned
 * items only.
 *
 *   npx tsx bench/facts-endings.ts [--show] [--json]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { FACT_CATEGORIES } from "../src/memory/facts/index.ts";
import { runThread } from "./facts-changes.ts";

export const ENDINGS_FIXTURE = fileURLToPath(
  new URL("../test/fixtures/facts/endings.json", import.meta.url),
);

/** Who wrote an item; every writer but the first is an outside one. */
const WRITERS = ["engineer", "helper", "helper-2", "helper-3", "helper-4", "helper-5"] as const;
const OUTSIDE_WRITERS = WRITERS.filter((writer) => writer !== "engineer");

const want = z.object({ category: z.enum(FACT_CATEGORIES), value: z.string().min(1) }).strict();
const itemSchema = z
  .object({
    lang: z.enum(["ko", "en"]),
    split: z.enum(["tuned", "held-out"]),
    source: z.enum(WRITERS),
    first: z.string().min(1),
    said: z.string().min(1),
    retired: want,
    now: want.optional(),
    question: z.string().min(1),
  })
  .strict();
export type EndingItem = z.infer<typeof itemSchema>;

export function loadEndings(path = ENDINGS_FIXTURE): EndingItem[] {
  return z.array(itemSchema).parse(JSON.parse(readFileSync(path, "utf8")));
}

export interface EndingResult {
  item: EndingItem;
  stale: boolean;
  newMissing: boolean;
  facts: string[];
}

export async function runEnding(item: EndingItem): Promise<EndingResult> {
  const now = item.now === undefined ? [] : [item.now];
  const run = await runThread({
    id: "ending",
    sessions: [
      { date: "2026-01-05", turns: [item.first] },
      { date: "2026-03-05", turns: [item.said] },
    ],
    expectedFacts: now,
    retired: [item.retired],
    followUps: [{ question: item.question, expectedRecall: now }],
  });
  return {
    item,
    stale: run.stale.length > 0,
    newMissing: run.missing.length > 0,
    facts: run.facts.map((f) => `${f.category}=${f.value}`),
  };
}

export interface EndingRow {
  set: string;
  n: number;
  ok: number;
  stale: number;
  withNew: number;
  newMissing: number;
}

function rowOf(set: string, results: readonly EndingResult[]): EndingRow {
  return {
    set,
    n: results.length,
    ok: results.filter((r) => !r.stale && !r.newMissing).length,
    stale: results.filter((r) => r.stale).length,
    withNew: results.filter((r) => r.item.now !== undefined).length,
    newMissing: results.filter((r) => r.newMissing).length,
  };
}

/** The rows of the table: every item, each split, each language. */
const GROUPS: readonly (readonly [string, (item: EndingItem) => boolean])[] = [
  ["overall", () => true],
  ["tuned", (item) => item.split === "tuned"],
  ["held-out", (item) => item.split === "held-out"],
  ["en", (item) => item.lang === "en"],
  ["ko", (item) => item.lang === "ko"],
  // Each outside writer's held-out items apart: a batch's first run came before any row
  // made from its tuned half.
  ...OUTSIDE_WRITERS.map(
    (source) =>
      [
        `held-out ${source}`,
        (item: EndingItem) => item.split === "held-out" && item.source === source,
      ] as const,
  ),
];

export async function runEndings(items = loadEndings()): Promise<EndingResult[]> {
  const results: EndingResult[] = [];
  for (const item of items) results.push(await runEnding(item));
  return results;
}

export function endingRows(results: readonly EndingResult[]): EndingRow[] {
  return GROUPS.map(([set, keep]) =>
    rowOf(
      set,
      results.filter((r) => keep(r.item)),
    ),
  );
}

export async function evaluateEndings(items = loadEndings()): Promise<EndingRow[]> {
  return endingRows(await runEndings(items));
}

/** The table eval-memory.ts prints. */
export function endingsTable(rows: readonly EndingRow[]): string[] {
  return [
    "set                   n     ok  stale  new missing",
    ...rows.map(
      (r) =>
        `${r.set.padEnd(19)} ${String(r.n).padStart(3)} ${String(r.ok).padStart(6)} ${String(r.stale).padStart(6)}  ${r.newMissing}/${r.withNew}`,
    ),
  ];
}

async function main(argv: readonly string[]): Promise<void> {
  const results = await runEndings();
  const rows = endingRows(results);
  if (argv.includes("--json")) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  for (const line of endingsTable(rows)) console.log(line);
  if (!argv.includes("--show")) return;
  // Only tuned items: the held-out ones are not looked at.
  for (const r of results) {
    if (r.item.split !== "tuned" || (!r.stale && !r.newMissing)) continue;
    const why = [r.stale ? "stale" : "", r.newMissing ? "new missing" : ""].filter(Boolean);
    console.log(`- [${why.join(", ")}] ${r.item.said}\n    facts: ${r.facts.join("; ")}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
