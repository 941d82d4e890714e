import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLlamonError } from "../../../../src/errors.ts";
import {
  applyRetractions,
  DEFAULT_MAX_FACTS,
  extractFacts,
  FACT_CATEGORIES,
  type Fact,
  mergeFacts,
  updateFacts,
} from "../../../../src/memory/facts/index.ts";

const fact = (id: string, value: string, extra: Partial<Fact> = {}): Fact => ({
  id,
  category: (id.split(":")[0] ?? "other") as Fact["category"],
  text: `text of ${value}`,
  value,
  lang: "en",
  source: value,
  ...extra,
});

const run = (utterances: readonly string[]): Fact[] =>
  utterances.reduce<Fact[]>((facts, u, turn) => updateFacts(facts, u, { turn }), []);

const values = (facts: readonly Fact[]) => facts.map((f) => `${f.id}=${f.value}`);

describe("R8.2 mergeFacts: later corrections supersede", () => {
  it("English: 'actually I moved to Busan' replaces the earlier city", () => {
    expect(values(run(["I live in Seoul.", "Actually I moved to Busan."]))).toEqual([
      "residence=Busan",
    ]);
  });

  it("Korean: '이제 부산에 살아' replaces '서울에 살아'", () => {
    expect(values(run(["나 서울에 살아", "아 아니다 이제 부산에 살아"]))).toEqual([
      "residence=부산",
    ]);
  });

  it("across languages the id is the same, so the newer language wins", () => {
    expect(values(run(["I live in Seoul", "지금은 부산에 살아요"]))).toEqual(["residence=부산"]);
    expect(values(run(["My favorite color is green.", "My favorite color is blue now."]))).toEqual([
      "preference:favorite:color=blue",
    ]);
    expect(values(run(["Hey, I'm Marcus.", "Call me Marc though."]))).toEqual(["name=Marc"]);
  });

  it("hometown and current residence are separate slots", () => {
    expect(values(run(["I'm originally from Manchester but I live in London now."]))).toEqual([
      "residence:hometown=Manchester",
      "residence=London",
    ]);
  });

  it("liking and disliking the same thing exclude each other", () => {
    expect(values(run(["I love coffee", "I don't like coffee anymore"]))).toEqual([
      "dislike:coffee=coffee",
    ]);
    expect(values(run(["오이 싫어해요", "요즘은 오이를 좋아해요"]))).toEqual([
      "preference:오이=오이",
    ]);
  });

  it("retractions drop the stale fact (negation, quitting, selling)", () => {
    expect(values(run(["I live in Seattle.", "I don't live in Seattle anymore."]))).toEqual([]);
    expect(values(run(["I live in Seattle.", "I don't live in Denver."]))).toEqual([
      "residence=Seattle",
    ]);
    expect(values(run(["I drive a Tesla.", "I sold my car last week."]))).toEqual([]);
    expect(values(run(["삼성전자에서 일해요", "저 지난달에 퇴사했어요"]))).toEqual([]);
    expect(
      values(run(["서울에 살아요", "저 이제 서울에 안 살아요", "수원으로 이사 왔어요"])),
    ).toEqual(["residence=수원"]);
    expect(
      applyRetractions([fact("plan:jeju", "Jeju trip")], [{ category: "plan", value: "jeju" }]),
    ).toEqual([]);
  });

  it("questions and hypotheticals change nothing", () => {
    const before = run(["I live in Lyon."]);
    expect(updateFacts(before, "Where do I live?")).toEqual(before);
    expect(updateFacts(before, "If I lived in Paris I'd eat croissants every day.")).toEqual(
      before,
    );
    expect(updateFacts(before, "제가 어디 살죠?")).toEqual(before);
  });
});

describe("R8.2 mergeFacts: dedupe, order and cap", () => {
  it("one fact per id; repeating a fact moves it to the end (most recent)", () => {
    const a = fact("residence", "Seoul");
    const b = fact("allergy:peanut", "peanut");
    const merged = mergeFacts([a, b], [fact("residence", "Seoul", { turn: 5 })]);
    expect(merged.map((f) => f.id)).toEqual(["allergy:peanut", "residence"]);
    expect(merged[1]?.turn).toBe(5);
    expect(mergeFacts([a, a, b, b], [])).toEqual([a, b]);
  });

  it(`keeps at most max facts (default ${DEFAULT_MAX_FACTS}), dropping the oldest`, () => {
    const many = Array.from({ length: 60 }, (_, i) => fact(`other:n${i}`, `n${i}`));
    const merged = mergeFacts([], many);
    expect(merged).toHaveLength(DEFAULT_MAX_FACTS);
    expect(merged[0]?.id).toBe("other:n10");
    expect(mergeFacts(many.slice(0, 3), [], { max: 2 }).map((f) => f.id)).toEqual([
      "other:n1",
      "other:n2",
    ]);
    expect(mergeFacts(many, [], { max: 0 })).toEqual([]);
  });

  it("an invalid max is INPUT_INVALID", () => {
    for (const max of [-1, 1.5, Number.NaN]) {
      try {
        mergeFacts([], [], { max });
        expect.unreachable();
      } catch (error) {
        expect(isLlamonError(error, "INPUT_INVALID")).toBe(true);
      }
    }
  });

  it("does not modify its inputs", () => {
    const existing = Object.freeze([fact("residence", "Seoul")]);
    const incoming = Object.freeze([fact("residence", "Busan")]);
    expect(() => mergeFacts(existing, incoming)).not.toThrow();
    expect(existing[0]?.value).toBe("Seoul");
  });

  const arbitraryFact = fc
    .record({
      category: fc.constantFrom(...FACT_CATEGORIES),
      key: fc.constantFrom("a", "b", "c", "coffee", ""),
      value: fc.constantFrom("Seoul", "Busan", "coffee", "땅콩", "x"),
      turn: fc.option(fc.nat(20), { nil: undefined }),
    })
    .map(({ category, key, value, turn }) =>
      fact(key === "" ? category : `${category}:${key}`, value, { category, turn }),
    );
  const facts = fc.array(arbitraryFact, { maxLength: 30 });

  it("is idempotent: merge(merge(a, b), b) = merge(a, b), merge(x, x) = merge(x, []) (property)", () => {
    fc.assert(
      fc.property(facts, facts, fc.integer({ min: 0, max: 60 }), (a, b, max) => {
        const once = mergeFacts(a, b, { max });
        expect(mergeFacts(once, b, { max })).toEqual(once);
        expect(mergeFacts(once, [], { max })).toEqual(once);
        expect(mergeFacts(a, a, { max })).toEqual(mergeFacts(a, [], { max }));
      }),
    );
  });

  it("never exceeds max, never repeats an id, never keeps both like and dislike of a thing (property)", () => {
    fc.assert(
      fc.property(facts, facts, fc.integer({ min: 0, max: 60 }), (a, b, max) => {
        const merged = mergeFacts(a, b, { max });
        expect(merged.length).toBeLessThanOrEqual(max);
        const ids = merged.map((f) => f.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of ids) {
          if (id.startsWith("preference:") && !id.includes(":favorite:")) {
            expect(ids).not.toContain(id.replace("preference:", "dislike:"));
          }
        }
        // Every incoming fact that survived the cap is there, as given.
        const last = new Map(b.map((f) => [f.id, f]));
        for (const f of merged) if (last.get(f.id) !== undefined) expect(last.has(f.id)).toBe(true);
      }),
    );
  });

  it("updateFacts over extracted facts is idempotent per utterance (property over phrases)", () => {
    const phrases = fc.constantFrom(
      "I live in Seoul",
      "Actually I moved to Busan",
      "저는 땅콩 알레르기가 있어요",
      "I love coffee",
      "I don't like coffee",
      "My wife's name is Emily",
      "제 차는 아반떼예요",
      "I sold my car",
    );
    fc.assert(
      fc.property(fc.array(phrases, { maxLength: 8 }), (utterances) => {
        const state = run(utterances);
        const again = mergeFacts(state, extractFacts(utterances.at(-1) ?? ""));
        if (!/sold/.test(utterances.at(-1) ?? "")) expect(values(again)).toEqual(values(state));
      }),
    );
  });
});

describe("corrections that name the corrected value", () => {
  const factsAfter = (turns: string[]) => {
    let facts: ReturnType<typeof updateFacts> = [];
    turns.forEach((turn, index) => {
      facts = updateFacts(facts, turn, { turn: index });
    });
    return facts.map((f) => `${f.id}=${f.value}`);
  };

  it("Y가 아니라 X / Y 말고 X / X, not Y replace Y's fact whatever its category", () => {
    expect(factsAfter(["저 인천 살아요", "아 죄송해요, 인천이 아니라 부천에 살아요"])).toEqual([
      "residence=부천",
    ]);
    expect(factsAfter(["나 맥주 좋아해", "아 요즘은 맥주 말고 와인이 더 좋아"])).toEqual([
      "preference:와인=와인",
    ]);
    expect(factsAfter(["I live in Boston.", "Sorry, I meant Cambridge, not Boston."])).toEqual([
      "residence=Cambridge",
    ]);
    const [fact] = updateFacts(updateFacts([], "맥주를 좋아해요"), "맥주 말고 와인이요");
    expect(fact?.text).toBe("사용자는 와인을 좋아한다");
  });

  it("a name correction needs a stored name, a correction word and a bare name", () => {
    expect(factsAfter(["제 이름은 이수진이에요", "아 잘못 썼네요, 이수정이에요"])).toEqual([
      "name=이수정",
    ]);
    expect(factsAfter(["My name is Jon.", "Sorry, typo, it's John."])).toEqual(["name=John"]);
    expect(factsAfter(["Sorry, typo, it's John."])).toEqual([]);
    expect(factsAfter(["My name is Jon.", "Sorry, it's Monday."])).toEqual(["name=Jon"]);
  });

  it("a pet introduced in the previous turn owns a bare '이름은 …' (not the user's name)", () => {
    expect(factsAfter(["나 고양이 키워", "이름은 두부야"])).toEqual([
      "family:cat:두부=고양이 두부",
    ]);
    expect(factsAfter(["안녕", "이름은 두부야"])).toEqual(["name=두부"]);
  });

  it("a correction that names no stored fact changes nothing", () => {
    expect(factsAfter(["저 인천 살아요", "그게 아니라 그냥 피곤해요"])).toEqual(["residence=인천"]);
  });
});
