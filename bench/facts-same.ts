/**
 * Same output before and after a change to the fact rules or the recall terms
 * (a cold-start change must not change what is extracted or recalled). Runs every utterance
 * of the fact corpus — the dialogues' turns and follow-ups, the chit-chat lines, the unit
 * cases, the string literals of the fact and recall tests, each also lower-cased, and each
 * dialogue's turns joined into one message — through extraction (with and without a
 * family member before), the index terms, and each dialogue's update chain and recall
 * (its follow-up and every other follow-up), and writes or compares one JSON file.
 *
 *   npx tsx bench/facts-same.ts --write /tmp/facts-before.json   # on the old revision
 *   npx tsx bench/facts-same.ts --against /tmp/facts-before.json # on the new one
 *
 * With --against it prints every utterance whose output differs and exits 1 when any does.
 * Held-out material (bench/facts-eval.ts HELD_OUT: those splits' dialogues and chit-chat
 * lines) is compared too but never printed: only how many of its outputs differ, so a run
 * while tuning does not show the held-out cases.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  analyseUtterance,
  type Fact,
  recallFacts,
  scoreFacts,
  updateFacts,
} from "../src/memory/facts/index.ts";
import { queryTerms, searchTerms } from "../src/memory/recall/terms.ts";
import { NOTHING, POSITIVE } from "../test/unit/memory/facts/cases.ts";
import { HELD_OUT, loadChitChat, loadDialogues } from "./facts-eval.ts";

const TEST_DIRS = ["../test/unit/memory/facts/", "../test/unit/memory/recall/"];

/** String literals of the fact and recall tests that look like utterances. */
function testLiterals(): string[] {
  const out: string[] = [];
  for (const dir of TEST_DIRS) {
    const path = fileURLToPath(new URL(dir, import.meta.url));
    for (const file of readdirSync(path).filter((name) => name.endsWith(".test.ts"))) {
      const source = readFileSync(`${path}${file}`, "utf8");
      for (const m of source.matchAll(/"((?:[^"\\\n]|\\.){3,400})"|`([^`$\\\n]{3,400})`/g)) {
        const text = m[1] ?? m[2] ?? "";
        if (/\s/.test(text) || /[가-힣]/.test(text)) out.push(text.replace(/\\"/g, '"'));
      }
    }
  }
  return out;
}

/** Keys of held-out outputs (utterances of held-out dialogues and chit-chat, their dialogues). */
export function heldOutKeys(): Set<string> {
  const texts = [
    ...loadDialogues()
      .filter((d) => HELD_OUT.has(d.split ?? "dev"))
      .flatMap((d) => [...d.turns, d.followUp, d.turns.join(" ")]),
    ...loadChitChat()
      .filter((line) => HELD_OUT.has(line.split))
      .map((line) => line.text),
  ];
  return new Set([
    ...texts.flatMap((text) => [`u:${text}`, `u:${text.toLowerCase()}`]),
    ...loadDialogues()
      .filter((d) => HELD_OUT.has(d.split ?? "dev"))
      .map((d) => `d:${d.id}`),
  ]);
}

export function corpus(): { utterances: string[]; dialogues: ReturnType<typeof loadDialogues> } {
  const dialogues = loadDialogues();
  const base = [
    ...dialogues.flatMap((d) => [...d.turns, d.followUp, d.turns.join(" ")]),
    ...loadChitChat().map((line) => line.text),
    ...Object.values(POSITIVE).flatMap((byLang) =>
      [...byLang.ko, ...byLang.en].map(([utterance]) => utterance),
    ),
    ...NOTHING,
    ...testLiterals(),
  ];
  const utterances = [...new Set(base.flatMap((text) => [text, text.toLowerCase()]))];
  return { utterances, dialogues };
}

const brief = (facts: readonly Fact[]) => facts.map((f) => [f.id, f.text, f.value, f.source]);

function outputs(): Record<string, unknown> {
  const { utterances, dialogues } = corpus();
  const out: Record<string, unknown> = {};
  for (const text of utterances) {
    const { facts, retractions } = analyseUtterance(text, { turn: 3 });
    out[`u:${text}`] = {
      facts: brief(facts),
      retractions,
      member: brief(analyseUtterance(text, { afterMember: true }).facts),
      search: searchTerms(text),
      query: queryTerms(text),
    };
  }
  const heldOut = (d: (typeof dialogues)[number]) => HELD_OUT.has(d.split ?? "dev");
  const followUps = [
    ...new Set(dialogues.filter((d) => !heldOut(d)).map((d) => d.followUp)),
    ...NOTHING,
  ];
  const heldOutFollowUps = [...new Set(dialogues.filter((d) => heldOut(d)).map((d) => d.followUp))];
  const round = (s: number) => Math.round(s * 1e6) / 1e6;
  for (const d of dialogues) {
    let facts: Fact[] = [];
    const chain: unknown[] = [];
    d.turns.forEach((turn, index) => {
      facts = updateFacts(facts, turn, { turn: index });
      chain.push(facts.map((f) => f.id));
    });
    out[`d:${d.id}`] = {
      chain,
      facts: brief(facts),
      recall: recallFacts(facts, d.followUp, 3).map((f) => f.id),
      scores: followUps.map((q) => scoreFacts(facts, q).map(round)),
      heldOutScores: heldOutFollowUps.map((q) => scoreFacts(facts, q).map(round)),
    };
  }
  return out;
}

function main(argv: readonly string[]): void {
  const write = argv.indexOf("--write");
  const against = argv.indexOf("--against");
  const result = outputs();
  const keys = Object.keys(result);
  if (write >= 0) {
    writeFileSync(argv[write + 1] ?? "facts-same.json", JSON.stringify(result));
    console.log(
      `wrote ${keys.length} outputs (${keys.filter((k) => k.startsWith("u:")).length} utterances)`,
    );
    return;
  }
  if (against < 0) throw new Error("--write <file> or --against <file>");
  const before = JSON.parse(readFileSync(argv[against + 1] ?? "", "utf8")) as Record<
    string,
    unknown
  >;
  // Only what both runs saw: a new test file adds utterances, which is not a change of output.
  const differ = keys.filter(
    (key) => key in before && JSON.stringify(result[key]) !== JSON.stringify(before[key]),
  );
  const added = keys.filter((key) => !(key in before)).length;
  const gone = Object.keys(before).filter((key) => !(key in result)).length;
  const hidden = heldOutKeys();
  const shown = differ.filter((key) => !hidden.has(key));
  /** A dialogue's output without its scores for the held-out follow-ups. */
  const visible = (value: unknown): unknown =>
    typeof value === "object" && value !== null && "heldOutScores" in value
      ? { ...value, heldOutScores: "(held out, not shown)" }
      : value;
  for (const key of shown.slice(0, 50)) {
    console.log(
      `DIFFERS ${key}\n  before ${JSON.stringify(visible(before[key]))}\n  after  ${JSON.stringify(visible(result[key]))}`,
    );
  }
  if (differ.length > shown.length)
    console.log(`${differ.length - shown.length} held-out outputs differ (not shown)`);
  const utterances = keys.filter((k) => k.startsWith("u:")).length;
  console.log(
    `${utterances} utterances, ${keys.length - utterances} dialogues (${added} not in the old file, ${gone} only there): ${differ.length === 0 ? "same output" : `${differ.length} differ`}`,
  );
  if (differ.length > 0) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main(process.argv.slice(2));
