/**
 * Changes said the way people say them in chat, over several messages (R8.3): a taste
 * dropped ("I'm off …"), a pet named by a pronoun, a quantity that is no taste.
 */
import { describe, expect, it } from "vitest";
import { type FactState, recallFacts } from "../../../../src/memory/facts/index.ts";
import { talk } from "./talk.ts";

const current = (state: FactState) => state.facts.map((f) => `${f.id}=${f.value}`);
const retiredIds = (state: FactState) => state.retired.map((f) => f.id);

describe("R8.3 changes said in passing", () => {
  it("R8.2 a quantity after a taste ('like three cans a day') is no taste of its own", () => {
    expect(current(talk(["I'm a big cola person, like three cans a day."]))).toEqual([
      "preference:cola=cola",
    ]);
  });

  it("R8.3 'I'm off X' takes the taste X back; someone else being off it does not", () => {
    const off = talk(["I love green tea.", "I'm off green tea for now, it keeps me up at night."]);
    expect(current(off)).toEqual([]);
    expect(retiredIds(off)).toEqual(["preference:greentea"]);
    const other = talk(["I love green tea.", "My sister is off green tea these days."]);
    expect(current(other)).toContain("preference:greentea=green tea");
  });

  it("R8.2 a pet named by a pronoun ('She's called Mabel') is that pet, in its message or the next", () => {
    expect(current(talk(["I adopted a kitten last week! She's called Mabel."]))).toEqual([
      "family:cat:mabel=kitten Mabel",
    ]);
    expect(current(talk(["We got a puppy.", "He's named Rufus."]))).toEqual([
      "family:dog:rufus=puppy Rufus",
    ]);
  });
});

describe("R8.2 questions that ask for a slot without naming it", () => {
  it("R8.2 'near my place' / 'near my house' asks where the user lives", () => {
    const state = talk(["I live in Leeds.", "I'm a nurse."]);
    for (const question of [
      "Recommend a farmers market near my place",
      "Any good bakeries near my house?",
    ]) {
      expect(
        recallFacts(state.facts, question, 3).map((f) => f.id),
        question,
      ).toEqual(["residence"]);
    }
  });
});

describe("R8.2 Korean said casually", () => {
  it("R8.2 '회사는 강남이라 …': a place before the reason ending 이라 is where the work is", () => {
    expect(current(talk(["회사는 역삼이라 출퇴근만 왕복 두 시간이에요 ㅠ"]))).toEqual([
      "workplace=역삼",
    ]);
    // 이라 after a vowel is no copula: "나라" stays one word.
    expect(current(talk(["우리나라 음식이 최고예요"]))).not.toContain("workplace=우리나");
  });
});

describe("R8.3 a pet sent to live elsewhere", () => {
  it("R8.3 '몽이 부모님 집으로 보냈어' retires the pet it names; a parcel sent home retires nothing", () => {
    const sent = talk([
      "나 고양이 키워 이름은 탄이야",
      "탄이 언니네로 보냈어요… 제가 해외 나가게 돼서",
    ]);
    expect(current(sent).filter((f) => f.startsWith("family:cat"))).toEqual([]);
    expect(retiredIds(sent)).toContain("family:cat:탄");
    const parcel = talk(["나 고양이 키워 이름은 탄이야", "택배를 집으로 보냈어요"]);
    expect(current(parcel)).toContain("family:cat:탄=고양이 탄");
  });
});

describe("R8.2 an adverb is no taste", () => {
  it("R8.2 '… 오히려 좋아해' likes nothing called 오히려", () => {
    expect(current(talk(["마당 있는 집이라 강아지는 오히려 좋아해"]))).not.toContain(
      "preference:오히려=오히려",
    );
    expect(current(talk(["생각보다 의외로 좋아요"]))).toEqual([]);
  });
});

describe("R8.3 a birth announced by the child", () => {
  it("R8.3 'A little boy, we named him Theo.' is a son named Theo beside the daughter", () => {
    const state = talk([
      "I have a daughter, Nora.",
      "Baby #2 is here!! A little boy, we named him Arlo.",
    ]);
    expect(current(state)).toEqual([
      "family:daughter:nora=daughter Nora",
      "family:son:arlo=boy Arlo",
    ]);
    expect(current(talk(["It's a girl! We named her Ivy."]))).toEqual([
      "family:daughter:ivy=girl Ivy",
    ]);
  });
});
