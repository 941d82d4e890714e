/**
 * Korean cue rows (the engine: rules.ts). Korean drops the subject when it is the speaker, so
 * a row needs the clause's subject (korean.ts subjectOfKo) to be the user unless it says
 * `subject: "any"` ("친구가 제주도에 살아요" gives no residence; family rows read any clause).
 * Particles are handled by the engine's Korean readers (korean-values.ts), so "서울에서/서울에/
 * 서울은/서울로" all give "서울": a row names the token before its verb (group `value`) and
 * the particles the head noun may take (`head`). Rows run in this order, kind by kind.
 */
import { KO_HARM_AFTER } from "./clauses.ts";
import { KO_JOB_GATE } from "./gates.ts";
import { ADV, ADVS, PET_WORDS, REL_WORDS, rx, T } from "./korean-values.ts";
import { CONDITIONS_KO, DIET_KO, EVENTS_KO, TIME_KO, WAYS_OF_EATING_KO } from "./lexicon.ts";
import { pattern as p } from "./regex.ts";
import type { Rule } from "./rules.ts";

const OBJECT = ["을", "를", "은", "는", "도", "이", "가"];

/** Reported speech: "엄마가 그러는데 …" says nothing about the family member worth keeping. */
export const HEARSAY = p(
  String.raw`(?:그러는데|그러던데|그랬는데|그러시는데|말했|말하길|하셨는데|그러셨|한테서|전화|[았었였했봤갔왔샀]대(?:요)?(?=$|[\s.!?~])|[았었였했봤갔왔샀]다(?:는데|던데)|이래(?:요)?(?=$|[\s.!?~]))`,
  "",
  "갔대|그랬는데|그러는데|그러던데|그러셨|그러시는데|다는데|다던데|말하길|말했|봤대|샀대|았대|었대|였대|왔대|이래|전화|하셨는데|한테서|했대",
);

/** A clause about someone outside the family keeping something ("친구가 고양이 입양했어"). */
const OTHER_KEEPER = p(
  String.raw`(?:^|\s)(?:친구|동료|회사\s*동료|이웃|옆집(?:\s*사람)?|지인|룸메이트|선배|후배)(?:가|이|는|도|네|네서|네는)(?=\s)`,
  "",
  "동료|룸메이트|선배|옆집|이웃|지인|친구|회사|후배&가|네|는|도|이",
);

const GREETING = "(?:(?:안녕하세요|안녕하십니까|안녕|반가워요|반갑습니다)[.,!~]*\\s*)?";
const SELF_TOPIC = "(?:저는|전|나는|난|저|나)";
/** "제 이름은 …" (not "아내 이름은": 내 inside another word). */
const OWN_NAME = p(
  String.raw`(?<![^\s])(?:제|내|저의|나의)\s*이름은\s+(?<value>\S+)(?:\s+(?<second>\S+))?`,
  "",
  "이름은&나의|내|저의|제",
);
/** "나 지수야", "난 수빈": the speaker and one word. */
const SELF_AND_WORD = p(`^${GREETING}${SELF_TOPIC}\\s+(?<value>\\S+)$`, "", "나|난|저|전");

const RES_VERB =
  "(?:자취\\s*(?:해|하고|중|합니다)|살아(?![보봤본야도])|살고\\s*있(?!었)|살고(?=\\s|$|요)|살구요|삽니다|살죠|살거든|산다(?!면)|사는\\s*중|살며|살면서|살어|거주\\s*(?:중|하고|해|합니다))";
/** "회사가 판교로 이전했어요", "우리 회사 판교로 옮겼어요": the workplace moved, not the speaker. */
const WORKPLACE_MOVED = p(
  `(?:회사|직장|사무실)(?:가|는|도|이|은)?\\s+(?<value>\\S+?)(?:으로|로)\\s+${ADVS}(?:이전|이사|옮기|옮겼|옮겨)`,
  "",
  "사무실|직장|회사&옮겨|옮겼|옮기|이사|이전",
);
const LIVING_ALONE = p(
  String.raw`(?:^|\s)(?:혼자\s*(?:살아|살고|삽니다|사는\s*중|지내)|자취(?:해|하고|\s*중|중))`,
  "",
  "사는|살고|살아|삽니다|자취|지내",
);
const ON_ONES_OWN = p("자취", "", "자취");
const REMOTE = p(String.raw`재택\s*(?:근무|으로\s*일)`, "", "재택&근무|으로");
/** Working there now, also as a duration ("일한 지 5년 됐어요"). */
const WORK_VERB =
  "(?:일해|일하고|일합니다|일하는데|일하는\\s*중|일함|일한\\s*지|근무(?:해|하고|합니다|\\s*중|중|한\\s*지)|재직\\s*중|출근해|출근합니다)";
const NOT_A_JOB_KO = p(
  "^(?:회사|집안|많은|이런|그런|무슨|여러|같은|다른|그)$",
  "",
  "같은|그|다른|많은|무슨|여러|이런|집안|회사",
);
/** "허리 디스크 때문에 병원 다니고 있어요": a patient goes to a clinic; staff work there. */
const CLINIC = p(
  "^(?:병원|의원|한의원|치과|정신과|피부과|안과|이비인후과|정형외과|내과|재활원|물리치료)$",
  "",
  "과|병원|물리치료|원",
);
const JOB_GATE = p(KO_JOB_GATE.join("|"), "", KO_JOB_GATE.join("|"));

const LIKE_VERB =
  "(?:좋아해|좋아합|좋아하고|좋아함|좋아하는\\s*편|좋아하거든|좋아하죠|좋아하는데|좋아하구요|좋아하긴|좋아라\\s*해|사랑해|사랑합|애정해|즐겨\\s*(?:먹|보|들|마시|해|하|읽|입|찾))";
const DISLIKE_VERB =
  "(?:싫어해|싫어합|싫어하고|싫어함|싫어하는\\s*편|싫어하거든|싫어요|싫어(?=$|\\s|[.!~])|싫습니다|싫음|질색|극혐|별로(?:예요|에요|야|임|더라|거든요|인\\s*편)|안\\s*좋아해|안\\s*좋아합|안\\s*좋아하|좋아하지\\s*않|못\\s*참|딱\\s*질색|혐오해|안\\s*맞아|입에\\s*안\\s*맞|질려서|질렸|질려(?=$|\\s|[.!~])|질리더라|질립니다)";
/** Fun or tasty in a comparison ("다큐멘터리가 더 재밌더라고요"): a taste too. */
const ENJOYABLE =
  "(?:(?:재밌|재미있|맛있)(?:어요|어(?=$|\\s|[.!~])|습니다|더라|던데)|땡기(?:더라|던데|네요|네)|땡겨요|땡겨(?=$|\\s|[.!~]))";
const NOT_THING = [p("^(?:안|못)$", "", "못|안")];
const ALLERGY = "(?:알레르기|알러지|알레지|알르레기|앨러지)";
const DRINK = [p("^(?:술|알코올|맥주|소주)$", "", "맥주|소주|술|알코올")];

const GO_VERB =
  "(?:감(?=$|\\s|[.!~ㅋㅎ])|가요|가(?=$|\\s|[.!~])|갑니다|가기로|가려고|갈\\s*거|갈\\s*예정|갈\\s*계획|가는데|갈게|갑니당|떠나요|떠나(?=$|\\s|[.!~])|떠납니다|떠날|가게\\s*됐|가게\\s*되었|가는\\s*(?:거|것|게|날))";
const EXPLICIT_FUTURE = String.raw`(?:기로|려고|갈\s*거|할\s*거|예정|계획|게\s*됐|게\s*되었|갈게|떠날)`;
/** A time ahead or an explicit future: a plan, not a habit or the past. */
const FUTURE = p(
  `${TIME_KO.source}|${EXPLICIT_FUTURE}`,
  "",
  `${TIME_KO.need as string}|갈|게|계획|기로|되었|떠날|려고|예정|할`,
);
const NOT_A_TRIP = [p("^(?:이사|집|회사|학교|병원)$", "", "병원|이사|집|학교|회사")];

const POSSESSION_TOPIC =
  "(?<thing>차|자동차|폰|핸드폰|휴대폰|스마트폰|노트북|컴퓨터|카메라|자전거|오토바이|태블릿|시계|차종)";
const POSSESSION_VERBS =
  "(?:타(?=$|\\s|[.!~])|탐(?=$|\\s|[.!~ㅋㅎ])|씀(?=$|\\s|[.!~ㅋㅎ])|타요|타고\\s*다녀|탑니다|몰아요|몰고\\s*다녀|몰고\\s*있|타고\\s*있(?!었)|써요|씁니다|사용해요|사용하고\\s*있|쓰고\\s*있(?!었)|사용\\s*중|써(?=$|\\s|[.!~])|갖고\\s*있|가지고\\s*있|있어요|있어(?=$|\\s|[.!~])|있습니다|샀어요|샀어|샀습니다|샀다|샀음|구매했|장만했|뽑았)";
const AGE = p(
  `${T}(만\\s*)?(?<value>\\d{1,3}|[가-힣]{1,4})\\s*(?:살|세)(?:이에요|입니다|이야|임|이고요|이고|이에용|이거든요|이라서|인데|이예요|예요|요)(?=$|\\s|[.!~,])`,
  "",
  "살|세&요|이고|이라서|이야|이에용|인데|임|입니다",
);
const MAJOR_TOPIC = p(String.raw`전공(?:은|이)\s+(?<value>.+)$`, "", "전공은|전공이");
/** "친구가 남자친구랑 사귄 지…": a clause about someone else. */
const ABOUT_OTHERS = p(
  String.raw`(?:^|\s)(?:친구|동생|형|누나|언니|오빠|엄마|아빠|동료|상사|남편|아내|딸|아들|걔)(?:가|이|는|도)\s`,
  "",
  "가|는|도|이",
);

export const RULES_KO: readonly Rule[] = [
  // ── name ──
  {
    lang: "ko",
    kind: "name",
    subject: "any",
    pattern: OWN_NAME,
    read: "ownName",
    checks: ["contentKo"],
    reject: [p("^[\\s\\S]{21,}$")],
    example: ["제 이름은 김 민수예요", "name=김 민수"],
  },
  {
    lang: "ko",
    kind: "name",
    subject: "any",
    pattern: p(
      `^${GREETING}(?:${SELF_TOPIC}\\s+)?(?<value>\\S+?)(?:이)?라고\\s*(?:해요|합니다|해|함|하는데|하고요|하구요|부릅니다|불러요|불러)(?=$|\\s|[.!~])`,
      "",
      "라고&부릅니다|불러|하고요|하구요|하는데|함|합니다|해",
    ),
    when: ["selfish"],
    checks: ["nameLike"],
    example: ["저는 민수라고 해요", "name=민수"],
  },
  {
    // "민지라고 불러 줘", and the bare imperative at the end of the clause: "걍 준이라고 불러".
    lang: "ko",
    kind: "name",
    subject: "any",
    pattern: p(
      `${T}(?<value>\\S+?)(?:이)?라고\\s*불러(?:\\s*(?:주세요|줘|줘요|주면|주시면|주십시오)|\\s*[.!~]*$)`,
      "",
      "라고&불러",
    ),
    checks: ["contentKo"],
    form: "nickname",
    example: ["그냥 민지라고 불러 줘", "name=민지"],
  },
  {
    // "나 지수야" (a copula), or casual "나 민지" / "난 수빈" (the bare name, not a predicate).
    lang: "ko",
    kind: "name",
    subject: "any",
    pattern: SELF_AND_WORD,
    read: "bareName",
    checks: ["nameLike"],
    example: ["나 지수야", "name=지수"],
  },
  {
    // "이름은 준호예요" without 제/내 (a member's or pet's name is dropped by context, extract.ts).
    lang: "ko",
    kind: "name",
    subject: "any",
    pattern: p(String.raw`^(?:이름은|이름이)\s+(?<value>\S+)$`, "", "이름은|이름이"),
    unless: [OWN_NAME],
    read: "bareName",
    checks: ["nameLike"],
    example: ["이름은 준호예요", "name=준호"],
  },
  {
    // A bare formal self-introduction, the whole clause: "민수입니다", "안녕하세요, 김민수입니다".
    lang: "ko",
    kind: "name",
    subject: "any",
    pattern: p(`^${GREETING}(?<value>[가-힣]{2,4}|[A-Z][a-z]+)입니다$`, "", "입니다"),
    unless: [SELF_AND_WORD],
    checks: ["nameLike"],
    example: ["안녕하세요, 김민수입니다", "name=김민수"],
  },
  // ── residence ──
  {
    // "싱가포르 온 지 2주 됐어요": how long since the user came to a place (a named place).
    lang: "ko",
    kind: "residence",
    pattern: p(
      String.raw`(?:^|\s)(?<value>[가-힣]{2,10}?)(?:에|으로|로)?\s*(?:이사\s*)?온\s*지\s*\S+\s*(?:됐|되었|넘었|지났)`,
      "",
      "넘었|됐|되었|지났&온",
    ),
    checks: ["placeKo"],
    example: ["싱가포르 온 지 2주 됐어요", "residence=싱가포르"],
  },
  {
    // "위례 와서 출퇴근 40분이에요": a commute since coming to a place is from a new home
    // there ("부산 와서 회 먹었어요" is a visit: no commute, no home).
    lang: "ko",
    kind: "residence",
    pattern: p(
      String.raw`(?:^|\s)(?<value>[가-힣]{2,10}?)(?:으로|로|에)?\s*(?:이사\s*)?(?:와서|오고\s*나서|온\s*(?:뒤|후)(?:로|에)?)\s`,
      "",
      "오고|온|와서",
    ),
    when: [
      p("출퇴근|통근|출근|퇴근|회사까지|직장까지", "", "출근|출퇴근|직장까지|통근|퇴근|회사까지"),
    ],
    checks: ["placeKo"],
    example: ["위례 와서 출퇴근 40분이에요", "residence=위례"],
    paraphrases: [
      ["광교로 와서 출근길이 편해졌어요", "residence=광교"],
      ["분당 온 뒤로 회사까지 걸어 다녀요", "residence=분당"],
      ["부산 와서 회 먹었어요"],
      ["회사 와서 출근 도장 찍었어요"],
    ],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}${RES_VERB}`,
      "거주|사는|산다|살거든|살고|살구요|살며|살면서|살아|살어|살죠|삽니다|자취",
    ),
    checks: ["tokenNotWith"],
    head: { particles: ["에서", "에"], max: 2, bare: "place" },
    example: ["저는 서울 마포구에 살아요", "residence=서울 마포구"],
    paraphrases: [
      ["저 지금 인천 부평 살아요", "residence=인천 부평"],
      ["나 경기도 광명 살아", "residence=경기도 광명"],
      ["저 서울 혼자 살아요", "residence=서울"],
      ["저 그냥 혼자 살아요"],
    ],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:이사\\s*(?:를\\s*|도\\s*|까지\\s*)?(?:했|왔|갔|와서|온\\s*지|온지|함|했습|하느라|해서)|(?:올라|내려|넘어|이사)\\s*(?:왔|갔|와서|온\\s*지))`,
      "내려|넘어|올라|이사",
    ),
    unless: [WORKPLACE_MOVED],
    head: { particles: ["으로", "로"], max: 2, bare: "no" },
    example: ["작년에 부산으로 이사 왔어요", "residence=부산"],
    paraphrases: [
      ["대전으로 이사도 했어요", "residence=대전"],
      ["부산까지 이사까지 했어요"],
      ["울산으로 이사하느라 바빴어요", "residence=울산"],
    ],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: p(
      String.raw`(?:사는\s*곳은|사는\s*데는|사는\s*곳이|사는\s*동네는|거주지는|집은|집이)\s+(?<value>.+)$`,
      "",
      "거주지는|동네는|사는|집은|집이",
    ),
    read: "topic",
    checks: ["contentKo"],
    reject: [p("^(?:좀|너무|꽤)", "", "꽤|너무|좀")],
    example: ["집은 대전이에요", "residence=대전"],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: p(String.raw`(?:고향은|고향이)\s+(?<value>\S+(?:\s\S+)?)`, "", "고향은|고향이"),
    strip: ["에서"],
    copula: true,
    checks: ["contentKo"],
    key: "hometown",
    form: "hometown",
    example: ["고향은 광주예요", "residence=광주"],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: p(`${T}(?<value>\\S+)\\s*출신(?=$|\\s|이|입|인)`, "", "출신"),
    strip: ["에서"],
    copula: true,
    checks: ["contentKo"],
    key: "hometown",
    form: "hometown",
    example: ["저 제주 출신이에요", "residence=제주"],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: p(
      `${T}(?<value>\\S+)에서\\s*(?:태어났|자랐|나고\\s*자랐)`,
      "",
      "나고|자랐|태어났&에서",
    ),
    strip: ["에서"],
    copula: true,
    checks: ["contentKo"],
    key: "hometown",
    form: "hometown",
    example: ["대구에서 태어났어요", "residence=대구"],
  },
  {
    lang: "ko",
    kind: "residence",
    pattern: p(
      `${T}(?<value>\\S+)\\s+사람(?:이에요|입니다|이야|이고요|임|이거든요|이에용)(?=$|\\s|[.!~])`,
      "",
      "사람이거든요|사람이고요|사람이야|사람이에요|사람이에용|사람임|사람입니다",
    ),
    checks: ["placeKo"],
    key: "hometown",
    form: "hometown",
    example: ["저 부산 사람이에요", "residence=부산"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: LIVING_ALONE,
    when: [ON_ONES_OWN],
    value: "자취",
    key: "living",
    slot: "living",
    example: ["자취하고 있어요", "other=자취"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: LIVING_ALONE,
    unless: [ON_ONES_OWN],
    value: "혼자",
    key: "living",
    slot: "living",
    example: ["혼자 살아요", "other=혼자"],
  },
  // ── workplace ──
  {
    lang: "ko",
    kind: "workplace",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+(?:\\S+(?:으로|로)\\s+)?${ADVS}${WORK_VERB}`,
      "근무|일하고|일하는|일한|일함|일합니다|일해|재직|출근합니다|출근해",
    ),
    head: { particles: ["에서"], max: 2, only: "에서" },
    map: "remoteKo",
    example: ["카카오에서 일해요", "workplace=카카오"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:다녀요|다녀(?=$|\\s|[.!~])|다닙니다|다니고\\s*있(?!었)|다니는\\s*중|다님|재직\\s*중|재직하고|근무\\s*중)`,
      "근무|다녀|다니고|다니는|다님|다닙니다|재직",
    ),
    head: { particles: ["에", "을", "를"], max: 2 },
    checks: ["orgKo"],
    reject: [p("^(?:회사|직장)$", "", "직장|회사"), CLINIC],
    example: ["네이버 다녀요", "workplace=네이버"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: p(
      String.raw`(?:회사는|직장은|근무지는|일하는\s*곳은|다니는\s*회사는|회사가|직장이|사무실은|사무실이|연구실은|연구실이|가게는|가게가|매장은|매장이|작업실은|작업실이)\s+(?<value>.+)$`,
      "",
      "가게가|가게는|근무지는|다니는|매장은|매장이|사무실은|사무실이|연구실은|연구실이|일하는|작업실은|작업실이|직장은|직장이|회사가|회사는",
    ),
    read: "topic",
    checks: ["contentKo"],
    formIf: { form: "location", key: "location" },
    example: ["회사는 판교에 있어요", "workplace=판교"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: p(
      `${T}(?<value>\\S+)\\s*소속(?:이에요|입니다|이야|임|이고|이에용)`,
      "",
      "소속이고|소속이야|소속이에요|소속이에용|소속임|소속입니다",
    ),
    checks: ["contentKo"],
    example: ["저는 마케팅팀 소속이에요", "workplace=마케팅팀"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:출근(?:해|하고|합니다|함|중)|출퇴근(?:해|하고|합니다))`,
      "출근중|출근하고|출근함|출근합니다|출근해|출퇴근하고|출퇴근합니다|출퇴근해",
    ),
    head: { particles: ["으로", "로"], max: 2, bare: "no" },
    reject: [p("^회사$", "", "회사")],
    key: "location",
    form: "location",
    example: ["강남으로 출근해요", "workplace=강남"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:차렸|오픈했|개업했|창업했|열었|운영하고\\s*있|운영해|운영\\s*중)`,
      "개업했|열었|오픈했|운영|차렸|창업했",
    ),
    head: { particles: ["을", "를"], max: 2 },
    reject: [p("^(?:문|창문|마음|파티)$", "", "마음|문|파티")],
    example: ["작년에 카페를 차렸어요", "workplace=카페"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: WORKPLACE_MOVED,
    checks: ["contentKo"],
    key: "location",
    form: "location",
    example: ["회사가 판교로 이전했어요", "workplace=판교"],
  },
  {
    // "카카오에 취직했어요", "네이버에 입사했어요", "삼성에 합격했어요": the new workplace.
    lang: "ko",
    kind: "workplace",
    pattern: rx(
      `${T}(?<value>\\S+?)(?:에|으로|로)\\s+${ADVS}(?:취직|입사|합격|이직)(?:했|해서|했어|했습|함|하게\\s*됐)`,
      "입사|이직|취직|합격",
    ),
    checks: ["contentKo"],
    reject: [p("^(?:회사|직장|학교|대학|대학교)$", "", "교|대학|직장|회사")],
    example: ["카카오에 입사했어요", "workplace=카카오"],
  },
  {
    lang: "ko",
    kind: "workplace",
    pattern: REMOTE,
    unless: [p(String.raw`재택\s*근무\s*(?:안|못)`, "", "재택&근무&못|안")],
    value: "재택",
    form: "remote",
    example: ["요즘 재택근무 해요", "workplace=재택"],
  },
  // ── job ──
  {
    // Every job word with a copula: "간호사예요", "초등학교 교사라 방학에도 …".
    lang: "ko",
    kind: "job",
    pattern: p("[가-힣]"),
    when: [JOB_GATE],
    read: "jobWords",
    example: ["저는 간호사예요", "job=간호사"],
  },
  {
    // A role one does ("편의점 알바 하고 있어", "프리랜서 해요").
    lang: "ko",
    kind: "job",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:하고\\s*있(?!었)|하는\\s*중|해요|합니다|해(?=$|\\s|[.!~]))`,
      "하고|하는|해요|합니다|해",
    ),
    read: "jobPhrase",
    example: ["편의점 알바 하고 있어", "job=편의점 알바"],
  },
  {
    lang: "ko",
    kind: "job",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:일해|일하고|일합|일하는\\s*중|일한\\s*지|근무(?:해|하고|합|\\s*중|한\\s*지)|재직|활동(?:해|하고|합|\\s*중|한\\s*지))`,
      "근무|일하고|일하는|일한|일합|일해|재직|활동",
    ),
    head: { particles: ["으로", "로"], max: 2, bare: "no" },
    example: ["디자이너로 일해요", "job=디자이너"],
  },
  {
    lang: "ko",
    kind: "job",
    pattern: p(
      String.raw`(?:직업은|하는\s*일은|직종은|직업이|제\s*일은)\s+(?<value>.+)$`,
      "",
      "일은|직업은|직업이|직종은|하는",
    ),
    read: "copulaRest",
    example: ["직업은 회계사예요", "job=회계사"],
  },
  {
    lang: "ko",
    kind: "job",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+일(?:을)?\\s*(?:해요|합니다|하고\\s*있어요|하고\\s*있습니다|하고\\s*있어|해)(?=$|\\s|[.!~])`,
      "있습니다|있어요|하고|합니다|해&일",
    ),
    checks: ["tokenBare"],
    head: { particles: [], max: 2 },
    reject: [NOT_A_JOB_KO],
    example: ["저는 마케팅 일 해요", "job=마케팅"],
  },
  {
    lang: "ko",
    kind: "job",
    pattern: p(String.raw`(?:^|\s)(?:은퇴|퇴직)(?:했|해서|한\s*지)`, "", "은퇴|퇴직&한|해서|했"),
    value: "은퇴",
    example: ["작년에 은퇴했어요", "job=은퇴"],
  },
  {
    // "해외 영업 담당이라", "마케팅 담당이에요": the area the user is in charge of is their job.
    lang: "ko",
    kind: "job",
    pattern: rx(
      `${T}(?<value>(?:\\S+\\s+)?\\S+?)\\s*담당(?:자)?(?:이에요|예요|이라서|이라|입니다|이고요|이고|이야|야|임)(?=$|\\s|[.!~,])`,
      "담당",
    ),
    read: "charge",
    checks: ["contentKo"],
    example: ["해외 영업 담당이에요", "job=해외 영업"],
  },
  {
    // "초등학교에서 애들 가르쳐요": a school's 교사, otherwise an academy's or a studio's 강사.
    lang: "ko",
    kind: "job",
    pattern: rx(
      `${T}(?<value>\\S+)에서\\s+(?:(?!안|못)\\S+\\s+){0,2}${ADVS}가르(?:쳐|치고|칩니다|치는\\s*(?:일|중))`,
      "가르&에서",
    ),
    read: "teach",
    example: ["학원에서 수학 가르치고 있어요", "job=학원 강사"],
  },
  // ── family ──
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `(?:^|\\s)(?:제|내|우리|저희|울)\\s+(?:집\\s+)?(?<value>${REL_WORDS})(?:의|이|가|은|는|도|를|을|랑|이랑|하고|한테|에게|이름은|예요|이에요|이야|야|입니다|임)?(?=\\s|$|[.,!~ㅋㅎ])`,
      `${REL_WORDS}&내|우리|울|저희|제`,
    ),
    unless: [HEARSAY],
    map: "relationKo",
    detail: true,
    example: ["우리 남편은 요리를 잘해요", "family=남편"],
  },
  {
    // "이제 약혼녀야", "지금은 와이프예요": what the partner is now.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `(?:^|\\s)(?:이제|지금은|이젠)\\s+(?:제\\s+|내\\s+)?(?<value>약혼녀|약혼자|와이프|아내|남편|신랑|신부|예비신부|예비신랑)(?:예요|이에요|야|이야|임|입니다)`,
      "이제|이젠|지금은",
    ),
    map: "relationKo",
    detail: true,
    example: ["어제 프러포즈 성공함 💍 이제 약혼녀야", "family=약혼녀"],
    paraphrases: [["이제 와이프예요 ㅎㅎ", "family=와이프"]],
  },
  {
    // "아들 벌써 네 살이야", "딸은 이제 여섯 살": a child's age said after the relation, with
    // or without a particle.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `${T}(?<value>${REL_WORDS})(?:이|가|는|은)?\\s+(?:벌써\\s+|이제\\s+|올해\\s+|곧\\s+)?(?:\\d{1,2}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|열한|열두|열세|열네|열다섯|열여섯|열일곱|열여덟|열아홉)\\s*살`,
      "살",
    ),
    unless: [HEARSAY],
    map: "relationKo",
    detail: true,
    example: ["아들 벌써 네 살이야", "family=아들"],
    paraphrases: [["딸은 이제 여섯 살이에요", "family=딸"]],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `${T}(?<value>${REL_WORDS})(?:이|가|는|은|도)\\s*(?:(?:한|두|세|네|다섯)\\s*(?:명|마리)\\s*|하나\\s*|둘\\s*|셋\\s*|넷\\s*|\\d+\\s*(?:명|마리)\\s*)?(?:있어|있습|있음|있고|있는데|있거든|있구요)`,
      "있거든|있고|있구요|있는데|있습|있어|있음&가|는|도|은|이",
    ),
    map: "relationKo",
    detail: true,
    example: ["아들이 하나 있어요", "family=아들"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `${T}(?<value>${PET_WORDS})(?:를|을|도|는|은|랑|이랑)?\\s+(?:(?:한|두|세|네)\\s*마리\\s+|\\d+\\s*마리\\s+)?(?:키워|키우고|키웁|키움|길러|기르고|기릅|키우는\\s*중|키운\\s*지|들였|입양했|입양해\\s*왔|데려왔)`,
      "기르고|기릅|길러|데려왔|들였|입양해|입양했|키우고|키우는|키운|키움|키웁|키워",
    ),
    // A friend's or a neighbour's pet, or one only heard about, is not the user's.
    unless: [HEARSAY, OTHER_KEEPER],
    map: "relationKo",
    detail: true,
    example: ["고양이 두 마리 키워요", "family=고양이"],
    paraphrases: [
      ["저 작년에 고양이 입양했어요", "family=고양이"],
      ["친구가 고양이 입양했다는데 너무 부럽다"],
      ["옆집 사람이 강아지 키워요"],
      ["회사 동료는 앵무새 키운대요"],
    ],
  },
  {
    // "나 강아지 한 마리 키우는데 말티즈야": the connective needs the speaker in front.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `(?:^|\\s)(?:나|난|나는|내가|저|전|저는|제가|우리|저희)\\s+(?:집에서\\s+|집에\\s+)?(?<value>${PET_WORDS})(?:를|을|도|는|은)?\\s+(?:(?:한|두|세|네)\\s*마리\\s+|\\d+\\s*마리\\s+)?(?:키우는데|키우거든)`,
      "키우거든|키우는데",
    ),
    map: "relationKo",
    detail: true,
    example: ["나 강아지 한 마리 키우는데 말티즈야", "family=강아지"],
  },
  {
    // "저희 집 막내는 세 살 된 시바견이에요": a member of the household that is a pet.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `(?:^|\\s)(?:우리|저희|울)\\s*집\\s+\\S+(?:는|은)\\s+(?:\\S+\\s+){0,3}?(?<value>${PET_WORDS})(?:예요|이에요|이야|야|입니다|임)(?=$|\\s|[.!~ㅋㅎ])`,
      "집&야|예요|이에요|임|입니다",
    ),
    map: "relationKo",
    detail: true,
    example: ["저희 집 막내는 고양이예요", "family=고양이"],
  },
  {
    // Owner slang: "고양이 집사" (a cat's "butler").
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(`${T}(?<value>${PET_WORDS})\\s*집사`, "집사"),
    map: "relationKo",
    detail: true,
    example: ["저 고양이 집사예요", "family=고양이"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(`${T}냥집사`, "냥집사"),
    value: "고양이",
    map: "relationKo",
    detail: true,
    example: ["저 냥집사예요", "family=고양이"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(`${T}견주`, "견주"),
    value: "강아지",
    map: "relationKo",
    detail: true,
    example: ["저 견주예요", "family=강아지"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `${T}(?<value>${REL_WORDS})(?:\\s+(?:(?:한|두|세|네|다섯)\\s*|\\d+\\s*)(?:명|마리))?(?:이랑|랑|하고|와|과)\\s+(?:(?:단\\s*)?(?:둘이|셋이|넷이)\\s+)?(?:같이\\s+|함께\\s+)?(?:살아|살고|삽니다|지내|사는\\s*중)`,
      "사는|살고|살아|삽니다|지내&과|랑|와|하고",
    ),
    map: "relationKo",
    detail: true,
    example: ["엄마랑 같이 살아요", "family=엄마"],
  },
  {
    // "아내 이름은 지수예요", "남편 직업은 …": a member's details.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: rx(
      `${T}(?<value>${REL_WORDS})(?:의)?\\s+(?:이름|직업|나이|회사|직장|생일|취미|학교|고향)(?:은|는|이|가)\\s`,
      "고향|나이|생일|이름|직업|직장|취미|학교|회사&가|는|은|이",
    ),
    map: "relationKo",
    detail: true,
    example: ["아내 이름은 지수예요", "family=아내"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: p(
      String.raw`결혼(?:했|을\s*했|한\s*지|\s*\d+\s*년\s*차)|기혼(?:이에요|입니다|이야|임)|유부남|유부녀`,
      "",
      "결혼|기혼이야|기혼이에요|기혼임|기혼입니다|유부남|유부녀",
    ),
    value: "배우자",
    key: "spouse",
    detail: true,
    example: ["결혼한 지 3년 됐어요", "family=배우자"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: p(
      String.raw`(?:(?:한|두|세|네)\s*)?(?<value>아이|애|아들|딸)(?:\s*(?:둘|셋|하나|넷))?\s*(?:엄마|아빠)(?:예요|이에요|입니다|야|임|고요|이고요)`,
      "",
      "아빠고요|아빠야|아빠예요|아빠이고요|아빠이에요|아빠임|아빠입니다|엄마고요|엄마야|엄마예요|엄마이고요|엄마이에요|엄마임|엄마입니다",
    ),
    map: "relationKo",
    detail: true,
    example: ["저는 두 아이 엄마예요", "family=아이"],
  },
  {
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: p("워킹맘|워킹대디", "", "워킹대디|워킹맘"),
    unless: [
      p(String.raw`(?:아이|애|아들|딸)(?:\s*(?:둘|셋|하나|넷))?\s*(?:엄마|아빠)`, "", "아빠|엄마"),
    ],
    value: "아이",
    map: "relationKo",
    detail: true,
    example: ["저 워킹맘이에요", "family=아이"],
  },
  {
    // "언니가 놀러 왔어요", "치즈는 동생네서 살아요": a bare kin word opening a clause,
    // or the kin's home (…네), is the user's own (a teacher's 애들 or a 친구 is no kin word).
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: p(
      String.raw`(?<![^\s])(?<!(?:친구|동료|지인|남친|여친|애인)의?\s)(?<value>동생|여동생|남동생|언니|오빠|누나|형|엄마|아빠|어머니|아버지|부모님|할머니|할아버지|남편|아내|와이프|딸|아들)(?:(?:이|가|는|은|도)(?=\s)|네(?:서|에서|에|로|집)?(?=\s|$)|\s*(?:댁|집)(?:으로|로|에서|에|이|은|는)?(?=\s|$))`,
      "",
      "남동생|남편|누나|동생|딸|부모님|아내|아들|아버지|아빠|어머니|언니|엄마|여동생|오빠|와이프|할머니|할아버지|형",
    ),
    unless: [HEARSAY],
    map: "relationKo",
    detail: true,
    example: ["언니가 어제 집에 놀러 왔어요", "family=언니"],
    paraphrases: [
      ["치즈는 이제 동생네서 살아요", "family=동생"],
      ["엄마가 김치를 보내 주셨어요", "family=엄마"],
      ["강아지는 부모님 댁으로 보냈어", "family=부모님"],
      ["주말엔 할머니 집에서 자요", "family=할머니"],
      ["친구 부모님 댁에 인사드리러 갔어요"],
    ],
  },
  // ── preference and dislike ──
  {
    lang: "ko",
    kind: "preference",
    pattern: p(
      String.raw`(?:제가|내가|제|내|저의|나의)?\s*(?:제일|가장|젤|최고로)?\s*좋아하는\s+(?<slot>\S+?)(?:은|는|이|가)\s+(?<value>.+)$`,
      "",
      "좋아하는",
    ),
    unless: [p(String.raw`좋아하는\s+편(?:은|는|이|가)\s`, "", "편&좋아하는")],
    read: "copulaRest",
    list: "split",
    key: "favorite",
    form: "favorite",
    example: ["제가 제일 좋아하는 음식은 김치찌개예요", "preference=김치찌개"],
  },
  {
    lang: "ko",
    kind: "preference",
    pattern: p(String.raw`최애(?:\s*(?<slot>\S+?))?(?:는|은)\s+(?<value>.+)$`, "", "최애&는|은"),
    read: "copulaRest",
    key: "favorite",
    form: "favorite",
    slot: "최애",
    example: ["최애 가수는 아이유예요", "preference=아이유"],
  },
  {
    lang: "ko",
    kind: "preference",
    pattern: p(String.raw`취미(?:는|가)\s+(?<value>.+)$`, "", "취미가|취미는"),
    read: "copulaRest",
    list: "split",
    form: "hobby",
    example: ["취미는 등산이랑 독서예요", "preference=등산", "preference=독서"],
  },
  {
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}${LIKE_VERB}`,
      "사랑합|사랑해|애정해|좋아라|좋아하거든|좋아하고|좋아하구요|좋아하긴|좋아하는|좋아하죠|좋아함|좋아합|좋아해|즐겨",
    ),
    head: { particles: OBJECT, max: 2, orTopic: true },
    reject: NOT_THING,
    list: "before",
    example: ["저는 김밥이랑 순대를 좋아해요", "preference=김밥", "preference=순대"],
  },
  {
    // "필라테스에 빠졌어요": what one is into takes 에.
    lang: "ko",
    kind: "preference",
    pattern: rx(`${T}(?<value>\\S+)\\s+${ADVS}(?:빠져\\s*있|빠졌)`, "빠져|빠졌"),
    head: { particles: [...OBJECT, "에"], max: 2, orTopic: true },
    reject: NOT_THING,
    list: "before",
    example: ["요즘 필라테스에 빠졌어요", "preference=필라테스"],
  },
  {
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `(?:저는|전|나는|난)\\s+(?<value>\\S+)\\s+${ADVS}(?:좋아요|좋아(?=$|\\s|[.!~])|좋습니다|좋더라)`,
      "좋더라|좋습니다|좋아&나는|난|저는|전",
    ),
    head: { particles: ["이", "가"], max: 1, bare: "no" },
    example: ["저는 여름이 좋아요", "preference=여름"],
  },
  {
    // "딸기가 더 좋아요", "등산보다 수영이 좋아요": a comparison states a taste.
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+(?<adverbs>(?:${ADV}\\s+)*)(?:좋아요|좋아(?=$|\\s|[.!~])|좋습니다|좋더라|${ENJOYABLE})`,
      "좋더라|좋습니다|좋아|맛있|재미있|재밌|땡겨|땡기",
    ),
    checks: ["compared"],
    head: { particles: ["이", "가"], max: 1, bare: "no" },
    reject: NOT_THING,
    example: ["딸기가 더 좋아요", "preference=딸기"],
  },
  {
    // "주말마다 테니스 치는 게 낙이에요": doing X is the user's joy (a hobby).
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+(?:치는|하는|타는|보는|듣는|먹는|가는|마시는|그리는|읽는)\\s*(?:게|것이|거)\\s+(?:제\\s+|내\\s+)?(?:유일한\\s+)?(?:낙|행복|힐링|취미)(?:이에요|이야|입니다|예요|이죠|임)`,
      "낙|취미|행복|힐링",
    ),
    strip: OBJECT,
    checks: ["contentKo"],
    form: "hobby",
    example: ["주말마다 테니스 치는 게 낙이에요", "preference=테니스"],
  },
  {
    // "저 맥주파예요", "부먹파": the side the user is on (X파 "an X person").
    lang: "ko",
    kind: "preference",
    pattern: rx(`${T}(?<value>\\S{1,6})파(?:예요|이에요|야|이야|입니다|임|고요|거든요)`, "파"),
    checks: ["contentKo"],
    example: ["저 맥주파예요", "preference=맥주"],
  },
  {
    // "기타 배우고 있어요": what the speaker is learning is a hobby (a language is its own fact).
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:배우고\\s*있|배우는\\s*중|배워요|배웁니다|배우고요|배우거든)`,
      "배우|배워|배웁",
    ),
    head: { particles: ["을", "를"], max: 1 },
    checks: ["notLanguage"],
    form: "hobby",
    example: ["요즘 기타 배우고 있어요", "preference=기타"],
  },
  {
    // "차만 마셔요", "채소만 먹어요": only ever having one thing is a taste.
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+?)만\\s+${ADVS}(?:마셔요|마셔(?=$|\\s|[.!~])|마십니다|마시고|마시거든|먹어요|먹어(?=$|\\s|[.!~])|먹습니다|먹고|먹거든)`,
      "만&마셔|마시거든|마시고|마십니다|먹거든|먹고|먹습니다|먹어",
    ),
    checks: ["contentKo"],
    example: ["저는 녹차만 마셔요", "preference=녹차"],
  },
  {
    // "요즘은 디카페인으로 바꿨어": what the user has lately switched to (not a thing owned).
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+?)(?:으로|로)\\s+${ADVS}(?:바꿨|갈아탔|넘어왔|정착했)`,
      "갈아탔|넘어왔|바꿨|정착했",
    ),
    when: ["recently"],
    checks: ["contentKo", "notPossession", "notPlaceKo", "notJobKo"],
    // A way of eating switched to is a diet (the health row), not a taste.
    reject: [p(`^(?:${WAYS_OF_EATING_KO})$`, "", WAYS_OF_EATING_KO)],
    example: ["요즘은 디카페인으로 바꿨어", "preference=디카페인"],
  },
  {
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+)\\s*(?:덕후|마니아|매니아|광팬|팬|러버)(?:이에요|예요|입니다|이야|야|임|이거든요|거든요|이고요)`,
      "덕후|러버|마니아|매니아|팬&거든요|야|예요|이고요|이에요|임|입니다",
    ),
    strip: "any",
    checks: ["contentKo"],
    example: ["저 야구 덕후예요", "preference=야구"],
  },
  {
    // "고수는 비누 맛 나요": what the user finds awful to taste.
    lang: "ko",
    kind: "dislike",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+(?:(?:비누|흙|약|걸레)\\s*(?:맛|냄새)(?:이|가)?\\s*(?:나|같))`,
      "맛|냄새",
    ),
    strip: OBJECT,
    checks: ["contentKo"],
    example: ["고수는 비누 맛 나요", "dislike=고수"],
  },
  {
    lang: "ko",
    kind: "dislike",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}${DISLIKE_VERB}`,
      "극혐|맞아|못|별로|싫습니다|싫어|싫음|입에|좋아하|좋아합|좋아해|질려|질렸|질리더라|질립니다|질색|혐오해",
    ),
    head: { particles: OBJECT, max: 2, orTopic: true },
    list: "before",
    example: ["오이를 싫어해요", "dislike=오이"],
  },
  // ── allergy and health ──
  {
    lang: "ko",
    kind: "allergy",
    pattern: rx(
      `${T}(?<value>\\S+?)\\s*${ADVS}${ALLERGY}(?:가|이|도|는)?\\s*${ADVS}(?:있어|있습|있음|있고|있는|있다|있거든|있어서|있으니|있구요|심해|심하)`,
      "알러지|알레르기|알레지|알르레기|앨러지",
    ),
    checks: ["tokenNotAllergy"],
    head: { particles: ["에", "에도", "도", "에는"], max: 2 },
    list: "before",
    example: ["땅콩 알레르기가 있어요", "allergy=땅콩"],
    paraphrases: [["땅콩 알레르기가 있으니까", "allergy=땅콩"]],
  },
  {
    lang: "ko",
    kind: "health",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}못\\s*(?:먹|마셔|마시)(?:어|어요|습니다|음|는|고|겠|어서|거든|요)`,
      "마셔|마시|먹&못&거든|겠|고|는|습니다|어|요|음",
    ),
    head: { particles: OBJECT, max: 2 },
    accept: DRINK,
    form: "avoid",
    detail: true,
    also: [
      {
        kind: "allergy",
        head: { particles: OBJECT, max: 2 },
        reject: DRINK,
        list: "before",
        form: "cant-eat",
      },
    ],
    example: ["저는 새우를 못 먹어요", "allergy=새우"],
  },
  {
    // "저 땅콩 먹으면 큰일 나요": what eating it does to the user says they cannot eat it.
    lang: "ko",
    kind: "allergy",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:먹|마시)(?:으면|면)\\s+${KO_HARM_AFTER}`,
      "마시면|마시으면|먹면|먹으면",
    ),
    head: { particles: OBJECT, max: 2 },
    reject: DRINK,
    form: "cant-eat",
    example: ["저 땅콩 먹으면 큰일 나요", "allergy=땅콩"],
  },
  {
    // "허리 디스크 때문에 병원 다니고 있어요": what the user is being treated for.
    lang: "ko",
    kind: "health",
    pattern: rx(
      `${T}(?<value>(?:\\S+\\s+)?\\S+?)\\s*(?:때문에|땜에|치료하러|치료\\s*때문에)\\s+(?:\\S+\\s+)?(?:병원|한의원|치과|정형외과|재활|물리치료|통원\\s*치료)(?:에|를|을)?\\s*(?:다니|다녀|받|하러)`,
      "때문에|땜에|치료하러&다녀|다니|받|하러",
    ),
    read: "words",
    checks: ["contentKo"],
    reject: [
      p("^(?:회사|직장|일|업무|학교|애들|아이|엄마|아빠)$", "", "교|들|마|무|빠|사|아이|일|장"),
    ],
    detail: true,
    example: ["허리 디스크 때문에 병원 다니고 있어요", "health=허리 디스크"],
  },
  {
    lang: "ko",
    kind: "health",
    pattern: rx(
      `(?<value>${CONDITIONS_KO})(?:이|가|도|은|는)?\\s*${ADVS}(?:있어|있습|있음|있고|있는데|있어서|있거든|생겼|심해|심하|앓고|진단|약\\s*(?:을\\s*)?(?:먹|복용)|때문에|땜에|(?:으로|로)\\s*(?:고생|힘들|시달))`,
      "ADHD|갑상선|거북목|고관절|고지혈증|고혈압|공황|과민성 대장|과민성대장증후군|관절염|녹내장|당뇨|대상포진|두통|디스크|백내장|부정맥|불면증|비염|빈혈|생리통|수면무호흡|식도염|심장병|아토피|안구건조증|암|우울증|위염|유당불내증|이명|장염|저혈압|지방간|척추측만증|천식|탈모|통풍",
    ),
    detail: true,
    example: ["천식이 있어요", "health=천식"],
  },
  {
    lang: "ko",
    kind: "health",
    pattern: rx(
      `(?<value>${DIET_KO})\\s*(?:이에요|예요|입니다|이야|야|임|이고|이라서|라서|인데|이거든요|거든요|이에용|중이에요|중이야|중|해요|하고\\s*있어요|이라|이어서)`,
      "금연 중|금연중|금주 중|금주중|다이어트 중|다이어트중|당뇨 환자|락토|비건|임산부|임신 중|임신중|채식주의|페스코|할랄",
    ),
    detail: true,
    map: "diet",
    example: ["저는 비건이에요", "health=비건"],
  },
  {
    // "요즘은 완전 비건으로 바꿨어요", "페스코로 바꿨어요": the way of eating switched to.
    lang: "ko",
    kind: "health",
    pattern: rx(
      `(?<value>${WAYS_OF_EATING_KO})(?:으로|로)\\s*(?:\\S+\\s+)?(?:바꿨|바꿈|바꾸|전향|넘어갔|넘어왔|시작)`,
      `넘어갔|넘어왔|바꾸|바꿈|바꿨|시작|전향&${WAYS_OF_EATING_KO}`,
    ),
    detail: true,
    map: "diet",
    example: ["요즘은 완전 비건으로 바꿨어요", "health=비건"],
    paraphrases: [["저 요즘 생선은 먹어요. 페스코로 바꿨어요", "health=페스코"]],
  },
  {
    // "요즘 오이가 좋아졌어", "고수도 좋아졌어요": a taste that came.
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>[가-힣A-Za-z]{1,10}?)(?:이|가|도|는|은)\\s*(?:점점\\s*|갑자기\\s*|이제\\s*|좀\\s*)?좋아졌`,
      "좋아졌",
    ),
    checks: ["contentKo"],
    example: ["신기하게 요즘 오이가 좋아졌어", "preference=오이"],
    paraphrases: [["고수도 이제 좋아졌어요", "preference=고수"], ["날씨가 좋아졌어요"]],
  },
  {
    lang: "ko",
    kind: "health",
    pattern: rx(
      `${T}(?<value>술|담배|고기|돼지고기|소고기|밀가루|설탕|카페인|유제품|해산물|육류)(?:을|를|은|는|도)?\\s+${ADVS}(?:안\\s*(?:먹|마셔|마시|피워|펴|해)|끊었|끊고|줄이고|피하고)`,
      "고기|담배|밀가루|설탕|술|유제품|육류|카페인|해산물",
    ),
    form: "avoid",
    detail: true,
    example: ["술은 끊었어요", "health=술"],
  },
  {
    lang: "ko",
    kind: "health",
    pattern: p(
      String.raw`(?<value>허리|무릎|위장|위|장|간|눈|어깨|손목|발목|심장|목|속)(?:가|이)\s+(?:좀\s+|많이\s+)?(?:안\s*좋|약해|약한\s*편)`,
      "",
      "안|약한|약해&가|이",
    ),
    detail: true,
    example: ["허리가 안 좋아요", "health=허리"],
  },
  {
    // "건강검진에서 빈혈 나왔어요", "검사에서 간 수치가 높게 나왔어요": what a check-up found.
    lang: "ko",
    kind: "health",
    pattern: p(
      String.raw`(?:건강검진|검진|피검사|혈액검사|검사)(?:에서|결과|결과에서)?\s+(?<value>[가-힣A-Za-z]+(?:\s+(?!(?:좀|많이|높게|낮게|조금|약간|심하게|안)(?:\s|$))[가-힣A-Za-z]+)?)\s+(?:(?:좀|많이|높게|낮게|조금|약간|심하게|안\s*좋게)\s+)*(?:나와|나왔|나옴|나온|떴)`,
      "",
      "검사|검진&나와|나왔|나옴|나온|떴",
    ),
    strip: ["이", "가", "도"],
    checks: ["contentKo"],
    reject: [p("^(?:결과|이상|문제|아무것도|별|뭐)", "", "결과|문제|별|뭐|아무것도|이상")],
    detail: true,
    example: ["건강검진에서 빈혈 나와서 의사 선생님이 고기 좀 먹으래요", "health=빈혈"],
    paraphrases: [
      ["건강검진에서 간 수치가 높게 나왔어요", "health=간 수치"],
      ["피검사에서 콜레스테롤이 좀 높게 나왔어요", "health=콜레스테롤"],
      ["건강검진에서 아무것도 안 나왔어요"],
    ],
  },
  {
    // "발목 인대가 늘어났어요", "손목을 삐었어요": an injury is a health fact while it heals.
    lang: "ko",
    kind: "health",
    pattern: p(
      String.raw`(?<![^\s])(?<value>(?:허리|무릎|발목|손목|어깨|목|팔|다리|발|손|허벅지|종아리|아킬레스건|갈비뼈|손가락|발가락)(?:\s*(?:인대|뼈|근육|힘줄|연골))?)(?:가|이|를|을|도)?\s+(?:좀\s+|살짝\s+|심하게\s+|크게\s+)?(?:늘어나|늘어났|다쳤|다쳐|삐었|삐어|삐끗|접질|부러졌|부러져|골절|나갔|끊어졌|파열)`,
      "",
      "골절|끊어졌|나갔|늘어나|늘어났|다쳐|다쳤|부러져|부러졌|삐끗|삐어|삐었|접질|파열",
    ),
    detail: true,
    example: ["발목 인대가 늘어나서 마라톤은 안 나가기로 했어요", "health=발목 인대"],
    paraphrases: [
      ["축구하다가 손목을 삐었어요", "health=손목"],
      ["무릎 연골이 좀 다쳤어요", "health=무릎 연골"],
    ],
  },
  // ── plan (or, said as a habit, a hobby) ──
  {
    lang: "ko",
    kind: "plan",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:(?:여행|출장|놀러|캠핑|휴가|유학|답사|견학|신혼여행)\\s*(?:을|를)?\\s*)?${GO_VERB}`,
      "가|가는|갈|감|갑니다|갑니당|계획|떠나|떠날|떠납니다|예정",
    ),
    when: [FUTURE, "notHabitual"],
    checks: ["tokenNotTime"],
    head: { particles: ["에", "로", "으로", "을", "를"], max: 1 },
    reject: NOT_A_TRIP,
    detail: true,
    example: ["다음 주에 제주도 가요", "plan=제주도"],
  },
  {
    // "주말마다 클라이밍 하러 가요": a habit; what the speaker goes to do is a hobby.
    lang: "ko",
    kind: "preference",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:(?:여행|출장|놀러|캠핑|휴가|유학|답사|견학|신혼여행)\\s*(?:을|를)?\\s*)?${GO_VERB}`,
      "가|가는|갈|감|갑니다|갑니당|계획|떠나|떠날|떠납니다|예정",
    ),
    when: [FUTURE, "habitual"],
    checks: ["tokenNotTime"],
    head: { particles: ["에", "로", "으로", "을", "를"], max: 1 },
    reject: NOT_A_TRIP,
    map: "activity",
    form: "hobby",
    example: ["주말마다 볼링 치러 가기로 했어요", "preference=볼링"],
  },
  {
    lang: "ko",
    kind: "plan",
    pattern: rx(
      `${T}(?<prefix>\\S*?)(?<value>${EVENTS_KO})(?:이|가|을|를|은|는|도)?\\s*${ADVS}(?:있어|있습|있음|있고|있는데|있거든|잡혔|잡혀|예정|해요|합니다|해(?=$|\\s|[.!~])|할\\s*거|하기로|하려고|보러|봐요|봅니다|보기로|가요|가(?=$|\\s|[.!~])|갑니다|가기로|갈\\s*거|받아야|받으러|받기로|받아요|봐야|이에요|예요|이야|입니다|이라|라서|이래요|래요)`,
      "건강검진|검사|결혼|경기|공연|대회|데이트|돌잔치|동창회|등산|레슨|마라톤|면접|모임|미팅|발표|비행기|상견례|세미나|소개팅|송별회|수술|수업|시합|시험|야유회|약속|여행|예약|오디션|워크숍|이사|입학식|전시회|졸업식|진료|집들이|축제|출장|캠핑|컨퍼런스|콘서트|파티|페스티벌|회식|회의|휴가",
    ),
    when: [FUTURE],
    read: "event",
    detail: true,
    example: ["다음 주에 면접이 있어요", "plan=면접"],
  },
  {
    // "가을에 10km 대회 나가려고요": a competition the user means to enter.
    lang: "ko",
    kind: "plan",
    pattern: rx(
      `${T}(?<prefix>\\S*?)(?<value>대회|마라톤|시합|경기|오디션|콩쿠르|공모전)(?:에|을|를|도)?\\s+(?:나가|출전하|참가하|참여하)(?:려고|기로|려구|게\\s*됐)`,
      "경기|공모전|대회|마라톤|시합|오디션|콩쿠르",
    ),
    read: "event",
    detail: true,
    example: ["대신 가을에 10km 대회 나가려고요", "plan=10km 대회"],
    paraphrases: [
      ["내년 봄에 하프 마라톤 출전하기로 했어요", "plan=하프 마라톤"],
      ["마라톤은 안 나가기로 했어요"],
    ],
  },
  {
    // "대신 요가 시작했어요", "대신 요즘은 탄산수 마셔요": what replaces a taste or a hobby; the
    // clause may end at a connective ("대신 탄산수에 레몬 넣어서 | 마셔요" is split there).
    lang: "ko",
    kind: "preference",
    pattern: p(
      String.raw`^대신(?:에)?\s+(?:(?:요즘|요새|이제|지금|요즘엔|요샌)(?:은|는)?\s+)?(?<value>[가-힣A-Za-z]+?)(?:을|를|에|만|이랑|하고)?\s+(?:\S+\s+){0,3}?(?:마셔|마시|마십|먹어|먹고|먹습|즐겨|시작했|시작해|시작한|배우|하고\s*있|\S+(?:어서|아서|여서)$)`,
      "",
      "마셔|마시|마십|먹고|먹습|먹어|배우|시작한|시작해|시작했|아서|어서|여서|즐겨|하고&대신",
    ),
    checks: ["contentKo", "notPlaceKo", "notJobKo"],
    reject: [
      p(
        "^(?:일|공부|회사|학교|운동|다른|그냥|뭐|이거|그거|집|.+에서)$",
        "",
        "거|공부|그냥|다른|뭐|에서|운동|일|집|학교|회사",
      ),
    ],
    example: ["대신 요가 시작했는데 생각보다 재밌어요", "preference=요가"],
    paraphrases: [
      ["대신 요즘은 탄산수에 레몬 넣어서 마셔요", "preference=탄산수"],
      ["대신 보리차를 마시고 있어요", "preference=보리차"],
      ["대신 집에서 쉬어서"],
    ],
  },
  // ── possession ──
  {
    lang: "ko",
    kind: "possession",
    pattern: p(
      `(?:^|\\s)(?:제|내|우리|저희)?\\s*${POSSESSION_TOPIC}(?:는|은|이|가)\\s+(?<value>.+)$`,
      "",
      "노트북|시계|오토바이|자전거|차|카메라|컴퓨터|태블릿|폰&가|는|은|이",
    ),
    read: "copulaRest",
    map: "possession",
    example: ["제 차는 아반떼예요", "possession=아반떼"],
  },
  {
    lang: "ko",
    kind: "possession",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}${POSSESSION_VERBS}`,
      "가지고|갖고|구매했|몰고|몰아요|뽑았|사용|샀다|샀습니다|샀어|샀음|써|쓰고|씀|씁니다|있습니다|있어|장만했|타|탐|탑니다",
    ),
    head: { particles: ["을", "를", "이", "가", "도"], max: 2, bare: "notHave" },
    map: "possessionKo",
    example: ["아이폰 써요", "possession=아이폰"],
  },
  {
    // "아이폰 15로 바꿨어요", "전기차로 갈아탔어요": what the speaker switched to is theirs now.
    lang: "ko",
    kind: "possession",
    pattern: rx(
      `${T}(?<value>\\S+?(?:\\s+\\d+)?)(?:으로|로)\\s+${ADVS}(?:바꿨|바꿔서|갈아탔|교체했)`,
      "갈아탔|교체했|바꿔서|바꿨",
    ),
    map: "possessionKo",
    example: ["아이폰 15로 바꿨어요", "possession=아이폰 15"],
  },
  // ── other: age, birthday, nationality, MBTI, major ──
  {
    lang: "ko",
    kind: "other",
    pattern: AGE,
    checks: ["ageKo"],
    key: "age",
    slot: "age",
    example: ["서른 살이에요", "other=서른"],
  },
  {
    // "스물아홉이에요", "올해 서른 됐어요": an age in native numerals without 살 (열 alone is a fever).
    lang: "ko",
    kind: "other",
    pattern: p(
      `${T}(?<value>(?:스물|서른|마흔|쉰|예순|일흔|여든|아흔)(?:하나|한|둘|두|셋|세|넷|네|다섯|여섯|일곱|여덟|아홉)?)(?:(?:이에요|예요|이야|야|입니다|임|이고요)(?=$|\\s|[.!~,])|\\s*(?:이\\s*)?(?:됐|돼요|됩니다))`,
      "",
      "마흔|서른|쉰|스물|아흔|여든|예순|일흔",
    ),
    unless: [AGE],
    key: "age",
    slot: "age",
    example: ["스물아홉이에요", "other=스물아홉"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: p(String.raw`나이(?:는|가)\s+(?<value>.+)$`, "", "나이가|나이는"),
    read: "copulaRest",
    key: "age",
    slot: "age",
    example: ["나이는 서른둘이에요", "other=서른둘"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: p(String.raw`생일(?:은|이)\s+(?<value>.+)$`, "", "생일은|생일이"),
    read: "copulaRest",
    key: "birthday",
    slot: "birthday",
    example: ["생일은 5월 3일이에요", "other=5월 3일"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: p(
      String.raw`(?:^|\s)(?<value>한국인|한국\s*사람|미국인|일본인|중국인|캐나다인|영국인)(?:이에요|입니다|이야|임|이고요)`,
      "",
      "미국인|영국인|일본인|중국인|캐나다인|한국&이고요|이야|이에요|임|입니다",
    ),
    map: "nationalityKo",
    key: "nationality",
    slot: "nationality",
    example: ["저는 일본인이에요", "other=일본인"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: p(
      String.raw`(?:^|[\s(])(?<value>[EI][NS][TF][JP])(?:-[AT])?(?=$|[\s)이예에라]|[.!~])`,
      "",
      "ENFJ|ENFP|ENTJ|ENTP|ESFJ|ESFP|ESTJ|ESTP|INFJ|INFP|INTJ|INTP|ISFJ|ISFP|ISTJ|ISTP",
    ),
    when: [
      p(
        "MBTI|엠비티아이|이에요|예요|입니다|이야|임|라서",
        "",
        "MBTI|라서|엠비티아이|예요|이야|이에요|임|입니다",
      ),
    ],
    key: "mbti",
    slot: "mbti",
    example: ["저 INFP예요", "other=INFP"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: MAJOR_TOPIC,
    read: "copulaOrWord",
    key: "major",
    slot: "major",
    example: ["전공은 경영학이에요", "other=경영학"],
  },
  {
    lang: "ko",
    kind: "other",
    pattern: p(
      `${T}(?<value>\\S+)\\s*전공(?:이에요|입니다|이야|임|하고\\s*있|해요|이고|했)`,
      "",
      "전공&이고|이야|이에요|임|입니다|하고|해요|했",
    ),
    unless: [MAJOR_TOPIC],
    read: "copulaOrWord",
    key: "major",
    slot: "major",
    example: ["컴퓨터공학 전공이에요", "other=컴퓨터공학"],
  },
  // ── ways of saying a partner or a home in one phrase ──
  {
    // "남자친구랑 사귄 지 3년 됐어요": the partner the user is dating.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: p(
      String.raw`(?<value>남자친구|여자친구|남친|여친|애인)(?:랑|이랑|하고|와|과)\s*(?:사귄|사귀|연애)`,
      "",
      "사귀|사귄|연애",
    ),
    unless: [ABOUT_OTHERS],
    map: "relationKo",
    detail: true,
    example: ["남자친구랑 사귄 지 3년 됐어요", "family=남자친구"],
  },
  {
    // "이제 준호를 남편이라고 부르는 게 어색해요": a named member called by a new relation.
    lang: "ko",
    kind: "family",
    subject: "any",
    pattern: p(
      String.raw`(?<name>[가-힣]{1,4})(?:을|를)\s*(?<value>남편|아내|와이프|신랑|남자친구|여자친구)(?:이라고|라고)\s*(?:부르|불러)`,
      "",
      "라고&부르|불러",
    ),
    unless: [ABOUT_OTHERS],
    map: "relationKo",
    named: "name",
    detail: true,
    example: ["이제 준호를 남편이라고 부르는 게 어색해요", "family=남편"],
  },
  {
    // "서울 관악구에 원룸 구했어요", "신혼집은 대전 유성구에 구했어요": a home found.
    lang: "ko",
    kind: "residence",
    subject: "any",
    pattern: p(
      String.raw`(?:^|\s)(?:(?:신혼집|새\s*집|집|원룸|방)(?:은|을|도)?\s+)?(?<value>[가-힣]{2,8}(?:\s[가-힣]{2,8})?)에\s*(?:(?:원룸|투룸|집|방|전셋집|월셋집|오피스텔)(?:을|를)?\s*)?(?:구했|얻었|마련했)`,
      "",
      "구했|마련했|얻었",
    ),
    unless: [ABOUT_OTHERS],
    example: ["서울 관악구에 원룸 구했어요", "residence=서울 관악구"],
  },
  // ── retractions: what a clause takes back ──
  {
    lang: "ko",
    kind: "residence",
    retract: true,
    id: "residence",
    pattern: rx(
      `${T}(?<value>\\S+)\\s+(?:더\\s*이상\\s+|이제\\s+)?(?:안\\s*(?:살아|살고|삽니다)|살지\\s*않)`,
      "살고|살아|살지|삽니다",
    ),
    read: "stem",
    strip: ["에", "에서"],
    checks: ["contentKo"],
    example: ["이제 서울에 안 살아요", "-residence=서울"],
  },
  {
    lang: "ko",
    kind: "workplace",
    retract: true,
    id: "workplace",
    pattern: p(
      String.raw`(?:회사|직장)(?:를|을|는|은)?\s*(?:그만뒀|그만두었|관뒀|퇴사했|나왔)|퇴사(?:했|를\s*했|함)|백수가\s*됐`,
      "",
      "관뒀|그만두었|그만뒀|나왔|백수가|퇴사",
    ),
    value: "",
    example: ["회사 그만뒀어요", "-workplace"],
  },
  {
    lang: "ko",
    kind: "possession",
    retract: true,
    pattern: rx(
      `${T}(?<value>\\S+)\\s+${ADVS}(?:팔았|처분했|폐차했|없어졌|잃어버렸)`,
      "없어졌|잃어버렸|처분했|팔았|폐차했",
    ),
    strip: ["을", "를", "는", "은", "도"],
    checks: ["contentKo"],
    map: "possessionSlot",
    example: ["차를 팔았어요", "-possession:car"],
  },
  {
    lang: "ko",
    kind: "plan",
    retract: true,
    pattern: rx(
      `${T}(?<value>\\S+)\\s+(?:(?:여행|출장|약속|면접|일정|계획)(?:이|은|는)?\\s*)?(?:취소|연기|무산)`,
      "무산|연기|취소",
    ),
    strip: ["이", "가", "은", "는", "을", "를"],
    checks: ["contentKo"],
    example: ["제주도 여행 취소됐어요", "-plan=제주도"],
  },
];
