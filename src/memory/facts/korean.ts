/**
 * Korean helpers of the heuristic extractor: particles (조사) attached to nouns, copula
 * endings, the noun phrase before a particle, and who a clause is about.
 *
 * Particles are stripped only when the noun's last syllable agrees with the particle's
 * form (이/을/은/과/으로 after a final consonant, 가/를/는/와/로 after a vowel), and never
 * from nouns that merely end like one (고양이, 제주도, 요가), so "고양이를" → "고양이" and
 * "오이" stays "오이".
 */

import { hasLetter } from "../letters.ts";
import { OTHER_PEOPLE_KO, PLACE_SUFFIX_KO, PLACES_KO, RELATIONS_KO, TIME_KO } from "./lexicon.ts";
import { pattern } from "./regex.ts";
import { hasBatchim } from "./types.ts";

/** Nouns whose last syllable looks like a particle. */
const PROTECTED = new Set(
  `고양이 떡볶이 원숭이 거북이 달팽이 송이 어린이 놀이 팽이 요가 제주도 경기도 강원도 충청도 전라도
  경상도 충청북도 충청남도 전라북도 전라남도 경상북도 경상남도 포도 인도 태권도 유도 검도 합기도
  아보카도 독도 울릉도 거제도 진도 완도 강화도 정도 온도 속도 대만 을지로 종로 대학로 세종로
  반도 수도 지도 삿포로 카이로 알레르기 아이 나이 오이 하노이 두바이 타이베이`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

/** Particles by form: "c" needs a final consonant before it, "v" a vowel, "any" either. */
const PARTICLES: readonly (readonly [string, "c" | "v" | "any"])[] = [
  ["에서부터", "any"],
  ["에서는", "any"],
  ["에서도", "any"],
  ["에서요", "any"],
  ["이랑은", "c"],
  ["으로는", "c"],
  ["으로도", "c"],
  ["에게는", "any"],
  ["한테는", "any"],
  ["에서", "any"],
  ["에게", "any"],
  ["한테", "any"],
  ["께서", "any"],
  ["에는", "any"],
  ["에도", "any"],
  ["이랑", "c"],
  ["으로", "c"],
  ["로는", "v"],
  ["까지", "any"],
  ["부터", "any"],
  ["처럼", "any"],
  ["보다", "any"],
  ["하고", "any"],
  ["이나", "c"],
  ["이요", "c"],
  ["이", "c"],
  ["가", "v"],
  ["을", "c"],
  ["를", "v"],
  ["은", "c"],
  ["는", "v"],
  ["과", "c"],
  ["와", "v"],
  ["랑", "v"],
  ["로", "v"],
  ["도", "any"],
  ["에", "any"],
  ["요", "any"],
  ["의", "any"],
  ["나", "v"],
];

/** Strips one particle (from `allowed`, or any) when the form agrees; returns [stem, particle]. */
export function splitParticle(
  token: string,
  allowed?: readonly string[],
): readonly [string, string] {
  if (PROTECTED.has(token)) return [token, ""];
  for (const [particle, form] of PARTICLES) {
    if (allowed !== undefined && !allowed.includes(particle)) continue;
    if (!token.endsWith(particle) || token.length <= particle.length) continue;
    const stem = token.slice(0, -particle.length);
    if (PROTECTED.has(stem + particle)) continue;
    const batchim = hasBatchim(stem);
    if (batchim !== undefined) {
      if (form === "c" && !batchim) continue;
      if (form === "v" && batchim && !(particle === "로" && rieul(stem))) continue;
    }
    return [stem, particle];
  }
  return [token, ""];
}

function rieul(word: string): boolean {
  const code = word.at(-1)?.charCodeAt(0) ?? 0;
  return code >= 0xac00 && code <= 0xd7a3 && (code - 0xac00) % 28 === 8;
}

export function stripParticle(token: string, allowed?: readonly string[]): string {
  return splitParticle(token, allowed)[0];
}

/** Copula and sentence endings after a noun: 예요, 이에요, 입니다, 이야, 임, 이고요 … (longest first). */
const COPULA_SUFFIXES = [
  "이랍니다",
  "이거든요",
  "이에요",
  "이에용",
  "이예요",
  "이구요",
  "이고요",
  "이거든",
  "이라서",
  "이니까",
  "이지요",
  "이라고",
  "입니다",
  "랍니다",
  "거든요",
  "인데요",
  "예요",
  "예용",
  "에요",
  "구요",
  "고요",
  "거든",
  "인데",
  "라서",
  "니까",
  "이죠",
  "이지",
  "이라",
  "이고",
  "이야",
  "이다",
  "라고",
  "이요",
  "임",
  "야",
  "요",
  "죠",
  "고",
] as const;

const STRIP_COPULA_RE1 = pattern("[.!?~…ㅎㅋㅠㅜ^;:]+$", "u");

/** "민수예요" → "민수"; "간호사입니다" → "간호사"; "고양이에요" → "고양이"; other words stay. */
export function stripCopula(word: string): string {
  const trimmed = STRIP_COPULA_RE1.replace(word, "");
  if (PROTECTED.has(trimmed)) return trimmed;
  for (const suffix of COPULA_SUFFIXES) {
    if (!trimmed.endsWith(suffix) || trimmed.length <= suffix.length) continue;
    const stem = trimmed.slice(0, -suffix.length);
    // 이-forms follow a final consonant ("지훈이에요"); after a vowel the copula has no 이.
    if (suffix.startsWith("이") && (hasBatchim(stem) === false || PROTECTED.has(`${stem}이`))) {
      continue;
    }
    return stem;
  }
  return trimmed;
}

export const STOP_KO: ReadonlySet<string> = new Set(
  `저 전 저는 나 난 나는 제가 내가 저도 나도 우리 저희 우리는 저희는 제 내 저의 나의 그냥 진짜 정말 너무
  엄청 완전 되게 아주 많이 특히 제일 가장 젤 좀 조금 더 꽤 무척 매우 항상 늘 원래 요즘 지금 현재 이제
  아직 요새 최근 최근에 예전에 옛날에 사실 사실은 참고로 아 아참 참 그리고 근데 그런데 그래서 그럼 또
  혹시 다 모든 같이 함께 혼자 자주 가끔 매일 주로 보통 평소에 역시 네 예 응 음 흠 별로 잘 안 못 꼭 벌써
  드디어 곧 대신 그래도 그래서요 계속 쭉 오래 한 두 세 네 몇 여러 그 이 여기 거기 저기 어디 뭐 뭔가 무슨 누구 언제 왜 어떻게
  오늘 내일 어제 모레 올해 작년 내년 이번 다음 지난 지난달 지난주 저번 주말 평일 아침 점심 저녁 밤 새벽
  이미 방금 막 아마 거의 대충 주 일 가족 친구 친구랑 집 여기서 거기서 이곳 그곳 근처 동네 쪽 곳 데 것 거
  건 걸 게 수 때 중 때문에 덕분에 위해 ㅋㅋ ㅎㅎ ㅋㅋㅋ ㅎㅎㅎ ㅠㅠ 헐 와 오 아아 오히려 되려 의외로 은근 은근히
  생각보다 훨씬 더욱 제법 상당히`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

const TIME_STOP = new Set(["오늘", "내일", "모레", "주말", "다음", "이번"]);

/** True for time words ("내일", "다음주에", "금요일에", "11월"), never the value of a fact. */
export function isTimeWord(token: string): boolean {
  const stem = stripParticle(token);
  // "주말마다", "아침마다": every such time is a time word too.
  if (stem.length > 2 && stem.endsWith("마다")) return isTimeWord(stem.slice(0, -2));
  if (TIME_STOP.has(stem)) return true;
  if (STOP_KO.has(stem)) return false;
  const match = TIME_KO.exec(stem);
  return match !== null && match[0].length >= stem.length - 1;
}

/** A usable Korean value: not a stop word, not a time word, has letters. */
export function isContentWord(token: string): boolean {
  if (token === "" || STOP_KO.has(token)) return false;
  if (isTimeWord(token)) return false;
  return hasLetter(token);
}

const TOKENS_OF_RE1 = pattern(String.raw`\s+`);

export function tokensOf(clause: string): string[] {
  return TOKENS_OF_RE1.split(clause).filter((token) => token !== "");
}

/** Adnominal (관형형) endings of adjectives: 매운, 달콤한, 빨간, 차가운 (not 는/은 which are also topic particles). */
function isAdnominal(token: string): boolean {
  const last = token.at(-1);
  if (last === undefined || last === "는" || last === "은" || last === "던") return false;
  const code = last.charCodeAt(0);
  return code >= 0xac00 && code <= 0xd7a3 && (code - 0xac00) % 28 === 4; // ㄴ final
}

const NOUN_PHRASE_RE1 = pattern("[.!?,~]$", "", "!|,|.|?|~");
const NOUN_PHRASE_RE2 = pattern("^(?:아니라|아니고|말고)$", "", "말고|아니고|아니라");
const NOUN_PHRASE_RE3 = pattern(
  "(?:는|던|을|할|한테|하고|해서|지만|면|며|서)$",
  "",
  "는|던|며|면|서|을|지만|하고|한테|할",
);
const NOUN_PHRASE_RE4 = pattern(
  "(?:있는|없는|하는|다니는|사는|좋아하는)$",
  "",
  "다니는|사는|없는|있는|하는",
);
const NOUN_PHRASE_RE5 = pattern("[고요다어아해서면며지게죠네니까데]$");

/**
 * The noun phrase that ends with `head` at index `at` of `tokens`: up to `max` bare words
 * before it (compound nouns "공포 영화", places "서울 마포구", adjectives "매운 음식"),
 * stopping at particles, stop words, time words and verbs.
 */
export function nounPhrase(tokens: readonly string[], at: number, head: string, max = 2): string {
  const words = [head];
  for (let i = at - 1; i >= 0 && words.length <= max; i--) {
    const token = tokens[i] ?? "";
    if (!isContentWord(token) || NOUN_PHRASE_RE1.test(token)) break;
    // "인천이 아니라 부천에": a correction, not part of the noun phrase.
    if (NOUN_PHRASE_RE2.test(token)) break;
    const [stem, particle] = splitParticle(token);
    if (particle !== "" && stem !== token) break;
    if (NOUN_PHRASE_RE3.test(token) && !isAdnominal(token)) break;
    if (NOUN_PHRASE_RE4.test(token)) break;
    // Conjugated verbs ("살고 있고", "했어요") end a noun phrase.
    if (!isAdnominal(token) && NOUN_PHRASE_RE5.test(token)) break;
    words.unshift(token);
  }
  return words.join(" ");
}

const IS_PLACE_KO_RE1 = pattern("^[A-Z][A-Za-z.-]+$");

/** Whether a Korean word is a place name (for particle-less "서울 살아"). */
export function isPlaceKo(word: string): boolean {
  if (PLACES_KO.has(word)) return true;
  if (IS_PLACE_KO_RE1.test(word)) return true;
  return PLACE_SUFFIX_KO.test(word) && word.length >= 2;
}

export type Subject =
  | { kind: "self" }
  | { kind: "family"; relation: string; word: string; owned: boolean }
  | { kind: "other" };

const SELF = new Set(["저", "나", "전", "난", "제", "내", "우리", "저희", "본인", "저도", "나도"]);
const DETERMINERS = new Set(["제", "내", "우리", "저희", "저의", "나의", "울"]);

const SUBJECT_OF_KO_RE1 = pattern("(?:는|던|[가-힣]ㄴ)$", "", "ㄴ|는|던");
const SUBJECT_OF_KO_RE2 = pattern("(?:저는|나는)$", "", "나는|저는");
const SUBJECT_OF_KO_RE3 = pattern("(?:씨|님)$", "", "님|씨");

const SUBJECT_OF_KO_RE4 = pattern("[,.]$", "", ",|.");

/**
 * Who the clause is about: its first topic/subject (은/는/이/가/께서) if that is a family
 * member or another person ("친구가 부산에 살아요"), otherwise the user (Korean drops
 * the subject when it is the speaker).
 */
export function subjectOfKo(tokens: readonly string[]): Subject {
  let owned = false;
  for (let i = 0; i < Math.min(tokens.length, 4); i++) {
    const token = SUBJECT_OF_KO_RE4.replace(tokens[i] ?? "", "");
    if (DETERMINERS.has(token)) {
      owned = true;
      continue;
    }
    const [stem, particle] = splitParticle(token, [
      "은",
      "는",
      "이",
      "가",
      "께서",
      "도",
      "이랑",
      "랑",
    ]);
    const word = particle === "" ? token : stem;
    if (particle === "" || particle === "이랑" || particle === "랑") {
      // "저 서울 살아요", "우리 엄마는", "혹시": keep looking for the subject.
      if (SELF.has(token)) return { kind: "self" };
      // "우리 엄마 당뇨 때문에 걱정이야": casual speech drops the particle after the subject;
      // a family member right after 우리/제/내 opening the clause is still the one talked about.
      const bare = particle === "" ? RELATIONS_KO[token] : undefined;
      if (bare !== undefined && owned && i <= 2 && DETERMINERS.has(tokens[i - 1] ?? "")) {
        return { kind: "family", relation: bare, word: token, owned };
      }
      continue;
    }
    const next = tokens[i + 1] ?? "";
    if (SELF.has(word) && SUBJECT_OF_KO_RE1.test(next) && !SUBJECT_OF_KO_RE2.test(next)) {
      // "제가 키우는 강아지가 …": 제가 is inside a relative clause; the subject comes next.
      i++;
      owned = true;
      continue;
    }
    if (SELF.has(word) || word === "제가" || word === "내가") return { kind: "self" };
    const relation = RELATIONS_KO[word];
    if (relation !== undefined) return { kind: "family", relation, word, owned };
    if (OTHER_PEOPLE_KO.has(word) || SUBJECT_OF_KO_RE3.test(word)) return { kind: "other" };
    return { kind: "self" };
  }
  return { kind: "self" };
}
