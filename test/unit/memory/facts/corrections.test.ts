/**
 * Changes said the way people say them: a new workplace named in passing, a trip replaced
 * "instead", a switch of drink, an injury or a test result as the reason of a change. Each
 * case is a way of saying, checked through the whole chain (extraction, supersession,
 * recall), with a paraphrase beside the first wording.
 */
import { describe, expect, it } from "vitest";
import { type Fact, recallFacts, updateFacts } from "../../../../src/memory/facts/index.ts";

const remember = (utterances: readonly string[]): Fact[] =>
  utterances.reduce<Fact[]>((facts, u, turn) => updateFacts(facts, u, { turn }), []);

const current = (facts: readonly Fact[]): string[] =>
  facts.filter((fact) => fact.retired !== true).map((fact) => `${fact.category}=${fact.value}`);

const top3 = (facts: readonly Fact[], question: string): string[] =>
  recallFacts(facts, question, 3).map((fact) => `${fact.category}=${fact.value}`);

describe("R8.3 a change said in passing replaces the old value", () => {
  it("R8.3 a new workplace named 'a startup called X', the role kept 'still as a PM'", () => {
    for (const move of [
      "Starting Monday I'm at a tiny climate startup called Fernwood, still as a PM.",
      "I just joined a small design agency called Fernwood, still as a PM.",
    ]) {
      const facts = remember(["I work at Google as a product manager.", "I quit Google.", move]);
      expect(current(facts)).toContain("workplace=Fernwood");
      expect(current(facts)).not.toContain("workplace=Google");
      expect(top3(facts, "What's my role?")).toContain("job=product manager");
      expect(top3(facts, "Which company do I work for?")).toContain("workplace=Fernwood");
    }
  });

  it("R8.3 a trip replaced 'instead' is the plan a trip question recalls", () => {
    for (const change of [
      "Change of plans, flights got too expensive, so we're doing Portugal instead.",
      "We're going to Portugal instead, it's cheaper.",
    ]) {
      const facts = remember(["I'm a chemistry teacher.", change]);
      expect(current(facts)).toContain("plan=Portugal");
      expect(top3(facts, "Where am I traveling this spring?")).toContain("plan=Portugal");
      expect(top3(facts, "What should I pack for my trip?")).toContain("plan=Portugal");
    }
  });

  it("R8.3 a switch of drink after 'no more X' is the taste a drink question recalls", () => {
    for (const change of [
      "So no more coffee for me, I switched to rooibos tea.",
      "Coffee was wrecking my sleep, so I switched to rooibos tea instead.",
    ]) {
      const facts = remember(["I live in Austin.", change]);
      expect(current(facts)).toContain("preference=rooibos tea");
      expect(top3(facts, "What do I like to drink?")).toContain("preference=rooibos tea");
    }
  });

  it("R8.2 an injury, a test result and a condition given as a reason are health facts", () => {
    expect(current(remember(["Bad news, I sprained my ankle on a trail run."]))).toContain(
      "health=sprained ankle",
    );
    expect(current(remember(["My doctor said my iron is low."]))).toContain("health=low iron");
    expect(
      current(remember(["My doctor told me to cut caffeine because of heart palpitations."])),
    ).toContain("health=heart palpitations");
    // Another person's reason is not the user's.
    expect(
      current(remember(["My sister skipped the party because of migraines."])).filter((fact) =>
        fact.startsWith("health="),
      ),
    ).toEqual([]);
  });

  it("R8.2 a business one opens or runs says the job", () => {
    expect(current(remember(["I'm opening a bakery with my husband!"]))).toContain(
      "job=bakery owner",
    );
    expect(current(remember(["We just opened a little coffee shop downtown."]))).toContain(
      "job=coffee shop owner",
    );
  });

  it("R8.3 quitting a drink or a habit does not take back the job", () => {
    for (const habit of ["I quit coffee last month.", "I quit smoking, finally!"]) {
      const facts = remember(["I work at Google.", habit]);
      expect(current(facts), habit).toContain("workplace=Google");
    }
  });
});
