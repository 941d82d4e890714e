/**
 * Korean rules for who the user is (extract-ko.ts): where they live, where they work, their
 * job and their name.
 */
import {
  ADVS,
  copulaRest,
  type Found,
  headBefore,
  isJobKo,
  isNameLike,
  nounOfCopula,
  PREDICATE_END,
  rx,
  SPEAKER_WORDS_KO,
  T,
} from "./extract-ko-shared.ts";
import {
  isContentWord,
  isPlaceKo,
  nounPhrase,
  type Subject,
  splitParticle,
  stripCopula,
  stripParticle,
  tokensOf,
} from "./korean.ts";
import { ORG_KO } from "./lexicon.ts";
import { pattern } from "./regex.ts";
import { hasBatchim } from "./types.ts";

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

/**
 * "싱가포르 온 지 2주 됐어요": how long since the user came to a place says they live there
 * now (a named place only; "회사 온 지" is not a home).
 */
const ARRIVED_KO = pattern(
  String.raw`(?:^|\s)([가-힣]{2,10}?)(?:에|으로|로)?\s*(?:이사\s*)?온\s*지\s*\S+\s*(?:됐|되었|넘었|지났)`,
  "",
  "넘었|됐|되었|지났&온",
);

export function residence(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const arrived = ARRIVED_KO.exec(text);
  if (arrived !== null && isPlaceKo(arrived[1] ?? "")) {
    out.push({ category: "residence", value: arrived[1] ?? "", lang: "ko" });
  }
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

/** Working there now, also as a duration ("일한 지 5년 됐어요": has worked there five years). */
const WORK_VERB =
  "(?:일해|일하고|일합니다|일하는\\s*중|일함|일한\\s*지|근무(?:해|하고|합니다|\\s*중|중|한\\s*지)|재직\\s*중|출근해|출근합니다)";

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
  "근무|일하고|일하는|일한|일함|일합니다|일해|재직|출근합니다|출근해",
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

const CLINIC_KO = pattern(
  "^(?:병원|의원|한의원|치과|정신과|피부과|안과|이비인후과|정형외과|내과|재활원|물리치료)$",
  "",
  "과|병원|물리치료|원",
);

/** "카카오에 취직했어요", "네이버에 입사했어요", "삼성에 합격했어요": the new workplace. */
const WORKPLACE_JOINED = rx(
  `${T}(\\S+?)(?:에|으로|로)\\s+${ADVS}(?:취직|입사|합격|이직)(?:했|해서|했어|했습|함|하게\\s*됐)`,
  "입사|이직|취직|합격",
);

export function workplace(text: string, subject: Subject): Found {
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
    // "허리 디스크 때문에 병원 다니고 있어요": a patient goes to a clinic; staff work there (일해요).
    if (CLINIC_KO.test(head.value)) continue;
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
  for (const m of WORKPLACE_JOINED.all(text)) {
    const value = m[1] ?? "";
    if (isContentWord(value) && !["회사", "직장", "학교", "대학", "대학교"].includes(value)) {
      out.push({ category: "workplace", value, lang: "ko" });
    }
  }
  if (WORKPLACE_RE9.test(text) && !WORKPLACE_RE10.test(text)) {
    out.push({ category: "workplace", value: "재택", lang: "ko", form: "remote" });
  }
  return out;
}

const JOB_RE1 = rx(
  `${T}(\\S+)\\s+${ADVS}(?:일해|일하고|일합|일하는\\s*중|일한\\s*지|근무(?:해|하고|합|\\s*중|한\\s*지)|재직|활동(?:해|하고|합|\\s*중|한\\s*지))`,
  "근무|일하고|일하는|일한|일합|일해|재직|활동",
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

/**
 * Teaching where one works: "초등학교에서 애들 가르쳐요", "학원에서 수학 가르치고 있어요". The
 * place (with 에서, at most two words such as the pupils or the subject between it and the
 * verb) says the role: a school's 교사, otherwise an academy's or a studio's 강사. Past
 * forms (가르쳤어요) and a place of another kind ("회사에서 신입 가르쳐요") give nothing.
 */
const JOB_TEACH = rx(
  `${T}(\\S+)에서\\s+(?:(?!안|못)\\S+\\s+){0,2}${ADVS}가르(?:쳐|치고|칩니다|치는\\s*(?:일|중))`,
  "가르&에서",
);
const TEACHING_PLACE = pattern(
  "(?:(학교|유치원|어린이집)|(학원|대학|대학교|대학원|센터|스튜디오|체육관|도장|교습소))$",
  "",
  "교|도장|센터|스튜디오|원|집|체육관|학",
);

/** "해외 영업 담당이라", "마케팅 담당이에요": the area the user is in charge of is their job. */
const SPEAKER_KO: ReadonlySet<string> = new Set(SPEAKER_WORDS_KO);
const JOB_CHARGE = rx(
  `${T}((?:\\S+\\s+)?\\S+?)\\s*담당(?:자)?(?:이에요|예요|이라서|이라|입니다|이고요|이고|이야|야|임)(?=$|\\s|[.!~,])`,
  "담당",
);

/**
 * The connective copula "(이)라" ("초등학교 교사라 방학에도 …", "공무원이라 …"): being X, so ….
 * Only for a job word (the caller checks): many nouns end in 라 (카메라, 드라마).
 */
function connectiveCopula(token: string): string | undefined {
  if (!token.endsWith("라") || token.length < 3) return undefined;
  const withI = token.endsWith("이라") ? token.slice(0, -2) : undefined;
  if (withI !== undefined && hasBatchim(withI) === true) return withI;
  const bare = token.slice(0, -1);
  return hasBatchim(bare) === false ? bare : undefined;
}

/** A role one does ("편의점 알바 하고 있어", "프리랜서 해요"): a job word + 하다 in the present. */
const JOB_DOING = rx(
  `${T}(\\S+)\\s+${ADVS}(?:하고\\s*있(?!었)|하는\\s*중|해요|합니다|해(?=$|\\s|[.!~]))`,
  "하고|하는|해요|합니다|해",
);

export function job(text: string, subject: Subject): Found {
  if (subject.kind !== "self") return [];
  const out: Found = [];
  const tokens = tokensOf(text);
  tokens.forEach((token, index) => {
    const noun = nounOfCopula(token) ?? connectiveCopula(token);
    if (noun === undefined || !isJobKo(noun)) return;
    out.push({ category: "job", value: nounPhrase(tokens, index, noun, 2), lang: "ko" });
  });
  for (const m of JOB_DOING.all(text)) {
    const token = m[1] ?? "";
    if (!isJobKo(token)) continue;
    const before = tokensOf(text.slice(0, m.index ?? 0));
    out.push({ category: "job", value: nounPhrase(before, before.length, token, 1), lang: "ko" });
  }
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
  for (const m of JOB_CHARGE.all(text)) {
    const words = tokensOf(m[1] ?? "").filter(
      (word) => !JOB_RE4.test(word) && !SPEAKER_KO.has(word),
    );
    const value = words.map((word) => stripParticle(word)).join(" ");
    if (words.length > 0 && isContentWord(value) && splitParticle(words.at(-1) ?? "")[1] === "") {
      out.push({ category: "job", value, lang: "ko" });
    }
  }
  for (const m of JOB_TEACH.all(text)) {
    const place = m[1] ?? "";
    const kind = TEACHING_PLACE.exec(place);
    if (kind === null || !isContentWord(place)) continue;
    const role = kind[1] !== undefined ? "교사" : "강사";
    out.push({ category: "job", value: `${place} ${role}`, lang: "ko" });
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
/** "민지라고 불러 줘", and the bare imperative at the end of the clause: "걍 준이라고 불러". */
const NAME_RE3 = pattern(
  `${T}(\\S+?)(?:이)?라고\\s*불러(?:\\s*(?:주세요|줘|줘요|주면|주시면|주십시오)|\\s*[.!~]*$)`,
  "",
  "라고&불러",
);
const FORMAL_INTRO = pattern(`^${GREETING}([가-힣]{2,4}|[A-Z][a-z]+)입니다$`, "", "입니다");
const NAME_RE5 = pattern(`^${GREETING}${SELF_TOPIC}\\s+(\\S+)$`, "", "나|난|저|전");

const NAME_RE4 = pattern(
  String.raw`(?<![^\s])(?:제|내|저의|나의)\s*이름은\s+(\S+)(?:\s+(\S+))?`,
  "",
  "이름은&나의|내|저의|제",
);
const NAME_RE6 = pattern(String.raw`^(?:이름은|이름이)\s+(\S+)$`, "", "이름은|이름이");

export function name(text: string): Found {
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
