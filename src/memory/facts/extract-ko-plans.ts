/**
 * Korean rules for what the user plans, owns and the rest (extract-ko.ts): trips and events,
 * possessions, languages, majors and other facts.
 */

import {
  ADVS,
  copulaRest,
  type Found,
  hasTime,
  headBefore,
  KOREAN_NUMBER,
  rx,
  T,
} from "./extract-ko-shared.ts";
import {
  isContentWord,
  isTimeWord,
  nounPhrase,
  type Subject,
  splitParticle,
  tokensOf,
} from "./korean.ts";
import { EVENTS_KO, NATIONALITIES, possessionKind } from "./lexicon.ts";
import { pattern } from "./regex.ts";

const GO_VERB =
  "(?:감(?=$|\\s|[.!~ㅋㅎ])|가요|가(?=$|\\s|[.!~])|갑니다|가기로|가려고|갈\\s*거|갈\\s*예정|갈\\s*계획|가는데|갈게|갑니당|떠나요|떠나(?=$|\\s|[.!~])|떠납니다|떠날|가게\\s*됐|가게\\s*되었|가는\\s*(?:거|것|게|날))";
const EXPLICIT_FUTURE = pattern(
  String.raw`(?:기로|려고|갈\s*거|할\s*거|예정|계획|게\s*됐|게\s*되었|갈게|떠날)`,
  "",
  "갈|게|계획|기로|되었|떠날|려고|예정|할",
);

const PLANS_RE1 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:(?:여행|출장|놀러|캠핑|휴가|유학|답사|견학|신혼여행)\\s*(?:을|를)?\\s*)?${GO_VERB}`,
  "가|가는|갈|감|갑니다|갑니당|계획|떠나|떠날|떠납니다|예정",
);
const PLANS_RE2 = rx(
  `${T}(\\S*?)(${EVENTS_KO})(?:이|가|을|를|은|는|도)?\\s*${ADVS}(?:있어|있습|있음|있고|있는데|있거든|잡혔|잡혀|예정|해요|합니다|해(?=$|\\s|[.!~])|할\\s*거|하기로|하려고|보러|봐요|봅니다|보기로|가요|가(?=$|\\s|[.!~])|갑니다|가기로|갈\\s*거|받아야|받으러|받기로|받아요|봐야|이에요|예요|이야|입니다|이라|라서|이래요|래요)`,
  "건강검진|검사|결혼|경기|공연|대회|데이트|돌잔치|동창회|등산|레슨|마라톤|면접|모임|미팅|발표|비행기|상견례|세미나|소개팅|송별회|수술|수업|시합|시험|야유회|약속|여행|예약|오디션|워크숍|이사|입학식|전시회|졸업식|진료|집들이|축제|출장|캠핑|컨퍼런스|콘서트|파티|페스티벌|회식|회의|휴가",
);

const PLANS_RE3 = pattern("^(?:이사|집|회사|학교|병원)$", "", "병원|이사|집|학교|회사");
const PLANS_RE4 = pattern("^[가-힣A-Za-z0-9]+$");
const PLANS_RE5 = pattern("이사|여행|출장", "", "여행|이사|출장");

const HABITUAL: ReadonlySet<string> = new Set([
  "매주",
  "매일",
  "매번",
  "맨날",
  "자주",
  "항상",
  "늘",
  "매달",
  // How often: "주말엔 보통 볼더링 하러 가" is a habit too.
  "보통",
  "주로",
  "평소에",
  "평소엔",
  "대개",
  "대체로",
  "종종",
  "가끔",
  "가끔씩",
  "틈틈이",
]);

export function plans(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const future = hasTime(text) || EXPLICIT_FUTURE.test(text);
  if (!future) return [];
  // "주말마다 클라이밍 하러 가요": a habit, not a plan; what the speaker goes to do is a hobby.
  const habitual = tokensOf(text).some((token) => token.endsWith("마다") || HABITUAL.has(token));
  for (const m of PLANS_RE1.all(text)) {
    const token = m[1] ?? "";
    if (isTimeWord(token)) continue;
    const head = headBefore(text, m.index ?? 0, token, ["에", "로", "으로", "을", "를"], 1);
    if (head === undefined || PLANS_RE3.test(head.value)) continue;
    if (habitual) {
      // "볼링 치러", "서핑 하러": the purpose verb (…러) goes, the activity stays.
      const words = tokensOf(head.value);
      const activity =
        words.length > 1 && (words.at(-1) ?? "").endsWith("러")
          ? words.slice(0, -1).join(" ")
          : head.value;
      if (isContentWord(activity)) {
        out.push({ category: "preference", value: activity, lang: "ko", form: "hobby" });
      }
      continue;
    }
    out.push({ category: "plan", value: head.value, lang: "ko", detail: text });
  }
  for (const m of PLANS_RE2.all(text)) {
    const prefix = m[1] ?? "";
    const event = m[2] ?? "";
    if (prefix !== "" && !PLANS_RE4.test(prefix)) continue;
    const index = m.index ?? 0;
    const before = tokensOf(text.slice(0, index));
    const previous = before.at(-1) ?? "";
    const [stem, particle] = splitParticle(previous, ["으로", "로", "에"]);
    let value = `${prefix}${event}`;
    if (particle !== "" && isContentWord(stem) && !isTimeWord(previous) && PLANS_RE5.test(event)) {
      value = `${stem} ${value}`;
    } else if (particle === "" && isContentWord(previous) && !isTimeWord(previous)) {
      value = nounPhrase(before, before.length, value, 1);
    }
    out.push({ category: "plan", value, lang: "ko", detail: text });
  }
  return out;
}

const POSSESSION_TOPIC =
  "(차|자동차|폰|핸드폰|휴대폰|스마트폰|노트북|컴퓨터|카메라|자전거|오토바이|태블릿|시계|차종)";

const POSSESSION_VERBS =
  "(?:타(?=$|\\s|[.!~])|탐(?=$|\\s|[.!~ㅋㅎ])|씀(?=$|\\s|[.!~ㅋㅎ])|타요|타고\\s*다녀|탑니다|몰아요|몰고\\s*다녀|몰고\\s*있|타고\\s*있(?!었)|써요|씁니다|사용해요|사용하고\\s*있|쓰고\\s*있(?!었)|사용\\s*중|써(?=$|\\s|[.!~])|갖고\\s*있|가지고\\s*있|있어요|있어(?=$|\\s|[.!~])|있습니다|샀어요|샀어|샀습니다|샀다|샀음|구매했|장만했|뽑았)";

const POSSESSIONS_RE1 = pattern(
  `(?:^|\\s)(?:제|내|우리|저희)?\\s*${POSSESSION_TOPIC}(?:는|은|이|가)\\s+(.+)$`,
  "",
  "노트북|시계|오토바이|자전거|차|카메라|컴퓨터|태블릿|폰&가|는|은|이",
);
const POSSESSIONS_RE2 = rx(
  `${T}(\\S+)\\s+${ADVS}${POSSESSION_VERBS}`,
  "가지고|갖고|구매했|몰고|몰아요|뽑았|사용|샀다|샀습니다|샀어|샀음|써|쓰고|씀|씁니다|있습니다|있어|장만했|타|탐|탑니다",
);

const POSSESSIONS_RE3 = pattern("있", "", "있");
/** "아이폰 15로 바꿨어요", "전기차로 갈아탔어요": what the speaker switched to is theirs now. */
const POSSESSIONS_RE4 = rx(
  `${T}(\\S+?(?:\\s+\\d+)?)(?:으로|로)\\s+${ADVS}(?:바꿨|바꿔서|갈아탔|교체했)`,
  "갈아탔|교체했|바꿔서|바꿨",
);

export function possessions(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const topic = POSSESSIONS_RE1.exec(text);
  if (topic !== null) {
    const value = copulaRest(topic[2] ?? "");
    const kind = possessionKind(topic[1] ?? "");
    if (value !== undefined) out.push({ category: "possession", value, lang: "ko", key: kind });
  }
  for (const m of POSSESSIONS_RE2.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["을", "를", "이", "가", "도"], 2);
    if (head === undefined) continue;
    if (head.particle === "" && POSSESSIONS_RE3.test(m[0].slice((m[1] ?? "").length))) continue;
    const kind = possessionKind(head.value);
    if (kind === undefined || kind === "home") continue;
    out.push({ category: "possession", value: head.value, lang: "ko", key: kind });
  }
  for (const m of POSSESSIONS_RE4.all(text)) {
    const value = m[1] ?? "";
    const kind = possessionKind(value);
    if (kind === undefined || kind === "home") continue;
    out.push({ category: "possession", value, lang: "ko", key: kind });
  }
  return out;
}

/**
 * An age in native Korean numerals without 살: "스물아홉이에요", "올해 서른 됐어요" (twenty and
 * up: 열 alone is also a fever).
 */
const OTHER_AGE_BARE = pattern(
  `${T}((?:스물|서른|마흔|쉰|예순|일흔|여든|아흔)(?:하나|한|둘|두|셋|세|넷|네|다섯|여섯|일곱|여덟|아홉)?)(?:(?:이에요|예요|이야|야|입니다|임|이고요)(?=$|\\s|[.!~,])|\\s*(?:이\\s*)?(?:됐|돼요|됩니다))`,
  "",
  "마흔|서른|쉰|스물|아흔|여든|예순|일흔",
);

const OTHER_RE1 = pattern(
  `${T}(만\\s*)?(\\d{1,3}|[가-힣]{1,4})\\s*(?:살|세)(?:이에요|입니다|이야|임|이고요|이고|이에용|이거든요|이라서|인데|이예요|예요|요)(?=$|\\s|[.!~,])`,
  "",
  "살|세&요|이고|이라서|이야|이에용|인데|임|입니다",
);
const OTHER_RE2 = pattern(
  `${T}(\\S+)\\s*전공(?:이에요|입니다|이야|임|하고\\s*있|해요|이고|했)`,
  "",
  "전공&이고|이야|이에요|임|입니다|하고|해요|했",
);

const OTHER_RE3 = pattern(String.raw`^\d{1,3}$`);
const OTHER_RE4 = pattern(String.raw`나이(?:는|가)\s+(.+)$`, "", "나이가|나이는");
const OTHER_RE5 = pattern(String.raw`생일(?:은|이)\s+(.+)$`, "", "생일은|생일이");
const OTHER_RE6 = pattern(
  String.raw`(?:^|\s)(한국인|한국\s*사람|미국인|일본인|중국인|캐나다인|영국인)(?:이에요|입니다|이야|임|이고요)`,
  "",
  "미국인|영국인|일본인|중국인|캐나다인|한국&이고요|이야|이에요|임|입니다",
);
const OTHER_RE7 = pattern(
  String.raw`(?:^|[\s(])([EI][NS][TF][JP])(?:-[AT])?(?=$|[\s)이예에라]|[.!~])`,
  "",
  "ENFJ|ENFP|ENTJ|ENTP|ESFJ|ESFP|ESTJ|ESTP|INFJ|INFP|INTJ|INTP|ISFJ|ISFP|ISTJ|ISTP",
);
const OTHER_RE8 = pattern(
  "MBTI|엠비티아이|이에요|예요|입니다|이야|임|라서",
  "",
  "MBTI|라서|엠비티아이|예요|이야|이에요|임|입니다",
);
const OTHER_RE9 = pattern(String.raw`전공(?:은|이)\s+(.+)$`, "", "전공은|전공이");

const OTHER_RE10 = pattern(String.raw`\s+`, "g");

export function other(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const age = OTHER_RE1.exec(text);
  if (age !== null) {
    const value = age[2] ?? "";
    if (OTHER_RE3.test(value) || KOREAN_NUMBER.test(value)) {
      out.push({ category: "other", value, lang: "ko", key: "age", slot: "age" });
    }
  }
  const bare = age === null ? OTHER_AGE_BARE.exec(text) : null;
  if (bare !== null) {
    out.push({ category: "other", value: bare[1] ?? "", lang: "ko", key: "age", slot: "age" });
  }
  const agesTopic = OTHER_RE4.exec(text);
  if (agesTopic !== null) {
    const value = copulaRest(agesTopic[1] ?? "");
    if (value !== undefined) {
      out.push({ category: "other", value, lang: "ko", key: "age", slot: "age" });
    }
  }
  const birthday = OTHER_RE5.exec(text);
  if (birthday !== null) {
    const value = copulaRest(birthday[1] ?? "");
    if (value !== undefined) {
      out.push({ category: "other", value, lang: "ko", key: "birthday", slot: "birthday" });
    }
  }
  const nationality = OTHER_RE6.exec(text);
  if (nationality !== null) {
    const value =
      NATIONALITIES[OTHER_RE10.replace(nationality[1] ?? "", "")] ?? nationality[1] ?? "";
    out.push({ category: "other", value, lang: "ko", key: "nationality", slot: "nationality" });
  }
  const mbti = OTHER_RE7.exec(text);
  if (mbti !== null && OTHER_RE8.test(text)) {
    out.push({ category: "other", value: mbti[1] ?? "", lang: "ko", key: "mbti", slot: "mbti" });
  }
  const major = OTHER_RE9.exec(text) ?? OTHER_RE2.exec(text);
  if (major !== null) {
    const raw = major[1] ?? "";
    const value = copulaRest(raw) ?? (isContentWord(raw) ? raw : undefined);
    if (value !== undefined) {
      out.push({ category: "other", value, lang: "ko", key: "major", slot: "major" });
    }
  }
  return out;
}
