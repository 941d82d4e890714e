/**
 * Facts the agent can trust (R8.2, R8.3): a value is stored only when it fits its slot
 * (an occupation, a thing, a member of the family), questions and requests never change a
 * fact, members of the family are slots of their own (a name and an age per child), a
 * newer age or a breakup supersedes or retires the member, and a question that names a
 * category ("ingredient") recalls the facts of that slot.
 */
import { describe, expect, it } from "vitest";
import {
  extractFacts,
  FACT_CATEGORIES,
  type FactState,
  factLines,
  recallFacts,
  SINGLE_VALUED,
} from "../../../../src/memory/facts/index.ts";
import { RULES_EN } from "../../../../src/memory/facts/rules-en.ts";
import { RULES_KO } from "../../../../src/memory/facts/rules-ko.ts";
import { SLOTS, slotOf } from "../../../../src/memory/facts/slots.ts";
import { talk } from "./talk.ts";

const values = (state: FactState) => state.facts.map((f) => `${f.category}=${f.value}`);
const texts = (state: FactState) => state.facts.map((f) => f.text).join("\n");
const retiredTexts = (state: FactState) => state.retired.map((f) => f.text).join("\n");
const block = (state: FactState, question: string, max = 3) =>
  factLines(recallFacts(state.facts, question, max), state.retired);

describe("R8.2 a value is stored only when it fits its slot", () => {
  it("R8.2 an evaluation of the job is not an occupation", () => {
    expect(values(talk(["My job is stressful."]))).toEqual([]);
    const state = talk(["I'm a pharmacist.", "My job is stressful this time of year."]);
    expect(values(state)).toEqual(["job=pharmacist"]);
  });

  it("R8.2 a clause fragment ending in a particle is not a dislike", () => {
    const state = talk(["오이는 진짜 싫어해요. 냄새부터 싫어요."]);
    expect(values(state)).toEqual(["dislike=오이"]);
  });

  it("R8.2 what the user is learning is not something they own", () => {
    const state = talk(["I'm Marcus, and I have been learning guitar for a year."]);
    expect(values(state).filter((v) => v.startsWith("possession="))).toEqual([]);
    expect(texts(state)).not.toMatch(/been learning/);
  });

  it("R8.2 a teacher's pupils ('애들' without 우리/제) are not the user's family", () => {
    const state = talk([
      "저는 중학교 수학 교사예요.",
      "오늘 애들이 너무 시끄러워서 수업을 제대로 못 했어요.",
    ]);
    expect(values(state)).toEqual(["job=중학교 수학 교사"]);
  });

  it("R8.2 a request about the children neither adds nor replaces the children fact", () => {
    expect(values(talk(["Suggest activities that fit my children's ages."]))).toEqual([]);
    const state = talk([
      "My daughter is 6 and my son is 4.",
      "Suggest activities that fit my children's ages.",
    ]);
    expect(texts(state)).toMatch(/6/);
    expect(texts(state)).toMatch(/4/);
    expect(texts(state)).not.toMatch(/Suggest/);
  });

  it("R8.2 reported news about the daughter keeps her age", () => {
    const state = talk(["딸이 하나 있는데 4살이에요.", "딸은 새 어린이집이 마음에 든대요."]);
    expect(texts(state)).toMatch(/4살/);
    expect(texts(state)).not.toMatch(/어린이집/);
  });

  it("R8.2 a new job said as 'working as X for Y' gives the job and the workplace", () => {
    const state = talk(["I'm now working as a data analyst for a health insurance company."]);
    expect(values(state).sort()).toEqual([
      "job=data analyst",
      "workplace=health insurance company",
    ]);
  });
});

describe("R8.2 members of the family keep their names and ages", () => {
  it("R8.2 a wife and two sons are three members, each with name and age", () => {
    const state = talk(["My wife Grace and I have two boys, Leo who's 8 and Sam who's 3."]);
    const family = state.facts.filter((f) => f.category === "family");
    expect(family.map((f) => f.id).sort()).toEqual([
      "family:son:leo",
      "family:son:sam",
      "family:wife:grace",
    ]);
    const leo = family.find((f) => f.id === "family:son:leo");
    expect(`${leo?.value} ${leo?.text}`).toMatch(/Leo.*8/);
  });

  it("R8.2 the dog's name said after its adoption is kept with the dog", () => {
    const state = talk(["저 유기견 입양했어요! 이름은 보리예요."]);
    const dog = state.facts.find((f) => f.category === "family");
    expect(`${dog?.value} ${dog?.text}`).toMatch(/보리/);
    expect(values(state).some((v) => v.startsWith("name="))).toBe(false);
  });
});

describe("R8.3 member-level supersession", () => {
  it("R8.3 a named son's new age supersedes the old one; his brother stays", () => {
    const state = talk([
      "My wife Grace and I have two boys, Leo who's 8 and Sam who's 3.",
      "Leo turned 9 yesterday, we did a bowling party.",
    ]);
    const now = texts(state);
    expect(now).toMatch(/Leo[^\n]*9/);
    expect(now).not.toMatch(/Leo[^\n]*\b8\b/);
    expect(now).toMatch(/Sam[^\n]*3/);
    expect(retiredTexts(state)).toMatch(/Leo[^\n]*8/);
    const shown = block(state, "How old is Leo now?").join("\n");
    expect(shown).toMatch(/Leo[^\n]*9/);
    expect(shown).not.toMatch(/^The user's son Leo[^\n]*\b8\b[^\n]*\(since/m);
  });

  it("R8.3 the daughter's new age supersedes the old one", () => {
    const state = talk(["딸이 하나 있는데 4살이에요.", "벌써 딸이 5살이 됐어요."]);
    expect(texts(state)).toMatch(/5살/);
    expect(texts(state)).not.toMatch(/4살/);
    expect(retiredTexts(state)).toMatch(/4살/);
  });

  it("R8.3 a breakup retires the partner; a new girlfriend is the partner now", () => {
    const state = talk([
      "My boyfriend Tom and I are doing Christmas with his family this year.",
      "Tom and I broke up. It was mutual, mostly.",
    ]);
    expect(state.facts.filter((f) => f.category === "family")).toEqual([]);
    expect(retiredTexts(state)).toMatch(/Tom/);
    const later = talk(["So... I've been seeing someone new. Her name is Priya."], state);
    expect(texts(later)).toMatch(/Priya/);
  });

  it("R8.3 헤어졌어요 and 이혼했어요 retire the partner; a friend's breakup does not", () => {
    for (const cue of ["남자친구랑 헤어졌어요.", "저 이혼했어요."]) {
      const state = talk(["남자친구가 있어요. 이름은 민호예요.", cue]);
      expect(
        state.facts.filter((f) => f.category === "family"),
        cue,
      ).toEqual([]);
    }
    const kept = talk(["남자친구가 있어요. 이름은 민호예요.", "친구가 남자친구랑 헤어졌대요."]);
    expect(kept.facts.filter((f) => f.category === "family")).toHaveLength(1);
  });
});

describe("R8.3 what ends a value without a new one", () => {
  it("R8.3 a value taken back by name retires it; a sentence about someone else does not", () => {
    const veg = talk([
      "I've been vegetarian since college.",
      "So I guess I'm not vegetarian anymore.",
    ]);
    expect(values(veg).filter((v) => v.includes("vegetarian"))).toEqual([]);
    const tennis = talk(["저 테니스 엄청 좋아해요.", "허리 디스크 때문에 테니스는 이제 못 쳐요."]);
    expect(values(tennis)).not.toContain("preference=테니스");
    const beer = talk(["저 맥주 진짜 좋아해요.", "그래서 술 끊었어요. 이제 맥주도 안 마셔요."]);
    expect(values(beer)).not.toContain("preference=맥주");
    const friend = talk(["I love sushi.", "My friend doesn't eat sushi anymore."]);
    expect(values(friend)).toContain("preference=sushi");
  });

  it("R8.3 a plan that happened is retired: a birth, a wedding", () => {
    const baby = talk([
      "My partner and I are expecting our first baby in June!",
      "She's here! Our daughter Ava was born last Tuesday.",
    ]);
    expect(values(baby).filter((v) => v.startsWith("plan="))).toEqual([]);
    expect(texts(baby)).toMatch(/Ava/);
    const wedding = talk(["저희 다음 달에 결혼해요!", "결혼식 무사히 끝났어요."]);
    expect(values(wedding).filter((v) => v.startsWith("plan="))).toEqual([]);
  });

  it("R8.3 a pet that lives elsewhere now is retired; a dating partner is named by pronoun", () => {
    const cat = talk(["고양이 한 마리 키워요. 이름은 치즈예요.", "치즈는 이제 동생네서 살아요."]);
    expect(cat.facts.filter((f) => f.id.startsWith("family:cat"))).toEqual([]);
    const dog = talk(["I have a dog named Pilot.", "We had to rehome Pilot last month."]);
    expect(dog.facts.filter((f) => f.id.startsWith("family:dog"))).toEqual([]);
    const dating = talk(["I've been seeing someone new. Her name is Priya."]);
    expect(dating.facts.map((f) => f.id)).toEqual(["family:girlfriend:priya"]);
  });

  it("R8.3 quitting the school retires the teacher's job; a title is a job, not a name", () => {
    const state = talk([
      "저 중학교 수학 교사예요.",
      "저 학교 그만뒀어요.",
      "이제 동네에서 수학 학원 차렸어요. 제가 원장이에요.",
    ]);
    expect(values(state)).toContain("job=원장");
    expect(values(state).filter((v) => v.includes("교사") || v.startsWith("name="))).toEqual([]);
  });

  it("R8.2 how long since the user came to a place says they live there", () => {
    const state = talk(["저는 경기도 일산 살아요.", "싱가포르 온 지 2주 됐어요. 너무 더워요."]);
    expect(values(state)).toContain("residence=싱가포르");
    expect(values(talk(["회사 온 지 1년 됐어요."]))).toEqual([]);
  });
});

describe("R8.2 recall by slot intent", () => {
  it("R8.2 'which ingredient' recalls the food the user dislikes", () => {
    const state = talk(["I dislike mushrooms, the texture just gets me."]);
    const shown = block(state, "Which ingredient should you keep out of my meals?");
    expect(shown.join("\n")).toMatch(/mushrooms/);
    const ko = talk(["버섯 싫어해요."]);
    expect(block(ko, "요리할 때 빼야 할 재료가 뭐예요?").join("\n")).toMatch(/버섯/);
  });

  it("R8.2 a question that names the slot, not the value, recalls it: dating, 일터, kids' names", () => {
    const dating = talk(["I'm an ER nurse.", "I've been seeing someone new. Her name is Priya."]);
    expect(block(dating, "Who am I dating right now?").join("\n")).toMatch(/Priya/);
    const work = talk(["이제 동네에서 수학 학원 차렸어요. 제가 원장이에요."]);
    expect(block(work, "제 일터가 어디예요?").join("\n")).toMatch(/수학 학원/);
    const kids = talk(["My wife Grace and I have two boys, Leo who's 8 and Sam who's 3."]);
    const names = block(kids, "What are my kids' names?").join("\n");
    expect(names).toMatch(/Leo/);
    expect(names).toMatch(/Sam/);
  });
});

describe("R8.2 the slot table", () => {
  it("R8.2 has one row per kind, and the single-valued kinds are its single rows", () => {
    expect(SLOTS.map((row) => row.kind).sort()).toEqual([...FACT_CATEGORIES].sort());
    expect([...SINGLE_VALUED].sort()).toEqual(
      SLOTS.filter((row) => row.cardinality === "single")
        .map((row) => row.kind)
        .sort(),
    );
    expect(slotOf("family").key).toBe("member");
    expect(slotOf("job").shape).toBe("occupation");
  });
});

describe("R8.2 cue rows: cue patterns as data", () => {
  it("R8.2 every row's example and paraphrases, said to the agent, store what the row reads", () => {
    for (const row of [...RULES_EN, ...RULES_KO]) {
      if (row.retract === true) continue;
      for (const [clause, ...gives] of [row.example, ...(row.paraphrases ?? [])]) {
        const found = extractFacts(clause).map((f) => `${f.category}=${f.value}`);
        // A member's value takes the name and age said with it ("family=아내" → "family=아내
        // 지수", "family=아들" → "family=아들, 4살").
        for (const fact of gives) {
          expect(
            found.some((f) => f === fact || f.startsWith(`${fact} `) || f.startsWith(`${fact}, `)),
            `${clause}: ${found.join(", ")}`,
          ).toBe(true);
        }
      }
    }
  });

  it("R8.3 a partner called by a new relation moves to it: boyfriend 준호 becomes husband 준호", () => {
    const state = talk([
      "남자친구랑 사귄 지 3년 됐어요. 이름은 준호예요.",
      "결혼식 무사히 끝났어요. 이제 준호를 남편이라고 부르는 게 어색해요 ㅋㅋ",
    ]);
    expect(state.facts.map((f) => f.id)).toEqual(["family:husband:준호"]);
    expect(state.retired.map((f) => f.id)).toEqual(["family:boyfriend:준호"]);
  });
});

describe("R8.3 more endings of a partner or a pet, and what ends nothing", () => {
  const family = (state: FactState) => state.facts.filter((f) => f.category === "family");

  it("R8.3 not together anymore, moved out, an ex by name, a pet lost or put down", () => {
    for (const [first, then] of [
      ["My boyfriend Tom is great.", "I'm not with Tom anymore."],
      ["My boyfriend Tom is great.", "Tom moved out last week."],
      ["My boyfriend Tom is great.", "My ex Tom texted me."],
      ["I have a dog named Biscuit.", "We lost Biscuit last week."],
      ["I have a dog named Biscuit.", "We had to put Biscuit down."],
      ["남자친구가 있어요. 이름은 민호예요.", "전 남친 민호가 연락 왔어요."],
      ["남자친구가 있어요. 이름은 민호예요.", "이제 민호 안 만나요."],
    ] as const) {
      expect(family(talk([first, then])), then).toEqual([]);
    }
  });

  it("R8.3 an ex not named, lost keys, a son moving out end no partner", () => {
    for (const [first, then] of [
      ["My boyfriend Tom is great.", "My ex texted me."],
      ["My wife Grace is a nurse.", "I lost my keys last night."],
      ["My boyfriend Tom is great.", "My son moved out for college."],
      ["남자친구가 있어요. 이름은 민호예요.", "전 남친이 연락 왔어요."],
    ] as const) {
      expect(family(talk([first, then])).length, then).toBeGreaterThan(0);
    }
  });

  it("R8.2 a promotion names the new job; joining a company as X gives both", () => {
    expect(values(talk(["I got promoted to senior engineer last month."]))).toEqual([
      "job=senior engineer",
    ]);
    expect(values(talk(["I just joined Stripe as a designer."])).sort()).toEqual([
      "job=designer",
      "workplace=Stripe",
    ]);
    expect(values(talk(["My friend just joined Google as an intern."]))).toEqual([]);
  });
});

describe("R8.2 edges of the member and request rules", () => {
  it("R8.3 a number with a unit after a name is no age", () => {
    const state = talk([
      "My wife Grace and I have two boys, Leo who's 8 and Sam who's 3.",
      "Sam is 3 hours away by car.",
      "Leo is 9 pm tired already.",
    ]);
    expect(texts(state)).toMatch(/Sam, 3/);
    expect(texts(state)).toMatch(/Leo, 8/);
    expect(state.retired).toEqual([]);
  });

  it("R8.2 asking the assistant to remember states the fact; a request to make something does not", () => {
    expect(
      values(talk(["Please remember that I'm allergic to peanuts, and suggest a snack."])),
    ).toEqual(["allergy=peanuts"]);
    expect(values(talk(["기억해 주세요, 저 비건이에요."]))).toEqual(["health=비건"]);
    expect(values(talk(["Suggest a trip for me and my kids."]))).toEqual([]);
  });
});

describe("R8.2 phrase rows refuse what is not the user's", () => {
  it("R8.2 a lease for someone else, a holiday rental, another's new job give no fact", () => {
    expect(values(talk(["We rented a house in Maui for the holidays."]))).toEqual([]);
    expect(values(talk(["My sister became a nurse."]))).toEqual([]);
    expect(values(talk(["I found a place in Boston for the conference."]))).toEqual([]);
    expect(values(talk(["친구가 남자친구랑 사귄 지 1년 됐대요."]))).toEqual([]);
  });
});

describe("R8.3 a wedding, a taste given up, a pet run away", () => {
  it("R8.3 a wedding makes the partner a spouse; someone else's wedding does not", () => {
    const tom = talk(["My boyfriend Tom is great.", "Tom and I got married last weekend!"]);
    expect(tom.facts.map((f) => f.id)).toEqual(["family:husband:tom"]);
    expect(tom.retired.map((f) => f.id)).toEqual(["family:boyfriend:tom"]);
    const sister = talk(["My boyfriend Tom is great.", "My sister got married last weekend."]);
    expect(sister.facts.map((f) => f.id)).toContain("family:boyfriend:tom");
  });

  it("R8.3 a taste given up or replaced is retired; only the thing named before 대신 / after 'gave up'", () => {
    expect(values(talk(["I love coffee.", "I gave up coffee last month."]))).toEqual([]);
    const tea = talk(["I love coffee.", "I love tea.", "I drink tea instead of coffee now."]);
    expect(values(tea)).toEqual(["preference=tea"]);
    expect(values(talk(["커피 진짜 좋아해요.", "요즘은 커피 대신 차 마셔요."]))).not.toContain(
      "preference=커피",
    );
  });

  it("R8.3 a pet that ran away is retired", () => {
    const luna = talk(["I have a cat named Luna.", "Luna ran away last week."]);
    expect(luna.facts).toEqual([]);
  });
});

describe("R8.3 a Korean member named before an age", () => {
  it("R8.3 '우리 아들 지호는 5살이에요' names the son; '지호가 6살이 됐어요' supersedes his age", () => {
    const state = talk(["우리 아들 지호는 5살이에요.", "지호가 벌써 6살이 됐어요."]);
    expect(state.facts.map((f) => `${f.id}=${f.value}`)).toEqual([
      "family:son:지호=아들 지호, 6살",
    ]);
    expect(state.retired.map((f) => f.value)).toEqual(["아들 지호, 5살"]);
    const plain = talk(["우리 아들 진짜 귀여워요."]);
    expect(plain.facts.map((f) => f.id)).toEqual(["family:son"]);
  });
});
