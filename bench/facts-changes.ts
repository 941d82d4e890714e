/**
 * The change and retraction set (test/fixtures/facts/changes.json): multi-session ko/en
 * dialogues in which a job, a workplace, a home, a partner, children, pets, plans, a diet or
 * a preference changes or is taken back, among distractors (evaluations, questions and
 * requests, other people's stories, hypotheticals). Each user turn goes through the turn's
 * own facts step (src/agent/turn/fact-recall.ts `createFactRecallStep`, heuristic mode, the
 * session's date, a message id and position), so what is stored, retired and shown is what a
 * thread would store, retire and show; the facts block of each follow-up question is that
 * step's `recall` (the lines the prompt gets, with "since" and "earlier:").
 *
 *   npx tsx bench/facts-changes.ts                  # table and every failing tuned dialogue
 *   npx tsx bench/facts-changes.ts --show-held-out  # the failing held-out ones too
 *   npx tsx bench/facts-changes.ts --json           # only the JSON report
 *
 * Per dialogue (an expected fact may name `details`, words the stored fact must carry in its
 * value or text: "Grace", "5살"):
 * - stale-as-current: a value of `retired` shown as current — in the facts block of one of
 *   the follow-up questions, or among the current facts at the end (rendered by the same
 *   `factLines`: the block a question recalling every fact would get). A value shown only
 *   after "earlier:" is not current.
 * - precision: the current facts at the end against `expectedFacts`, one to one, as
 *   bench/facts-eval.ts counts it (a wrong value, a clause for a value, a near-copy or a lost
 *   detail is a false positive); recall: expected facts some stored fact names.
 * - recall@3 of each follow-up that expects facts: its expected items among the facts of its
 *   block (at most fact_recall_max_items, 3) / min(3, expected items). A follow-up that
 *   expects nothing ([]) is there for the stale check only.
 * - right: every expected fact stored, nothing stale, every follow-up at recall@3 = 1.
 */
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { createFactRecallStep } from "../src/agent/turn/fact-recall.ts";
import { parseMemoryConfig } from "../src/memory/config.ts";
import {
  FACT_CATEGORIES,
  FACTS_MEMORY_KEY,
  type Fact,
  factLines,
  parseFactState,
  valueKey,
} from "../src/memory/facts/index.ts";
import type { JsonValue } from "../src/store/persistent-memory.ts";
import { type Dialogue, matches, readFixture, rightValue, unpaired } from "./facts-eval.ts";

export const CHANGES_FIXTURE = fileURLToPath(
  new URL("../test/fixtures/facts/changes.json", import.meta.url),
);

/** The kinds of change the set covers (one per dialogue: what changes or is taken back). */
export const CHANGE_KINDS = [
  "job",
  "workplace",
  "residence",
  "partner",
  "children",
  "pets",
  "plan",
  "diet",
  "preference",
] as const;

const expectedSchema = z
  .object({
    category: z.enum(FACT_CATEGORIES),
    value: z.string().trim().min(1),
    /** Words the fact must also carry (in its value or text): a name, an age. */
    details: z.array(z.string().trim().min(1)).min(1).optional(),
  })
  .strict();

const sessionSchema = z
  .object({
    /** The session's date (ISO YYYY-MM-DD): the facts' "since" and "retired at". */
    date: z.iso.date(),
    turns: z.array(z.string().trim().min(1)).min(1),
  })
  .strict();

const followUpSchema = z
  .object({
    question: z.string().trim().min(1),
    /** The facts its block must show (recall@3); [] when it must show nothing in particular. */
    expectedRecall: z.array(expectedSchema),
  })
  .strict();

export const changeDialogueSchema = z
  .object({
    id: z.string().regex(/^ch-(ko|en)-\d{2}$/, "ids are ch-<ko|en>-NN"),
    lang: z.enum(["ko", "en"]),
    /** "tuned": the engine may be tuned on it; "held-out": never looked at while tuning. */
    split: z.enum(["tuned", "held-out"]),
    kind: z.enum(CHANGE_KINDS),
    note: z.string().trim().min(1),
    sessions: z.array(sessionSchema).min(2),
    /** The current facts at the end. */
    expectedFacts: z.array(expectedSchema),
    /** Values the dialogue replaced or took back: never shown as current. */
    retired: z.array(expectedSchema).min(1),
    followUps: z.array(followUpSchema).min(1),
  })
  .strict()
  .superRefine((d, ctx) => {
    const turns = d.sessions.reduce((n, s) => n + s.turns.length, 0);
    if (turns < 6 || turns > 20) {
      ctx.addIssue({ code: "custom", message: `${turns} user turns; 6 to 20 expected` });
    }
    const dates = d.sessions.map((s) => s.date);
    if (dates.some((date, i) => i > 0 && date < (dates[i - 1] as string))) {
      ctx.addIssue({ code: "custom", message: "session dates go back in time" });
    }
  });

export type ChangeDialogue = z.infer<typeof changeDialogueSchema>;
export type ExpectedFact = z.infer<typeof expectedSchema>;
/** An expected fact of either fixture (dialogues.json has no details). */
type Want = {
  readonly category: string;
  readonly value: string;
  readonly details?: readonly string[] | undefined;
};

/** Reads and validates the set; a bad dialogue is named with the path of each problem. */
export function loadChanges(path = CHANGES_FIXTURE): ChangeDialogue[] {
  const dialogues = readFixture(path, changeDialogueSchema);
  const ids = new Set<string>();
  for (const d of dialogues) {
    if (ids.has(d.id)) throw new Error(`${path}: dialogue id ${d.id} twice`);
    ids.add(d.id);
  }
  return dialogues;
}

const norm = (text: string): string => text.normalize("NFKC").toLowerCase();

/** The fact carries every detail the expected one names (in its value or text). */
const carries = (fact: Fact, expected: Want): boolean => {
  const carried = norm(`${fact.value} ${fact.text}`);
  return (expected.details ?? []).every((detail) => carried.includes(norm(detail)));
};

/**
 * A stored fact names this expected fact (facts-eval.ts `matches`: category, value loosely,
 * family by relation across languages) and carries its details: what recall and the stale
 * check look for.
 */
export const factMatches = (fact: Fact, expected: Want): boolean =>
  matches(fact, expected) && carries(fact, expected);

/** A stored fact is right for this expected fact (precision; facts-eval.ts `rightValue`). */
const factRight = (fact: Fact, expected: Want): boolean =>
  rightValue(fact, expected) && carries(fact, expected);

const sameKey = (fact: Fact, expected: Want): boolean =>
  valueKey(fact.value) === valueKey(expected.value);

export interface FollowUpResult {
  question: string;
  /** The facts block lines the prompt would get. */
  block: string[];
  score3: number;
  expectsNothing: boolean;
}

export interface ChangeResult {
  id: string;
  lang: "ko" | "en";
  split: "tuned" | "held-out";
  kind: (typeof CHANGE_KINDS)[number];
  facts: Fact[];
  /** How many facts the dialogue expects at the end. */
  expected: number;
  /** Expected facts no stored fact names (with its details). */
  missing: Want[];
  /** Stored facts that are not right: not expected, a wrong value, a lost detail. */
  extra: Fact[];
  /** Retired values shown as current, and where ("block: <question>" or "current facts"). */
  stale: { value: Want; where: string }[];
  followUps: FollowUpResult[];
  right: boolean;
}

/** The fact a block line shows as current (the line is its text, then "(since …; earlier: …)"). */
function lineFact(line: string, facts: readonly Fact[]): Fact | undefined {
  return facts.find((f) => line === f.text || line.startsWith(`${f.text} (`));
}

/** Runs one dialogue through the turn's facts step, session by session. */
export async function runChange(d: ChangeDialogue): Promise<ChangeResult> {
  const run = await runThread(d);
  return { ...run, lang: d.lang, split: d.split, kind: d.kind };
}

/** What {@link runThread} needs: the change set's dialogue less its labels. */
export interface ThreadCase {
  readonly id: string;
  readonly sessions: readonly { readonly date: string; readonly turns: readonly string[] }[];
  readonly expectedFacts: readonly Want[];
  readonly retired: readonly Want[];
  readonly followUps: readonly {
    readonly question: string;
    readonly expectedRecall: readonly Want[];
  }[];
}

/** The result of one thread, without the change set's labels. */
export type ThreadResult = Omit<ChangeResult, "lang" | "split" | "kind">;

/**
 * A correction of test/fixtures/facts/dialogues.json (one with `forbidden`) as a thread: one
 * session, its follow-up, the corrected-away values as retired ones; for the stale check.
 */
export function correctionThread(d: Dialogue, date = "2026-01-01"): ThreadCase | undefined {
  if (d.forbidden === undefined || d.forbidden.length === 0) return undefined;
  return {
    id: d.id,
    sessions: [{ date, turns: d.turns }],
    expectedFacts: d.expectedFacts,
    retired: d.forbidden,
    followUps: [{ question: d.followUp, expectedRecall: d.expectedRecall }],
  };
}

/** Runs one thread through the turn's facts step, session by session. */
export async function runThread(d: ThreadCase): Promise<ThreadResult> {
  const rows: { thread: Record<string, JsonValue>; agent: Record<string, JsonValue> } = {
    thread: {},
    agent: {},
  };
  let today = d.sessions[0]?.date ?? "2026-01-01";
  const step = createFactRecallStep({
    config: parseMemoryConfig({ facts_mode: "heuristic" }),
    memory: () => rows,
    stage: (key, value) => {
      rows.thread[key] = value;
    },
    now: () => new Date(`${today}T12:00:00Z`),
  });
  let turn = 0;
  let current: readonly Fact[] = [];
  for (const [s, session] of d.sessions.entries()) {
    today = session.date;
    for (const text of session.turns) {
      current = await step.update(text, {
        messageId: `${d.id}-s${s}-t${turn}`,
        position: turn * 2,
      });
      turn++;
    }
  }
  const facts = [...current];
  const state = parseFactState(rows.thread[FACTS_MEMORY_KEY]);
  const extra = unpaired(facts, d.expectedFacts, factRight, sameKey);
  const missing = d.expectedFacts.filter((e) => !facts.some((f) => factMatches(f, e)));
  const stale: ChangeResult["stale"] = [];
  const staleIn = (lines: readonly string[], where: string) => {
    for (const line of lines) {
      const fact = lineFact(line, facts);
      if (fact === undefined) continue;
      for (const old of d.retired) {
        // A value that is also expected now came back, and is not stale, unless the retired
        // value is told apart by its details ("Leo, 8" retired, "Leo, 9" current).
        const back = old.details === undefined && d.expectedFacts.some((e) => factMatches(fact, e));
        if (factMatches(fact, old) && !back) {
          if (!stale.some((s) => s.value === old && s.where === where)) {
            stale.push({ value: old, where });
          }
        }
      }
    }
  };
  const followUps: FollowUpResult[] = d.followUps.map((f) => {
    const block = step.recall(f.question);
    staleIn(block, `block: ${f.question}`);
    const shown = block.map((line) => lineFact(line, facts)).filter((x) => x !== undefined);
    const hits = f.expectedRecall.filter((e) => shown.some((fact) => factMatches(fact, e))).length;
    const expectsNothing = f.expectedRecall.length === 0;
    return {
      question: f.question,
      block,
      score3: expectsNothing ? 1 : hits / Math.min(3, f.expectedRecall.length),
      expectsNothing,
    };
  });
  staleIn(factLines(state.facts, state.retired), "current facts");
  return {
    id: d.id,
    facts,
    expected: d.expectedFacts.length,
    missing,
    extra,
    stale,
    followUps,
    right:
      missing.length === 0 &&
      stale.length === 0 &&
      followUps.every((f) => f.expectsNothing || f.score3 === 1),
  };
}

export interface ChangeMetrics {
  dialogues: number;
  /** Dialogues with a retired value shown as current (the target: 0), and their ids. */
  staleAsCurrent: { n: number; ids: string[] };
  stored: number;
  storedCorrect: number;
  expected: number;
  expectedFound: number;
  precision: number;
  recall: number;
  /** Follow-ups that expect facts, and the sum of their recall@3. */
  recallQuestions: number;
  recallHits3: number;
  recallAt3: number;
  /** Dialogues right (every expected fact, nothing stale, every follow-up complete). */
  right: number;
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : Math.round((a / b) * 1000) / 1000);

export function changeMetrics(results: readonly ChangeResult[]): ChangeMetrics {
  const stale = results.filter((r) => r.stale.length > 0).map((r) => r.id);
  const stored = results.reduce((n, r) => n + r.facts.length, 0);
  const extra = results.reduce((n, r) => n + r.extra.length, 0);
  const expectedN = results.reduce((n, r) => n + r.expected, 0);
  const missing = results.reduce((n, r) => n + r.missing.length, 0);
  const questions = results.flatMap((r) => r.followUps.filter((f) => !f.expectsNothing));
  const hits = questions.reduce((n, f) => n + f.score3, 0);
  return {
    dialogues: results.length,
    staleAsCurrent: { n: stale.length, ids: stale },
    stored,
    storedCorrect: stored - extra,
    expected: expectedN,
    expectedFound: expectedN - missing,
    precision: ratio(stored - extra, stored),
    recall: ratio(expectedN - missing, expectedN),
    recallQuestions: questions.length,
    recallHits3: hits,
    recallAt3: ratio(hits, questions.length),
    right: results.filter((r) => r.right).length,
  };
}

export interface ChangeReport {
  overall: ChangeMetrics;
  byGroup: Record<string, ChangeMetrics>;
  byLang: Record<string, ChangeMetrics>;
  byKind: Record<string, ChangeMetrics>;
}

export async function evaluateChanges(
  dialogues: readonly ChangeDialogue[],
): Promise<{ report: ChangeReport; results: ChangeResult[] }> {
  const results: ChangeResult[] = [];
  for (const d of dialogues) results.push(await runChange(d));
  const by = (key: (r: ChangeResult) => string): Record<string, ChangeMetrics> => {
    const groups = new Map<string, ChangeResult[]>();
    for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
    return Object.fromEntries([...groups].map(([k, rs]) => [k, changeMetrics(rs)]));
  };
  return {
    report: {
      overall: changeMetrics(results),
      byGroup: by((r) => r.split),
      byLang: by((r) => r.lang),
      byKind: by((r) => r.kind),
    },
    results,
  };
}

function row(label: string, m: ChangeMetrics): string {
  return [
    label.padEnd(15),
    String(m.dialogues).padStart(4),
    m.precision.toFixed(3).padStart(7),
    m.recall.toFixed(3).padStart(7),
    m.recallAt3.toFixed(3).padStart(7),
    `${m.right}/${m.dialogues}`.padStart(8),
    String(m.staleAsCurrent.n).padStart(6),
  ].join(" ");
}

/** The table of the change set (also printed by `npm run eval:memory`). */
export function changesTable(report: ChangeReport): string[] {
  const header = [
    "set".padEnd(15),
    "n".padStart(4),
    "P".padStart(7),
    "R".padStart(7),
    "R@3".padStart(7),
    "right".padStart(8),
    "stale".padStart(6),
  ].join(" ");
  return [
    header,
    row("overall", report.overall),
    ...Object.entries(report.byGroup).map(([k, m]) => row(k, m)),
    ...Object.entries(report.byLang).map(([k, m]) => row(k, m)),
    ...Object.entries(report.byKind).map(([k, m]) => row(`kind:${k}`, m)),
  ];
}

const show = (f: { category: string; value: string }) => `${f.category}=${f.value}`;

/**
 * One line per failing dialogue: what is missing, extra, stale, and each incomplete block.
 * Held-out dialogues only with `heldOut` (they stay unseen while tuning).
 */
export function failures(results: readonly ChangeResult[], heldOut = false): string[] {
  const out: string[] = [];
  for (const r of results) {
    if (r.right && r.extra.length === 0) continue;
    if (r.split === "held-out" && !heldOut) continue;
    const parts: string[] = [];
    if (r.stale.length > 0) {
      parts.push(`stale ${r.stale.map((s) => `${show(s.value)} (${s.where})`).join(", ")}`);
    }
    if (r.missing.length > 0) parts.push(`missing ${r.missing.map(show).join(", ")}`);
    if (r.extra.length > 0) parts.push(`extra ${r.extra.map(show).join(", ")}`);
    for (const f of r.followUps) {
      if (!f.expectsNothing && f.score3 < 1) {
        parts.push(
          `R@3 ${f.score3.toFixed(2)} for ${JSON.stringify(f.question)} [${f.block.join(" | ")}]`,
        );
      }
    }
    out.push(`${r.id} (${r.split}, ${r.kind}): ${parts.join("; ")}`);
  }
  return out;
}

async function main(argv: readonly string[]): Promise<void> {
  const { report, results } = await evaluateChanges(loadChanges());
  if (argv.includes("--json")) {
    console.log(JSON.stringify(report));
    return;
  }
  for (const line of changesTable(report)) console.log(line);
  for (const line of failures(results, argv.includes("--show-held-out"))) console.log(line);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main(process.argv.slice(2));
}
