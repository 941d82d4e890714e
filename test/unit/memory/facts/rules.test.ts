/**
 * Every cue row proves itself: run alone on its example, it gives what the example says.
 * A row that no longer reads its own example, or reads something else, fails here by name.
 */
import { describe, expect, it } from "vitest";
import { englishClause, FIRST_PERSON } from "../../../../src/memory/facts/english.ts";
import { type Rule, runRetractions, runRules } from "../../../../src/memory/facts/rules.ts";
import { RULES_EN } from "../../../../src/memory/facts/rules-en.ts";

/** What one row gives on a clause: "kind=value" facts, "-id=value" retractions. */
function gives(rule: Rule, clause: string): string[] {
  const text = englishClause(clause);
  if (rule.retract === true) {
    const self = FIRST_PERSON.test(text);
    return (self ? runRetractions([rule], text) : []).map(
      (r) => `-${r.id ?? r.category}${r.value === undefined ? "" : `=${r.value}`}`,
    );
  }
  const self = FIRST_PERSON.test(text);
  return runRules([rule], self ? text : text.trim(), self).map((c) => `${c.category}=${c.value}`);
}

describe("R8.2 the English cue rows", () => {
  it("R8.2 every row gives its example", () => {
    for (const rule of RULES_EN) {
      const [clause, ...expected] = rule.example;
      expect(gives(rule, clause), `${rule.kind} row on "${clause}"`).toEqual(expected);
    }
  });

  it("R8.2 every row gives nothing on a clause without its need words", () => {
    for (const rule of RULES_EN) {
      expect(gives(rule, "Nothing much, thanks."), `${rule.kind} row`).toEqual([]);
    }
  });
});
