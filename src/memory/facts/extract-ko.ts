/**
 * Korean rules of the heuristic extractor. Each rule reads one clause (already known to be
 * a statement, not a question or hypothetical) and returns candidates; particles are
 * handled by korean.ts so "서울에서/서울에/서울은/서울로" all give "서울".
 */

import type { Candidate, Retraction } from "./build.ts";
import { type GateName, KO_GATES, open } from "./gates.ts";
import {
  isContentWord,
  isPlaceKo,
  isTimeWord,
  nounPhrase,
  STOP_KO,
  type Subject,
  splitParticle,
  stripCopula,
  stripParticle,
  subjectOfKo,
  tokensOf,
} from "./korean.ts";
import { languageCode, languagesKo } from "./languages.ts";
import {
  CONDITIONS_KO,
  DIET_KO,
  EVENTS_KO,
  JOBS_KO,
  NATIONALITIES,
  NOT_JOBS_KO,
  ORG_KO,
  PET_RELATIONS,
  possessionKind,
  RELATIONS_KO,
  TIME_KO,
} from "./lexicon.ts";
import { type Pattern, pattern } from "./regex.ts";

type Found = Candidate[];

const ADV =
  "(?:정말|진짜|너무|엄청|완전|되게|아주|많이|특히|제일|가장|젤|좀|조금|더|꽤|무척|매우|정말로|진짜로|항상|늘|원래|요즘|지금|현재|계속|쭉|오래|혼자|같이|함께|가족이랑|가족과|부모님이랑|부모님과|잘|굉장히|별로|살짝|약간|심하게|심한|아직도|아직|여전히|전혀|아예|되게|평소에|주로|보통|자주)";
const ADVS = `(?:${ADV}\\s+)*`;
/** A token start: beginning of the clause or after whitespace. */
const T = "(?<![^\\s])";

function rx(source: string, need?: string): Pattern {
  return pattern(source, "g", need);
}

const REL_WORDS = Object.keys(RELATIONS_KO)
  .sort((a, b) => b.length - a.length)
  .join("|");
const PET_WORDS = Object.entries(RELATIONS_KO)
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

/** The head noun (phrase) of a token that ends right before a verb, or undefined. */
function headBefore(
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
  if (!isContentWord(stem)) return undefined;
  // "질려서", "바빠서", "먹고": a verb form, not a noun.
  if (particle === "" && HEAD_BEFORE_RE2.test(stem)) {
    return undefined;
  }
  return { value: nounPhrase(before, before.length, stem, max), particle };
}

const LIST_BEFORE_RE1 = pattern(",$", "", ",");

/** Items joined by 이랑/랑/하고/와/과 before the head ("땅콩이랑 새우") plus the head. */
function listBefore(text: string, index: number, head: string): string[] {
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
function splitList(value: string): string[] {
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
function nounOfCopula(token: string): string | undefined {
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
function copulaRest(rest: string): string | undefined {
  const words = tokensOf(COPULA_REST_RE2.replace(rest, ""));
  if (words.length === 0 || words.length > 3) return undefined;
  const last = words.at(-1) ?? "";
  const noun = nounOfCopula(last);
  if (noun === undefined) return undefined;
  const value = [...words.slice(0, -1), noun].join(" ");
  return isContentWord(value) || COPULA_REST_RE1.test(value) ? value : undefined;
}

function hasTime(text: string): boolean {
  return TIME_KO.test(text);
}

const IS_JOB_KO_RE1 = pattern(
  "(?:회사|여행사|출판사|보험사|통신사|항공사|건설사|방송사|신문사|증권사|카드사|제약사|대행사)$",
  "",
  "건설사|대행사|방송사|보험사|신문사|여행사|제약사|증권사|출판사|카드사|통신사|항공사|회사",
);
const IS_JOB_KO_RE2 = pattern("[가-힣]{1,}(?:사|가|생|자)$", "", "가|사|생|자");
const IS_JOB_KO_RE3 = pattern("주의자$", "", "주의자");

function isJobKo(word: string): boolean {
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
  먼저 그만 혼자 다시 요즘 완전 그냥 진심 진짜로 일단 이미 아직 벌써 방금 금방 여기요 저기요`
    .split(/\s+/)
    .filter((word) => word !== ""),
);

/** Last syllables of predicates ("졸려", "배고파", "간다", "왔어"): not a bare name. */
const PREDICATE_END = pattern("[어아해워와려러파다네요까니게래봐줘고면음함됨했았었겠죠만]$");

const IS_NAME_LIKE_RE1 = pattern(
  `^(?:${DIET_KO})$`,
  "",
  "금연 중|금연중|금주 중|금주중|다이어트 중|다이어트중|당뇨 환자|락토|비건|임산부|임신 중|임신중|채식주의|페스코|할랄",
);

const IS_NAME_LIKE_RE2 = pattern("^[가-힣]{2,4}$");
const IS_NAME_LIKE_RE3 = pattern(String.raw`^[A-Z][a-z]+(?:\s[A-Z][a-z]+)?$`);

function isNameLike(word: string): boolean {
  if (NOT_NAMES.has(word) || STOP_KO.has(word) || isJobKo(word) || isPlaceKo(word)) return false;
  // "저는 피곤해서 (싫어요)": a clause cut at its connective leaves a verb form, not a name
  // (two syllables stay names: 아서 is Arthur).
  if (word.length >= 3 && HEAD_BEFORE_RE2.test(word)) return false;
  if (NATIONALITIES[word] !== undefined) return false;
  if (IS_NAME_LIKE_RE2.test(word)) return !IS_NAME_LIKE_RE1.test(word);
  return IS_NAME_LIKE_RE3.test(word);
}

// --- rules ---------------------------------------------------------------------------

const RES_VERB =
  "(?:자취\\s*(?:해|하고|중|합니다)|살아(?![보봤본야도])|살고\\s*있(?!었)|살고(?=\\s|$|요)|살구요|삽니다|살죠|살거든|산다(?!면)|사는\\s*중|살며|살면서|살어|거주\\s*(?:중|하고|해|합니다))";

const RESIDENCE_RE1 = rx(
  `${T}(\\S+)\\s+${ADVS}${RES_VERB}`,
  "거주|사는|산다|살거든|살고|살구요|살며|살면서|살아|살어|살죠|삽니다|자취",
);
const RESIDENCE_RE2 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:이사\\s*(?:를\\s*)?(?:했|왔|갔|와서|온\\s*지|온지|함|했습)|(?:올라|내려|넘어|이사)\\s*(?:왔|갔|와서|온\\s*지))`,
  "내려|넘어|올라|이사",
);
const COMITATIVE = ["랑", "하고", "와", "과"];
const RESIDENCE_RE3 = pattern(`${T}(\\S+)\\s*출신(?=$|\\s|이|입|인)`, "", "출신");
const RESIDENCE_RE4 = pattern(
  `${T}(\\S+)에서\\s*(?:태어났|자랐|나고\\s*자랐)`,
  "",
  "나고|자랐|태어났&에서",
);
const RESIDENCE_RE5 = pattern(
  `${T}(\\S+)\\s+사람(?:이에요|입니다|이야|이고요|임|이거든요|이에용)(?=$|\\s|[.!~])`,
  "",
  "사람이거든요|사람이고요|사람이야|사람이에요|사람이에용|사람임|사람입니다",
);

const RESIDENCE_RE6 = pattern(
  String.raw`(?:사는\s*곳은|사는\s*데는|사는\s*곳이|사는\s*동네는|거주지는|집은|집이)\s+(.+)$`,
  "",
  "거주지는|동네는|사는|집은|집이",
);
const RESIDENCE_RE7 = pattern(
  String.raw`^(\S+(?:\s\S+)??)(?:에|쪽에)\s*있(?:어요|어|습니다|음|고|는데)`,
  "",
  "있고|있는데|있습니다|있어|있음&에",
);
const RESIDENCE_RE8 = pattern("^(?:좀|너무|꽤)", "", "꽤|너무|좀");
const RESIDENCE_RE9 = pattern(String.raw`(?:고향은|고향이)\s+(\S+(?:\s\S+)?)`, "", "고향은|고향이");
const RESIDENCE_RE10 = pattern(
  String.raw`(?:^|\s)(?:혼자\s*(?:살아|살고|삽니다|사는\s*중|지내)|자취(?:해|하고|\s*중|중))`,
  "",
  "사는|살고|살아|삽니다|자취|지내",
);
const RESIDENCE_RE11 = pattern("자취", "", "자취");

function residence(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  for (const m of RESIDENCE_RE1.all(text)) {
    const token = m[1] ?? "";
    // "고양이 두 마리랑 같이 살아요", "남편이랑 살아요": whom the speaker lives with, not where.
    if (COMITATIVE.some((particle) => token.endsWith(particle))) continue;
    const head = headBefore(text, m.index ?? 0, token, ["에서", "에"], 2);
    if (head === undefined) continue;
    if (head.particle === "" && !isPlaceKo(stripParticle(token))) continue;
    out.push({ category: "residence", value: head.value, lang: "ko" });
  }
  for (const m of RESIDENCE_RE2.all(text)) {
    if (WORKPLACE_RE11.test(text)) break;
    const token = m[1] ?? "";
    const head = headBefore(text, m.index ?? 0, token, ["으로", "로"], 2);
    if (head === undefined || head.particle === "") continue;
    out.push({ category: "residence", value: head.value, lang: "ko" });
  }
  const topic = RESIDENCE_RE6.exec(text);
  if (topic !== null) {
    const rest = topic[1] ?? "";
    const located = RESIDENCE_RE7.exec(rest);
    const value = located !== null ? stripParticle(located[1] ?? "") : copulaRest(rest);
    if (value !== undefined && isContentWord(value) && !RESIDENCE_RE8.test(value)) {
      out.push({ category: "residence", value, lang: "ko" });
    }
  }
  const hometown = [RESIDENCE_RE9.exec(text), RESIDENCE_RE3.exec(text), RESIDENCE_RE4.exec(text)];
  for (const m of hometown) {
    if (m === null) continue;
    const value = stripCopula(stripParticle(m[1] ?? "", ["에서"]));
    if (isContentWord(value)) {
      out.push({ category: "residence", value, lang: "ko", key: "hometown", form: "hometown" });
    }
  }
  const people = RESIDENCE_RE5.exec(text);
  if (people !== null && isPlaceKo(people[1] ?? "")) {
    out.push({
      category: "residence",
      value: people[1] ?? "",
      lang: "ko",
      key: "hometown",
      form: "hometown",
    });
  }
  if (RESIDENCE_RE10.test(text)) {
    const value = RESIDENCE_RE11.test(text) ? "자취" : "혼자";
    out.push({ category: "other", value, lang: "ko", key: "living", slot: "living" });
  }
  return out;
}

const WORK_VERB =
  "(?:일해|일하고|일합니다|일하는\\s*중|일함|근무(?:해|하고|합니다|\\s*중|중)|재직\\s*중|출근해|출근합니다)";

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

function isOrgKo(value: string): boolean {
  const last = tokensOf(value).at(-1) ?? value;
  return (
    ORG_KO.test(last) ||
    ORG_NAMES_KO.test(last) ||
    IS_ORG_KO_RE1.test(last) ||
    IS_ORG_KO_RE2.test(last) ||
    IS_ORG_KO_RE3.test(last)
  );
}

const WORKPLACE_RE1 = rx(
  `${T}(\\S+)\\s+(?:\\S+(?:으로|로)\\s+)?${ADVS}${WORK_VERB}`,
  "근무|일하고|일하는|일함|일합니다|일해|재직|출근합니다|출근해",
);
const WORKPLACE_RE2 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:다녀요|다녀(?=$|\\s|[.!~])|다닙니다|다니고\\s*있(?!었)|다니는\\s*중|다님|재직\\s*중|재직하고|근무\\s*중)`,
  "근무|다녀|다니고|다니는|다님|다닙니다|재직",
);
const WORKPLACE_RE3 = pattern(
  `${T}(\\S+)\\s*소속(?:이에요|입니다|이야|임|이고|이에용)`,
  "",
  "소속이고|소속이야|소속이에요|소속이에용|소속임|소속입니다",
);
const WORKPLACE_RE4 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:출근(?:해|하고|합니다|함|중)|출퇴근(?:해|하고|합니다))`,
  "출근중|출근하고|출근함|출근합니다|출근해|출퇴근하고|출퇴근합니다|출퇴근해",
);
const WORKPLACE_RE5 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:차렸|오픈했|개업했|창업했|열었|운영하고\\s*있|운영해|운영\\s*중)`,
  "개업했|열었|오픈했|운영|차렸|창업했",
);

const WORKPLACE_RE6 = pattern(
  String.raw`(?:회사는|직장은|근무지는|일하는\s*곳은|다니는\s*회사는|회사가|직장이|사무실은|사무실이|연구실은|연구실이|가게는|가게가|매장은|매장이|작업실은|작업실이)\s+(.+)$`,
  "",
  "가게가|가게는|근무지는|다니는|매장은|매장이|사무실은|사무실이|연구실은|연구실이|일하는|작업실은|작업실이|직장은|직장이|회사가|회사는",
);
const WORKPLACE_RE7 = pattern(
  String.raw`^(\S+(?:\s\S+)?)(?:에|쪽에)\s*있(?:어요|어|습니다|음|고|는데)`,
  "",
  "있고|있는데|있습니다|있어|있음&에",
);
/** "회사가 판교로 이전했어요", "우리 회사 판교로 옮겼어요": the workplace moved, not the speaker. */
const WORKPLACE_RE11 = pattern(
  `(?:회사|직장|사무실)(?:가|는|도|이|은)?\\s+(\\S+?)(?:으로|로)\\s+${ADVS}(?:이전|이사|옮기|옮겼|옮겨)`,
  "",
  "사무실|직장|회사&옮겨|옮겼|옮기|이사|이전",
);
const WORKPLACE_RE8 = pattern("^(?:문|창문|마음|파티)$", "", "마음|문|파티");
const WORKPLACE_RE9 = pattern(String.raw`재택\s*(?:근무|으로\s*일)`, "", "재택&근무|으로");
const WORKPLACE_RE10 = pattern(String.raw`재택\s*근무\s*(?:안|못)`, "", "재택&근무&못|안");

function workplace(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  for (const m of WORKPLACE_RE1.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["에서"], 2);
    if (head === undefined || head.particle !== "에서") continue;
    if (head.value === "집" || head.value === "재택") {
      out.push({ category: "workplace", value: "재택", lang: "ko", form: "remote" });
    } else {
      out.push({ category: "workplace", value: head.value, lang: "ko" });
    }
  }
  for (const m of WORKPLACE_RE2.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["에", "을", "를"], 2);
    if (head === undefined || !isOrgKo(head.value)) continue;
    if (["회사", "직장"].includes(head.value)) continue;
    out.push({ category: "workplace", value: head.value, lang: "ko" });
  }
  const topic = WORKPLACE_RE6.exec(text);
  if (topic !== null) {
    const rest = topic[1] ?? "";
    const located = WORKPLACE_RE7.exec(rest);
    if (located !== null) {
      const value = stripParticle(located[1] ?? "");
      if (isContentWord(value)) {
        out.push({
          category: "workplace",
          value,
          lang: "ko",
          key: "location",
          form: "location",
        });
      }
    } else {
      const value = copulaRest(rest);
      if (value !== undefined) out.push({ category: "workplace", value, lang: "ko" });
    }
  }
  const belong = WORKPLACE_RE3.exec(text);
  if (belong !== null && isContentWord(belong[1] ?? "")) {
    out.push({ category: "workplace", value: belong[1] ?? "", lang: "ko" });
  }
  for (const m of WORKPLACE_RE4.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["으로", "로"], 2);
    if (head === undefined || head.particle === "" || head.value === "회사") continue;
    out.push({
      category: "workplace",
      value: head.value,
      lang: "ko",
      key: "location",
      form: "location",
    });
  }
  for (const m of WORKPLACE_RE5.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["을", "를"], 2);
    if (head === undefined || WORKPLACE_RE8.test(head.value)) continue;
    out.push({ category: "workplace", value: head.value, lang: "ko" });
  }
  const moved = WORKPLACE_RE11.exec(text);
  if (moved !== null && isContentWord(moved[1] ?? "")) {
    out.push({
      category: "workplace",
      value: moved[1] ?? "",
      lang: "ko",
      key: "location",
      form: "location",
    });
  }
  if (WORKPLACE_RE9.test(text) && !WORKPLACE_RE10.test(text)) {
    out.push({ category: "workplace", value: "재택", lang: "ko", form: "remote" });
  }
  return out;
}

const JOB_RE1 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:일해|일하고|일합|일하는\\s*중|근무(?:해|하고|합|\\s*중)|재직|활동(?:해|하고|합|\\s*중))`,
  "근무|일하고|일하는|일합|일해|재직|활동",
);
const JOB_RE2 = rx(
  `${T}(\\S+)\\s+일(?:을)?\\s*(?:해요|합니다|하고\\s*있어요|하고\\s*있습니다|하고\\s*있어|해)(?=$|\\s|[.!~])`,
  "있습니다|있어요|하고|합니다|해&일",
);

const JOB_RE3 = pattern(
  String.raw`(?:직업은|하는\s*일은|직종은|직업이|제\s*일은)\s+(.+)$`,
  "",
  "일은|직업은|직업이|직종은|하는",
);
const JOB_RE4 = pattern(
  "^(?:회사|집안|많은|이런|그런|무슨|여러|같은|다른|그)$",
  "",
  "같은|그|다른|많은|무슨|여러|이런|집안|회사",
);
const JOB_RE5 = pattern(
  String.raw`(?:^|\s)(?:은퇴|퇴직)(?:했|해서|한\s*지)`,
  "",
  "은퇴|퇴직&한|해서|했",
);

function job(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const tokens = tokensOf(text);
  tokens.forEach((token, index) => {
    const noun = nounOfCopula(token);
    if (noun === undefined || !isJobKo(noun)) return;
    out.push({ category: "job", value: nounPhrase(tokens, index, noun, 2), lang: "ko" });
  });
  for (const m of JOB_RE1.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["으로", "로"], 2);
    if (head === undefined || head.particle === "") continue;
    out.push({ category: "job", value: head.value, lang: "ko" });
  }
  const topic = JOB_RE3.exec(text);
  if (topic !== null) {
    const value = copulaRest(topic[1] ?? "");
    if (value !== undefined) out.push({ category: "job", value, lang: "ko" });
  }
  for (const m of JOB_RE2.all(text)) {
    const token = m[1] ?? "";
    if (splitParticle(token)[1] !== "") continue;
    const head = headBefore(text, m.index ?? 0, token, [], 2);
    if (head === undefined) continue;
    if (JOB_RE4.test(head.value)) continue;
    out.push({ category: "job", value: head.value, lang: "ko" });
  }
  if (JOB_RE5.test(text)) {
    out.push({ category: "job", value: "은퇴", lang: "ko" });
  }
  return out;
}

const GREETING = "(?:(?:안녕하세요|안녕하십니까|안녕|반가워요|반갑습니다)[.,!~]*\\s*)?";
const SELF_TOPIC = "(?:저는|전|나는|난|저|나)";

const NAME_RE1 = pattern(
  `^${GREETING}(?:${SELF_TOPIC}\\s+)?(\\S+?)(?:이)?라고\\s*(?:해요|합니다|해|함|하는데|하고요|하구요|부릅니다|불러요|불러)(?=$|\\s|[.!~])`,
  "",
  "라고&부릅니다|불러|하고요|하구요|하는데|함|합니다|해",
);
const NAME_RE2 = pattern(`^${GREETING}${SELF_TOPIC}\\s`, "", "나|난|저|전");
const NAME_RE3 = pattern(
  `${T}(\\S+?)(?:이)?라고\\s*불러\\s*(?:주세요|줘|줘요|주면|주시면|주십시오)`,
  "",
  "라고&불러&주면|주세요|주시면|주십시오|줘",
);
const FORMAL_INTRO = pattern(`^${GREETING}([가-힣]{2,4}|[A-Z][a-z]+)입니다$`, "", "입니다");
const NAME_RE5 = pattern(`^${GREETING}${SELF_TOPIC}\\s+(\\S+)$`, "", "나|난|저|전");

const NAME_RE4 = pattern(
  String.raw`(?<![^\s])(?:제|내|저의|나의)\s*이름은\s+(\S+)(?:\s+(\S+))?`,
  "",
  "이름은&나의|내|저의|제",
);
const NAME_RE6 = pattern(String.raw`^(?:이름은|이름이)\s+(\S+)$`, "", "이름은|이름이");

function name(text: string): Found {
  const out: Found = [];
  // "제 이름은", not "아내 이름은" (내 inside another word).
  const own = NAME_RE4.exec(text);
  if (own !== null) {
    const first = own[1] ?? "";
    const second = own[2];
    const value =
      first.length === 1 && second !== undefined
        ? `${first} ${stripCopula(second)}`
        : stripCopula(first);
    if (isContentWord(value) && value.length <= 20) {
      out.push({ category: "name", value, lang: "ko" });
    }
  }
  const called = NAME_RE1.exec(text);
  if (called !== null) {
    const value = called[1] ?? "";
    const words = tokensOf(text);
    const selfish = NAME_RE2.test(text) || words.length <= 2;
    if (selfish && isNameLike(value)) out.push({ category: "name", value, lang: "ko" });
  }
  const nick = NAME_RE3.exec(text);
  if (nick !== null && isContentWord(nick[1] ?? "")) {
    out.push({ category: "name", value: nick[1] ?? "", lang: "ko", form: "nickname" });
  }
  const intro = NAME_RE5.exec(text);
  if (intro !== null) {
    const word = intro[1] ?? "";
    // "나 지수야" (a copula), or casual "나 민지" / "난 수빈" (the bare name, not a predicate).
    const value = nounOfCopula(word) ?? (PREDICATE_END.test(word) ? undefined : word);
    if (value !== undefined && isNameLike(value)) out.push({ category: "name", value, lang: "ko" });
  }
  // "이름은 준호예요" without 제/내 (a family member's or pet's name is dropped by context, extract.ts).
  const bare = NAME_RE6.exec(text);
  if (bare !== null && own === null) {
    const word = bare[1] ?? "";
    const value = nounOfCopula(word) ?? (PREDICATE_END.test(word) ? undefined : word);
    if (value !== undefined && isNameLike(value)) out.push({ category: "name", value, lang: "ko" });
  }
  // A bare formal self-introduction, the whole clause: "민수입니다", "안녕하세요, 김민수입니다".
  const formal = FORMAL_INTRO.exec(text);
  if (formal !== null && intro === null) {
    const value = formal[1] ?? "";
    if (isNameLike(value)) out.push({ category: "name", value, lang: "ko" });
  }
  return out;
}

/** Reported speech: "엄마가 그러는데 …" says nothing about the family member worth keeping. */
const HEARSAY = pattern(
  String.raw`(?:그러는데|그러던데|그랬는데|그러시는데|말했|말하길|하셨는데|그러셨|한테서|전화|[았었였했봤갔왔샀]대(?:요)?(?=$|[\s.!?~])|이래(?:요)?(?=$|[\s.!?~]))`,
  "",
  "갔대|그랬는데|그러는데|그러던데|그러셨|그러시는데|말하길|말했|봤대|샀대|았대|었대|였대|왔대|이래|전화|하셨는데|한테서|했대",
);

const REL_TOPIC = rx(
  `${T}(${REL_WORDS})(?:의)?\\s+(?:이름|직업|나이|회사|직장|생일|취미|학교|고향)(?:은|는|이|가)\\s`,
  "고향|나이|생일|이름|직업|직장|취미|학교|회사&가|는|은|이",
);
const FAMILY_RE2 = rx(
  `(?:^|\\s)(?:제|내|우리|저희|울)\\s+(?:집\\s+)?(${REL_WORDS})(?:의|이|가|은|는|도|를|을|랑|이랑|하고|한테|에게|이름은)?(?=\\s|$|[.,!~])`,
  `${REL_WORDS}&내|우리|울|저희|제`,
);
const FAMILY_RE3 = rx(
  `${T}(${REL_WORDS})(?:이|가|는|은|도)\\s*(?:(?:한|두|세|네|다섯)\\s*(?:명|마리)\\s*|하나\\s*|둘\\s*|셋\\s*|넷\\s*|\\d+\\s*(?:명|마리)\\s*)?(?:있어|있습|있음|있고|있는데|있거든|있구요)`,
  "있거든|있고|있구요|있는데|있습|있어|있음&가|는|도|은|이",
);
const FAMILY_RE4 = rx(
  `${T}(${PET_WORDS})(?:를|을|도|는|은|랑|이랑)?\\s+(?:(?:한|두|세|네)\\s*마리\\s+|\\d+\\s*마리\\s+)?(?:키워|키우고|키웁|키움|길러|기르고|기릅|키우는\\s*중)`,
  "기르고|기릅|길러|키우고|키우는|키움|키웁|키워",
);
const FAMILY_RE5 = rx(
  `${T}(${REL_WORDS})(?:\\s+(?:(?:한|두|세|네|다섯)\\s*|\\d+\\s*)(?:명|마리))?(?:이랑|랑|하고|와|과)\\s+(?:같이\\s+|함께\\s+)?(?:살아|살고|삽니다|지내|사는\\s*중)`,
  "사는|살고|살아|삽니다|지내&과|랑|와|하고",
);

const FAMILY_RE1 = pattern(
  String.raw`결혼(?:했|을\s*했|한\s*지|\s*\d+\s*년\s*차)|기혼(?:이에요|입니다|이야|임)|유부남|유부녀`,
  "",
  "결혼|기혼이야|기혼이에요|기혼임|기혼입니다|유부남|유부녀",
);
const FAMILY_RE6 = pattern(
  String.raw`(?:(?:한|두|세|네)\s*)?(아이|애|아들|딸)(?:\s*(?:둘|셋|하나|넷))?\s*(?:엄마|아빠)(?:예요|이에요|입니다|야|임|고요|이고요)|워킹맘|워킹대디`,
  "",
  "아빠고요|아빠야|아빠예요|아빠이고요|아빠이에요|아빠임|아빠입니다|엄마고요|엄마야|엄마예요|엄마이고요|엄마이에요|엄마임|엄마입니다|워킹대디|워킹맘",
);

function family(text: string, subject: Subject): Found {
  const out: Found = [];
  const add = (word: string): void => {
    const relation = RELATIONS_KO[word];
    if (relation === undefined) return;
    out.push({ category: "family", value: word, lang: "ko", key: relation, detail: text });
  };
  for (const m of FAMILY_RE2.all(text)) {
    if (!HEARSAY.test(text)) add(m[1] ?? "");
  }
  for (const m of FAMILY_RE3.all(text)) {
    add(m[1] ?? "");
  }
  for (const m of FAMILY_RE4.all(text)) {
    add(m[1] ?? "");
  }
  for (const m of FAMILY_RE5.all(text)) {
    add(m[1] ?? "");
  }
  // "아내 이름은 지수예요", "남편 직업은 …": a member's details.
  for (const m of REL_TOPIC.all(text)) add(m[1] ?? "");
  if (FAMILY_RE1.test(text)) {
    out.push({ category: "family", value: "배우자", lang: "ko", key: "spouse", detail: text });
  }
  const parent = FAMILY_RE6.exec(text);
  if (parent !== null) add(parent[1] ?? "아이");
  if (subject.kind === "family" && !HEARSAY.test(text)) add(subject.word);
  return out;
}

const LIKE_VERB =
  "(?:좋아해|좋아합|좋아하고|좋아함|좋아하는\\s*편|좋아하거든|좋아하죠|좋아하는데|좋아하구요|좋아하긴|좋아라\\s*해|사랑해|사랑합|애정해|즐겨\\s*(?:먹|보|들|마시|해|하|읽|입|찾)|빠져\\s*있|빠졌)";
const DISLIKE_VERB =
  "(?:싫어해|싫어합|싫어하고|싫어함|싫어하는\\s*편|싫어하거든|싫어요|싫어(?=$|\\s|[.!~])|싫습니다|싫음|질색|극혐|별로(?:예요|에요|야|임|더라|거든요|인\\s*편)|안\\s*좋아해|안\\s*좋아합|안\\s*좋아하|좋아하지\\s*않|못\\s*참|딱\\s*질색|혐오해|안\\s*맞아|입에\\s*안\\s*맞|질려서|질렸|질려(?=$|\\s|[.!~])|질리더라|질립니다)";

const OBJECT = ["을", "를", "은", "는", "도", "이", "가"];

const LIKES_RE1 = rx(
  `${T}(\\S+)\\s+${ADVS}${LIKE_VERB}`,
  "빠져|빠졌|사랑합|사랑해|애정해|좋아라|좋아하거든|좋아하고|좋아하구요|좋아하긴|좋아하는|좋아하죠|좋아함|좋아합|좋아해|즐겨",
);
const LIKES_RE2 = rx(
  `(?:저는|전|나는|난)\\s+(\\S+)\\s+${ADVS}(?:좋아요|좋아(?=$|\\s|[.!~])|좋습니다|좋더라)`,
  "좋더라|좋습니다|좋아&나는|난|저는|전",
);
const LIKES_RE3 = rx(
  `${T}(\\S+)\\s*(?:덕후|마니아|매니아|광팬|팬|러버)(?:이에요|예요|입니다|이야|야|임|이거든요|거든요|이고요)`,
  "덕후|러버|마니아|매니아|팬&거든요|야|예요|이고요|이에요|임|입니다",
);
const LIKES_RE4 = rx(
  `${T}(\\S+)\\s+${ADVS}${DISLIKE_VERB}`,
  "극혐|맞아|못|별로|싫습니다|싫어|싫음|입에|좋아하|좋아합|좋아해|질려|질렸|질리더라|질립니다|질색|혐오해",
);

const LIKES_RE5 = pattern(
  String.raw`(?:제가|내가|제|내|저의|나의)?\s*(?:제일|가장|젤|최고로)?\s*좋아하는\s+(\S+?)(?:은|는|이|가)\s+(.+)$`,
  "",
  "좋아하는",
);
const LIKES_RE6 = pattern(String.raw`최애(?:\s*(\S+?))?(?:는|은)\s+(.+)$`, "", "최애&는|은");
const LIKES_RE7 = pattern(String.raw`취미(?:는|가)\s+(.+)$`, "", "취미가|취미는");
const LIKES_RE8 = pattern("^(?:안|못)$", "", "못|안");
/**
 * "딸기가 더 좋아요", "등산보다 수영이 좋아요": with the speaker dropped, "X이/가 좋아요" is
 * often about the weather or a plan ("날씨가 좋아요"), but a comparison (더, 제일, 가장, 젤,
 * or "Y보다" before X) states a taste. The comparison is checked on the tokens, not here.
 */
const LIKES_RE9 = rx(
  `${T}(\\S+)\\s+((?:${ADV}\\s+)*)(?:좋아요|좋아(?=$|\\s|[.!~])|좋습니다|좋더라)`,
  "좋더라|좋습니다|좋아",
);
const COMPARATIVE_KO: ReadonlySet<string> = new Set(["더", "제일", "가장", "젤"]);
/**
 * "기타 배우고 있어요", "요즘 수영 배워요": what the speaker is learning is a hobby (a
 * language is its own fact, languages.ts). "차만 마셔요", "채소만 먹어요": only ever having
 * one thing is a taste.
 */
const LIKES_RE10 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:배우고\\s*있|배우는\\s*중|배워요|배웁니다|배우고요|배우거든)`,
  "배우|배워|배웁",
);
const LIKES_RE11 = rx(
  `${T}(\\S+?)만\\s+${ADVS}(?:마셔요|마셔(?=$|\\s|[.!~])|마십니다|마시고|마시거든|먹어요|먹어(?=$|\\s|[.!~])|먹습니다|먹고|먹거든)`,
  "만&마셔|마시거든|마시고|마십니다|먹거든|먹고|먹습니다|먹어",
);

/**
 * "여름은 너무 더워서 싫어요", "고양이는 귀여워서 좋아해요": a reason (…서) sits between the
 * thing and the verb; the thing is the clause's opening topic (X은/는).
 */
function reasonTopic(
  text: string,
  token: string | undefined,
): { value: string; particle: string } | undefined {
  if (token === undefined || !token.endsWith("서")) return undefined;
  const first = tokensOf(text)[0] ?? "";
  const [stem, particle] = splitParticle(first, ["은", "는"]);
  if (particle === "" || !isContentWord(stem) || first === token) return undefined;
  return { value: stem, particle };
}

function likes(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const favorite = LIKES_RE5.exec(text);
  if (favorite !== null && favorite[1] !== "편") {
    const value = copulaRest(favorite[2] ?? "");
    if (value !== undefined) {
      for (const item of splitList(value)) {
        const slot = favorite[1] ?? "";
        out.push({
          category: "preference",
          value: item,
          lang: "ko",
          key: `favorite:${slot}`,
          form: "favorite",
          slot,
        });
      }
    }
  }
  const best = LIKES_RE6.exec(text);
  if (best !== null) {
    const value = copulaRest(best[2] ?? "");
    const slot = best[1] ?? "최애";
    if (value !== undefined) {
      out.push({
        category: "preference",
        value,
        lang: "ko",
        key: `favorite:${slot}`,
        form: "favorite",
        slot,
      });
    }
  }
  const hobby = LIKES_RE7.exec(text);
  if (hobby !== null) {
    const value = copulaRest(hobby[1] ?? "");
    if (value !== undefined) {
      for (const item of splitList(value)) {
        out.push({ category: "preference", value: item, lang: "ko", form: "hobby" });
      }
    }
  }
  for (const m of LIKES_RE1.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", OBJECT, 2) ?? reasonTopic(text, m[1]);
    if (head === undefined || LIKES_RE8.test(head.value)) continue;
    for (const item of listBefore(text, m.index ?? 0, head.value)) {
      out.push({ category: "preference", value: item, lang: "ko" });
    }
  }
  for (const m of LIKES_RE2.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["이", "가"], 1);
    if (head === undefined || head.particle === "") continue;
    out.push({ category: "preference", value: head.value, lang: "ko" });
  }
  for (const m of LIKES_RE9.all(text)) {
    const before = tokensOf(text.slice(0, m.index ?? 0));
    const compared =
      tokensOf(m[2] ?? "").some((word) => COMPARATIVE_KO.has(word)) ||
      (before.at(-1)?.endsWith("보다") ?? false);
    if (!compared) continue;
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["이", "가"], 1);
    if (head === undefined || head.particle === "" || LIKES_RE8.test(head.value)) continue;
    out.push({ category: "preference", value: head.value, lang: "ko" });
  }
  for (const m of LIKES_RE10.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", ["을", "를"], 1);
    if (head === undefined || languageCode(head.value) !== undefined) continue;
    out.push({ category: "preference", value: head.value, lang: "ko", form: "hobby" });
  }
  for (const m of LIKES_RE11.all(text)) {
    const value = m[1] ?? "";
    if (isContentWord(value)) out.push({ category: "preference", value, lang: "ko" });
  }
  for (const m of LIKES_RE3.all(text)) {
    const value = stripParticle(m[1] ?? "");
    if (isContentWord(value)) out.push({ category: "preference", value, lang: "ko" });
  }
  for (const m of LIKES_RE4.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", OBJECT, 2) ?? reasonTopic(text, m[1]);
    if (head === undefined) continue;
    for (const item of listBefore(text, m.index ?? 0, head.value)) {
      out.push({ category: "dislike", value: item, lang: "ko" });
    }
  }
  return out;
}

const ALLERGY = "(?:알레르기|알러지|알레지|알르레기|앨러지)";

const HEALTH_RE1 = rx(
  `${T}(\\S+?)\\s*${ADVS}${ALLERGY}(?:가|이|도|는)?\\s*${ADVS}(?:있어|있습|있음|있고|있는|있다|있거든|있어서|있구요|심해|심하)`,
  "알러지|알레르기|알레지|알르레기|앨러지",
);
const HEALTH_RE2 = pattern(`^${ALLERGY}`, "", "알러지|알레르기|알레지|알르레기|앨러지");
const HEALTH_RE3 = rx(
  `${T}(\\S+)\\s+${ADVS}못\\s*(먹|마셔|마시)(?:어|어요|습니다|음|는|고|겠|어서|거든|요)`,
  "마셔|마시|먹&못&거든|겠|고|는|습니다|어|요|음",
);
const HEALTH_RE4 = rx(
  `(${CONDITIONS_KO})(?:이|가|도|은|는)?\\s*${ADVS}(?:있어|있습|있음|있고|있는데|있어서|있거든|생겼|심해|심하|앓고|진단|약\\s*(?:을\\s*)?(?:먹|복용))`,
  "ADHD|갑상선|거북목|고관절|고지혈증|고혈압|공황|과민성 대장|과민성대장증후군|관절염|녹내장|당뇨|대상포진|두통|디스크|백내장|부정맥|불면증|비염|빈혈|생리통|수면무호흡|식도염|심장병|아토피|안구건조증|암|우울증|위염|유당불내증|이명|장염|저혈압|지방간|척추측만증|천식|탈모|통풍",
);
const HEALTH_RE5 = rx(
  `(${DIET_KO})\\s*(?:이에요|예요|입니다|이야|야|임|이고|이라서|라서|인데|이거든요|거든요|이에용|중이에요|중이야|중|해요|하고\\s*있어요|이라|이어서)`,
  "금연 중|금연중|금주 중|금주중|다이어트 중|다이어트중|당뇨 환자|락토|비건|임산부|임신 중|임신중|채식주의|페스코|할랄",
);
const HEALTH_RE6 = rx(
  `${T}(술|담배|고기|돼지고기|소고기|밀가루|설탕|카페인|유제품|해산물|육류)(?:을|를|은|는|도)?\\s+${ADVS}(?:안\\s*(?:먹|마셔|마시|피워|펴|해)|끊었|끊고|줄이고|피하고)`,
  "고기|담배|밀가루|설탕|술|유제품|육류|카페인|해산물",
);

const HEALTH_RE7 = pattern("^(?:술|알코올|맥주|소주)$", "", "맥주|소주|술|알코올");
const HEALTH_RE8 = pattern(
  String.raw`(허리|무릎|위장|위|장|간|눈|어깨|손목|발목|심장|목|속)(?:가|이)\s+(?:좀\s+|많이\s+)?(?:안\s*좋|약해|약한\s*편)`,
  "",
  "안|약한|약해&가|이",
);

function health(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  for (const m of HEALTH_RE1.all(text)) {
    const token = m[1] ?? "";
    if (token === "" || HEALTH_RE2.test(token)) continue;
    const head = headBefore(text, m.index ?? 0, token, ["에", "에도", "도", "에는"], 2);
    if (head === undefined) continue;
    for (const item of listBefore(text, m.index ?? 0, head.value)) {
      out.push({ category: "allergy", value: item, lang: "ko" });
    }
  }
  for (const m of HEALTH_RE3.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", OBJECT, 2);
    if (head === undefined) continue;
    if (HEALTH_RE7.test(head.value)) {
      out.push({ category: "health", value: head.value, lang: "ko", form: "avoid", detail: text });
      continue;
    }
    for (const item of listBefore(text, m.index ?? 0, head.value)) {
      out.push({ category: "allergy", value: item, lang: "ko", form: "cant-eat" });
    }
  }
  for (const m of HEALTH_RE4.all(text)) {
    out.push({ category: "health", value: m[1] ?? "", lang: "ko", detail: text });
  }
  for (const m of HEALTH_RE5.all(text)) {
    out.push({ category: "health", value: m[1] ?? "", lang: "ko", detail: text });
  }
  for (const m of HEALTH_RE6.all(text)) {
    out.push({ category: "health", value: m[1] ?? "", lang: "ko", form: "avoid", detail: text });
  }
  const body = HEALTH_RE8.exec(text);
  if (body !== null)
    out.push({ category: "health", value: body[1] ?? "", lang: "ko", detail: text });
  return out;
}

const GO_VERB =
  "(?:감(?=$|\\s|[.!~ㅋㅎ])|가요|가(?=$|\\s|[.!~])|갑니다|가기로|가려고|갈\\s*거|갈\\s*예정|갈\\s*계획|가는데|갈게|갑니당|떠나요|떠나(?=$|\\s|[.!~])|떠납니다|떠날|가게\\s*됐|가게\\s*되었)";
const EXPLICIT_FUTURE = pattern(
  String.raw`(?:기로|려고|갈\s*거|할\s*거|예정|계획|게\s*됐|게\s*되었|갈게|떠날)`,
  "",
  "갈|게|계획|기로|되었|떠날|려고|예정|할",
);

const PLANS_RE1 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:(?:여행|출장|놀러|캠핑|휴가|유학|답사|견학|신혼여행)\\s*(?:을|를)?\\s*)?${GO_VERB}`,
  "가|갈|감|갑니다|갑니당|계획|떠나|떠날|떠납니다|예정",
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
]);

function plans(text: string, subject: Subject): Found {
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
  "(?:타(?=$|\\s|[.!~])|탐(?=$|\\s|[.!~ㅋㅎ])|씀(?=$|\\s|[.!~ㅋㅎ])|타요|타고\\s*다녀|탑니다|몰아요|몰고\\s*다녀|몰고\\s*있|타고\\s*있(?!었)|써요|씁니다|사용해요|사용하고\\s*있|쓰고\\s*있(?!었)|사용\\s*중|써(?=$|\\s|[.!~])|갖고\\s*있|가지고\\s*있|있어요|있어(?=$|\\s|[.!~])|있습니다|샀어요|샀어|샀습니다|구매했|장만했|뽑았)";

const POSSESSIONS_RE1 = pattern(
  `(?:^|\\s)(?:제|내|우리|저희)?\\s*${POSSESSION_TOPIC}(?:는|은|이|가)\\s+(.+)$`,
  "",
  "노트북|시계|오토바이|자전거|차|카메라|컴퓨터|태블릿|폰&가|는|은|이",
);
const POSSESSIONS_RE2 = rx(
  `${T}(\\S+)\\s+${ADVS}${POSSESSION_VERBS}`,
  "가지고|갖고|구매했|몰고|몰아요|뽑았|사용|샀습니다|샀어|써|쓰고|씀|씁니다|있습니다|있어|장만했|타|탐|탑니다",
);

const POSSESSIONS_RE3 = pattern("있", "", "있");
/** "아이폰 15로 바꿨어요", "전기차로 갈아탔어요": what the speaker switched to is theirs now. */
const POSSESSIONS_RE4 = rx(
  `${T}(\\S+?(?:\\s+\\d+)?)(?:으로|로)\\s+${ADVS}(?:바꿨|바꿔서|갈아탔|교체했)`,
  "갈아탔|교체했|바꿔서|바꿨",
);

function possessions(text: string, subject: Subject): Found {
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

const KOREAN_NUMBER = pattern(
  "^(?:열|스물|스무|서른|마흔|쉰|예순|일흔|여든|아흔)(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉)?$",
  "",
  "마흔|서른|쉰|스무|스물|아흔|여든|열|예순|일흔",
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

function other(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const age = OTHER_RE1.exec(text);
  if (age !== null) {
    const value = age[2] ?? "";
    if (OTHER_RE3.test(value) || KOREAN_NUMBER.test(value)) {
      out.push({ category: "other", value, lang: "ko", key: "age", slot: "age" });
    }
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

/** All Korean candidates of one statement clause. */
export function extractKo(text: string): Candidate[] {
  const tokens = tokensOf(text);
  let subject = subjectOfKo(tokens);
  // A pet named without 우리/제 ("강아지는 좋아해요") is a topic, not a family member talking.
  if (subject.kind === "family" && !subject.owned && PET_RELATIONS.has(subject.relation)) {
    subject = { kind: "self" };
  }
  const g = (gate: GateName, rule: () => Candidate[]): Candidate[] =>
    open(KO_GATES[gate], text) ? rule() : [];
  return [
    ...g("name", () => name(text)),
    ...g("residence", () => residence(text, subject)),
    ...g("workplace", () => workplace(text, subject)),
    ...g("job", () => job(text, subject)),
    ...g("family", () => family(text, subject)),
    ...g("likes", () => likes(text, subject)),
    ...g("health", () => health(text, subject)),
    ...plans(text, subject),
    ...g("possessions", () => possessions(text, subject)),
    ...g("other", () => other(text, subject)),
    ...(subject.kind === "self" ? g("languages", () => languagesKo(text)) : []),
  ];
}

/** Korean statements that take a fact back ("이제 서울에 안 살아요", "퇴사했어요"). */
const RETRACTION_HINT_KO = pattern(
  String.raw`안\s*(?:살|삽)|살지\s*않|그만|퇴사|관뒀|나왔|백수|팔았|처분|폐차|없어졌|잃어버렸|취소|연기|무산`,
  "",
  "관뒀|그만|나왔|무산|백수|살지|안|없어졌|연기|잃어버렸|처분|취소|퇴사|팔았|폐차",
);

const RETRACTIONS_KO_RE1 = rx(
  `${T}(\\S+)\\s+(?:더\\s*이상\\s+|이제\\s+)?(?:안\\s*(?:살아|살고|삽니다)|살지\\s*않)`,
  "살고|살아|살지|삽니다",
);
const RETRACTIONS_KO_RE2 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:팔았|처분했|폐차했|없어졌|잃어버렸)`,
  "없어졌|잃어버렸|처분했|팔았|폐차했",
);
const RETRACTIONS_KO_RE3 = rx(
  `${T}(\\S+)\\s+(?:(?:여행|출장|약속|면접|일정|계획)(?:이|은|는)?\\s*)?(?:취소|연기|무산)`,
  "무산|연기|취소",
);

const RETRACTIONS_KO_RE4 = pattern(
  String.raw`(?:회사|직장)(?:를|을|는|은)?\s*(?:그만뒀|그만두었|관뒀|퇴사했|나왔)|퇴사(?:했|를\s*했|함)|백수가\s*됐`,
  "",
  "관뒀|그만두었|그만뒀|나왔|백수가|퇴사",
);

export function retractionsKo(text: string): Retraction[] {
  if (!RETRACTION_HINT_KO.test(text)) return [];
  const out: Retraction[] = [];
  for (const m of RETRACTIONS_KO_RE1.all(text)) {
    const [stem, particle] = splitParticle(m[1] ?? "", ["에", "에서"]);
    if (particle !== "" && isContentWord(stem)) {
      out.push({ category: "residence", value: stem, id: "residence" });
    }
  }
  if (RETRACTIONS_KO_RE4.test(text)) {
    out.push({ category: "workplace", id: "workplace" });
  }
  for (const m of RETRACTIONS_KO_RE2.all(text)) {
    const value = stripParticle(m[1] ?? "", ["을", "를", "는", "은", "도"]);
    if (!isContentWord(value)) continue;
    const kind = possessionKind(value);
    out.push(
      kind === undefined
        ? { category: "possession", value }
        : { category: "possession", id: `possession:${kind}` },
    );
  }
  for (const m of RETRACTIONS_KO_RE3.all(text)) {
    const value = stripParticle(m[1] ?? "", ["이", "가", "은", "는", "을", "를"]);
    if (isContentWord(value)) out.push({ category: "plan", value });
  }
  return out;
}
