/**
 * Cheap literal gates in front of the extraction rules (issue 14: cold isolate start). A
 * rule runs only when its clause contains one of the words its expressions need, so a
 * fresh isolate compiles only the few expressions of the rules a message can trigger (V8
 * compiles an expression on its first use), not all of them on its first fact turn.
 * A gate must be a superset of what its rule matches: it lists every literal the rule's
 * expressions require (a verb stem, a topic noun, a particle-free keyword).
 */
import {
  CONDITIONS_EN,
  CONDITIONS_KO,
  DIET_EN,
  DIET_KO,
  RELATIONS_EN,
  RELATIONS_KO,
} from "./lexicon.ts";

/** The literal start of each alternative of a word-list pattern ("lactose[- ]intolerant" → "lactose"). */
const alternatives = (pattern: string): string[] =>
  pattern
    .split("|")
    .map((word) =>
      (word.split(/[[(?\\]/)[0] ?? "")
        .replace(/.$/, (c) =>
          word.length > 1 && /[?]/.test(word[word.indexOf(c) + 1] ?? "") ? "" : c,
        )
        .trim(),
    )
    .filter((word) => word.length >= 2);

export type GateName =
  | "name"
  | "residence"
  | "workplace"
  | "job"
  | "family"
  | "likes"
  | "health"
  | "possessions"
  | "other"
  | "languages";

export const KO_GATES: Readonly<Record<GateName, readonly string[]>> = {
  name: ["이름", "라고", "불러", "입니다", "저", "나", "난", "전"],
  residence: [
    "살",
    "삽",
    "산다",
    "사는",
    "자취",
    "거주",
    "이사",
    "올라",
    "내려",
    "넘어",
    "집",
    "고향",
    "출신",
    "태어",
    "자랐",
    "사람",
    "혼자",
  ],
  workplace: [
    "일",
    "근무",
    "재직",
    "출근",
    "출퇴근",
    "다녀",
    "다닙",
    "다니",
    "다님",
    "회사",
    "직장",
    "사무실",
    "연구실",
    "가게",
    "매장",
    "작업실",
    "소속",
    "차렸",
    "오픈",
    "개업",
    "창업",
    "열었",
    "운영",
    "재택",
  ],
  // The copula endings cover "간호사예요/이에요/입니다/야/임/이고요/이다".
  job: [
    "일",
    "근무",
    "재직",
    "활동",
    "직업",
    "직종",
    "은퇴",
    "퇴직",
    "요",
    "야",
    "임",
    "다",
    "고",
    "죠",
    "니",
  ],
  family: [...Object.keys(RELATIONS_KO), "결혼", "기혼", "유부", "엄마", "아빠", "워킹"],
  likes: [
    "좋",
    "사랑",
    "애정",
    "즐겨",
    "빠져",
    "빠졌",
    "싫",
    "질색",
    "극혐",
    "별로",
    "참",
    "혐오",
    "맞",
    "덕후",
    "마니아",
    "매니아",
    "팬",
    "러버",
    "최애",
    "취미",
  ],
  health: [
    "알레르기",
    "알러지",
    "알레지",
    "알르레기",
    "앨러지",
    "못",
    "안",
    "끊",
    "줄이",
    "피하",
    "약해",
    "약한",
    "안 좋",
    ...alternatives(CONDITIONS_KO),
    ...alternatives(DIET_KO),
  ],
  possessions: [
    "차",
    "폰",
    "노트북",
    "컴퓨터",
    "카메라",
    "자전거",
    "오토바이",
    "태블릿",
    "시계",
    "타",
    "탐",
    "탑",
    "몰",
    "써",
    "씀",
    "씁",
    "사용",
    "쓰고",
    "갖고",
    "가지고",
    "있",
    "샀",
    "구매",
    "장만",
    "뽑",
  ],
  other: ["살", "세", "나이", "생일", "인", "사람", "MBTI", "엠비티아이", "전공", "E", "I"],
  languages: ["어", "말"],
};

/** English gates, matched on the lower-cased clause after contractions are expanded. */
export const EN_GATES: Readonly<Record<GateName, readonly string[]>> = {
  name: ["name", "call", "go by", "i am", "this is", "it's"],
  residence: [
    "live",
    "living",
    "resid",
    "moved",
    "relocat",
    "based",
    "located",
    "home",
    "place",
    "apartment",
    "house",
    "flat",
    "studio",
    "room",
    "condo",
    "from",
    "grew",
    "raised",
    "born",
    "alone",
    "by myself",
    "on my own",
  ],
  workplace: [
    "work",
    "employ",
    "intern",
    "join",
    "start",
    "company",
    "firm",
    "shift",
    "job",
    "desk",
    "office",
    "teach",
  ],
  job: [
    "i am",
    "work",
    "start",
    "job",
    "profession",
    "occupation",
    "role",
    "position",
    "title",
    "teach",
    "i do",
  ],
  family: [...Object.keys(RELATIONS_EN), "married", "engaged", "parent"],
  likes: [
    "like",
    "love",
    "ador",
    "enjoy",
    "prefer",
    "dig",
    "into",
    "fan",
    "obsess",
    "crazy",
    "passion",
    "addict",
    "favo",
    "hobb",
    "hate",
    "dislike",
    "detest",
    "loath",
    "despis",
    "stand",
    "bear",
    "not ",
    "jam",
    "weakness",
    "pleasure",
    "comfort",
    "thing",
  ],
  health: [
    "allerg",
    "eat",
    "have",
    "got",
    "drink",
    "digest",
    "diagnos",
    "suffer",
    "live with",
    "struggle",
    "deal with",
    "smoke",
    "never",
    "do not",
    ...alternatives(CONDITIONS_EN),
    ...alternatives(DIET_EN),
  ],
  possessions: ["have", "own", "drive", "ride", "use", "got", "bought", "driving", "my "],
  other: ["i am", "turned", "age", "birthday", "born", "major"],
  languages: [
    "speak",
    "fluent",
    "learn",
    "study",
    "studying",
    "taking",
    "know",
    "native",
    "language",
    "tongue",
    "bilingual",
  ],
};

/** Sub-gates of the English health rule: its condition and diet expressions are the largest. */
export const HEALTH_GATES = {
  conditions: alternatives(CONDITIONS_EN),
  diet: alternatives(DIET_EN),
} as const;

/** Whether `text` contains one of the gate's words. */
export function open(gate: readonly string[], text: string): boolean {
  for (const word of gate) if (text.includes(word)) return true;
  return false;
}
