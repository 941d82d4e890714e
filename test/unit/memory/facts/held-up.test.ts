/**
 * Facts that hold up: the categories the fact eval's tuning split missed
 * — pets, languages, casual name forms, corrected preferences, facts left implicit in a
 * multi-clause message — in Korean and English, each with a phrasing that must stay silent.
 */
import { describe, expect, it } from "vitest";
import {
  extractFacts,
  type Fact,
  recallFacts,
  sameValue,
  updateFacts,
} from "../../../../src/memory/facts/index.ts";

const remember = (utterances: readonly string[]): Fact[] =>
  utterances.reduce<Fact[]>((facts, u, turn) => updateFacts(facts, u, { turn }), []);

const show = (facts: readonly Fact[]) => facts.map((f) => `${f.category}=${f.value}`).join(", ");

function expectFact(utterance: string, category: string, value: string): void {
  const facts = extractFacts(utterance);
  expect(
    facts.some((f) => f.category === category && sameValue(f.value, value)),
    `${utterance} → ${show(facts)}`,
  ).toBe(true);
}

function expectNone(utterance: string, category?: string): void {
  const facts = extractFacts(utterance).filter(
    (f) => category === undefined || f.category === category,
  );
  expect(show(facts), utterance).toBe("");
}

const recalled = (facts: readonly Fact[], question: string) =>
  recallFacts(facts, question, 3).map((f) => f.id);

describe("pets", () => {
  it("Korean words for an old or rescued pet name the pet (노견, 노묘, 유기견)", () => {
    const dog = remember(["제가 키우는 강아지가 벌써 열두 살이에요"]);
    expect(recalled(dog, "노견 산책 얼마나 시켜야 돼?")).toEqual(["family:dog"]);
    const cat = remember(["고양이 한 마리 키워요"]);
    expect(recalled(cat, "노묘 사료 추천해 줘")).toEqual(["family:cat"]);
    expectFact("유기견 한 마리 키워요", "family", "유기견");
  });

  it("'our dog Biscuit turned ten' and '고양이 두 마리랑 같이 살아요' state a pet, not a home", () => {
    expectFact("Our cat Miso turned five last week.", "family", "cat");
    expectNone("Our team shipped the release.", "family");
    const facts = extractFacts("저는 강아지 두 마리랑 같이 살아요");
    expect(show(facts)).toBe("family=강아지");
    expect(show(extractFacts("남편이랑 같이 살아요"))).toBe("family=남편");
  });

  it("pet-care questions find the pet (crate, leash, litter, 배변)", () => {
    const dog = remember(["We got a beagle puppy last week."]);
    expect(recalled(dog, "Any tips for crate training?")).toContain("family:dog");
    expect(recalled(dog, "What leash length is best?")).toContain("family:dog");
    const cat = remember(["나 고양이 키워"]);
    expect(recalled(cat, "배변 훈련 어떻게 해?")).toEqual(["family:cat"]);
    expect(recalled(dog, "What should I cook tonight?")).toEqual([]);
  });
});

describe("languages", () => {
  it("a speaking or learning gerund a few words after the speaker names the language", () => {
    expectFact("I grew up speaking Greek with my grandparents.", "other", "Greek");
    expectFact("I started learning Korean last spring", "other", "Korean");
    expectFact("I've been speaking German at work", "other", "German");
  });

  it("'a native X speaker' and 'picked up X' name languages", () => {
    expect(
      extractFacts("I'm a native Dutch speaker and I picked up French at work.").map((f) => f.id),
    ).toEqual(["other:language:nl", "other:language:fr"]);
    expectNone("I'm a native New Yorker", "other");
    expectNone("I picked up the kids from school", "other");
  });

  it("not after a negation, and not without the speaker", () => {
    expectNone("I'm not learning Spanish anymore", "other");
    expectNone("I stopped studying French years ago", "other");
    expectNone("She grew up speaking Italian", "other");
  });
});

describe("casual name forms", () => {
  it("discourse markers before a casual introduction do not hide it (아 참 / 음 / oh)", () => {
    expectFact("아 참 나 지은이야", "name", "지은");
    expectFact("음, 저 현우예요", "name", "현우");
    expectFact("oh, I'm Priyanka", "name", "Priyanka");
    expectNone("아 참 그거 좋네");
  });

  it("'the name's X', and a bare name after the speaker brings up their name", () => {
    expectFact("oh btw the name's Rosa", "name", "Rosa");
    expectFact("아 제 이름 말씀 안 드렸죠? 서윤이에요", "name", "서윤");
    expectFact("I never told you my name. Ines.", "name", "Ines");
    expectNone("제 이름 궁금하세요? 좋아요");
    expectNone("My name is hard to spell. Sorry.");
    expectNone("서윤이에요");
  });

  it("'do you know who I am?' asks for the name", () => {
    const facts = remember(["Call me Raf"]);
    expect(recalled(facts, "do you know who I am?")).toEqual(["name"]);
  });
});

describe("corrected preferences", () => {
  it("a dislike of a wider or narrower wording removes the preference (horror / horror movies)", () => {
    const facts = remember([
      "I love horror movies.",
      "Actually no, I can't stand horror anymore. Thrillers are my thing now.",
    ]);
    expect(facts.map((f) => `${f.category}=${f.value}`).sort()).toEqual([
      "dislike=horror",
      "preference=Thrillers",
    ]);
    const 한국어 = remember(["저 매운 라면 좋아해요", "요즘은 라면 별로예요"]);
    expect(한국어.filter((f) => f.category === "preference")).toEqual([]);
  });

  it("a Korean comparison states the new taste without a subject (더 좋아요, Y보다 X이 좋아요)", () => {
    expectFact("딸기가 더 좋아요", "preference", "딸기");
    expectFact("요즘은 등산보다 자전거가 좋아요", "preference", "자전거");
    expectNone("날씨가 좋아요");
    expectNone("그게 더 좋아요");
    const facts = remember([
      "저 민트초코 좋아해요",
      "아 근데 요즘은 민트초코 별로예요. 바닐라가 더 좋아요",
    ]);
    expect(recalled(facts, "아이스크림 맛 추천해 줘")[0]).toBe("preference:바닐라");
    expect(facts.some((f) => f.id === "preference:민트초코")).toBe(false);
  });

  it("'I'm more into X now' is the new taste, without the 'now'; 'what should I try' asks for it", () => {
    const facts = remember(["I can't stand sweet wine.", "I'm way more into dry reds now."]);
    expect(show(facts)).toBe("dislike=sweet wine, preference=dry reds");
    expect(recalled(facts, "Which wine should I try tonight?")).toContain("preference:dryreds");
  });

  it("only ever having one thing is a taste (now I only drink tea / 차만 마셔요)", () => {
    const facts = remember(["I used to love coffee but now I only drink green tea."]);
    expect(facts.map((f) => `${f.category}=${f.value}`)).toEqual(["preference=green tea"]);
    expectFact("요즘은 물만 마셔요", "preference", "물");
    expectNone("I only eat when I'm hungry");
  });
});

describe("facts left implicit in a multi-clause message", () => {
  it("'X is an exception, I love it': it is the previous clause's topic", () => {
    const facts = remember([
      "Not a fan of cheese, honestly.",
      "But brie is an exception, I love it.",
    ]);
    expect(facts.map((f) => `${f.category}=${f.value}`).sort()).toEqual([
      "dislike=cheese",
      "preference=brie",
    ]);
    // A possession is no taste, and a pronoun is no topic.
    expectNone("My bike is old, I love it", "preference");
    expectNone("This place is great, I love it");
  });

  it("'예전에는 X를 …는데 요즘은 끊었어요': the dropped object is the previous clause's", () => {
    expectFact("예전에는 담배를 많이 피웠는데 요즘은 끊었어요", "health", "담배");
    expectNone("예전에는 영화를 많이 봤는데 요즘은 바빠요");
  });

  it("sick of it (질려서 / 질렸어요) is a dislike, not an allergy", () => {
    expectFact("샐러드는 질려서 못 먹겠어요", "dislike", "샐러드");
    expect(extractFacts("샐러드는 질려서 못 먹겠어요").map((f) => f.category)).toEqual(["dislike"]);
    expectFact("치킨은 질렸어요", "dislike", "치킨");
  });

  it("what the speaker is learning is a hobby, a language stays a language", () => {
    expectFact("저 요즘 드럼 배우고 있어요", "preference", "드럼");
    expectFact("I'm learning the cello", "preference", "cello");
    expectFact("I've been learning to knit for a month", "preference", "knit");
    expect(extractFacts("요즘 독일어 배우고 있어요").map((f) => f.id)).toEqual([
      "other:language:de",
    ]);
    expect(extractFacts("I'm learning Italian for fun").map((f) => f.id)).toEqual([
      "other:language:it",
    ]);
  });

  it("'I'm stuck in <place>' is where the speaker lives; traffic is no place", () => {
    expectFact("For now I'm stuck in Akron lol", "residence", "Akron");
    expectNone("I'm stuck in traffic again");
  });

  it("the company moving is the workplace, not the speaker's home", () => {
    const facts = extractFacts("우리 회사가 성수로 이전해서 요즘 멀어요");
    expect(show(facts)).toBe("workplace=성수");
    expectFact("성수로 이사했어요", "residence", "성수");
  });

  it("a commute question finds home and work", () => {
    const facts = remember(["저 집은 일산이에요", "회사는 강남에 있어요"]);
    expect(recalled(facts, "출퇴근 시간 줄이는 법 알려줘").sort()).toEqual([
      "residence",
      "workplace:location",
    ]);
    const en = remember(["I live in Oakland.", "I work at Stripe."]);
    expect(recalled(en, "How can I make my commute less boring?").sort()).toEqual([
      "residence",
      "workplace",
    ]);
  });

  it("a family member's condition matters to a food question", () => {
    const facts = remember(["저희 아빠가 고혈압이 있으세요", "주말에 본가 가요"]);
    expect(recalled(facts, "저녁 반찬 뭐 만들까?")).toContain("family:father");
    const plain = remember(["저희 아빠는 회사원이세요"]);
    expect(recalled(plain, "저녁 메뉴 추천해 줘")).toEqual([]);
  });
});

describe("third round: laughter, reasons, idioms", () => {
  it("laughter after a statement does not hide it (민지라고 해 ㅎㅎ, I'm Sam lol)", () => {
    expectFact("하린이라고 해 ㅋㅋ", "name", "하린");
    expectFact("저 지호라고 해요 ㅎㅎ", "name", "지호");
    expectNone("ㅋㅋㅋ");
  });

  it("a reason between the topic and the verb (여름은 너무 더워서 싫어요)", () => {
    expectFact("겨울은 너무 추워서 싫어요", "dislike", "겨울");
    expectFact("고양이는 귀여워서 좋아해요", "preference", "고양이");
    expectNone("오늘은 피곤해서 싫어");
    const facts = remember([
      "저 여름 좋아해요",
      "아 근데 여름은 너무 더워서 싫어요. 가을이 제일 좋아요",
    ]);
    expect(show(facts)).toBe("dislike=여름, preference=가을");
  });

  it("a reason alone is not the thing (저는 바빠서 싫어요), nor a name (저는 피곤해서 …)", () => {
    expectNone("저는 바빠서 싫어요");
    expectNone("저 지금 아파서 싫어");
    expectNone("저는 피곤해서 싫어요");
    expectNone("저는 귀찮아서 싫어요");
    expectFact("교과서가 싫어요", "dislike", "교과서");
    expectFact("저는 아서예요", "name", "아서");
    expectFact("제 이름은 은서예요", "name", "은서");
  });

  it("'I'm more of an X person' and 'I play (the) X' are tastes", () => {
    expectFact("Honestly I'm more of a tea person", "preference", "tea");
    expectNone("I'm a people person");
    expectFact("I play the cello in a quartet", "preference", "cello");
    expectFact("we play badminton on Fridays", "preference", "badminton");
    expectNone("I play with my kids after work");
  });

  it("a language keeps the name the user gave it (Mandarin, not Chinese)", () => {
    const [fact] = extractFacts("I'm fluent in Mandarin.");
    expect(fact?.id).toBe("other:language:zh");
    expect(fact?.value).toBe("Mandarin");
    expect(extractFacts("I speak Japanese")[0]?.value).toBe("Japanese");
  });
});

describe("fourth round: habits, switching, majors, pets had for years", () => {
  it("a habit (주말마다, 매주) is a hobby, not a plan; a one-off trip stays a plan", () => {
    expect(show(extractFacts("주말마다 볼링 치러 가요"))).toBe("preference=볼링");
    expect(show(extractFacts("주말마다 서핑 하러 가요"))).toBe("preference=서핑");
    expect(extractFacts("주말에 서핑 하러 가요").map((f) => f.category)).toEqual(["plan"]);
  });

  it("what the speaker switched to is theirs (아이폰 15로 바꿨어요), a change of mind is not", () => {
    expectFact("저 이번에 갤럭시 24로 바꿨어요", "possession", "갤럭시 24");
    expectFact("전기차로 갈아탔어요", "possession", "전기차");
    expectNone("마음을 바꿨어요");
  });

  it("'X 전공했어요' is the major", () => {
    expect(extractFacts("저 경영학 전공했어요").map((f) => `${f.id}=${f.value}`)).toEqual([
      "other:major=경영학",
    ]);
  });

  it("'we've had our bunny Clover for years' states the pet", () => {
    expectFact("We've had our puppy Nala for a year.", "family", "puppy");
    expectNone("We've had our share of problems", "family");
  });
});

describe("a preference that says it changed", () => {
  it("replaces the preference stated just before it, in both languages", () => {
    for (const [first, second, gone, now] of [
      ["저 아메리카노 좋아해요", "아 근데 요즘은 라떼만 마셔요", "아메리카노", "라떼"],
      ["I really like tea.", "Hmm, no, lately I'm more of a coffee person.", "tea", "coffee"],
      ["I'm a big fan of IPAs.", "Lately I'm more into sours now.", "IPAs", "sours"],
    ] as const) {
      const facts = remember([first, second]);
      const prefs = facts.filter((f) => f.category === "preference").map((f) => f.value);
      expect(
        prefs.some((v) => sameValue(v, now)),
        show(facts),
      ).toBe(true);
      expect(
        prefs.some((v) => sameValue(v, gone)),
        show(facts),
      ).toBe(false);
    }
  });

  it("keeps an earlier preference when no change is said, or when other facts came after it", () => {
    const both = remember(["I really like tea.", "I also like coffee."]);
    expect(show(both)).toContain("preference=tea");
    const later = remember([
      "I really like tea.",
      "I live in Busan.",
      "Lately I'm more into coffee.",
    ]);
    expect(show(later)).toContain("preference=tea");
    const ko = remember(["저 아메리카노 좋아해요", "라떼도 좋아해요"]);
    expect(show(ko)).toContain("preference=아메리카노");
  });
});

describe("an allergy given as the reason", () => {
  it("what the allergy rules out is not a fact of its own (알레르기 있어서 … 못 먹어요)", () => {
    const facts = extractFacts("아 그리고 저 글루텐 알레르기 있어서 빵은 못 먹어요");
    expect(show(facts)).toBe("allergy=글루텐");
    // Without the allergy as the reason, what cannot be eaten is kept.
    expectFact("저 빵은 못 먹어요", "allergy", "빵");
  });
});

describe("raising a pet, asked about", () => {
  it("'키울 때' in a question recalls the user's pet", () => {
    const facts = remember(["요즘 저희 집 앵무새가 말을 배우고 있어요"]);
    expect(recalled(facts, "새 키울 때 주의할 점 있어?")).toEqual(["family:bird"]);
  });
});

describe("a casual introduction split by a comma", () => {
  it("'Sam, by the way.' names the user; a sentence that goes on or an interjection does not", () => {
    expectFact("Sam, by the way. Nice to meet you!", "name", "Sam");
    expectFact("Sam, btw", "name", "Sam");
    expectNone("Paris, by the way, is lovely in spring.", "name");
    expectNone("Thanks, by the way!", "name");
    expectNone("Monday, by the way.", "name");
  });
});

describe("R8.1/R8.2 a first language, teaching as a job, what happens at work", () => {
  it("R8.1 a language the user calls their own is their first language; 'what's my first language?' ranks it first", () => {
    const en = remember(["I'm a native Spanish speaker, and I picked up English in school."]);
    expect(recalled(en, "What's my first language?")[0]).toBe("other:language:es");
    const own = remember(["I use English at work.", "Portuguese is my mother tongue though."]);
    expect(recalled(own, "What is my native language?")[0]).toBe("other:language:pt");
    const ko = remember(["제 모국어는 베트남어고 한국어는 대학 때 배웠어요"]);
    expect(show(ko)).toBe("other=베트남어, other=한국어");
    expect(recalled(ko, "내 모국어가 뭐였지?")[0]).toBe("other:language:vi");
    const native = remember(["영어 원어민이고 일본어 공부 중이에요"]);
    expect(recalled(native, "나 원어민 수준인 언어가 뭐야?")[0]).toBe("other:language:en");
    // A language asked about without "first/native" keeps the usual order.
    expect(recalled(en, "Which languages do I speak?")).toHaveLength(2);
    expectNone("I'm a native New Yorker", "other");
  });

  it("R8.1 teaching at a school or an academy is the job (초등학교에서 애들 가르쳐요 → 초등학교 교사)", () => {
    expectFact("저는 초등학교에서 애들 가르쳐요", "job", "초등학교 교사");
    expectFact("요즘 학원에서 수학 가르치고 있어요", "job", "학원 강사");
    expectNone("회사에서 신입 가르쳐요", "job");
    expectNone("초등학교에서 애들 가르쳤어요", "job");
    expectNone("초등학교에서 애들 안 가르쳐요", "job");
  });

  it("R8.2 a question about a class or a lesson recalls a teacher's job", () => {
    const ko = remember(["저는 초등학교에서 애들 가르쳐요"]);
    expect(recalled(ko, "수업 준비 팁 있어요?")).toEqual(["job"]);
    const en = remember(["I teach at a middle school."]);
    expect(recalled(en, "Any ideas for tomorrow's lesson?")[0]).toBe("job");
  });

  it("R8.2 what happens at work (night shifts at work, 일할 때) is about the job before the workplace", () => {
    const en = remember(["I've been working as a nurse at Mercy Hospital for five years."]);
    expect(recalled(en, "Any advice for coping with night shifts at work?")[0]).toBe("job");
    const ko = remember(["저 서울대병원에서 간호사로 일해요"]);
    expect(recalled(ko, "일할 때 졸음 쫓는 법 있을까?")[0]).toBe("job");
  });
});

describe("R8.1/R8.2 dev7: pets, languages, casual names, changed tastes, long messages", () => {
  it("R8.1 a pet kept by the speaker with 키우는데/키우거든, or named as 우리 X예요", () => {
    expectFact("저 고양이 두 마리 키우는데 둘 다 겁이 많아요", "family", "고양이");
    expectFact("이 사진 속 애가 우리 토끼예요", "family", "토끼");
    // 키우는데 also reads "in raising one", and a friend's pet is not the user's.
    expectNone("강아지 키우는데 비용 많이 들어요?", "family");
    expectNone("친구가 강아지 키우는데 귀엽더라", "family");
  });

  it("R8.1 a Korean conditional (-면) is cut off: what follows it states a fact unless it is what would happen then", () => {
    expectFact("집에 가면 제일 먼저 반기는 건 우리 강아지예요", "family", "강아지");
    expectNone("돈 많으면 포르쉐 살 거예요");
    expectNone("서울에 살면 좋겠어요");
    expectNone("주말에 날씨 좋으면 한강 가요");
  });

  it("R8.1 English pets: a breed named by its last part, a pet at the end of the clause or before its name", () => {
    expectFact("My labradoodle hates baths.", "family", "labradoodle");
    expectFact("Just adopted a bloodhound from the shelter.", "family", "bloodhound");
    expectFact("The only one who listens to me is my goldfish.", "family", "goldfish");
    expectFact("We kept my tabby, Oscar.", "family", "tabby");
    expect(extractFacts("We kept my tabby, Oscar.").map((f) => f.id)).toEqual(["family:cat:oscar"]);
    expectNone("I'm allergic to shellfish", "family");
  });

  it("R8.2 a question about a walk (산책) recalls the dog", () => {
    const dog = remember(["저 푸들 키워요"]);
    expect(recalled(dog, "산책 코스 추천해 줘")).toEqual(["family:dog"]);
  });

  it("R8.1 casual Korean names: 걍/그냥 before ~라고 불러, and a one-syllable name", () => {
    expectFact("그냥 민이라고 불러", "name", "민");
    expectFact("걍 편하게 수아라고 불러", "name", "수아");
    expectNone("그 사람을 바보라고 불러?");
    const facts = remember(["내 이름은 하린. 잘 부탁해"]);
    expect(recalled(facts, "나 누군지 알지?")).toEqual(["name"]);
  });

  it("R8.1 'my name's' followed by a function word is no name", () => {
    expectNone("my name's on the list i think");
    expectNone("my name is in the credits");
    expectFact("my name is Will", "name", "Will");
  });

  it("R8.1 languages: spoken with an adverb between (편하게 해요, 둘 다 해요), 'get by in', 'X is what we speak', 'been taking X classes'", () => {
    expectFact("중국어랑 일본어 둘 다 해요", "other", "중국어");
    expectFact("중국어랑 일본어 둘 다 해요", "other", "일본어");
    expectFact("I can get by in Portuguese", "other", "Portuguese");
    expectFact("Greek is what we speak at home", "other", "Greek");
    const learning = extractFacts("I've been taking Japanese lessons since May");
    expect(learning.map((f) => f.text)).toEqual(["The user is learning Japanese"]);
    expectNone("Pizza is what we eat at home");
  });

  it("R8.1 a clause set in the past by a time phrase (어릴 때, as a kid) gives no current home or job", () => {
    const facts = extractFacts("어릴 때 프랑스에서 살아서 프랑스어는 편하게 해요");
    expect(show(facts)).toBe("other=프랑스어");
    expectNone("어릴 때 부산에서 살아서 사투리 써요", "residence");
    expectFact("어릴 때 부산에서 자랐어요", "residence", "부산");
  });

  it("R8.1 changed tastes: 'I'd rather have X', 'I've gone off X', X보다 Y가 더 재밌어요/맛있어요", () => {
    expectFact("I'd rather have tea", "preference", "tea");
    expectNone("I'd rather not say");
    expectFact("I've gone off coffee", "dislike", "coffee");
    expectNone("I've gone off to bed");
    expectNone("I went off the rails");
    expectFact("요즘은 커피보다 녹차가 더 맛있어요", "preference", "녹차");
    expectFact("다큐멘터리가 더 재밌어요", "preference", "다큐멘터리");
  });

  it("R8.1 a changed taste with 'prefer' or X보다 replaces the one stated just before", () => {
    const en = remember(["I love hiking.", "These days I prefer cycling."]);
    expect(show(en)).toBe("preference=cycling");
    const ko = remember(["저 등산 좋아해요", "이제는 등산보다 수영이 더 재밌어요"]);
    expect(show(ko)).toBe("preference=수영");
  });

  it("R8.1 an English plan dated by its day of the month ('on the 3rd')", () => {
    expectFact("I'm driving to Denver on the 3rd for a wedding.", "plan", "Denver");
    expectNone("I'm going to Paris for the 3rd time");
  });
});

describe("R8.1/R8.2 dev8: household pets, owner slang, ages in words, eating that harms, habits", () => {
  it("R8.1 a household member that is a pet (저희 집 막내는 … 푸들이에요), owner slang (고양이 집사, 냥집사, 견주)", () => {
    expectFact("우리 집 막내는 두 살 된 푸들이에요", "family", "푸들");
    expectFact("저 3년 차 고양이 집사예요", "family", "고양이");
    expect(extractFacts("저 냥집사예요").map((f) => f.id)).toEqual(["family:cat"]);
    expect(extractFacts("저 견주예요").map((f) => f.id)).toEqual(["family:dog"]);
    expectNone("우리 집 막내는 중학생이에요", "family");
  });

  it("R8.1 English small pets and a Korean pet word in an English sentence", () => {
    expectFact("We have a guinea pig called Waffles.", "family", "guinea pig");
    expectFact("My hedgehog is shy.", "family", "hedgehog");
    expect(extractFacts("I have a 진돗개 named Baekgu").map((f) => f.id)).toEqual([
      "family:dog:baekgu",
    ]);
    expectNone("I have a catalog", "family");
  });

  it("R8.1 an age in native Korean numerals without 살 (스물아홉이에요, 서른 됐어요) is an age, not a name", () => {
    expect(show(extractFacts("저 마흔둘이에요"))).toBe("other=마흔둘");
    expectFact("올해 서른 됐어요", "other", "서른");
    expectNone("열이에요");
    const facts = remember(["저 스물아홉이에요", "아 잘못 말했다, 올해 서른 됐어요"]);
    expect(show(facts)).toBe("other=서른");
  });

  it("R8.1 a job held for a while (물리치료사로 일한 지 5년) and a language used daily (영어는 매일 써요)", () => {
    expectFact("약국에서 약사로 일한 지 3년 됐어요", "job", "약사");
    expectFact("약국에서 약사로 일한 지 3년 됐어요", "workplace", "약국");
    expectFact("일본어는 회사에서 매일 써요", "other", "일본어");
    expectNone("저 영어 이름 써요", "other");
  });

  it("R8.1 what eating something does to the user: 먹으면 큰일 나요 / if I eat X I get sick", () => {
    expectFact("저 복숭아 먹으면 두드러기 나요", "allergy", "복숭아");
    expectNone("우유 마시면 배탈 나나요?", "allergy");
    expectNone("돈 많으면 포르쉐 살 거예요");
    expectFact("If I eat shrimp I break out in hives.", "allergy", "shrimp");
    expectNone("if I eat too much I get sick", "allergy");
    expectNone("If I lived in Paris I would eat croissants");
  });

  it("R8.1 practicing a language, listening habits, a switch lately, a new place in a city", () => {
    expect(
      extractFacts("I'm trying to practice my Italian before Rome.").map((f) => f.text),
    ).toEqual(["The user is learning Italian"]);
    expectFact("I mostly watch anime", "preference", "anime");
    expectNone("I usually read before bed");
    expectFact("Lately I've switched to oat milk", "preference", "oat milk");
    expectNone("I switched to night shifts", "preference");
    expectFact("We finally moved into our new apartment in Leeds", "residence", "Leeds");
  });

  it("R8.2 a changed habit ('these days I mostly …') replaces the taste before; a nickname or a trip asks for name or tastes", () => {
    const music = remember(["I'm really into metal.", "These days I mostly listen to folk."]);
    expect(show(music)).toBe("preference=folk");
    const named = remember(["You can call me Bea."]);
    expect(recalled(named, "What's my nickname?")).toEqual(["name"]);
    const trip = remember(["저 바다보다 산이 더 좋아요"]);
    expect(recalled(trip, "휴가 어디로 갈까?")).toEqual(["preference:산"]);
  });
});

describe("R8.1/R8.2 dev9: bringing a pet home, sides and joys, roles, new jobs, bare corrections", () => {
  it("R8.1 bringing a pet home (들였어, 입양했어요, 데려왔어요) and fostering one", () => {
    expectFact("얼마 전에 고양이 한 마리 입양했어요", "family", "고양이");
    expectFact("어제 토끼를 데려왔어요", "family", "토끼");
    expectFact("We're fostering two puppies this month.", "family", "puppies");
    const bird = remember(["나 요즘 앵무새 한 마리 들였어"]);
    expect(recalled(bird, "새 모이 뭐가 좋아?")).toEqual(["family:bird"]);
  });

  it("R8.1 a greeting (ㅎㅇ) before a casual name; X파 is a side taken, not a name", () => {
    expectFact("ㅎㅇ 난 수빈", "name", "수빈");
    expect(show(extractFacts("저 찍먹파예요"))).toBe("preference=찍먹");
  });

  it("R8.1 Korean tastes: 땡기다 in a comparison, 에 빠졌어요, X 하는 게 낙이에요", () => {
    expectFact("요즘은 국물 요리가 더 땡기더라고요", "preference", "국물 요리");
    expectNone("치킨 땡겨요");
    expect(show(extractFacts("저 뜨개질에 빠졌어요"))).toBe("preference=뜨개질");
    expectFact("퇴근하고 자전거 타는 게 유일한 낙이에요", "preference", "자전거");
    const sport = remember(["수영 좋아해요", "근데 요즘은 수영보다 클라이밍에 빠졌어요"]);
    expect(show(sport)).toBe("preference=클라이밍");
    expect(recalled(sport, "운동 뭐 할까?")).toEqual(["preference:클라이밍"]);
  });

  it("R8.1 a role (X 담당), a new job (X에 취직/입사/이직했어요, got the job at X)", () => {
    expectFact("저 마케팅 담당이에요", "job", "마케팅");
    expectFact("이번에 네이버로 이직했어요", "workplace", "네이버");
    expectFact("드디어 카카오에 입사했어요", "workplace", "카카오");
    expectFact("Big news: I got the job at Figma!", "workplace", "Figma");
  });

  it("R8.1 what one should do is no fact (영어 공부 해야 하는데)", () => {
    expectNone("일본어 공부 해야 하는데");
    expectNone("오늘 영어 숙제 해야겠다");
    expectFact("저 당뇨가 있어서 단 걸 조심해야 해요", "health", "당뇨");
  });

  it("R8.1 English languages: in use now, decent at; 'I'd much rather' is a taste", () => {
    expectFact("I mostly use Korean with my parents", "other", "Korean");
    expectNone("I use French press coffee", "other");
    expectFact("I'm pretty good at Italian", "other", "Italian");
    expectNone("I'm good at math");
    expectFact("Nowadays I'd much rather read a novel", "preference", "novel");
  });

  it("R8.1 a correction that says it corrects and ends in a bare value replaces the last fact", () => {
    const taste = remember(["Pizza is my favorite food.", "Actually, scratch that, it's tacos."]);
    expect(show(taste)).toBe("preference=tacos");
    const ko = remember(["제일 좋아하는 음식은 피자예요", "아 정정할게요. 파스타예요"]);
    expect(show(ko)).toBe("preference=파스타");
    const place = remember(["I live in Austin", "scratch that, it's hard to explain"]);
    expect(show(place)).toBe("residence=Austin");
  });
});

describe("R8.1/R8.2 dev10: casual phrasings of home, health, family, plans, things, dislikes", () => {
  it("R8.1 a clinic visited as a patient is no workplace; what it treats is health (X 때문에 병원 다녀요)", () => {
    const facts = extractFacts("저 요즘 허리 디스크 때문에 병원 다니고 있어요");
    expect(show(facts)).toBe("health=허리 디스크");
    expectFact("무릎 때문에 물리치료 받고 있어요", "health", "무릎");
    expectNone("회사 때문에 병원 다녀요", "health");
    expectFact("저 서울대병원 다녀요", "workplace", "서울대병원");
  });

  it("R8.1 living with a family member as a pair (남동생이랑 둘이 살아요)", () => {
    expectFact("언니랑 둘이 살아요", "family", "언니");
  });

  it("R8.1 English clauses without a subject: 'Been living in X', 'Heading to X next weekend', 'Just picked up a Vespa'", () => {
    expectFact("Been living in Porto for two years.", "residence", "Porto");
    expectFact("Heading to Denver next Friday for work.", "plan", "Denver");
    expectFact("Just picked up a used Vespa.", "possession", "Vespa");
    expect(show(extractFacts("I picked up Spanish in Mexico"))).toBe("other=Spanish");
  });

  it("R8.1 'an' before an adjective is not cut to 'n' (I drive an old Honda)", () => {
    expect(show(extractFacts("I drive an old Honda"))).toBe("possession=Honda");
    expect(show(extractFacts("I do have an e-bike though."))).toBe("possession=e-bike");
  });

  it("R8.1 what tastes like soap is a dislike (X tastes like soap, 고수는 비누 맛 나요)", () => {
    expectFact("Cilantro tastes like soap to me.", "dislike", "cilantro");
    expectNone("It tastes awful");
    expectFact("고수는 비누 맛 나요", "dislike", "고수");
    expectNone("이 집 김치는 맛이 이상해요");
  });

  it("R8.2 a portfolio or a CV (포트폴리오, 이력서) is about the job", () => {
    const facts = remember(["난 프리랜서 디자이너야"]);
    expect(recalled(facts, "포트폴리오 정리 팁 좀")).toEqual(["job"]);
  });
});
