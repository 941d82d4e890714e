/**
 * Retraction cues (R8.3): an utterance that takes a single-valued fact back without giving a
 * new value ("I left my job", "그만뒀어요", "이사 갔어요", "I don't work there anymore").
 * The cues are one small table, Korean and English; each row names the slots (fact ids) it
 * retires. A row may also need its object to name the stored value ("I left the clinic"
 * retires the workplace only when the stored workplace is a clinic), so an everyday "I left
 * the office early" takes nothing back.
 *
 * A cue retires; it never adds. A new value in the same utterance ("I moved to Busan") is
 * still stored by the extraction rules after the old one was retired.
 */
import { stemmer } from "stemmer";
import { MOMENT_EN as MOMENT_EN_SOURCE, WAYS_OF_EATING_EN, WAYS_OF_EATING_KO } from "./lexicon.ts";
import { PARTNER_RELATIONS, PET_MEMBER_RELATIONS } from "./slots.ts";
import { type Fact, valueKey } from "./types.ts";

/** The job slots: the occupation, the workplace and its location. */
const WORK = ["job", "workplace", "workplace:location"] as const;
const HOME = ["residence"] as const;

/**
 * Leaving for a moment is not leaving ("I left Google early today", "we left Boston at 6am",
 * "오늘 삼성전자 나와서 점심 먹었어요").
 */
const MOMENT_EN = new RegExp(MOMENT_EN_SOURCE);
const MOMENT_KO = /오늘|잠깐|점심|저녁|퇴근|일찍|산책|커피|회식|야근|밥\s/;
/** Either, for the rows whose verbs can mean a moment or a feeling as well as a change. */
const either = (a: RegExp, b: RegExp): RegExp => new RegExp(`${a.source}|${b.source}`);

export interface RetractionCue {
  readonly lang: "ko" | "en";
  /** Lower-case words one of which the utterance must contain; a cheap filter before the pattern. */
  readonly need: readonly string[];
  readonly pattern: RegExp;
  /** The fact ids it retires. */
  readonly slots: readonly string[];
  /**
   * The pattern's first group must name the stored value of this slot (loosely, `sameValue`);
   * without it the cue retires unconditionally.
   */
  readonly object?: string;
  /** A message this matches is not a change ("I left work early today"). */
  readonly unless?: RegExp;
}

/** The cue table. Patterns are tested on the lower-cased utterance. */
export const RETRACTION_CUES: readonly RetractionCue[] = [
  // English: leaving a job.
  {
    lang: "en",
    need: ["left", "quit", "resign", "leaving"],
    pattern:
      /\bi(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:left|quit|resigned from|am leaving|'m leaving)\s+(?:my|the|that)\s+(?:job|position|company|employer|workplace|work)\b/,
    slots: WORK,
    unless: MOMENT_EN,
  },
  {
    // "quit the coffee shop last friday", "I quit my job at the bank": quitting a place of
    // work ("left the office" is also leaving for the day, so only "quit" says it).
    lang: "en",
    need: ["quit"],
    pattern:
      /(?:^|[.!,;]\s*|\bi(?:'ve| have)?\s+|\band\s+)(?:just\s+|finally\s+|officially\s+)?quit\s+(?:my|the|that)\s+(?:[\w'-]+\s+)?(?:job|gig|position|company|shop|store|cafe|café|restaurant|bar|firm|agency|hospital|clinic|school|bank|startup|warehouse|salon|bakery)\b/,
    slots: WORK,
  },
  {
    lang: "en",
    need: ["resign", "laid off", "let go", "fired", "retired", "unemployed", "quit"],
    pattern:
      /(?:^|[.!,;]\s*|\bi(?:'ve| have|'m| am)?\s+)(?:just\s+|recently\s+|finally\s+)?(?:resigned|got laid off|was laid off|been laid off|got let go|was let go|got fired|was fired|retired|unemployed|quit)(?:\s*[.!,]|\s+(?:last|this|yesterday|today|recently|a few|two|three|in)\b|$)/,
    slots: WORK,
  },
  {
    lang: "en",
    need: ["work"],
    pattern:
      /\bi\s+(?:don'?t|do not|no longer)\s+work\s+(?:there|at|for|in)\b|\bi'?m\s+(?:not|no longer)\s+(?:working|employed)\s+(?:there|at|for)\b/,
    slots: WORK,
  },
  {
    lang: "en",
    need: ["left", "quit", "resigned"],
    pattern:
      /\bi(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:left|quit|resigned from)\s+(?:the|my|that)?\s*([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3})/,
    slots: WORK,
    object: "workplace",
    unless: MOMENT_EN,
  },
  {
    lang: "en",
    need: ["anymore", "no longer"],
    pattern:
      /\bi'?m\s+(?:not|no longer)\s+(?:a|an)\s+([a-z][a-z -]{1,40}?)(?:\s+anymore\b|[.!,]|$)/,
    slots: ["job"],
    object: "job",
  },
  // English: leaving a home.
  {
    lang: "en",
    need: ["moved", "live"],
    pattern:
      /\bi(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?moved\s+(?:out|away)\b|\bi\s+(?:don'?t|do not|no longer)\s+live\s+(?:there|here|in)\b/,
    slots: HOME,
  },
  // Korean: leaving a job.
  {
    lang: "ko",
    need: ["퇴사", "퇴직", "사직", "해고", "잘렸", "실직", "백수", "때려치"],
    pattern:
      /퇴사|퇴직|사직(?:했|서)|해고(?:됐|되었|당)|잘렸|실직|백수(?:예요|에요|야|임|이에요|가 됐|됐|생활)|(?:회사|직장|일)\s*(?:을|를|도)?\s*때려치/,
    slots: WORK,
  },
  {
    lang: "ko",
    need: ["그만"],
    pattern:
      /(?:회사|직장|일|일자리|알바|아르바이트|다니던\s*곳|학교|병원|학원|가게|공장|은행)\s*(?:을|를|은|는|도)?\s*그만\s*(?:뒀|두었|둠|둬|두게|둡)/,
    slots: WORK,
  },
  {
    lang: "ko",
    need: ["그만"],
    pattern:
      /^(?:저는?|전|나는?|제가|내가)?\s*(?:이제\s*|결국\s*|드디어\s*)?그만\s*(?:뒀|두었|둠|둬)/,
    slots: WORK,
  },
  {
    lang: "ko",
    need: ["그만", "안 다녀", "안다녀", "안 다닙", "관뒀"],
    pattern:
      /(\S+?)(?:을|를|은|는|에|도)?\s*(?:그만\s*(?:뒀|두었|둠|둬)|관뒀|(?:더\s*이상|이제)\s*안\s*다(?:녀|닙))/,
    slots: WORK,
    object: "workplace",
  },
  {
    lang: "ko",
    need: ["더 이상", "더이상"],
    pattern:
      /더\s*이상\s*(?:\S+\s*){0,3}?(?:일|회사|직장|근무)\S*\s*안\s*(?:해|합|다녀|다닙)|더\s*이상\s*(?:회사|직장|거기|그곳)\S*\s*안\s*다(?:녀|닙)/,
    slots: WORK,
  },
  {
    lang: "ko",
    need: ["안 다녀", "안다녀", "안 다닙", "안 나가"],
    pattern: /(?:더\s*이상|이제)\s*(\S+?)(?:에|은|는|을|를|도)?\s*안\s*(?:다(?:녀|닙)|나가)/,
    slots: WORK,
    object: "workplace",
  },
  {
    // "손목이 너무 아파서 그만뒀어", "주방 일은 이제 안 해": the job, said with a reason or as 일.
    lang: "ko",
    need: ["그만", "일은", "일도"],
    pattern:
      /(?:서|고)\s+그만\s*(?:뒀|두었|둠|둬)|(?:^|\s)일(?:은|도)\s*(?:이제|더\s*이상)\s*안\s*(?:해|합)/,
    slots: WORK,
  },
  // Korean: leaving a home.
  {
    lang: "ko",
    need: ["뺐"],
    pattern: /(?:^|\s)(?:살던\s*)?(?:집|방|원룸|자취방)\s*(?:을|를|도)?\s*뺐/,
    slots: HOME,
  },
  {
    lang: "ko",
    need: ["이사"],
    pattern: /이사\s*(?:를\s*)?(?:갔|했|왔|나왔|가게\s*됐)/,
    slots: HOME,
  },
  {
    lang: "ko",
    need: ["안 살", "안살"],
    pattern: /(?:더\s*이상|이제)\s*(?:\S+\s*){0,2}?안\s*살(?:아|아요|고|며|거든)/,
    slots: HOME,
  },
];

/** Partners: a breakup or a divorce ends every one of them (slots.ts groups). */
const PARTNERS = PARTNER_RELATIONS.map((relation) => `family:${relation}`);
const PETS = PET_MEMBER_RELATIONS.map((relation) => `family:${relation}`);

/**
 * Cues that end a member of the family (members.ts): a slot here is a relation, and it
 * retires that relation's members (`family:boyfriend` retires `family:boyfriend:tom`).
 * `scope: "named"` retires only the members the message names (by name or relation word),
 * or the only member of those relations when it names none.
 */
export interface MemberCue {
  readonly lang: "ko" | "en";
  readonly need: readonly string[];
  readonly pattern: RegExp;
  readonly relations: readonly string[];
  /**
   * `all`: every member of the relations; `named`: those the message names, or the only one
   * when it names none; `named-only`: only those it names.
   */
  readonly scope: "all" | "named" | "named-only";
}

export const MEMBER_CUES: readonly MemberCue[] = [
  {
    lang: "en",
    need: ["broke up", "split up", "separated", "divorce", "called off", "dumped", "ended things"],
    pattern:
      /\b(?:we|i)\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?(?:broke up|split up|separated|got divorced|are divorced|divorced|are getting divorced|called off the (?:wedding|engagement)|ended things)\b|\bi\s+(?:broke up with|split up with|divorced|dumped)\b|\b(?:the|my|our)\s+divorce\s+(?:was|is|got|has been)\s+(?:finali[sz]ed|final|through|done)\b/,
    relations: PARTNERS,
    scope: "all",
  },
  {
    lang: "en",
    need: [
      "passed away",
      "died",
      "put down",
      "put to sleep",
      "rainbow bridge",
      "lost our",
      "lost my",
      "rip ",
    ],
    pattern:
      /\b(?:passed away|died|was put down|put (?:him|her|it) down|put to sleep|crossed the rainbow bridge)\b|(?:^|[.!,;]\s*)rip\s+\w+/,
    relations: [...PETS, ...PARTNERS],
    scope: "named",
  },
  {
    lang: "en",
    need: [
      "rehome",
      "gave",
      "lives with",
      "living with",
      "lives on",
      "lives at",
      "new home",
      "stays",
    ],
    pattern:
      /\brehom(?:e|ed|ing)\b|\b(?:gave|found)\s+(?:\w+\s+){1,2}a new home\b|\bnew home for\b|\bgave\s+(?:him|her|them|it)\s+(?:away|up)\b|\b(?:now\s+)?(?:lives|is living|stays)\s+(?:with|on|at)\s+my\s+\w+(?:'s?\s+\w+)?(?:\s+now)?\b/,
    relations: PETS,
    scope: "named",
  },
  {
    lang: "ko",
    need: ["살아요", "살고", "지내요", "보냈", "파양"],
    pattern: /이제\s+\S+(?:네|집)(?:에서|서)\s*(?:살|지내)|(?:입양|분양)\s*보냈|파양/,
    relations: PETS,
    scope: "named",
  },
  {
    // "몽이 부모님 집으로 보냈어", "언니네로 보냈어요": sent to live in someone's home. Only
    // the pet it names ("택배를 집으로 보냈어요" names none).
    lang: "ko",
    need: ["보냈", "맡기", "맡겼"],
    pattern: /\S*(?:네|집|댁|본가)(?:으로|로|에)\s*(?:\S+\s+)?(?:보냈|맡기고|맡겼)/,
    relations: PETS,
    scope: "named-only",
  },
  {
    lang: "ko",
    need: ["헤어졌", "헤어짐", "이별", "이혼", "파혼", "갈라섰"],
    pattern: /헤어졌|헤어짐|이별했|이혼(?:했|함|하게|하기로)|파혼|갈라섰/,
    relations: PARTNERS,
    scope: "all",
  },
  {
    lang: "ko",
    need: ["무지개", "하늘나라", "떠났", "죽었", "떠나보냈", "세상을"],
    pattern: /무지개\s*다리|하늘나라|세상을\s*떠났|죽었|떠나보냈/,
    relations: [...PETS, ...PARTNERS],
    scope: "named",
  },
  {
    lang: "en",
    need: ["not with", "no longer with", "not together", "no longer together"],
    pattern: /\b(?:i'?m|i am|we'?re|we are)\s+(?:not|no longer)\s+(?:with\s+\w+|together)\b/,
    relations: PARTNERS,
    scope: "all",
  },
  {
    // "my ex Tom": only the partner it names (an ex mentioned beside a new partner ends nothing).
    lang: "en",
    need: ["my ex", "ex-"],
    pattern: /\bmy\s+ex\b|\bex-(?:boyfriend|girlfriend|husband|wife|partner|fianc)/,
    relations: PARTNERS,
    scope: "named-only",
  },
  {
    lang: "en",
    need: ["moved out"],
    pattern: /\b\w+\s+moved\s+out\b/,
    relations: PARTNERS,
    scope: "named-only",
  },
  {
    lang: "en",
    need: ["lost", "down", "ran away", "run away", "went missing"],
    pattern:
      /\b(?:we|i)\s+(?:just\s+)?lost\s+(?:(?:my|our)\s+)?\w+(?:\s+\w+)?\s*(?:last|this|yesterday|today|in|on|to|$)|\bput\s+\w+\s+down\b|\b\w+\s+(?:ran away|went missing)\b/,
    relations: [...PETS, ...PARTNERS],
    scope: "named-only",
  },
  {
    // "Jake and I aren't together anymore", "Emma and I split up": the partner it names.
    lang: "en",
    need: [
      "together",
      "split",
      "broke up",
      "quits",
      "separate ways",
      "are done",
      "are over",
      "ended things",
    ],
    pattern:
      /\b(?:\w+\s+and\s+(?:i|me)|(?:me|i)\s+and\s+\w+)\s+(?:are(?:n't| not| no longer)\s+together|are\s+(?:done|over|finished)|(?:just\s+)?(?:split|broke up|called it quits|went our separate ways))\b|\bwe\s+(?:called it quits|went our separate ways)\b|(?:^|[.!,;]\s*)(?:just\s+)?ended\s+things\s+with\s+\w+/,
    relations: PARTNERS,
    scope: "named-only",
  },
  {
    // "지은이랑은 이제 연락 안 해요", "민수랑 끝났어": the partner it names.
    lang: "ko",
    need: ["연락 안", "연락 끊", "끝났", "끝냈", "정리했", "남남"],
    pattern:
      /(?:랑|하고|와|과)(?:은|는)?\s*(?:이제\s*|완전히\s*|결국\s*)?(?:연락\s*(?:안|끊)|끝났|끝냈|정리했|남남)/,
    relations: PARTNERS,
    scope: "named-only",
  },
  {
    lang: "ko",
    need: ["안 만나"],
    pattern: /(?:이제|더\s*이상)\s*(?:\S+\s+)?안\s*만나/,
    relations: PARTNERS,
    scope: "all",
  },
  {
    // "전 남친 민호": only the partner it names.
    lang: "ko",
    need: ["전 남", "전남", "전 여", "전여", "전처", "전 아내"],
    pattern: /(?:^|\s)전\s*(?:남친|남자친구|여친|여자친구|남편|아내)|전처/,
    relations: PARTNERS,
    scope: "named-only",
  },
];

/**
 * Cues that take back a value the message names: "I'm not vegetarian anymore", "테니스는
 * 이제 못 쳐요", "I moved on from Google", "삼성전자 나와서 …", "I'm not nursing anymore" (a
 * stored value of `categories` named in the same sentence is retired), and what a plan
 * becomes once it happened ("Our daughter Ava was born", "결혼식 무사히 끝났어요": a plan
 * that holds one of `holds` is retired).
 *
 * These rows are general on purpose: the value the user named is the anchor, so a cue need
 * not know how the fact was first said. A question, a hypothetical ("if I quit Google") and
 * someone else's news never retire anything.
 */
export interface ValueCue {
  readonly lang: "ko" | "en";
  readonly need: readonly string[];
  readonly pattern: RegExp;
  readonly categories: readonly string[];
  /**
   * How the sentence must name the value: `loose` (default), any word of it that the value
   * holds or that holds the value ("맥주도" names "맥주"; a one-syllable value only as a word
   * of its own: "회는" names "회", "회사" does not); `head`, the whole value, its last
   * word or a proper name in it, compared by stem ("nursing" names "nurse", "teaching"
   * names "high school teacher", "간호 일" names "간호사"; "school" does not name "high
   * school teacher").
   */
  readonly names?: "loose" | "head";
  /** A sentence this matches is not a change of the fact ("I don't like Chicago anymore"). */
  readonly unless?: RegExp;
  /** Words the retired value holds instead of being named ("born" ends the plan "baby"). */
  readonly holds?: readonly string[];
}
// A pattern with a group names its object there ("gave up coffee", "커피 대신"): only the
// words of the group can name the value it retires.

const TASTES = ["preference", "health", "possession", "other"] as const;
/** The facts of a life that change by leaving them: the job, the workplace, the home. */
const WORK_FACTS = ["job", "workplace"] as const;
/** A feeling about a fact is not a change of it ("I don't enjoy my job anymore"). */
const FEELING_EN =
  /\b(?:like|love|enjoy|want|wanna|stand|bear|hate|miss|feel|think|sure|care|afford)\b/;
/** A trip is not a move ("we left Boston for the weekend", "부산 여행 다녀왔어요"). */
const TRIP_EN = /\b(?:trip|vacation|holiday|weekend|visit|visiting|for the day|for work|back to)\b/;
const TRIP_KO = /여행|출장|놀러|다녀왔|다녀올|주말/;
/** The diets a "back to eating meat" ends. */
const DIETS = `${WAYS_OF_EATING_EN}|${WAYS_OF_EATING_KO}`.split("|");

export const VALUE_CUES: readonly ValueCue[] = [
  {
    // "I gave up coffee", "I switched from coffee to tea", "tea instead of coffee".
    lang: "en",
    need: ["gave up", "given up", "giving up", "cut out", "switched from", "instead of", "stopped"],
    pattern:
      /\b(?:(?:i|i've|i have|we)\s+(?:just\s+|finally\s+)?(?:gave up|given up|cut out|switched from|stopped (?:eating|drinking|playing|doing))|instead of)\s+((?:[\w'-]+\s*){1,3})/,
    categories: TASTES,
  },
  {
    // "I'm off coffee these days", "I'm done with sweets", "I'm so over energy drinks".
    lang: "en",
    need: ["off", "done with", "over"],
    pattern:
      /\b(?:i'm|i am|im|we're|we are)\s+(?:(?:totally|completely|officially|so|kind of|kinda|mostly|pretty much)\s+)?(?:off|done with|over)\s+(?!to\b|work\b|today\b|tomorrow\b)((?:[\w'-]+\s*){1,3})/,
    categories: TASTES,
  },
  {
    // "Lately ramen has replaced sushi as my favorite": what was replaced.
    lang: "en",
    need: ["replaced"],
    pattern: /\breplaced\s+((?:[\w'-]+\s*){1,3})/,
    categories: TASTES,
  },
  {
    // "I've kind of outgrown Coldplay", "I went off spicy food".
    lang: "en",
    need: ["outgrown", "grew out of", "grown out of", "lost my taste", "went off", "gone off"],
    pattern:
      /\b(?:outgrown|grew out of|grown out of|lost my taste for|went off|gone off)\s+((?:[\w'-]+\s*){1,3})/,
    categories: TASTES,
  },
  {
    // "Don't mind spicy food these days": a dislike gone.
    lang: "en",
    need: ["don't mind", "do not mind", "dont mind"],
    pattern: /\b(?:don'?t|do not)\s+mind\s+((?:[\w'-]+\s*){1,3})/,
    categories: ["dislike"],
  },
  {
    // "요즘은 커피 대신 차 마셔요": what comes before 대신 is no longer the taste.
    lang: "ko",
    need: ["대신"],
    pattern: /(\S+?)(?:은|는|을|를|도)?\s*대신/,
    categories: TASTES,
  },
  {
    lang: "en",
    need: ["anymore", "no longer", "any more", "no more", "used to"],
    pattern: /\b(?:anymore|any more|no longer|no more|used to)\b/,
    categories: TASTES,
  },
  {
    // "I'm not a nurse anymore", "I used to live in Chicago", "no more barista shifts".
    lang: "en",
    need: ["anymore", "no longer", "any more", "no more", "used to"],
    pattern: /\b(?:anymore|any more|no longer|no more|used to)\b/,
    categories: [...WORK_FACTS, "residence"],
    names: "head",
    unless: FEELING_EN,
  },
  {
    // "I've moved on from Google", "my last day at the bank was Friday", "retired from teaching".
    lang: "en",
    need: [
      "moved on",
      "last day",
      "retired",
      "stepped down",
      "left",
      "quit",
      "resigned",
      "walked away",
      "done",
      "jumped ship",
      "switched",
    ],
    pattern:
      /\b(?:jumped ship(?: from)?|switched (?:jobs |companies |employers )?from|moved on from|last day (?:at|as|of|in)|retired (?:from|as)|stepped down (?:from|as)|left|quit|resigned (?:from|as)|walked away from|done (?:at|with|being))\b/,
    categories: WORK_FACTS,
    names: "head",
    unless: either(FEELING_EN, MOMENT_EN),
  },
  {
    // "We moved away from Chicago", "Boston is behind me now", "I left Dayton in June".
    lang: "en",
    need: ["moved", "relocated", "left", "behind", "rearview", "rear-view", "rear view", "sold"],
    pattern:
      /\b(?:moved (?:away )?from|moved out of|relocated from|left|(?:is|are) behind (?:me|us)|in the rear[ -]?view|sold (?:the|our|my) (?:house|home|flat|place|apartment|condo))\b/,
    categories: ["residence"],
    names: "head",
    unless: either(TRIP_EN, MOMENT_EN),
  },
  {
    // "I've gone back to eating meat": a vegetarian or vegan diet ended.
    lang: "en",
    need: ["meat", "everything", "chicken", "beef", "pork", "fish", "seafood", "eggs", "dairy"],
    pattern:
      /\b(?:(?:eat|eating|ate)\s+(?:meat|chicken|beef|pork|fish|seafood|eggs|dairy|everything)\s+again|back to eating (?:meat|chicken|fish|everything)|(?:started|start) eating (?:meat|chicken|beef|pork|fish|seafood)|eat(?:ing)? everything now)\b/,
    categories: ["health"],
    holds: DIETS,
  },
  {
    lang: "ko",
    need: ["이제", "더 이상", "더이상", "끊었", "끊음"],
    pattern:
      /(?:이제|더\s*이상)\s*(?:\S+\s+){0,2}?(?:\S*(?:도|는|은)\s+)?(?:안|못)\s*\S+|끊었|끊음/,
    categories: TASTES,
  },
  {
    // "채식은 작년에 그만두고", "커피 끊고": a taste or a diet given up.
    lang: "ko",
    need: ["그만", "끊고", "끊었"],
    pattern: /그만\s*(?:두|뒀|뒀|했|먹|마시)|끊고|끊었/,
    categories: TASTES,
  },
  {
    // "요즘 위가 안 좋아서 매운 건 못 먹어요", "요가는 요즘 안 해요".
    lang: "ko",
    need: ["안 ", "못 ", "거들떠"],
    pattern:
      /(?:안|못)\s*(?:먹어|먹고|먹음|마셔|마시고|해요|해|하고|치고|쳐요|타요|타고)|쳐다(?:도|보지도)\s*안\s*(?:봐|보)|거들떠(?:도|보지도)\s*안/,
    categories: ["preference", "possession"],
    unless: /면\s|(?:없어|싫어|힘들어)서/,
  },
  {
    // "개발자 생활 접고", "삼성전자 나와서", "이제 카카오 다니지 않아요", "간호 일 안 하고".
    lang: "ko",
    need: [
      "그만",
      "관두",
      "관뒀",
      "접",
      "나와",
      "나왔",
      "퇴사",
      "떠나",
      "떠났",
      "다니지",
      "안 다",
      "안 하",
      "안하",
      "쉬고",
      "때려치",
    ],
    pattern:
      /그만\s*(?:두|뒀|둔)|관두|관뒀|때려치|접(?:고|었|기로|은)|나와서|나왔|퇴사|떠나|떠났|다니지\s*않|안\s*다(?:니|녀)|안\s*하고|안\s*해요|쉬고\s*있/,
    categories: WORK_FACTS,
    names: "head",
    unless: MOMENT_KO,
  },
  {
    // "대구 생활 정리하고", "서울 떠나서", "인천 살 때는", "이제 부산에 안 살아요".
    lang: "ko",
    need: [
      "떠나",
      "떠났",
      "나와",
      "나왔",
      "정리",
      "이사",
      "안 살",
      "안살",
      "살았",
      "살 때",
      "살던",
      "끝",
      "뺐",
    ],
    pattern:
      /떠나|떠났|나와서|나왔|정리하고|정리했|에서\s*이사|안\s*살|살았었|살았는데|살\s*때|살던|생활\s*(?:은\s*|도\s*)?끝|집\s*(?:을\s*|도\s*)?뺐/,
    categories: ["residence"],
    names: "head",
    unless: either(TRIP_KO, MOMENT_KO),
  },
  {
    // "고기 다시 먹어요", "지금은 다 먹어요": a diet ended.
    lang: "ko",
    need: ["고기", "다 먹"],
    pattern:
      /고기\s*(?:를|도)?\s*다시\s*먹|다시\s*고기|(?:지금은|이제는?|요즘은?)\s*(?:\S+\s+)?다\s*먹어/,
    categories: ["health"],
    holds: DIETS,
  },
  {
    // "Change of plans, flights to Japan got too expensive, so we're doing Portugal instead":
    // a plan the sentence names is replaced (the new one is added after).
    lang: "en",
    need: ["instead", "change of plans", "called off", "cancelled", "canceled"],
    pattern: /\b(?:instead|change of plans|called off|cancell?ed)\b/,
    categories: ["plan"],
  },
  {
    // "I'll skip the marathon this year", "the move fell through", "the trip is on hold".
    lang: "en",
    need: [
      "skip",
      "scrapped",
      "shelved",
      "ditched",
      "postponed",
      "off",
      "fell through",
      "not happening",
      "on hold",
    ],
    pattern:
      /\b(?:skip|skipping|scrapped|shelved|ditched|postponed|(?:is|'s|are) off|fell through|not happening|on hold)\b/,
    categories: ["plan"],
  },
  {
    // "I'm not running the marathon anymore", "I dropped out of the race": the plan it names.
    lang: "en",
    need: [
      "not running",
      "not doing",
      "not going to",
      "not attending",
      "not entering",
      "not taking",
      "won't",
      "dropped out",
      "pulled out",
    ],
    pattern:
      /\b(?:not\s+(?:running|doing|going to|attending|entering|taking|joining|hosting)(?:\s+in)?|won't\s+(?:run|do|attend|enter|take|join|make it to)|(?:dropped|pulled)\s+out\s+of)\s+((?:[\w'-]+\s*){1,3})/,
    categories: ["plan"],
  },
  {
    // "마라톤은 안 나가기로 했어요", "여행은 취소했어요": the plan named before the change.
    lang: "ko",
    need: ["기로", "포기", "접었", "취소"],
    pattern:
      /(\S+?)(?:은|는|을|를|도)?\s*(?:(?:안|못)\s*(?:나가|가|하|보)기로|포기했|접었|취소했|취소됐|취소되었)/,
    categories: ["plan"],
  },
  {
    // "유럽 여행은 무산됐어요", "이사는 미뤘어요", "없던 일이 됐어요".
    lang: "ko",
    need: ["무산", "미뤘", "미루", "연기", "없던 일", "물거품", "보류"],
    pattern: /무산|미뤘|미루기로|연기됐|연기했|없던\s*일|물거품|보류/,
    categories: ["plan"],
  },
  {
    lang: "en",
    need: ["born", "arrived", "is here", "'s here", "gave birth"],
    pattern: /\b(?:was born|were born|arrived|is here|'s here|gave birth)\b/,
    categories: ["plan"],
    holds: ["baby", "born", "birth", "expecting", "pregnan", "due"],
  },
  {
    lang: "en",
    need: ["married", "wedding"],
    pattern: /\b(?:got married|we're married|we are married|wedding (?:was|went))\b/,
    categories: ["plan"],
    holds: ["married", "wedding", "marry"],
  },
  {
    lang: "ko",
    need: ["태어났", "출산", "낳았"],
    pattern: /태어났|출산했|낳았/,
    categories: ["plan"],
    holds: ["아기", "출산", "임신", "출산 예정", "baby"],
  },
  {
    lang: "ko",
    need: ["결혼"],
    pattern: /결혼식\s*(?:을\s*)?(?:\S+\s+)?(?:끝났|마쳤|올렸|했)|결혼했/,
    categories: ["plan"],
    holds: ["결혼", "결혼식"],
  },
];

/**
 * The statements of a message (cues that name a value look at one sentence at a time, and
 * replacement.ts reads where an ended fact went from them): its sentences less questions
 * ("Should I quit Google?", "제가 회사 그만둘까요?") and hypotheticals ("If I left Boston",
 * "만약 이사 가면"), which change nothing. Case is kept.
 */
export function statementsOf(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.match(/[^.!?\n。]+[.!?\n。]*/g) ?? []) {
    const sentence = piece.replace(/[.!?\n。\s]+$/, "");
    if (sentence.trim() === "" || piece.includes("?")) continue;
    if (QUESTION_KO.test(sentence) || HYPOTHETICAL.test(sentence)) continue;
    out.push(sentence);
  }
  return out;
}

/** A Korean question without its mark ("그만둘까요", "옮겨야 할지"); "만나요" is none. */
const QUESTION_KO = /(?:까요?|는지요?|을지요?|할지)$/;
const HYPOTHETICAL =
  /\b(?:if|what if|should i|thinking (?:about|of)|considering|might|wonder(?:ing)?|maybe i'll)\b|만약|(?:으|하|가|두|나)면\s|할까|둘까|갈까|고민/i;

/** What a cue's object (or its sentence) offers to name a value with, made once per call. */
interface Naming {
  readonly text: string;
  readonly raw: readonly string[];
  /** The words that can name a value (namingWord). */
  readonly words: readonly string[];
  /** Their keys, particles off. */
  readonly said: readonly string[];
  /** The key of the whole text, made when first asked for. */
  key?: string;
}

function namingOf(text: string, cache: Map<string, Naming>): Naming {
  let naming = cache.get(text);
  if (naming === undefined) {
    const raw = text.split(/[\s,;:/-]+/);
    const words = raw.filter(namingWord);
    const said = words.map((word) => valueKey(stem(word))).filter((key) => key.length >= 2);
    naming = { text, raw, words, said };
    cache.set(text, naming);
  }
  return naming;
}

function valueRetiredIds(
  text: string,
  sentences: readonly string[],
  current: readonly Fact[],
  out: Set<string>,
): void {
  const objects = new Map<string, Naming>();
  const keys = new Map<Fact, string>();
  const keyOf = (fact: Fact): string => {
    let key = keys.get(fact);
    if (key === undefined) {
      key = valueKey(fact.value);
      keys.set(fact, key);
    }
    return key;
  };
  for (const cue of VALUE_CUES) {
    if (!hasAny(text, cue.need)) continue;
    const facts = current.filter(
      (fact) => cue.categories.includes(fact.category) && !out.has(fact.id),
    );
    if (facts.length === 0) continue;
    // A birth or a wedding is the family's news ("Our daughter Ava was born"): only people
    // outside it make the sentence someone else's.
    const other =
      cue.holds !== undefined
        ? cue.lang === "en"
          ? OTHER_MEMBER_EN
          : OTHER_MEMBER_KO
        : cue.lang === "en"
          ? OTHER_SUBJECT_EN
          : OTHER_SUBJECT_KO;
    for (const sentence of sentences) {
      const match = cue.pattern.exec(sentence);
      if (match === null || other.test(sentence) || cue.unless?.test(sentence) === true) continue;
      const object = namingOf(match[1] ?? sentence, objects);
      for (const fact of facts) {
        const named =
          cue.holds !== undefined
            ? cue.holds.some((word) => fact.value.toLowerCase().includes(word))
            : cue.names === "head"
              ? namesHead(fact.value, object)
              : object.said.some((key) => looselySame(keyOf(fact), key)) ||
                (/^[가-힣]$/.test(keyOf(fact)) &&
                  object.raw.some((word) => stem(word) === keyOf(fact)));
        if (named) out.add(fact.id);
      }
    }
  }
}

/**
 * The sentence names the value by its whole, its last word or a proper name in it, compared
 * by stem: "nursing" names "nurse", "teaching" names "high school teacher", "간호" names
 * "간호사", "google's" names "Google"; "school" does not name "high school teacher".
 */
function namesHead(value: string, said: Naming): boolean {
  const whole = valueKey(value);
  said.key ??= valueKey(said.text);
  if (whole.length >= 2 && said.key.includes(whole)) return true;
  const parts = value.split(/\s+/).filter((part) => part !== "");
  const heads = new Set<string>();
  const last = parts.at(-1);
  if (last !== undefined) heads.add(last.toLowerCase());
  // A Korean organisation's first word is its name ("쿠팡 물류센터": 쿠팡).
  const first = parts[0];
  if (parts.length > 1 && first !== undefined && /^[가-힣]{2,}$/.test(first)) heads.add(first);
  for (const part of parts) if (/^[A-Z][\w'&-]{2,}/.test(part)) heads.add(part.toLowerCase());
  for (const raw of said.words) {
    const word = stem(raw.replace(/'s$/, ""));
    for (const head of heads) {
      if (/[가-힣]/.test(head)) {
        if (word.length >= 2 && (head.startsWith(word) || word.startsWith(head))) return true;
      } else if (word === head || (head.length >= 4 && rootOf(word) === rootOf(head))) {
        return true;
      }
    }
  }
  return false;
}

/** An English word's root: its stem less an agent ending ("teacher" and "teaching" → teach). */
function rootOf(word: string): string {
  const stemmed = stemmer(word);
  const agent = stemmed.replace(/(?:er|or|ist|ian)$/, "");
  return agent.length >= 4 ? agent : stemmed;
}

/** merge.ts `sameValue` on keys already made: equal, or one holds the other (two or more letters). */
function looselySame(a: string, b: string): boolean {
  if (a === "" || b === "") return false;
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 2 && long.includes(short);
}

/** Words of a cue sentence that cannot name a stored value. */
const CUE_WORDS = new Set(
  "not anymore any more longer no i'm i am the and but now don't do does eat eating drink 이제 더 이상 안 못".split(
    " ",
  ),
);

/** A word that can name a value: a Hangul word of two syllables or more, a Latin one of three letters. */
function namingWord(word: string): boolean {
  const lower = word.toLowerCase();
  if (CUE_WORDS.has(lower)) return false;
  return /[가-힣]/.test(lower) ? lower.length >= 2 : lower.length >= 3;
}

/** A word without a trailing Korean particle ("맥주도" → "맥주", "테니스는" → "테니스"). */
function stem(word: string): string {
  return word.replace(/(?:은|는|이|가|을|를|도|만|까지|부터|랑|하고)$/, "") || word;
}

/** Someone else's breakup or loss ("my friend and her boyfriend broke up", "친구가 헤어졌대"). */
const OTHER_MEMBER_EN =
  /\b(?:my|our)\s+(?:(?:best\s+)?friend|brother|sister|mom|mother|dad|father|boss|colleague|coworker|roommate|neighbou?r|cousin|aunt|uncle)s?\b|\b(?:he|she|they)\s+(?:just\s+)?(?:broke up|split|divorced|separated)\b/;
const OTHER_MEMBER_KO =
  /(?:^|\s)(?:친구|동생|형|누나|언니|오빠|엄마|아빠|어머니|아버지|동료|상사|사장님|룸메이트|이웃|걔|그 사람|사촌)(?:가|이|는|도|께서)|(?:했|졌|났|었)대/;

/** The member's relation word and name as a stored member's value holds them. */
function mentions(fact: Fact, text: string): boolean {
  return fact.value
    .toLowerCase()
    .replace(/, \d{1,3}살?$/, "")
    .split(/\s+/)
    .some((word) => (word.length >= 2 ? text.includes(word) : calledKo(word, text)));
}

/** A one-syllable Korean name said with the 이 of calling ("탄" → "탄이 보냈어", "탄이는"). */
function calledKo(name: string, text: string): boolean {
  if (!/^[가-힣]$/.test(name)) return false;
  return new RegExp(`(?:^|\\s)${name}이(?:가|는|를|도|랑)?(?=\\s|$)`).test(text);
}

/** The ids of the members of the family a message ends (see {@link MEMBER_CUES}). */
function memberRetiredIds(text: string, current: readonly Fact[], out: Set<string>): void {
  const members = current.filter((fact) => fact.category === "family");
  if (members.length === 0) return;
  for (const cue of MEMBER_CUES) {
    if (!hasAny(text, cue.need)) continue;
    if ((cue.lang === "en" ? OTHER_MEMBER_EN : OTHER_MEMBER_KO).test(text)) continue;
    if (!cue.pattern.test(text)) continue;
    const hit = members.filter((fact) =>
      cue.relations.some((slot) => fact.id === slot || fact.id.startsWith(`${slot}:`)),
    );
    const named = cue.scope === "all" ? hit : hit.filter((fact) => mentions(fact, text));
    const only = cue.scope === "named" && named.length === 0 && hit.length === 1;
    const gone = only ? hit : named;
    for (const fact of gone) out.add(fact.id);
  }
}

/** Someone else's news ("my friend quit", "친구가 이사 갔어요") retires none of the user's facts. */
const OTHER_SUBJECT_EN =
  /\b(?:my|our)\s+(?:friend|brother|sister|mom|mother|dad|father|wife|husband|son|daughter|boss|colleague|coworker|partner|roommate|neighbou?r)s?\b|\b(?:he|she|they)\b/;
const OTHER_SUBJECT_KO =
  /(?:친구|동생|형|누나|언니|오빠|엄마|아빠|어머니|아버지|남편|아내|와이프|딸|아들|동료|상사|사장님|룸메이트|이웃|걔|그 사람)(?:가|이|는|도|께서)/;

function hasAny(text: string, words: readonly string[]): boolean {
  return words.some((word) => text.includes(word));
}

/**
 * The ids of the current facts an utterance retires by a cue. `matches(stored, said)` says
 * whether the object named in the utterance is the stored value (merge.ts `sameValue`).
 */
export function cueRetiredIds(
  utterance: string,
  current: readonly Fact[],
  matches: (stored: string, said: string) => boolean,
): Set<string> {
  const retired = new Set<string>();
  if (typeof utterance !== "string" || current.length === 0) return retired;
  // Questions and hypotheticals ("If I left Google, …?") take nothing back.
  const statements = statementsOf(utterance.normalize("NFC").toLowerCase().slice(0, 2000));
  const text = statements.join(". ");
  if (text === "") return retired;
  const byId = new Map(current.map((fact) => [fact.id, fact]));
  const otherEn = OTHER_SUBJECT_EN.test(text);
  const otherKo = OTHER_SUBJECT_KO.test(text);
  for (const cue of RETRACTION_CUES) {
    if (!cue.slots.some((slot) => byId.has(slot))) continue;
    if (!hasAny(text, cue.need)) continue;
    if (cue.lang === "en" ? otherEn : otherKo) continue;
    const match = cue.pattern.exec(text);
    if (match === null || cue.unless?.test(text) === true) continue;
    if (cue.object !== undefined) {
      const stored = byId.get(cue.object);
      const said = match[1]?.trim() ?? "";
      if (stored === undefined || said === "" || !namesValue(stored.value, said, matches)) {
        continue;
      }
    }
    for (const slot of cue.slots) if (byId.has(slot)) retired.add(slot);
  }
  memberRetiredIds(text, current, retired);
  valueRetiredIds(text, statements, current, retired);
  return retired;
}

/**
 * The said object names the stored value: a leading part of the phrase ("the clinic last
 * week") that is the stored value loosely and holds its head word ("small clinic" → clinic),
 * so "the small town" does not name "small clinic".
 */
function namesValue(
  stored: string,
  said: string,
  matches: (stored: string, said: string) => boolean,
): boolean {
  const head = stored.toLowerCase().trim().split(/\s+/).at(-1) ?? "";
  const words = said.split(/\s+/).filter((word) => word !== "");
  for (let n = 1; n <= words.length; n++) {
    const phrase = words.slice(0, n).join(" ");
    if (head !== "" && phrase.includes(head) && matches(stored, phrase)) return true;
  }
  return false;
}
