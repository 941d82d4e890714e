/**
 * Korean rules for the user's life (extract-ko.ts): family and pets, likes and dislikes,
 * allergies and health.
 */

import { KO_HARM_AFTER } from "./clauses.ts";
import {
  ADV,
  ADVS,
  copulaRest,
  type Found,
  headBefore,
  isJobKo,
  listBefore,
  PET_WORDS,
  REL_WORDS,
  rx,
  SPEAKER_WORDS_KO,
  splitList,
  T,
} from "./extract-ko-shared.ts";
import {
  isContentWord,
  isPlaceKo,
  STOP_KO,
  type Subject,
  splitParticle,
  stripParticle,
  tokensOf,
} from "./korean.ts";
import { languageCode } from "./languages.ts";
import { CONDITIONS_KO, DIET_KO, possessionKind, RELATIONS_KO } from "./lexicon.ts";
import { pattern } from "./regex.ts";

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
  `(?:^|\\s)(?:제|내|우리|저희|울)\\s+(?:집\\s+)?(${REL_WORDS})(?:의|이|가|은|는|도|를|을|랑|이랑|하고|한테|에게|이름은|예요|이에요|이야|야|입니다|임)?(?=\\s|$|[.,!~ㅋㅎ])`,
  `${REL_WORDS}&내|우리|울|저희|제`,
);
const FAMILY_RE3 = rx(
  `${T}(${REL_WORDS})(?:이|가|는|은|도)\\s*(?:(?:한|두|세|네|다섯)\\s*(?:명|마리)\\s*|하나\\s*|둘\\s*|셋\\s*|넷\\s*|\\d+\\s*(?:명|마리)\\s*)?(?:있어|있습|있음|있고|있는데|있거든|있구요)`,
  "있거든|있고|있구요|있는데|있습|있어|있음&가|는|도|은|이",
);
const FAMILY_RE4 = rx(
  `${T}(${PET_WORDS})(?:를|을|도|는|은|랑|이랑)?\\s+(?:(?:한|두|세|네)\\s*마리\\s+|\\d+\\s*마리\\s+)?(?:키워|키우고|키웁|키움|길러|기르고|기릅|키우는\\s*중|키운\\s*지|들였|입양했|입양해\\s*왔|데려왔)`,
  "기르고|기릅|길러|데려왔|들였|입양해|입양했|키우고|키우는|키운|키움|키웁|키워",
);
/**
 * "나 강아지 한 마리 키우는데 말티즈야": the connective 키우는데/키우거든 also reads "in raising
 * one" ("강아지 키우는데 비용 많이 들어요?"), so it needs the speaker in front.
 */
const FAMILY_RE7 = rx(
  `(?:^|\\s)(?:나|난|나는|내가|저|전|저는|제가|우리|저희)\\s+(?:집에서\\s+|집에\\s+)?(${PET_WORDS})(?:를|을|도|는|은)?\\s+(?:(?:한|두|세|네)\\s*마리\\s+|\\d+\\s*마리\\s+)?(?:키우는데|키우거든)`,
  "키우거든|키우는데",
);
/** "저희 집 막내는 세 살 된 시바견이에요": a member of the household that is a pet. */
const FAMILY_RE8 = rx(
  `(?:^|\\s)(?:우리|저희|울)\\s*집\\s+\\S+(?:는|은)\\s+(?:\\S+\\s+){0,3}?(${PET_WORDS})(?:예요|이에요|이야|야|입니다|임)(?=$|\\s|[.!~ㅋㅎ])`,
  "집&야|예요|이에요|임|입니다",
);
/** Owner slang: "고양이 집사" / "냥집사" (a cat's "butler"), "견주" (a dog's owner). */
const FAMILY_RE9 = rx(`${T}(?:(${PET_WORDS})\\s*집사|(냥)집사|견(주))`, "견주|집사");
const OWNER_SLANG: Readonly<Record<string, string>> = { 냥: "고양이", 주: "강아지" };

const FAMILY_RE5 = rx(
  `${T}(${REL_WORDS})(?:\\s+(?:(?:한|두|세|네|다섯)\\s*|\\d+\\s*)(?:명|마리))?(?:이랑|랑|하고|와|과)\\s+(?:(?:단\\s*)?(?:둘이|셋이|넷이)\\s+)?(?:같이\\s+|함께\\s+)?(?:살아|살고|삽니다|지내|사는\\s*중)`,
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

export function family(text: string, subject: Subject): Found {
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
  for (const m of FAMILY_RE7.all(text)) {
    add(m[1] ?? "");
  }
  for (const m of FAMILY_RE8.all(text)) {
    add(m[1] ?? "");
  }
  for (const m of FAMILY_RE9.all(text)) {
    add(m[1] ?? OWNER_SLANG[m[2] ?? m[3] ?? ""] ?? "");
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
const LIKES_INTO = pattern("빠져|빠졌", "", "빠져|빠졌");
/** Reasons to visit a clinic that are no ailment of the user ("회사 때문에 병원 다녀요"). */
const NOT_AILMENTS: ReadonlySet<string> = new Set([
  "회사",
  "직장",
  "일",
  "업무",
  "학교",
  "애들",
  "아이",
  "엄마",
  "아빠",
]);
const SPEAKER: ReadonlySet<string> = new Set([...SPEAKER_WORDS_KO, "요즘", "요새", ""]);

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

/** "주말마다 테니스 치는 게 낙이에요": doing X is the user's joy (a hobby). */
const LIKES_JOY = rx(
  `${T}(\\S+)\\s+(?:치는|하는|타는|보는|듣는|먹는|가는|마시는|그리는|읽는)\\s*(?:게|것이|거)\\s+(?:제\\s+|내\\s+)?(?:유일한\\s+)?(?:낙|행복|힐링|취미)(?:이에요|이야|입니다|예요|이죠|임)`,
  "낙|취미|행복|힐링",
);
/** "저 맥주파예요", "부먹파": the side the user is on (X파 "an X person"). */
const LIKES_SIDE = rx(`${T}(\\S{1,6})파(?:예요|이에요|야|이야|입니다|임|고요|거든요)`, "파");
/** "고수는 비누 맛 나요", "오이는 걸레 냄새 같아요": what the user finds awful to taste. */
const TASTES_AWFUL_KO = rx(
  `${T}(\\S+)\\s+(?:(?:비누|흙|약|걸레)\\s*(?:맛|냄새)(?:이|가)?\\s*(?:나|같))`,
  "맛|냄새",
);
const LIKES_RE5 = pattern(
  String.raw`(?:제가|내가|제|내|저의|나의)?\s*(?:제일|가장|젤|최고로)?\s*좋아하는\s+(\S+?)(?:은|는|이|가)\s+(.+)$`,
  "",
  "좋아하는",
);
const LIKES_RE6 = pattern(String.raw`최애(?:\s*(\S+?))?(?:는|은)\s+(.+)$`, "", "최애&는|은");
const LIKES_RE7 = pattern(String.raw`취미(?:는|가)\s+(.+)$`, "", "취미가|취미는");
const LIKES_RE8 = pattern("^(?:안|못)$", "", "못|안");
/** Fun or tasty in a comparison ("다큐멘터리가 더 재밌더라고요", "라떼가 더 맛있어요"): a taste too. */
const ENJOYABLE =
  "(?:(?:재밌|재미있|맛있)(?:어요|어(?=$|\\s|[.!~])|습니다|더라|던데)|땡기(?:더라|던데|네요|네)|땡겨요|땡겨(?=$|\\s|[.!~]))";
/**
 * "딸기가 더 좋아요", "등산보다 수영이 좋아요": with the speaker dropped, "X이/가 좋아요" is
 * often about the weather or a plan ("날씨가 좋아요"), but a comparison (더, 제일, 가장, 젤,
 * or "Y보다" before X) states a taste. The comparison is checked on the tokens, not here.
 */
const LIKES_RE9 = rx(
  `${T}(\\S+)\\s+((?:${ADV}\\s+)*)(?:좋아요|좋아(?=$|\\s|[.!~])|좋습니다|좋더라|${ENJOYABLE})`,
  "좋더라|좋습니다|좋아|맛있|재미있|재밌|땡겨|땡기",
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
 * "요즘은 디카페인으로 바꿨어", "이제 두유로 갈아탔어요": what the user has lately switched to is
 * their taste now (a thing they own is a possession, extract-ko-plans.ts; the new value replaces
 * the preference stated before, corrections.ts). Without a when-word (요즘, 이제 …) a switch says
 * too little ("번호를 바꿨어").
 */
const LIKES_SWITCH = rx(
  `${T}(\\S+?)(?:으로|로)\\s+${ADVS}(?:바꿨|갈아탔|넘어왔|정착했)`,
  "갈아탔|넘어왔|바꿨|정착했",
);
const SWITCH_WHEN: ReadonlySet<string> = new Set([
  "요즘",
  "요즘은",
  "요즘엔",
  "요새",
  "요샌",
  "이제",
  "이제는",
  "이젠",
  "최근에",
  "얼마",
]);

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

export function likes(text: string, subject: Subject): Found {
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
    // "필라테스에 빠졌어요": what one is into takes 에.
    const into = LIKES_INTO.test(m[0]);
    const head =
      headBefore(text, m.index ?? 0, m[1] ?? "", into ? [...OBJECT, "에"] : OBJECT, 2) ??
      reasonTopic(text, m[1]);
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
  for (const m of LIKES_JOY.all(text)) {
    const value = stripParticle(m[1] ?? "", OBJECT);
    if (isContentWord(value))
      out.push({ category: "preference", value, lang: "ko", form: "hobby" });
  }
  for (const m of LIKES_SIDE.all(text)) {
    const value = m[1] ?? "";
    if (isContentWord(value)) out.push({ category: "preference", value, lang: "ko" });
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
  if (tokensOf(text).some((token) => SWITCH_WHEN.has(token))) {
    for (const m of LIKES_SWITCH.all(text)) {
      const value = m[1] ?? "";
      if (!isContentWord(value) || possessionKind(value) !== undefined) continue;
      if (isPlaceKo(value) || isJobKo(value)) continue;
      out.push({ category: "preference", value, lang: "ko" });
    }
  }
  for (const m of LIKES_RE3.all(text)) {
    const value = stripParticle(m[1] ?? "");
    if (isContentWord(value)) out.push({ category: "preference", value, lang: "ko" });
  }
  for (const m of TASTES_AWFUL_KO.all(text)) {
    const value = stripParticle(m[1] ?? "", OBJECT);
    if (isContentWord(value)) out.push({ category: "dislike", value, lang: "ko" });
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
/**
 * What eating it does to the user says they cannot eat it: "저 땅콩 먹으면 큰일 나요",
 * "우유 마시면 배탈 나요" (the conditional is kept whole by clauses.ts KO_HARM).
 */
const HEALTH_HARM = rx(
  `${T}(\\S+)\\s+${ADVS}(?:먹|마시)(?:으면|면)\\s+${KO_HARM_AFTER}`,
  "마시면|마시으면|먹면|먹으면",
);
/**
 * "허리 디스크 때문에 병원 다니고 있어요": what the user is being treated for. A known condition
 * is one on its own with 때문에 or (으)로 고생 ("불면증 때문에 잠을 못 자요", HEALTH_RE4).
 */
const HEALTH_TREATED = rx(
  `${T}((?:\\S+\\s+)?\\S+?)\\s*(?:때문에|땜에|치료하러|치료\\s*때문에)\\s+(?:\\S+\\s+)?(?:병원|한의원|치과|정형외과|재활|물리치료|통원\\s*치료)(?:에|를|을)?\\s*(?:다니|다녀|받|하러)`,
  "때문에|땜에|치료하러&다녀|다니|받|하러",
);
const HEALTH_RE4 = rx(
  `(${CONDITIONS_KO})(?:이|가|도|은|는)?\\s*${ADVS}(?:있어|있습|있음|있고|있는데|있어서|있거든|생겼|심해|심하|앓고|진단|약\\s*(?:을\\s*)?(?:먹|복용)|때문에|땜에|(?:으로|로)\\s*(?:고생|힘들|시달))`,
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

export function health(text: string, subject: Subject): Found {
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
  for (const m of HEALTH_HARM.all(text)) {
    const head = headBefore(text, m.index ?? 0, m[1] ?? "", OBJECT, 2);
    if (head === undefined || HEALTH_RE7.test(head.value)) continue;
    out.push({ category: "allergy", value: head.value, lang: "ko", form: "cant-eat" });
  }
  for (const m of HEALTH_TREATED.all(text)) {
    const words = tokensOf(m[1] ?? "").filter((word) => !STOP_KO.has(word) && !SPEAKER.has(word));
    const value = words.join(" ");
    if (words.length > 0 && isContentWord(value) && !NOT_AILMENTS.has(value)) {
      out.push({ category: "health", value, lang: "ko", detail: text });
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
