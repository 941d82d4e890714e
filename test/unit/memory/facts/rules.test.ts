/**
 * Every cue row proves itself: run alone on its example, it gives exactly what the example
 * says ("kind=value" facts, "-id=value" retractions). A row that no longer reads its own
 * example, or reads something else, fails here by name. Through the whole extractor the
 * examples are checked in trust.test.ts.
 */
import { describe, expect, it } from "vitest";
import { englishClause, FIRST_PERSON } from "../../../../src/memory/facts/english.ts";
import { subjectOfKo, tokensOf } from "../../../../src/memory/facts/korean.ts";
import { type Rule, runRetractions, runRules } from "../../../../src/memory/facts/rules.ts";
import { RULES_EN } from "../../../../src/memory/facts/rules-en.ts";
import { RULES_KO } from "../../../../src/memory/facts/rules-ko.ts";

/** What one row gives on a clause, the clause prepared as the extractor prepares it. */
function gives(rule: Rule, clause: string): string[] {
  let text = clause;
  let self: boolean;
  if (rule.lang === "en") {
    text = englishClause(clause);
    self = FIRST_PERSON.test(text);
    if (!self) text = text.trim();
  } else {
    self = subjectOfKo(tokensOf(text)).kind === "self";
  }
  if (rule.retract === true) {
    const read = rule.lang === "ko" || self ? runRetractions([rule], text) : [];
    return read.map((r) => `-${r.id ?? r.category}${r.value === undefined ? "" : `=${r.value}`}`);
  }
  return runRules([rule], text, self).map((c) => `${c.category}=${c.value}`);
}

const ROWS = [...RULES_EN, ...RULES_KO];

describe("R8.2 the cue rows", () => {
  it(`R8.2 every row gives its example (${ROWS.length} rows)`, () => {
    for (const rule of ROWS) {
      const [clause, ...expected] = rule.example;
      expect(gives(rule, clause), `${rule.lang} ${rule.kind} row on "${clause}"`).toEqual(expected);
    }
  });

  it("R8.2 every row gives what its paraphrases say, so a row reads a way of saying, not one sentence", () => {
    const withParaphrases = ROWS.filter((rule) => rule.paraphrases !== undefined);
    expect(withParaphrases.length).toBeGreaterThan(0);
    for (const rule of withParaphrases) {
      for (const [clause, ...expected] of rule.paraphrases ?? []) {
        expect(gives(rule, clause), `${rule.lang} ${rule.kind} row on "${clause}"`).toEqual(
          expected,
        );
      }
    }
  });

  it("R8.2 every row gives nothing on a clause without its need words", () => {
    for (const rule of ROWS) {
      const clause = rule.lang === "en" ? "Nothing much, thanks." : "그냥 그래요.";
      expect(gives(rule, clause), `${rule.lang} ${rule.kind} row`).toEqual([]);
    }
  });

  it("R8.2 every row but the job-word scan names the words it needs", () => {
    const without = ROWS.filter((rule) => rule.pattern.needGroups() === undefined);
    expect(without.map((rule) => `${rule.lang} ${rule.kind} ${rule.example[0]}`)).toEqual([
      "ko job 저는 간호사예요",
    ]);
  });
});
