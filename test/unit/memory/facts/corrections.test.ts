/**
 * Changes said the way people say them: a new workplace named in passing, a trip replaced
 * "instead", a switch of drink, an injury or a test result as the reason of a change. Each
 * case is a way of saying, checked through the whole chain (extraction, supersession,
 * recall), with a paraphrase beside the first wording.
 */
import { describe, expect, it } from "vitest";
import { type Fact, recallFacts, updateFacts } from "../../../../src/memory/facts/index.ts";
import { talk } from "./talk.ts";

const remember = (utterances: readonly string[]): Fact[] =>
  utterances.reduce<Fact[]>((facts, u, turn) => updateFacts(facts, u, { turn }), []);

/** The current facts (updateFacts keeps only those; retired values live apart). */
const current = (facts: readonly Fact[]): string[] =>
  facts.map((fact) => `${fact.category}=${fact.value}`);

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

describe("R8.2 Korean ways of saying a change", () => {
  it("R8.2 a check-up finding and an injury are health facts", () => {
    expect(current(remember(["건강검진에서 빈혈 나와서 고기 좀 먹으래요."]))).toContain(
      "health=빈혈",
    );
    expect(current(remember(["검사에서 간 수치가 높게 나왔어요."]))).toContain("health=간 수치");
    expect(current(remember(["발목 인대가 늘어나서 쉬고 있어요."]))).toContain("health=발목 인대");
    expect(current(remember(["건강검진에서 아무것도 안 나왔어요."]))).toEqual([]);
  });

  it("R8.3 what replaces a taste ('대신 …') is the taste a drink question recalls", () => {
    for (const change of [
      "대신 요즘은 탄산수에 레몬 넣어서 마셔요.",
      "대신 탄산수를 마시고 있어요.",
    ]) {
      const facts = remember(["저 맥주 진짜 좋아해요.", "그래서 술 끊었어요.", change]);
      expect(current(facts), change).toContain("preference=탄산수");
    }
  });

  it("R8.2 a bare kin word opening a clause is the user's family, never over a fuller mention", () => {
    expect(current(remember(["언니가 어제 집에 놀러 왔어요."]))).toContain("family=언니");
    expect(current(remember(["치즈는 이제 동생네서 살아요."]))).toContain("family=동생");
    expect(current(remember(["My daughter just turned 5 딸이 공주 인형을 좋아해요"]))).toContain(
      "family=daughter, 5",
    );
    // A friend or a teacher's 애들 is no kin.
    expect(current(remember(["친구가 사진 보내 줬어요."]))).toEqual([]);
  });

  it("R8.3 a move said with 도 ('이사도 했어요') is the new home", () => {
    const facts = remember(["저는 서울 살아요.", "대전으로 이사도 했어요."]);
    expect(current(facts)).toContain("residence=대전");
    expect(current(facts)).not.toContain("residence=서울");
  });

  it("R8.2 a time said with 마다 is no taste ('주말마다 놀러 가요')", () => {
    expect(current(remember(["주말마다 놀러 가요."]))).toEqual([]);
  });
});

describe("R8.3 a replaced hobby and a named child", () => {
  it("R8.3 the hobby that replaced another is what an 'enjoy' question recalls", () => {
    const facts = remember([
      "저 테니스 엄청 좋아해요.",
      "허리 디스크 때문에 테니스는 이제 못 쳐요.",
      "대신 요가 시작했는데 생각보다 재밌어요.",
    ]);
    expect(current(facts)).toContain("preference=요가");
    for (const question of ["제가 요즘 즐기는 운동이 뭐예요?", "주말 운동 계획 짜 줘"]) {
      expect(top3(facts, question), question).toContain("preference=요가");
    }
  });

  it("R8.2 a named son or daughter stands for the children a 워킹맘 says", () => {
    const facts = remember(["저는 워킹맘이에요. 딸이 하나 있는데 4살이에요."]);
    expect(current(facts).filter((fact) => fact.startsWith("family="))).toEqual(["family=딸, 4살"]);
    expect(current(remember(["저 워킹맘이에요."]))).toContain("family=아이");
  });
});

describe("R8.3 a workplace said over two messages", () => {
  it("R8.3 the name of the business the user opened, given in a later message, is the workplace", () => {
    const facts = remember([
      "I teach third grade at Lincoln Elementary.",
      "I'm not a teacher anymore. I'm opening a bakery with my husband!",
      "The bakery opened last week, it's called Flour & Bloom.",
    ]);
    expect(current(facts)).toContain("workplace=Flour & Bloom");
    expect(current(facts)).toContain("job=bakery owner");
    expect(top3(facts, "Where do I work?")).toContain("workplace=Flour & Bloom");
  });

  it("R8.2 a name given to someone else's business or to a thing is no workplace", () => {
    for (const line of [
      "The bakery opened last week, it's called Flour & Bloom.",
      "My friend's shop opened, it's called Nook.",
      "The movie was great, it's called Dune.",
    ]) {
      expect(current(remember([line])).filter((f) => f.startsWith("workplace="))).toEqual([]);
    }
  });
});

describe("R8.2 the reason a request gives is kept, the request is not", () => {
  it("R8.2 '제가 비건이라 고기 빼 주세요' keeps the diet, never the request", () => {
    expect(current(remember(["제가 비건이라 고기 빼 주세요"]))).toEqual(["health=비건"]);
    expect(current(remember(["땅콩 알레르기가 있으니까 땅콩 빼 주세요"]))).toEqual([
      "allergy=땅콩",
    ]);
    expect(current(remember(["오늘 비가 와서 우산 챙겨 주세요"]))).toEqual([]);
  });
});

describe("R8.3 members listed by name", () => {
  it("R8.3 two cats named in a list are two members, in Korean as in English", () => {
    for (const said of [
      ["고양이 두 마리 키워요. 미소랑 두부예요."],
      ["고양이 두 마리 키워요. 이름은 미소랑 두부예요."],
    ]) {
      expect(current(remember(said)), said[0]).toEqual([
        "family=고양이 미소",
        "family=고양이 두부",
      ]);
    }
    expect(current(remember(["I have two cats, Miso and Tofu."]))).toEqual([
      "family=cat Miso",
      "family=cat Tofu",
    ]);
    // Without names the count stays one fact.
    expect(current(remember(["고양이 두 마리 키워요. 너무 귀여워요."]))).toEqual(["family=고양이"]);
  });
});

describe("R8.2 what a member's name opens is the member's", () => {
  it("R8.2 '보리는 … 산책을 좋아해요' is the dog's taste, not the user's", () => {
    const facts = remember([
      "저 유기견 입양했어요! 이름은 보리예요.",
      "보리는 두 살 된 믹스견인데 산책을 엄청 좋아해요.",
    ]);
    expect(current(facts).filter((f) => !f.startsWith("family="))).toEqual([]);
    // The user's own clause after it is the user's again.
    const mine = remember([
      "저 유기견 입양했어요! 이름은 보리예요.",
      "보리는 산책을 좋아해요. 저는 등산을 좋아해요.",
    ]);
    expect(current(mine)).toContain("preference=등산");
  });
});

it("R8.2 the speaker coming in within a member's clause keeps the user's own taste", () => {
  const facts = remember([
    "저 유기견 입양했어요! 이름은 보리예요.",
    "보리는 산책 좋아하고 저는 등산을 좋아해요.",
  ]);
  expect(current(facts)).toContain("preference=등산");
});

describe("R8.3 a member named in the next message", () => {
  it("R8.3 '딸이 하나 있어요' then '이름은 서연이에요' names the daughter, without an age", () => {
    expect(current(remember(["딸이 하나 있어요.", "이름은 서연이에요"]))).toEqual([
      "family=딸 서연",
    ]);
    expect(current(remember(["I just adopted a puppy!", "Her name is Luna."]))).toEqual([
      "family=puppy Luna",
    ]);
    // The user's own name is not the member's.
    expect(current(remember(["딸이 하나 있어요.", "제 이름은 민지예요"]))).toEqual([
      "family=딸",
      "name=민지",
    ]);
  });
});

describe("R8.3 a trip replaced 'instead' retires the trip the message names", () => {
  it("R8.3 Japan is retired when Portugal is done instead; a coworker's Japan trip changes nothing", () => {
    const state = talk([
      "I'm planning a trip to Japan in April with my sister.",
      "Change of plans, flights to Japan got way too expensive, so we're doing Portugal instead.",
      "My coworker just got back from Japan and showed me a thousand photos.",
    ]);
    expect(state.facts.map((f) => `${f.category}=${f.value}`)).toContain("plan=Portugal");
    expect(state.facts.map((f) => f.value)).not.toContain("Japan");
    expect(state.retired.map((f) => `${f.category}=${f.value}`)).toContain("plan=Japan");
  });

  it("R8.3 a plan called off is retired, one the message does not name stays", () => {
    const state = talk([
      "I'm taking a quick trip to Chicago next week.",
      "We're booking a family vacation to Costa Rica.",
      "The Chicago trip got cancelled.",
    ]);
    const plans = state.facts.filter((f) => f.category === "plan").map((f) => f.value);
    expect(plans).toEqual(["Costa Rica"]);
  });
});

describe("R8.3 a plan given up is retired", () => {
  it("R8.3 'not running the marathon anymore' and '마라톤은 안 나가기로 했어요' retire the race", () => {
    const en = talk([
      "I'm training for the Boston Marathon in April.",
      "I'm not running the marathon anymore, my doctor said no.",
    ]);
    expect(en.facts.filter((f) => f.category === "plan")).toEqual([]);
    expect(en.retired.map((f) => f.value)).toContain("Boston Marathon");
    const ko = talk([
      "4월에 서울 마라톤 나가기로 했어요.",
      "발목 인대가 늘어나서 마라톤은 안 나가기로 했어요.",
      "대신 가을에 10km 대회 나가려고요.",
    ]);
    expect(ko.facts.filter((f) => f.category === "plan").map((f) => f.value)).toEqual([
      "10km 대회",
    ]);
    // Someone else's change of plans retires nothing.
    const other = talk([
      "I'm training for the Boston Marathon in April.",
      "My friend won't run the marathon.",
    ]);
    expect(other.facts.map((f) => f.value)).toContain("Boston Marathon");
  });
});
