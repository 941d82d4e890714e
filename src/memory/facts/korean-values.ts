/**
 * Parts of the rule engine (rules.ts) that read a Korean value: the adverbs and token start
 * the rows' patterns use, the relation words, and the helpers that find the noun a row is
 * about (its head before a particle, a list of them, a copula's noun, an organisation, a job
 * word, a name).
 */
import {
  isContentWord,
  isPlaceKo,
  nounPhrase,
  STOP_KO,
  splitParticle,
  stripCopula,
  stripParticle,
  tokensOf,
} from "./korean.ts";
import {
  DIET_KO,
  JOBS_KO,
  NATIONALITIES,
  NOT_JOBS_KO,
  ORG_KO,
  PET_RELATIONS,
  RELATIONS_KO,
  TIME_KO,
} from "./lexicon.ts";
import { type Pattern, pattern } from "./regex.ts";
import { finalConsonantOf, hasBatchim } from "./types.ts";

export const ADV =
  "(?:정말|진짜|너무|엄청|완전|되게|아주|많이|특히|제일|가장|젤|좀|조금|더|꽤|무척|매우|정말로|진짜로|항상|늘|원래|요즘|지금|현재|계속|쭉|오래|혼자|같이|함께|가족이랑|가족과|부모님이랑|부모님과|잘|굉장히|별로|살짝|약간|심하게|심한|아직도|아직|여전히|전혀|아예|되게|평소에|주로|보통|자주|다|하나|한\\s*대|한\\s*개)";
export const ADVS = `(?:${ADV}\\s+)*`;
/** A token start: beginning of the clause or after whitespace. */
export const T = "(?<![^\\s])";

/** How a Korean speaker names themselves at the start of a clause (저/나 and their forms). */
export const SPEAKER_WORDS_KO: readonly string[] = [
  "저",
  "전",
  "저는",
  "나",
  "난",
  "나는",
  "제가",
  "내가",
];

/** A global pattern (a row reads every match). */
export function rx(source: string, need?: string): Pattern {
  return pattern(source, "g", need);
}

export const REL_WORDS = Object.keys(RELATIONS_KO)
  .sort((a, b) => b.length - a.length)
  .join("|");
export const PET_WORDS = Object.entries(RELATIONS_KO)
  .filter(([, relation]) => PET_RELATIONS.has(relation))
  .map(([word]) => word)
  .sort((a, b) => b.length - a.length)
  .join("|");

const HEAD_BEFORE_RE1 = pattern("^(?:저는|나는|제가|내가)$", "", "나는|내가|저는|제가");
/**
 * A verb's connective form (…서 "because", …고, …면, …니까, …는데, …지만), never a noun: 아서/어서
 * and the contracted forms of 바쁘다, 아프다, 예쁘다, 보다, 되다, 쓰다, 크다, 켜다, 주다 (바빠서,
 * 아파서, 예뻐서, 봐서, 돼서, 써서, 커서, 켜서, 줘서). Nouns such as 교과서, 보고서, 은서 do not match.
 */
const HEAD_BEFORE_RE2 = pattern(
  "(?:[어아해려워와져여셔러빠파뻐퍼봐돼써커떠켜펴줘쳐껴꺼]서|하고|하면|으면|니까|는데|지만)$",
  "",
  "는데|니까|서|으면|지만|하고|하면",
);

/** Nouns that say little without the clause that modifies them (날, 때, 곳 …). */
const LIGHT_NOUNS: ReadonlySet<string> = new Set([
  "날",
  "때",
  "곳",
  "데",
  "날씨",
  "분위기",
  "느낌",
]);

/** A verb or adjective in its adnominal form: 오는, 먹던, 많은, 매운, 갈 (final ㄴ or ㄹ, 는, 던). */
function isVerbAdnominal(token: string): boolean {
  if (token.length < 2 || STOP_KO.has(token)) return false;
  const last = token.at(-1) ?? "";
  if (last === "는" || last === "던") return true;
  const final = finalConsonantOf(last);
  return final === 4 || final === 8;
}

/** The head noun (phrase) of a token that ends right before a verb, or undefined. */
export function headBefore(
  text: string,
  index: number,
  token: string,
  allowed: readonly string[],
  max = 2,
): { value: string; particle: string } | undefined {
  const [stem, particle] = splitParticle(token, allowed);
  const before = tokensOf(text.slice(0, index));
  if (["거", "것", "건", "걸", "게"].includes(stem) || ["거", "것"].includes(token)) {
    // "매운 걸", "혼자 있는 걸": the clause before 것 is the thing.
    const words: string[] = [];
    for (let i = before.length - 1; i >= 0 && words.length < 2; i--) {
      const word = before[i] ?? "";
      if (HEAD_BEFORE_RE1.test(word)) break;
      if (STOP_KO.has(word) && !["혼자", "같이", "함께", "잘", "많이", "단", "쓴"].includes(word)) {
        break;
      }
      if (splitParticle(word)[1] !== "" && words.length > 0) break;
      words.unshift(word);
    }
    if (words.length === 0) return undefined;
    return { value: `${words.join(" ")} 것`, particle };
  }
  if (LIGHT_NOUNS.has(stem) && isVerbAdnominal(before.at(-1) ?? "")) {
    // "비 오는 날", "사람 많은 곳": a light noun is only as much as the clause before it.
    const words: string[] = [];
    for (let i = before.length - 1; i >= 0 && words.length < 3; i--) {
      const word = before[i] ?? "";
      if (HEAD_BEFORE_RE1.test(word) || (STOP_KO.has(word) && words.length > 0)) break;
      if (splitParticle(word)[1] !== "" && words.length > 0) break;
      words.unshift(word);
    }
    if (words.length < 2) return undefined;
    return { value: `${words.join(" ")} ${stem}`, particle };
  }
  if (!isContentWord(stem)) return undefined;
  // "질려서", "바빠서", "먹고": a verb form, not a noun.
  if (particle === "" && HEAD_BEFORE_RE2.test(stem)) {
    return undefined;
  }
  return { value: nounPhrase(before, before.length, stem, max), particle };
}

const LIST_BEFORE_RE1 = pattern(",$", "", ",");

/** Items joined by 이랑/랑/하고/와/과 before the head ("땅콩이랑 새우") plus the head. */
export function listBefore(text: string, index: number, head: string): string[] {
  const before = tokensOf(text.slice(0, index));
  const items = [head];
  for (let i = before.length - 1; i >= 0; i--) {
    const token = LIST_BEFORE_RE1.replace(before[i] ?? "", "");
    const [stem, particle] = splitParticle(token, ["이랑", "랑", "하고", "와", "과", "나", "이나"]);
    const comma = (before[i] ?? "").endsWith(",");
    if ((particle === "" && !comma) || !isContentWord(stem)) break;
    items.unshift(stem);
  }
  return items;
}

const SPLIT_LIST_RE1 = pattern(
  String.raw`\s*,\s*|(?<=[가-힣A-Za-z0-9])(?:이랑|랑|하고|와|과|및)\s+|\s+(?:and|or)\s+`,
  "",
  ",|and|or|과|랑|및|와|하고",
);

/** Splits "등산이랑 독서" / "김치찌개, 된장찌개" into items. */
export function splitList(value: string): string[] {
  return SPLIT_LIST_RE1.split(value)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

const NOUN_OF_COPULA_RE1 = pattern("[어아해워져였었았했겠지게고와봐]$");
const NOUN_OF_COPULA_RE2 = pattern("[가-힣]$");
const NOUN_OF_COPULA_RE3 = pattern("다$", "", "다");
const NOUN_OF_COPULA_RE4 = pattern(
  "^(?:이에요|예요|이야|입니다|이다|임|이고요|이거든요)$",
  "",
  "예요|이거든요|이고요|이다|이야|이에요|임|입니다",
);

const NOUN_OF_COPULA_RE5 = pattern("[.!?~…ㅎㅋㅠㅜ^;:]+$", "u");

/** A noun followed by a copula, or undefined ("간호사예요" → 간호사, "멀어요" → undefined). */
export function nounOfCopula(token: string): string | undefined {
  const bare = NOUN_OF_COPULA_RE5.replace(token, "");
  const stem = stripCopula(bare);
  if (stem === bare || stem === "") return undefined;
  // "멀어요", "좋아요", "했고": a verb ending, not a noun + copula ("에어예요" is a noun).
  const suffix = bare.slice(stem.length);
  if (suffix === "고") return undefined;
  const verbish =
    NOUN_OF_COPULA_RE1.test(stem) ||
    (NOUN_OF_COPULA_RE2.test(stem) && NOUN_OF_COPULA_RE3.test(stem));
  if (verbish && !NOUN_OF_COPULA_RE4.test(suffix)) return undefined;
  return stem;
}

const COPULA_REST_RE1 = pattern(String.raw`\d`);

const COPULA_REST_RE2 = pattern("[.!?~]+$", "", "!|.|?|~");

/** The value of "X는 <rest>" topic sentences: the rest without its copula (1–3 words). */
export function copulaRest(rest: string): string | undefined {
  const words = tokensOf(COPULA_REST_RE2.replace(rest, ""));
  if (words.length === 0 || words.length > 3) return undefined;
  const last = words.at(-1) ?? "";
  const noun = nounOfCopula(last);
  if (noun === undefined) return undefined;
  const value = [...words.slice(0, -1), noun].join(" ");
  return isContentWord(value) || COPULA_REST_RE1.test(value) ? value : undefined;
}

export function hasTime(text: string): boolean {
  return TIME_KO.test(text);
}

const IS_JOB_KO_RE1 = pattern(
  "(?:회사|여행사|출판사|보험사|통신사|항공사|건설사|방송사|신문사|증권사|카드사|제약사|대행사)$",
  "",
  "건설사|대행사|방송사|보험사|신문사|여행사|제약사|증권사|출판사|카드사|통신사|항공사|회사",
);
const IS_JOB_KO_RE2 = pattern("[가-힣]{1,}(?:사|가|생|자)$", "", "가|사|생|자");
const IS_JOB_KO_RE3 = pattern("주의자$", "", "주의자");

export function isJobKo(word: string): boolean {
  if (JOBS_KO.has(word)) return true;
  if (NOT_JOBS_KO.has(word) || word.length < 2) return false;
  const last = tokensOf(word).at(-1) ?? word;
  if (JOBS_KO.has(last)) return true;
  if (NOT_JOBS_KO.has(last)) return false;
  if (IS_JOB_KO_RE1.test(last)) {
    return false;
  }
  return IS_JOB_KO_RE2.test(last) && last.length >= 3 && !IS_JOB_KO_RE3.test(last);
}

const NOT_NAMES = new Set(
  `외동 막내 장남 장녀 첫째 둘째 셋째 혼자 싱글 미혼 기혼 초보 팬 남자 여자 어른 학생 아기 사람 한국인
  괜찮 다행 처음 오랜만 여기 거기 지금 배고파 졸려 피곤 행복 최고 정상 반가워 감사 집 회사
  문제 사실 맞 그것 이것 저것 진심 부탁 결론 끝 오늘 내일 무료 가능 불가능 필수 정답 오답 완료 준비 확인
  대박 진짜 당연 물론 다음 이상 이하 전부 마지막 제 저 나 우리 저희 여러분 손님 고객 본인 사장님 다행히
  먼저 그만 혼자 다시 요즘 완전 그냥 진심 진짜로 일단 이미 아직 벌써 방금 금방 여기요 저기요
  견주 집사 냥집사 멍집사`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

/** Last syllables of predicates ("졸려", "배고파", "간다", "왔어"): not a bare name. */
export const PREDICATE_END = pattern("[어아해워와려러파다네요까니게래봐줘고면음함됨했았었겠죠만]$");

const IS_NAME_LIKE_RE1 = pattern(
  `^(?:${DIET_KO})$`,
  "",
  "금연 중|금연중|금주 중|금주중|다이어트 중|다이어트중|당뇨 환자|락토|비건|임산부|임신 중|임신중|채식주의|페스코|할랄",
);

const IS_NAME_LIKE_RE2 = pattern("^[가-힣]{2,4}$");

/** A native Korean numeral (열 … 아흔아홉): an age, never a name ("스물아홉이에요"). */
export const KOREAN_NUMBER = pattern(
  "^(?:열|스물|스무|서른|마흔|쉰|예순|일흔|여든|아흔)(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉|하나|둘|셋|넷)?$",
  "",
  "마흔|서른|쉰|스무|스물|아흔|여든|열|예순|일흔",
);
const IS_NAME_LIKE_RE3 = pattern(String.raw`^[A-Z][a-z]+(?:\s[A-Z][a-z]+)?$`);

export function isNameLike(word: string): boolean {
  if (NOT_NAMES.has(word) || STOP_KO.has(word) || isJobKo(word) || isPlaceKo(word)) return false;
  // "저는 피곤해서 (싫어요)": a clause cut at its connective leaves a verb form, not a name
  // (two syllables stay names: 아서 is Arthur).
  if (word.length >= 3 && HEAD_BEFORE_RE2.test(word)) return false;
  if (NATIONALITIES[word] !== undefined || KOREAN_NUMBER.test(word)) return false;
  // "맥주파", "부먹파": the side one is on (X파), not a name.
  if (word.length >= 3 && word.endsWith("파")) return false;
  if (IS_NAME_LIKE_RE2.test(word)) return !IS_NAME_LIKE_RE1.test(word);
  return IS_NAME_LIKE_RE3.test(word);
}

/**
 * "여름은 너무 더워서 싫어요", "고양이는 귀여워서 좋아해요": a reason (…서) sits between the
 * thing and the verb; the thing is the clause's opening topic (X은/는).
 */
export function reasonTopic(
  text: string,
  token: string | undefined,
): { value: string; particle: string } | undefined {
  if (token === undefined || !token.endsWith("서")) return undefined;
  const first = tokensOf(text)[0] ?? "";
  const [stem, particle] = splitParticle(first, ["은", "는"]);
  if (particle === "" || !isContentWord(stem) || first === token) return undefined;
  return { value: stem, particle };
}

/**
 * The connective copula "(이)라" ("초등학교 교사라 방학에도 …", "공무원이라 …"): being X, so ….
 * Only for a job word (the caller checks): many nouns end in 라 (카메라, 드라마).
 */
export function connectiveCopula(token: string): string | undefined {
  if (!token.endsWith("라") || token.length < 3) return undefined;
  const withI = token.endsWith("이라") ? token.slice(0, -2) : undefined;
  if (withI !== undefined && hasBatchim(withI) === true) return withI;
  const bare = token.slice(0, -1);
  return hasBatchim(bare) === false ? bare : undefined;
}

const ORG_NAMES_KO = pattern(
  "^(?:삼성|현대|엘지|LG|SK|에스케이|카카오|네이버|쿠팡|롯데|한화|포스코|CJ|GS|KT|신한|국민|하나|우리은행|기아|배민|토스|당근|라인|넥슨|엔씨|넷마블|크래프톤|하이닉스|셀트리온|아모레|대한항공|아시아나|농협|기업은행)",
  "",
  "CJ|GS|KT|LG|SK|국민|기아|기업은행|네이버|넥슨|넷마블|농협|당근|대한항공|라인|롯데|배민|삼성|셀트리온|신한|아모레|아시아나|에스케이|엔씨|엘지|우리은행|카카오|쿠팡|크래프톤|토스|포스코|하나|하이닉스|한화|현대",
);
const IS_ORG_KO_RE1 = pattern(
  "(?:자동차|모터스|전자|화학|중공업|바이오)$",
  "",
  "모터스|바이오|자동차|전자|중공업|화학",
);
const IS_ORG_KO_RE2 = pattern("^[A-Z][A-Za-z0-9&.-]*$");
const IS_ORG_KO_RE3 = pattern("^[A-Z]{2,}");

/** An organisation: its last word a company suffix or name ("카카오", "현대자동차"). */
export function isOrgKo(value: string): boolean {
  const last = tokensOf(value).at(-1) ?? value;
  return (
    ORG_KO.test(last) ||
    ORG_NAMES_KO.test(last) ||
    IS_ORG_KO_RE1.test(last) ||
    IS_ORG_KO_RE2.test(last) ||
    IS_ORG_KO_RE3.test(last)
  );
}

const LOCATED_KO = pattern(
  String.raw`^(\S+(?:\s\S+)??)(?:에|쪽에)\s*있(?:어요|어|습니다|음|고|는데)`,
  "",
  "있고|있는데|있습니다|있어|있음&에",
);

/**
 * The value of a topic sentence ("회사는 판교에 있어요" → 판교, located; "집은 부산이에요" →
 * 부산), or undefined.
 */
export function topicValue(rest: string): { value: string; located: boolean } | undefined {
  const located = LOCATED_KO.exec(rest);
  if (located !== null) return { value: stripParticle(located[1] ?? ""), located: true };
  const value = copulaRest(rest);
  return value === undefined ? undefined : { value, located: false };
}
