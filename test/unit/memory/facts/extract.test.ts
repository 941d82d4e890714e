import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyseUtterance,
  extractFacts,
  extractRetractions,
  FACT_CATEGORIES,
  type Fact,
  MAX_EXTRACT_CHARS,
  sameValue,
} from "../../../../src/memory/facts/index.ts";
import { NOTHING, POSITIVE } from "./cases.ts";

const has = (facts: readonly Fact[], category: string, value: string): boolean =>
  facts.some((fact) => fact.category === category && sameValue(fact.value, value));

const show = (facts: readonly Fact[]) => facts.map((fact) => `${fact.category}=${fact.value}`);

describe("R8.1 heuristic extraction: every category in Korean and English", () => {
  for (const category of FACT_CATEGORIES) {
    for (const lang of ["ko", "en"] as const) {
      const cases = POSITIVE[category][lang];
      it(`${category} (${lang}): ${cases.length} phrasings`, () => {
        expect(cases.length).toBeGreaterThanOrEqual(3);
        for (const [utterance, expected, value] of cases) {
          const facts = extractFacts(utterance);
          expect(has(facts, expected, value), `${utterance} → ${show(facts).join(", ")}`).toBe(
            true,
          );
        }
      });
    }
  }

  it("Korean particles and endings give the same value (서울에서/서울에/서울로, 살아요/삽니다/살고있음)", () => {
    const variants = [
      "서울에 살아요",
      "서울에서 살아요",
      "서울에 살고 있어요",
      "서울에서 살고있음",
      "서울에 삽니다",
      "서울 살아",
      "서울로 이사했어요",
      "서울에 거주 중이에요",
    ];
    for (const utterance of variants) {
      const residence = extractFacts(utterance).filter((fact) => fact.id === "residence");
      expect(
        residence.map((fact) => fact.value),
        utterance,
      ).toEqual(["서울"]);
    }
    for (const utterance of [
      "커피를 좋아해요",
      "커피 좋아해",
      "커피는 정말 좋아합니다",
      "커피도 좋아하는 편이에요",
    ]) {
      expect(
        extractFacts(utterance).map((fact) => fact.value),
        utterance,
      ).toEqual(["커피"]);
    }
    // Nouns that merely end like a particle keep their last syllable.
    expect(extractFacts("고양이를 좋아해요")[0]?.value).toBe("고양이");
    expect(extractFacts("오이를 싫어해요")[0]?.value).toBe("오이");
    expect(extractFacts("제주도에 살아요")[0]?.value).toBe("제주도");
  });

  it("names: the several Korean forms (제 이름은 민수예요 / 저는 민수라고 해요 / 민수입니다)", () => {
    for (const utterance of [
      "제 이름은 민수예요",
      "저는 민수라고 해요",
      "민수입니다",
      "안녕하세요, 민수입니다",
    ]) {
      expect(extractFacts(utterance), utterance).toMatchObject([
        { id: "name", category: "name", value: "민수", lang: "ko" },
      ]);
    }
    // A pet's name is not the user's name; job words are not names.
    expect(extractFacts("이름은 나비랑 까망이에요")).toEqual([]);
    expect(extractFacts("저는 학생입니다").map((fact) => fact.category)).toEqual(["job"]);
  });

  it("normalised text in the utterance's language, with the right particle", () => {
    expect(extractFacts("부산에 살아요")[0]?.text).toBe("사용자는 부산에 산다");
    expect(extractFacts("I live in Busan")[0]?.text).toBe("The user lives in Busan");
    expect(extractFacts("땅콩 알레르기가 있어요")[0]?.text).toBe("사용자는 땅콩 알레르기가 있다");
    expect(extractFacts("오이를 싫어해요")[0]?.text).toBe("사용자는 오이를 싫어한다");
    expect(extractFacts("김치찌개를 좋아해요")[0]?.text).toBe("사용자는 김치찌개를 좋아한다");
    expect(extractFacts("저 아이폰 15 써요")[0]?.text).toBe("사용자는 아이폰 15를 가지고 있다");
  });

  it("ids are stable per (category, subject) so corrections can replace them", () => {
    expect(extractFacts("서울에 살아요")[0]?.id).toBe("residence");
    expect(extractFacts("I moved to Busan")[0]?.id).toBe("residence");
    expect(extractFacts("I'm from Canada")[0]?.id).toBe("residence:hometown");
    expect(extractFacts("I'm allergic to peanuts")[0]?.id).toBe("allergy:peanut");
    expect(extractFacts("I have a peanut allergy")[0]?.id).toBe("allergy:peanut");
    expect(extractFacts("My wife's name is Emily")[0]?.id).toBe("family:wife:emily");
    expect(extractFacts("아내 이름은 지수예요").find((f) => f.category === "family")?.id).toBe(
      "family:wife:지수",
    );
    expect(extractFacts("I drive a Tesla")[0]?.id).toBe("possession:car");
    expect(extractFacts("차는 아반떼예요")[0]?.id).toBe("possession:car");
    expect(extractFacts("My favorite color is blue")[0]?.id).toBe("preference:favorite:color");
  });

  it("lists give one fact per item", () => {
    expect(show(extractFacts("I'm allergic to peanuts and shellfish"))).toEqual([
      "allergy=peanuts",
      "allergy=shellfish",
    ]);
    expect(show(extractFacts("땅콩이랑 새우 알레르기가 있어요"))).toEqual([
      "allergy=땅콩",
      "allergy=새우",
    ]);
  });

  it("source is the utterance and turn is kept", () => {
    const [fact] = extractFacts("  I live in Busan  ", { turn: 4 });
    expect(fact).toMatchObject({ source: "I live in Busan", turn: 4, lang: "en" });
    expect(extractFacts("I live in Busan")[0]).not.toHaveProperty("turn");
  });
});

describe("R8.1 statements only: questions, hypotheticals, negations, the past, other people", () => {
  it.each(NOTHING)("nothing from %j", (utterance) => {
    expect(show(extractFacts(utterance))).toEqual([]);
  });

  it("a question next to a statement: only the statement counts", () => {
    expect(show(extractFacts("I'm from Seoul, what about you?"))).toEqual(["residence=Seoul"]);
    expect(show(extractFacts("어디 사세요? 저는 수원에 살아요"))).toEqual(["residence=수원"]);
  });

  it("negations retract instead of stating (documented in extract.ts)", () => {
    expect(extractRetractions("I don't live in Seoul anymore")).toEqual([
      { category: "residence", value: "Seoul", id: "residence" },
    ]);
    expect(extractRetractions("저 이제 서울에 안 살아요")).toEqual([
      { category: "residence", value: "서울", id: "residence" },
    ]);
    expect(extractRetractions("I sold my car")).toEqual([
      { category: "possession", id: "possession:car" },
    ]);
    expect(extractRetractions("퇴사했어요")).toEqual([{ category: "workplace", id: "workplace" }]);
    // "don't like" is a fact of its own (dislike), not only a retraction.
    expect(show(extractFacts("I don't like coffee"))).toEqual(["dislike=coffee"]);
    expect(show(extractFacts("커피 안 좋아해요"))).toEqual(["dislike=커피"]);
    // A question or a hypothetical retracts nothing.
    expect(extractRetractions("Do I not live in Seoul anymore?")).toEqual([]);
    expect(extractRetractions("If I didn't live in Seoul I'd move to Busan")).toEqual([]);
  });

  it("family members get a family fact, not the user's job, allergy or residence", () => {
    expect(show(extractFacts("남편은 공무원이에요"))).toEqual(["family=남편"]);
    expect(show(extractFacts("My son Leo is allergic to peanuts."))).toEqual(["family=son Leo"]);
    expect(show(extractFacts("My mom lives in Busan."))).toEqual(["family=mom"]);
    expect(show(extractFacts("딸이 공주 인형을 좋아해요"))).toEqual(["family=딸"]);
    expect(show(extractFacts("제가 키우는 강아지가 벌써 열 살이에요"))).toEqual([
      "family=강아지, 10살",
    ]);
  });

  it("analyseUtterance gives both at once", () => {
    const { facts, retractions } = analyseUtterance(
      "I don't live in Seattle anymore. I moved to Austin in May.",
    );
    expect(show(facts)).toEqual(["residence=Austin"]);
    expect(retractions).toEqual([{ category: "residence", value: "Seattle", id: "residence" }]);
  });
});

// Speed is measured in bench/ (bench/facts-eval.ts, npm run eval:memory), never asserted here.
describe("R8.1 extraction is total and bounded", () => {
  it("never throws and returns well-formed facts for arbitrary strings (property)", () => {
    const korean = fc
      .array(
        fc.constantFrom(
          "저는",
          "서울에",
          "살아요",
          "좋아해요",
          "알레르기가",
          "있어요",
          "안",
          "?",
          "만약",
          "다음 주에",
          "가요",
          "이에요",
          "I'm",
          "my",
          "live in",
          "allergic to",
          ",",
          ".",
          "제",
          "이름은",
        ),
        { maxLength: 12 },
      )
      .map((words) => words.join(" "));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: "binary", maxLength: 200 }),
          korean,
        ),
        (text) => {
          const facts = extractFacts(text);
          for (const fact of facts) {
            expect(FACT_CATEGORIES).toContain(fact.category);
            expect(fact.value.trim()).not.toBe("");
            expect(fact.id.startsWith(fact.category)).toBe(true);
            expect(["ko", "en"]).toContain(fact.lang);
          }
          expect(new Set(facts.map((fact) => fact.id)).size).toBe(facts.length);
          expect(() => extractRetractions(text)).not.toThrow();
        },
      ),
      { numRuns: 400 },
    );
  });

  it("non-strings give nothing", () => {
    for (const value of [undefined, null, 42, {}, ["I live in Busan"]]) {
      expect(extractFacts(value as unknown as string)).toEqual([]);
      expect(extractRetractions(value as unknown as string)).toEqual([]);
    }
  });

  it("only the first MAX_EXTRACT_CHARS characters are read", () => {
    const long = `${"blah ".repeat(MAX_EXTRACT_CHARS / 5)}I live in Busan`;
    expect(extractFacts(long)).toEqual([]);
    expect(extractFacts(`I live in Busan. ${"blah ".repeat(2000)}`)).toHaveLength(1);
  });
});

describe("casual names, context and casual Korean", () => {
  it("casual introductions give the name (나 민지 / 이름은 준호예요 / Priya here / it's Tom btw)", () => {
    for (const [text, name] of [
      ["나 민지", "민지"],
      ["이름은 준호예요", "준호"],
      ["Priya here!", "Priya"],
      ["it's Tom btw", "Tom"],
      ["hey, this is Dev here", "Dev"],
    ] as const) {
      expect(show(extractFacts(text)), text).toEqual([`name=${name}`]);
    }
    // Not names: predicates, days, bare "it's X" without a frame.
    for (const text of ["나 졸려", "나 배고파", "It's Monday here", "it's late", "Sunday here"]) {
      expect(show(extractFacts(text)), text).toEqual([]);
    }
  });

  it("after a clause about a family member or pet, a subject-less clause is about them", () => {
    expect(show(extractFacts("남동생이 하나 있어요. 대학생이에요"))).toEqual(["family=남동생"]);
    expect(show(extractFacts("강아지 한 마리 키워요. 이름은 초코예요"))).toEqual([
      "family=강아지 초코",
    ]);
    // The speaker named again: the user's own fact.
    expect(show(extractFacts("남동생이 하나 있어요. 저는 대학생이에요"))).toEqual([
      "family=남동생",
      "job=대학생",
    ]);
  });

  it("casual Korean endings (탐, 함, 임) and reported speech (봤대) ", () => {
    expect(show(extractFacts("나 아반떼 탐"))).toEqual(["possession=아반떼"]);
    expect(show(extractFacts("나 간호사임"))).toEqual(["job=간호사"]);
    expect(show(extractFacts("동생이 시험 봤대"))).toEqual([]);
  });

  it("professions outside the word list by their suffix, not traits", () => {
    expect(show(extractFacts("I'm a dental hygienist lol"))).toEqual(["job=dental hygienist"]);
    expect(show(extractFacts("I'm an optimist"))).toEqual([]);
  });

  it("kinds of phrasing rather than single sentences (sentence endings, word classes)", () => {
    // A formal or plain-past ending closes a sentence even without a full stop.
    expect(show(extractFacts("안녕하세요 처음 뵙겠습니다 저는 최유나라고 합니다"))).toEqual([
      "name=최유나",
    ]);
    // The connective copula (이)라 and a job word with 하다.
    expect(show(extractFacts("저는 초등학교 교사라 방학에도 바빠요"))).toEqual([
      "job=초등학교 교사",
    ]);
    expect(show(extractFacts("나 요즘 편의점 알바 하고 있어"))).toEqual(["job=편의점 알바"]);
    // A light noun keeps its clause; a quantity between a thing and its verb.
    expect(show(extractFacts("비 오는 날은 딱 질색이에요"))).toEqual(["dislike=비 오는 날"]);
    expect(show(extractFacts("얼마 전에 캠핑카 하나 샀어"))).toEqual(["possession=캠핑카"]);
    // Frequency adverbs make going somewhere a habit, not a plan.
    expect(show(extractFacts("주말엔 보통 볼더링 하러 가"))).toEqual(["preference=볼더링"]);
    // A family member opening the clause without a particle is its subject.
    expect(show(extractFacts("우리 엄마 당뇨 때문에 걱정이야"))).toEqual(["family=엄마"]);
    expect(show(extractFacts("저 요즘 불면증 때문에 잠을 잘 못 자요"))).toEqual(["health=불면증"]);
    // English: a bodily reaction, a could of liking, caring for a pet at home.
    expect(show(extractFacts("Strawberries give me hives"))).toEqual(["allergy=Strawberries"]);
    expect(show(extractFacts("Work makes me sick"))).toEqual([]);
    expect(show(extractFacts("I could listen to jazz all day"))).toEqual(["preference=jazz"]);
    expect(show(extractFacts("I could live in Paris"))).toEqual([]);
    expect(show(extractFacts("then I had to walk the dog"))).toEqual(["family=dog"]);
    expect(show(extractFacts("I walked the dog for my neighbor"))).toEqual([]);
  });

  it("R8.2 a bare 'I'm in <place>.' is where the user is; a visit or a field of work is not", () => {
    expect(show(extractFacts("I'm in Chicago."))).toEqual(["residence=Chicago"]);
    expect(show(extractFacts("Sorry, typo, I meant I'm in New York"))).toEqual([
      "residence=New York",
    ]);
    expect(show(extractFacts("I'm in Chicago this week."))).toEqual([]);
    expect(show(extractFacts("I'm in Paris for work!"))).toEqual([]);
    expect(show(extractFacts("I'm in Denver visiting my aunt."))).toEqual([]);
    // Known gap: the rule sees one clause, so "Visiting my aunt, I'm in Denver." gives Denver.
    expect(show(extractFacts("I'm in IT."))).toEqual([]);
    expect(show(extractFacts("I'm in a meeting."))).toEqual([]);
    expect(show(extractFacts("I'm in Chicago and it's cold"))).toEqual([]);
  });
});
