/**
 * The evaluation set test/fixtures/facts/dialogues.json must keep the quality measured by
 * bench/facts-eval.ts. Floors sit slightly below the measured values (see the numbers in
 * each expectation) so a regression fails; raise them when the extractor improves.
 */
import { describe, expect, it } from "vitest";
import {
  type Dialogue,
  evaluate,
  loadChitChat,
  loadDialogues,
} from "../../../../bench/facts-eval.ts";
import { FACT_CATEGORIES } from "../../../../src/memory/facts/index.ts";

const dialogues: Dialogue[] = loadDialogues();
/** The first 156 dialogues (splits dev, holdout1, holdout2), whose floors are older than the later splits'. */
const FIRST = new Set(["dev", "holdout1", "holdout2"]);
const { report } = evaluate(
  dialogues.filter((d) => FIRST.has(d.split ?? "dev")),
  { latency: false },
);
const all = evaluate(dialogues, { latency: false, chitchat: loadChitChat() }).report;
/** The newest dev splits, written after the rounds below; each has floors of its own. */
const NEWEST: ReadonlySet<string> = new Set(["dev7", "dev8", "dev9", "dev10", "dev11", "dev12"]);
const before = evaluate(
  dialogues.filter((d) => !NEWEST.has(d.split ?? "dev")),
  { latency: false, chitchat: loadChitChat().filter((line) => !NEWEST.has(line.split)) },
).report;

describe("R8.1/R8.2 fact recall evaluation set", () => {
  it("at least 150 dialogues, half Korean, with corrections, chit-chat and a held-out split", () => {
    expect(dialogues.length).toBeGreaterThanOrEqual(150);
    const korean = dialogues.filter((d) => d.lang === "ko").length;
    expect(korean * 2).toBeGreaterThanOrEqual(dialogues.length);
    expect(dialogues.filter((d) => (d.forbidden ?? []).length > 0).length).toBeGreaterThanOrEqual(
      16,
    );
    expect(all.overall.chitchat.n).toBeGreaterThanOrEqual(80);
    expect(all.byGroup["held-out"]?.dialogues).toBeGreaterThanOrEqual(40);
  });

  it("has at least 60 varied dialogues in Korean, English and mixed", () => {
    expect(dialogues.length).toBeGreaterThanOrEqual(60);
    const byLang = (lang: string) => dialogues.filter((d) => d.lang === lang).length;
    expect(byLang("ko")).toBeGreaterThanOrEqual(25);
    expect(byLang("en")).toBeGreaterThanOrEqual(25);
    expect(byLang("mixed")).toBeGreaterThanOrEqual(10);
    expect(new Set(dialogues.map((d) => d.id)).size).toBe(dialogues.length);
    expect(new Set(dialogues.map((d) => d.followUp)).size).toBeGreaterThan(dialogues.length * 0.9);
    // Distractors: dialogues that state nothing, and follow-ups that should recall nothing.
    expect(dialogues.filter((d) => d.expectedFacts.length === 0).length).toBeGreaterThanOrEqual(5);
    expect(dialogues.filter((d) => d.expectedRecall.length === 0).length).toBeGreaterThanOrEqual(5);
    // Every category is exercised.
    const categories = new Set(dialogues.flatMap((d) => d.expectedFacts.map((e) => e.category)));
    for (const category of FACT_CATEGORIES) expect(categories).toContain(category);
  });

  it("is well-formed", () => {
    for (const d of dialogues) {
      expect(["ko", "en", "mixed"]).toContain(d.lang);
      expect(d.turns.length).toBeGreaterThan(0);
      for (const e of [...d.expectedFacts, ...d.expectedRecall]) {
        expect(FACT_CATEGORIES, d.id).toContain(e.category);
        expect(e.value.trim(), d.id).not.toBe("");
      }
      expect(d.followUp.trim()).not.toBe("");
    }
  });

  it("overall floors (measured P 1.000, R 1.000, R@1 0.986, R@3 1.000, empty 1.0)", () => {
    const m = report.overall;
    expect(m.extraction.precision).toBeGreaterThanOrEqual(0.97);
    expect(m.extraction.recall).toBeGreaterThanOrEqual(0.97);
    expect(m.recallAt1).toBeGreaterThanOrEqual(0.95);
    expect(m.recallAt3).toBeGreaterThanOrEqual(0.97);
    expect(m.emptyAt3).toBe(1);
  });

  it("per-language floors (measured ko P 1.0/R 1.0/R@3 1.0, en 1.0/1.0/1.0, mixed 1.0/1.0/1.0)", () => {
    const { ko, en, mixed } = report.byLang;
    expect(ko?.extraction.precision).toBeGreaterThanOrEqual(0.96);
    expect(ko?.extraction.recall).toBeGreaterThanOrEqual(0.95);
    expect(ko?.recallAt3).toBeGreaterThanOrEqual(0.95);
    expect(en?.extraction.precision).toBeGreaterThanOrEqual(0.96);
    expect(en?.extraction.recall).toBeGreaterThanOrEqual(0.95);
    expect(en?.recallAt3).toBeGreaterThanOrEqual(0.95);
    expect(mixed?.extraction.precision).toBeGreaterThanOrEqual(0.95);
    expect(mixed?.extraction.recall).toBeGreaterThanOrEqual(0.95);
    expect(mixed?.recallAt3).toBeGreaterThanOrEqual(0.95);
  });

  it("holdout2 floors (measured P 1.0, R 1.0, R@3 1.0 after fixes; .828/.686/.551 at its first run)", () => {
    const holdout2 = report.bySplit.holdout2;
    expect(holdout2?.extraction.precision).toBeGreaterThanOrEqual(0.95);
    expect(holdout2?.extraction.recall).toBeGreaterThanOrEqual(0.95);
    expect(holdout2?.recallAt3).toBeGreaterThanOrEqual(0.92);
  });

  it("floors (measured: tuned before dev7 R@3 1.0, corrections 15/15, chit-chat 1.0; held-out (holdout3 + holdout4) R@3 .904, 11/11, .940 at the end of the dev11/dev12 work, .886, 11/11, .940 at the end of the dev7–dev10 work, .860, 9/11, .960 before it — holdout3 .550, 4/8, .950 before the first changes)", () => {
    const tuned = before.byGroup.tuned;
    const heldOut = all.byGroup["held-out"];
    expect(tuned?.recallAt3).toBeGreaterThanOrEqual(0.97);
    // d5-en-04 ("IPAs", then "lately … can't stand bitter beer, I'm more into sours") is
    // right since a changed preference replaces the one stated just before it.
    expect(tuned?.corrections.right).toBe(tuned?.corrections.n);
    expect(tuned?.chitchat.silent).toBeGreaterThanOrEqual(0.95);
    expect(heldOut?.recallAt3).toBeGreaterThanOrEqual(0.88);
    expect(heldOut?.corrections.right).toBeGreaterThanOrEqual(10);
    expect(heldOut?.chitchat.silent).toBeGreaterThanOrEqual(0.93);
    expect(all.overall.emptyAt3).toBe(1);
    // The target: every correction right, in the whole set (tuned 44/44 since the bare
    // "I'm in <place>." rule).
    expect(all.overall.corrections.right).toBe(all.overall.corrections.n);
  });

  /**
   * The newer tuning splits: each was run once before any rule changed for it (its first-run
   * numbers are in its title), then its floors hold what its fixes reached. Every correction
   * of each must be right.
   */
  const SPLIT_FLOORS: readonly {
    split: string;
    title: string;
    dialogues: number;
    precision: number;
    recall: number;
    recallAt3: number;
    chitchat: number;
  }[] = [
    {
      split: "dev7",
      title:
        "first run P .826, R .543, R@3 .567, corrections 4/7, chit-chat .917; after its fixes 1.0, 1.0, 1.0, 7/7, 1.0",
      dialogues: 30,
      precision: 0.95,
      recall: 0.95,
      recallAt3: 0.95,
      chitchat: 0.95,
    },
    {
      split: "dev8",
      title:
        "first run P .875, R .500, R@3 .417, corrections 2/6, chit-chat 1.0; after its fixes 1.0, 1.0, 1.0, 6/6, 1.0; P .963 counted strictly (d8-ko-08's near-copy '쌀국수만')",
      dialogues: 25,
      precision: 0.95,
      recall: 0.95,
      recallAt3: 0.95,
      chitchat: 0.95,
    },
    {
      // d9-ko-02: the dog's surgery this week is stored as the user's plan (precision .962).
      split: "dev9",
      title:
        "first run P .824, R .560, R@3 .545, corrections 2/6, chit-chat .875; after its fixes .962, 1.0, 1.0, 6/6, 1.0",
      dialogues: 24,
      precision: 0.95,
      recall: 0.95,
      recallAt3: 0.95,
      chitchat: 0.95,
    },
    {
      // Left: a generic workplace ("a tiny cafe downtown"), "my sister's dog" (a sister).
      split: "dev10",
      title:
        "first run P .857, R .632, R@3 .556, corrections 1/2, chit-chat .833; after its fixes .947, .947, .944, 1/2, .833; after the bare 'I'm in <place>.' rule .95, 1.0, 1.0, 2/2, .833; P .90 counted strictly (a clause stored as the allergy in d10-en-09)",
      dialogues: 20,
      precision: 0.9,
      recall: 0.95,
      recallAt3: 0.95,
      chitchat: 0.8,
    },
    {
      // d11-en-03: "a line cook at a steakhouse" also stores the steakhouse as the workplace,
      // which the dialogue does not expect (a generic workplace, as in dev10).
      split: "dev11",
      title:
        "first run P .897, R .743, R@3 .688, corrections 3/5, chit-chat 1.0; after its fixes .972, 1.0, 1.0, 5/5, 1.0",
      dialogues: 30,
      precision: 0.95,
      recall: 0.95,
      recallAt3: 0.95,
      chitchat: 0.95,
    },
    {
      split: "dev12",
      title:
        "written with dev11 and run with it before any rule changed: P .962, R .714, R@3 .600, corrections 3/3, chit-chat 1.0; after the fixes 1.0, 1.0, 1.0, 3/3, 1.0",
      dialogues: 30,
      precision: 0.95,
      recall: 0.95,
      recallAt3: 0.95,
      chitchat: 0.95,
    },
  ];

  it.each(SPLIT_FLOORS)("$split floors ($title)", (floor) => {
    const got = all.bySplit[floor.split];
    expect(got?.dialogues).toBeGreaterThanOrEqual(floor.dialogues);
    expect(got?.extraction.precision).toBeGreaterThanOrEqual(floor.precision);
    expect(got?.extraction.recall).toBeGreaterThanOrEqual(floor.recall);
    expect(got?.recallAt3).toBeGreaterThanOrEqual(floor.recallAt3);
    expect(got?.corrections.right).toBe(got?.corrections.n);
    expect(got?.chitchat.silent).toBeGreaterThanOrEqual(floor.chitchat);
  });
});
