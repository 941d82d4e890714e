/**
 * A fact ended by naming it (R8.3): the user names the stored value and says it no longer
 * holds, in words no row was written for ("I'm not nursing anymore", "삼성전자 나와서 …",
 * "Jake and I aren't together anymore"). The stored value is the anchor; a question, a
 * hypothetical, a feeling about the fact and someone else's news end nothing.
 */
import { describe, expect, it } from "vitest";
import type { FactState } from "../../../../src/memory/facts/index.ts";
import { talk } from "./talk.ts";

const current = (state: FactState) => state.facts.map((f) => `${f.id}=${f.value}`);
const retired = (state: FactState) => state.retired.map((f) => `${f.id}=${f.value}`);

/** [what was said first, what ended it, the fact id that must be retired] */
const ENDED: readonly (readonly [string, string, string])[] = [
  ["I'm a nurse at St. Mary's hospital.", "These days I'm not nursing anymore.", "job"],
  ["I'm a barista at a coffee shop.", "No more barista shifts for me.", "job"],
  ["I work at Google as an engineer.", "I've since moved on from Google.", "workplace"],
  ["I work at Google as an engineer.", "I left Google last week.", "workplace"],
  ["I work at Target.", "Jumped ship from Target to Costco, the pay's way better.", "workplace"],
  ["I'm a high school teacher in Ohio.", "I retired from teaching in June.", "job"],
  ["I live in Boston.", "Boston is behind me now.", "residence"],
  ["I live in Chicago.", "Chicago's in the rearview mirror now.", "residence"],
  [
    "I love running.",
    "I used to love running, but my knees can't take it now.",
    "preference:running",
  ],
  ["My favorite band is Coldplay.", "I've kind of outgrown Coldplay.", "preference:favorite:band"],
  [
    "I'm training for a marathon in October.",
    "I've decided to skip the marathon this year.",
    "plan:marathon",
  ],
  ["I'm planning to buy a house next year.", "Scrapped the house-buying plan.", "plan:buyahouse"],
  ["I'm vegetarian.", "I've gone back to eating meat.", "health:diet"],
  ["저는 간호사예요.", "요즘은 간호 일 안 하고 카페를 운영하고 있어요.", "job"],
  ["저는 개발자예요.", "개발자 생활 접고 요리 학교 다니고 있어요.", "job"],
  ["저는 삼성전자에 다녀요.", "지난달에 삼성전자 나와서 스타트업으로 옮겼어요.", "workplace"],
  ["카카오에서 일해요.", "이제 카카오 다니지 않아요.", "workplace"],
  ["저는 채식주의자예요.", "채식은 작년에 그만두고 지금은 다 먹어요.", "health:diet"],
  ["저는 매운 음식을 좋아해요.", "요즘 위가 안 좋아서 매운 건 못 먹어요.", "preference:매운음식"],
  ["나 부산 살아.", "부산 생활 끝!", "residence"],
  ["나 인천에 살아.", "인천 집 뺐어.", "residence"],
  ["저는 요리사예요.", "손목이 너무 아파서 그만뒀어.", "job"],
  ["저 회 진짜 좋아해요.", "회 먹고 크게 탈 난 뒤로는 회 쳐다도 안 봐요.", "preference:회"],
  ["I work at a bank downtown as a teller.", "My last day at the bank was Friday.", "workplace"],
  ["우리 아들 세 살이야.", "아들 벌써 네 살이야.", "family:son"],
  [
    "I have a golden retriever named Max.",
    "Max lives on my parents' farm now, he loves it there.",
    "family:dog:max",
  ],
  ["저는 고양이 한 마리 키워요.", "고양이는 본가에 맡기고 지금은 강아지 키워요", "family:cat"],
  ["I'm a barista.", "quit the coffee shop last friday. honestly so relieved.", "job"],
  ["I work as a graphic designer.", "Got laid off today. Whole design team got cut.", "job"],
  [
    "I have a girlfriend, Emma.",
    "me and Emma broke up. it's been a rough week ngl",
    "family:girlfriend:emma",
  ],
  [
    "I've got a boyfriend, Tom.",
    "Ended things with Tom. It wasn't going anywhere",
    "family:boyfriend:tom",
  ],
  ["I have a boyfriend named Chris.", "So Chris and I are done.", "family:boyfriend:chris"],
  [
    "I'm married, my husband's name is Dave.",
    "The divorce was finalised last week.",
    "family:husband:dave",
  ],
  [
    "I have a hamster named Nibbles.",
    "RIP Nibbles 😔 found him this morning.",
    "family:hamster:nibbles",
  ],
  ["I live in Leeds.", "Sold the house in Leeds. We're renting in Edinburgh now", "residence"],
  [
    "I hate spicy food.",
    "Don't mind spicy food these days. Actually kinda love it",
    "dislike:spicyfood",
  ],
];

describe("R8.3 a fact ended by naming it", () => {
  for (const [first, ending, id] of ENDED) {
    it(`R8.3 "${ending}" retires ${id}`, () => {
      const old = talk([first]).facts.find((f) => f.id === id);
      expect(old, first).toBeDefined();
      const after = talk([first, ending]);
      expect(current(after)).not.toContain(`${id}=${old?.value}`);
      expect(retired(after)).toContain(`${id}=${old?.value}`);
    });
  }

  it("R8.3 a partner named with the end of the relationship is retired; one not named stays", () => {
    const ended = talk(["My boyfriend Jake is a chef.", "Jake and I aren't together anymore."]);
    expect(current(ended).filter((l) => l.startsWith("family:"))).toEqual([]);
    const ko = talk(["남자친구 민수랑 주말마다 등산해요.", "민수랑은 이제 연락 안 해요."]);
    expect(current(ko).filter((l) => l.startsWith("family:"))).toEqual([]);
    const other = talk(["My boyfriend Jake is a chef.", "Sam and I aren't together anymore."]);
    expect(current(other)).toContain("family:boyfriend:jake=boyfriend Jake");
  });

  it("R8.3 a partner at a later stage replaces the earlier one (boyfriend → fiancé)", () => {
    const state = talk([
      "I have a boyfriend, we've been together two years.",
      "He's my fiancé now!",
    ]);
    expect(current(state).filter((l) => l.startsWith("family:"))).toEqual(["family:fiance=fiancé"]);
  });

  it("R8.3 a way of eating is one slot: a new one replaces the old", () => {
    const state = talk(["I'm vegan.", "I started eating fish again, so I'm pescatarian now."]);
    expect(current(state)).toEqual(["health:diet=pescatarian"]);
    expect(retired(state)).toEqual(["health:diet=vegan"]);
  });

  it("R8.3 a question, a hypothetical, a feeling or someone else's news ends nothing", () => {
    for (const [first, said] of [
      ["I work at Google.", "Should I leave Google?"],
      ["I work at Google.", "If I left Google, would I regret it?"],
      ["I live in Chicago.", "I don't like Chicago anymore, the winters are brutal."],
      ["I live in Boston.", "We left Boston for the weekend."],
      ["I'm a nurse.", "My sister isn't nursing anymore."],
      ["저는 삼성전자에 다녀요.", "삼성전자 그만둘까요?"],
      ["저는 부산에 살아요.", "부산 여행 갔다가 주말에 나왔어요."],
      ["I love running.", "My brother doesn't go running anymore."],
      ["I work at Google.", "I left Google early today to pick up my kid."],
      ["I'm a nurse at Mercy Hospital.", "I left work early today, long shift."],
      ["I live in Boston.", "We left Boston at 6am to beat the traffic."],
      ["저는 삼성전자에 다녀요.", "오늘 삼성전자 나와서 점심 먹었어요."],
    ] as const) {
      const before = current(talk([first]));
      expect(current(talk([first, said])), said).toEqual(expect.arrayContaining(before));
    }
  });
});

describe("R8.3 the new value of a slot the same message ended", () => {
  const now = (state: FactState, id: string) =>
    state.facts.filter((f) => f.id === id).map((f) => f.value);

  it("R8.3 where the ended workplace or home went is its new value", () => {
    for (const [first, said, id, value] of [
      [
        "I work at Amazon.",
        "Last day at Amazon was friday!! starting at Shopify next week",
        "workplace",
        "Shopify",
      ],
      [
        "I'm an auditor at Deloitte.",
        "Switched jobs! Left Deloitte, I'm at KPMG now.",
        "workplace",
        "KPMG",
      ],
      [
        "I work at Target.",
        "Moved over from Target to Costco, pay is way better.",
        "workplace",
        "Costco",
      ],
      [
        "저는 쿠팡 물류센터에서 일해요.",
        "쿠팡 일 그만두고 마켓컬리로 옮겼어요.",
        "workplace",
        "마켓컬리",
      ],
      ["대구에 살고 있어요.", "대구 생활 정리하고 제주도로 내려왔어요.", "residence", "제주도"],
      [
        "I live in Boston.",
        "Boston is behind me now, I'm settled in Austin.",
        "residence",
        "Austin",
      ],
    ] as const) {
      expect(now(talk([first, said]), id), said).toEqual([value]);
    }
  });

  it("R8.3 what took an ended taste's place is a taste, in the same favourite slot", () => {
    const ramen = talk([
      "My favorite food is sushi.",
      "Lately ramen has replaced sushi as my favorite.",
    ]);
    expect(now(ramen, "preference:favorite:food")).toEqual(["ramen"]);
    const band = talk([
      "My favorite band is Coldplay.",
      "I've kind of outgrown Coldplay. These days it's all Phoebe Bridgers for me.",
    ]);
    expect(now(band, "preference:favorite:band")).toEqual(["Phoebe Bridgers"]);
    const tea = talk([
      "나 커피 엄청 좋아해.",
      "요즘 커피 끊었어. 마시면 심장이 두근거려서 ㅠ 대신 보리차 마셔",
    ]);
    expect(tea.facts.map((f) => f.value)).toContain("보리차");
    expect(tea.facts.map((f) => f.value)).not.toContain("커피");
  });

  it("R8.3 a taste or a plan and the one that took its place", () => {
    const show = talk([
      "My favourite show is Grey's Anatomy.",
      "I'm done with Grey's, it got so boring. Obsessed with The Bear now",
    ]);
    expect(now(show, "preference:favorite:show")).toEqual(["The Bear"]);
    const plan = talk([
      "I'm planning to run the Boston Marathon next spring.",
      "Not doing the marathon anymore, tore my calf. Gonna aim for a half marathon in the autumn instead",
    ]);
    expect(plan.facts.filter((f) => f.category === "plan").map((f) => f.value)).toEqual([
      "half marathon in the autumn",
    ]);
  });

  it("R8.3 an ended job or diet and the one named with it", () => {
    const diet = talk([
      "I'm vegan.",
      "update: I started eating fish again, so pescatarian I guess",
    ]);
    expect(now(diet, "health:diet")).toEqual(["pescatarian"]);
    const job = talk([
      "I work as a high school math teacher.",
      "so I finally left teaching. I'm doing instructional design now, mostly remote",
    ]);
    expect(now(job, "job")).toEqual(["instructional design"]);
  });

  it("R8.3 another taste already stored does not stop the new one; a question or a hypothetical gives nothing", () => {
    const tea = talk([
      "나 커피 엄청 좋아해.",
      "등산도 좋아해.",
      "요즘 커피 끊었어. 마시면 심장이 두근거려서 ㅠ 대신 보리차 마셔",
    ]);
    expect(tea.facts.map((f) => f.value)).toContain("보리차");
    const asked = talk(["I live in Boston.", "I left Boston last month. Should I move to Denver?"]);
    expect(now(asked, "residence")).toEqual([]);
    const wished = talk([
      "I live in Boston.",
      "I left Boston last month. If I moved to Denver I'd be closer to my sister.",
    ]);
    expect(now(wished, "residence")).toEqual([]);
  });

  it("R8.3 without an ending nothing is read, and a city is no workplace", () => {
    // No workplace ended: "at Shopify" stays a visit.
    expect(
      now(talk(["I work at Amazon.", "Had lunch at Shopify's office today."]), "workplace"),
    ).toEqual(["Amazon"]);
    // The workplace ended, the home did not: Seattle is where the user moved, not where they work.
    const moved = talk(["I work at Google.", "I left Google and moved to Seattle."]);
    expect(now(moved, "workplace")).toEqual([]);
    // A day is no place: "my last day at the bank was Friday".
    const bank = talk(["I work at a bank downtown.", "My last day at the bank was Friday."]);
    expect(now(bank, "workplace")).toEqual([]);
  });
});
