import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Fact,
  recallFacts,
  scoreFacts,
  updateFacts,
} from "../../../../src/memory/facts/index.ts";

const remember = (utterances: readonly string[]): Fact[] =>
  utterances.reduce<Fact[]>((facts, u, turn) => updateFacts(facts, u, { turn }), []);

const ids = (facts: readonly Fact[]) => facts.map((fact) => fact.id);

const profile = remember([
  "Hi, I'm Sarah.",
  "I live in Busan.",
  "I work as a nurse at St. Mary's Hospital.",
  "I'm allergic to shellfish.",
  "I love Thai food.",
  "My husband's name is Tom.",
  "I'm flying to Tokyo next Friday.",
  "I drive a Tesla.",
]);

const 프로필 = remember([
  "저는 김민수라고 해요",
  "서울 마포구에 살고 있어요",
  "땅콩 알레르기가 있어요",
  "오이를 정말 싫어해요",
  "아내 이름은 지수예요",
  "다음 주 금요일에 제주도 가요",
  "제 차는 아반떼예요",
  "직업은 간호사예요",
]);

describe("R8.2 recall: the facts that match the follow-up question", () => {
  it("cross-language: a Korean question recalls an English residence fact", () => {
    for (const question of [
      "제가 어디 살죠?",
      "제가 어디 산다고 했죠?",
      "사는 곳 근처 맛집 추천해줘",
    ]) {
      expect(ids(recallFacts(profile, question, 1)), question).toEqual(["residence"]);
    }
  });

  it("cross-language: an English question recalls a Korean residence fact", () => {
    for (const question of [
      "Where do I live?",
      "Any good restaurants near me?",
      "What's the weather like where I live?",
    ]) {
      expect(ids(recallFacts(프로필, question, 1)), question).toEqual(["residence"]);
    }
  });

  it("each category is found from either language", () => {
    const cases: readonly [string, string][] = [
      ["What's my name?", "name"],
      ["내 이름 기억해?", "name"],
      ["What do I do for work?", "job"],
      ["내가 무슨 일 한다고 했지?", "job"],
      ["Can you suggest a recipe for dinner?", "allergy:shellfish"],
      ["저녁 메뉴 추천해 줄래?", "allergy:땅콩"],
      ["What was my wife's name?", "family:wife:지수"],
      ["남편 선물 뭐가 좋을까?", "family:husband:tom"],
      ["What should I pack for my trip?", "plan:tokyo"],
      ["여행 준비물 알려줘", "plan:제주도"],
      ["How often should I rotate my car's tires?", "possession:car"],
      ["내 차 엔진오일 뭐 써야 돼?", "possession:car"],
    ];
    for (const [question, id] of cases) {
      const facts = /[가-힣]/.test(question) ? [...profile, ...프로필] : [...프로필, ...profile];
      expect(ids(recallFacts(facts, question, 3)), question).toContain(id);
    }
  });

  it("naming the value recalls the fact ('부산 날씨 어때?' → the Busan fact; 대전 ↔ Daejeon)", () => {
    expect(ids(recallFacts(profile, "부산 날씨 어때?", 1))).toEqual(["residence"]);
    const daejeon = remember(["I live in Daejeon"]);
    expect(ids(recallFacts(daejeon, "대전 맛집 추천해줘", 3))).toEqual(["residence"]);
  });

  it("a specific relation wins over the generic name intent", () => {
    expect(ids(recallFacts([...profile, ...프로필], "What's my wife's name?", 1))).toEqual([
      "family:wife:지수",
    ]);
  });

  it("hometown vs current residence follow the question", () => {
    const both = remember(["I'm originally from Manchester but I live in London now."]);
    expect(recallFacts(both, "Where did I grow up?", 1)[0]?.value).toBe("Manchester");
    expect(recallFacts(both, "Where do I live?", 1)[0]?.value).toBe("London");
  });

  it("k is respected and best first", () => {
    const question = "오늘 저녁 메뉴 추천해줘";
    expect(recallFacts(프로필, question, 1)).toHaveLength(1);
    expect(recallFacts(프로필, question, 2)).toHaveLength(2);
    expect(recallFacts(프로필, question, 3).slice(0, 2)).toEqual(recallFacts(프로필, question, 2));
    expect(recallFacts(프로필, question, 0)).toEqual([]);
    expect(recallFacts(프로필, question, -1)).toEqual([]);
    expect(recallFacts(프로필, question, Number.NaN)).toEqual([]);
    expect(recallFacts(프로필, question, 2.9)).toHaveLength(2);
  });

  it("nothing irrelevant: an unrelated question gets [] rather than padding", () => {
    for (const question of [
      "What's 2 + 2?",
      "How do I convert Celsius to Fahrenheit?",
      "파이썬에서 리스트 정렬하는 법 알려줘",
      "Tell me a joke",
      "지금 몇 시야?",
      "",
    ]) {
      expect(recallFacts([...profile, ...프로필], question, 3), question).toEqual([]);
    }
    expect(recallFacts([], "Where do I live?", 3)).toEqual([]);
  });

  it("'what do you know about me' recalls the most recent facts, up to k", () => {
    expect(recallFacts(profile, "What do you know about me?", 3)).toHaveLength(3);
    expect(recallFacts(프로필, "나에 대해 뭘 기억하고 있어?", 2)).toHaveLength(2);
  });

  it("scores are 0 for unrelated facts", () => {
    expect(scoreFacts(profile, "Tell me a joke")).toEqual(profile.map(() => 0));
  });

  it("never returns more than k, only given facts, never throws (property)", () => {
    const pool = [...profile, ...프로필];
    fc.assert(
      fc.property(
        fc.subarray(pool),
        fc.oneof(
          fc.string({ maxLength: 120 }),
          fc.constantFrom("Where do I live?", "제가 어디 살죠?", "저녁 뭐 먹지", "about me"),
        ),
        fc.integer({ min: -2, max: 12 }),
        (facts, question, k) => {
          const recalled = recallFacts(facts, question, k);
          expect(recalled.length).toBeLessThanOrEqual(Math.max(0, k));
          for (const fact of recalled) expect(facts).toContain(fact);
          expect(new Set(recalled).size).toBe(recalled.length);
        },
      ),
    );
  });
});
