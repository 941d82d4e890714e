/**
 * The rule engine of the heuristic extractor (R8.1 `heuristic`, R8.2): one small engine over
 * the cue tables rules-en.ts and rules-ko.ts. A row is data — a pattern with its `need`
 * words, where the value comes from, how it is cut, the checks it must pass, and an example
 * the unit test runs — so a new way of saying a fact is a row, never a new function.
 *
 * For each row whose need words the clause contains (regex.ts skips the rest without
 * running, or even compiling, their expressions) the engine takes every match and reads each
 * of the row's outputs ({@link Take}):
 * 1. the raw value: a fixed `value`, the named group (`group`, default `value`), or the text
 *    after the match when the pattern has no `value` group;
 * 2. `drop` removed, then cut at a stop set (`cut`: which stop, how many words at most) or
 *    split into a list of items (`list`);
 * 3. the value `map`ped (a nationality word to its country …), then checked: it must be
 *    usable (a word, not a pronoun), match no `reject` pattern and pass every named check.
 * The candidates then go through the slot fit, members and merge (extract.ts). Retraction
 * rows (`retract`) give what a clause takes back instead of what it states.
 */
/// <reference path="../../types/stopword.d.ts" />
import { eng } from "stopword";
import type { Candidate, CandidateForm, Retraction } from "./build.ts";
import {
  isContentWord,
  isPlaceKo,
  isTimeWord,
  nounPhrase,
  STOP_KO,
  splitParticle,
  stripCopula,
  stripParticle,
  tokensOf,
} from "./korean.ts";
import {
  connectiveCopula,
  copulaRest,
  headBefore,
  isJobKo,
  isNameLike,
  isOrgKo,
  KOREAN_NUMBER,
  listBefore,
  nounOfCopula,
  PREDICATE_END,
  reasonTopic,
  SPEAKER_WORDS_KO,
  splitList,
  topicValue,
} from "./korean-values.ts";
import { languageCode } from "./languages.ts";
import {
  CONDITIONS_EN,
  EVENTS_EN,
  JOB_ABBREVIATIONS_EN,
  JOB_HEADS_EN,
  NATIONALITIES,
  NOT_NAMES_EN,
  possessionKind,
  RELATIONS_KO,
  WAYS_OF_EATING_EN,
  WAYS_OF_EATING_KO,
} from "./lexicon.ts";
import { NeedWords } from "./need-words.ts";
import { type Pattern, pattern } from "./regex.ts";
import type { FactCategory, FactLang } from "./types.ts";
import {
  CALL_STOP,
  CUT_RE1,
  cut,
  DATE_STOP,
  items,
  LEADING,
  NAME_STOP,
  PLACE_STOP,
  PLAN_STOP,
  relationOf,
  THING_STOP,
  usable,
} from "./values.ts";

/** The stop sets a value is cut at (values.ts). */
export const STOPS = {
  place: PLACE_STOP,
  thing: THING_STOP,
  plan: PLAN_STOP,
  name: NAME_STOP,
  call: CALL_STOP,
  date: DATE_STOP,
} as const;
export type Stop = keyof typeof STOPS;

/**
 * Named checks on a value (see CHECKS below for what each means). A row lists the ones it
 * needs; a new condition is a new name here, shared by every row that needs it.
 */
export type Check =
  | "capitalised"
  | "lowercase"
  | "introduced"
  | "notTaken"
  | "notCommonWord"
  | "notFunctionWord"
  | "notVisit"
  | "notField"
  | "notMember"
  | "notEvent"
  | "notCondition"
  | "notLanguage"
  | "noLanguageWord"
  | "contentKo"
  | "placeKo"
  | "notPlaceKo"
  | "orgKo"
  | "jobKo"
  | "notJobKo"
  | "notPossession"
  | "nameLike"
  | "ageKo"
  | "compared"
  | "tokenNotTime"
  | "tokenNotWith"
  | "tokenNotAllergy"
  | "tokenBare";

/** Named conditions on the whole clause (Korean). */
export type ClauseCheck =
  /** The speaker introduces themselves ("저는 …", or a clause of at most two words). */
  | "selfish"
  /** A habit ("주말마다", "보통"): what one goes to do is a hobby, not a plan. */
  | "habitual"
  | "notHabitual"
  /** A when-word of a recent change (요즘, 이제, 최근에 …). */
  | "recently";

/** Named maps of a value: what the value is turned into before it is checked. */
export type ValueMap =
  /** A nationality word ("korean" → Korean); a word that names none gives nothing. */
  | "nationality"
  /** "eat meat" → "no meat", "drink" → "no alcohol": what the user abstains from. */
  | "abstain"
  /** The possession kind (a car, a phone) of the value, or of the `thing` group. */
  | "possession"
  /** The relation a member value ends with ("two cats" → cat), as the candidate's key. */
  | "member"
  /** Retraction: a possession of a known kind retires that slot, else the value. */
  | "possessionSlot"
  /** A Korean relation word: its relation is the key ("남편" → husband). */
  | "relationKo"
  /** "집에서 일해요": home is remote work. */
  | "remoteKo"
  /** A possession of a known kind other than a home, the kind as the key. */
  | "possessionKo"
  /** "한국 사람" → the nationality's country name when known. */
  | "nationalityKo"
  /** "볼링 치러": the purpose verb (…러) goes, the activity stays. */
  | "activity"
  /** "opening a bakery" → bakery owner: a business one opens or runs says the job. */
  | "owner"
  /** A job title said short ("PM" → product manager); other titles stay as said. */
  | "jobTitle"
  /**
   * A way of eating (vegan, vegetarian, 비건, 채식주의자) is one slot, `health:diet`: a new one
   * replaces the old ("I'm pescatarian now" after "I'm vegan"). Other health words keep theirs.
   */
  | "diet";

/** Named readers for values with an inner structure. */
export type Reader =
  /** The words up to a job head noun ("senior software engineer at Acme" → the job). */
  | "jobHead"
  /** A plan verb and its object ("hosting a party", "visiting Tokyo" → Tokyo). */
  | "planVerb"
  /** Korean: the rest of a topic sentence without its copula ("직업은 간호사예요" → 간호사). */
  | "copulaRest"
  /** Korean: the copula rest, or the word itself when it is a content word. */
  | "copulaOrWord"
  /** Korean: where a topic is ("회사는 판교에 있어요", located) or what it is (copula rest). */
  | "topic"
  /** Korean: a bare name, with or without its copula ("지수야", "민지"), never a predicate. */
  | "bareName"
  /** Korean: "제 이름은 김 민수" (a one-syllable family name and the given name). */
  | "ownName"
  /** Korean: every token that is a job word with a copula ("간호사예요", "교사라"). */
  | "jobWords"
  /** Korean: a job word before 하다 ("편의점 알바 해"), with the word before it. */
  | "jobPhrase"
  /** Korean: the area one is in charge of ("해외 영업 담당이에요"). */
  | "charge"
  /** Korean: the teaching place says the role ("학원에서 가르쳐요" → 학원 강사). */
  | "teach"
  /** Korean: an event and the words that name it ("제주 여행", "부산으로 이사"). */
  | "event"
  /** Korean: the words of a reason, without function words ("허리 디스크 때문에"). */
  | "words"
  /** Korean: the stem of a token that ends with one of the `strip` particles ("서울에" → 서울). */
  | "stem";

/** One output of a row. */
export interface Take {
  readonly kind: FactCategory;
  /** The group the value is in (default `value`; the text after the match when absent). */
  readonly group?: string | number;
  /** A fixed value (the match alone says it: "I work from home" → remote). */
  readonly value?: string;
  /** Removed from the raw value before it is cut ("little", "now …"). */
  readonly drop?: Pattern;
  /** Cut at this stop set, keeping at most this many words. */
  readonly cut?: readonly [Stop, number];
  /**
   * A list of items, each its own value: `true` an English list ("sushi, ramen and tacos"),
   * `before` the Korean items joined to the head ("땅콩이랑 새우"), `split` a Korean list
   * value ("등산이랑 독서").
   */
  readonly list?: boolean | "before" | "split";
  /**
   * Korean: the value is the head noun before the verb, the group token being the word right
   * before it (korean-values.ts headBefore), with one of these particles; `bare` says whether
   * a token without one counts ("no"; "place": only a place name; "notHave": not before 있다),
   * `only` the one particle it must have, `orTopic` falls back to the clause's topic.
   */
  readonly head?: {
    readonly particles: readonly string[];
    readonly max: number;
    readonly bare?: "no" | "place" | "notHave";
    readonly only?: string;
    readonly orTopic?: boolean;
  };
  /** Korean: these particles (or any) stripped from the value; `copula` strips its copula. */
  readonly strip?: readonly string[] | "any";
  readonly copula?: boolean;
  /** The group holding the name of a member ("준호를 남편이라고 부르"). */
  readonly named?: string;
  /** When this group matched, it is added after `join` ("camping" + " in " + "Yosemite"). */
  readonly suffix?: { readonly group: string; readonly join: string };
  /** A leading article or possessive dropped ("the beach" → beach). */
  readonly article?: boolean;
  readonly lower?: boolean;
  readonly map?: ValueMap;
  readonly read?: Reader;
  /** Patterns the value must not match, and patterns it must match one of. */
  readonly reject?: readonly Pattern[];
  readonly accept?: readonly Pattern[];
  readonly checks?: readonly Check[];
  /** After the value, "at/for/with X" names the workplace too. */
  readonly thenOrg?: boolean;
  /** Further items of a list after the match, each read by this pattern's `value` group. */
  readonly more?: Pattern;
  /** The form, key and slot of the candidate (build.ts); `key` "favorite" reads group `slot`. */
  readonly form?: CandidateForm;
  readonly key?: string;
  readonly slot?: string;
  /**
   * When this optional group matched (or, without a group, the `topic` reader read a
   * location), the candidate takes this form and key.
   */
  readonly formIf?: { readonly group?: string; readonly form: CandidateForm; readonly key: string };
  /** The clause is kept as the fact's detail (family, plan, health). */
  readonly detail?: boolean;
}

/** A cue row: a pattern and what it gives. */
export interface Rule extends Take {
  readonly lang: FactLang;
  /** The pattern, with its need words (regex.ts `pattern(source, flags, need)`). */
  readonly pattern: Pattern;
  /**
   * Who must be the subject: the speaker (the default; English: I, my, we …), nobody
   * ("Priya here!", a casual introduction without "I"), or either ("Starting Monday as a PM").
   */
  readonly subject?: "self" | "none" | "any";
  /** Patterns (or named conditions) the whole clause must match too ("lately" for a switch). */
  readonly when?: readonly (Pattern | ClauseCheck)[];
  /** Patterns the whole clause must not match (reported speech, another row's cue). */
  readonly unless?: readonly Pattern[];
  /** More outputs of each match. */
  readonly also?: readonly Take[];
  /** A retraction row: the value is what the clause takes back. */
  readonly retract?: boolean;
  /** A retraction row: the fact id it retires (the kind when absent). */
  readonly id?: string;
  /** A retraction row: without a usable value it retires the whole slot. */
  readonly bare?: boolean;
  /** A clause the row reads and what it gives ("job=nurse"; "-residence=Seattle" for a retraction). */
  readonly example: readonly [string, ...string[]];
  /** Close paraphrases of the example, each with what it gives (run by the unit test too). */
  readonly paraphrases?: readonly (readonly [string, ...string[]])[];
}

let stopWords: ReadonlySet<string> | undefined;
const firstWord = (value: string): string => CUT_RE1.split(value)[0] ?? "";

const NOT_CASUAL_NAME = pattern(
  "^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|me|him|her|that|this|there|here)$",
  "",
  "april|august|december|february|friday|her|him|january|july|june|march|may|me|monday|november|october|saturday|september|sunday|that|this|thursday|tuesday|wednesday",
);

/**
 * "I'm in Chicago." is where the user is, unless the sentence says it is a visit (today, this
 * week, for work, visiting, on a trip…).
 */
const VISIT_CUE = pattern(
  String.raw`\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|month|morning|afternoon|evening)|right now|at the moment|for\s+(?:a|the|work|business|vacation|holiday|now)|visiting|on\s+(?:a\s+)?(?:trip|vacation|holiday|business)|until|till|staying|travell?ing|layover|transit|stuck)\b`,
  "i",
  "afternoon|at the moment|business|evening|for|holiday|layover|month|morning|right now|staying|stuck|till|today|tomorrow|tonight|transit|traveling|travelling|trip|until|vacation|visiting|week",
);

/** Fields of work and other words "I'm in …" can end with that are no place. */
const NOT_PLACES = new Set(
  "IT HR PR QA Sales Marketing Finance Accounting Engineering Tech Operations Ops Product Design Support Legal Research Admin Management Retail Healthcare Education Law Medicine Charge Love Trouble Class School College Bed Town Time Public Office".split(
    " ",
  ),
);

const EVENT_NEED =
  "appointment|audition|ceremony|check-up|checkup|class|concert|conference|date|deadline|dinner|exam|flight|game|graduation|hearing|hike|holiday|interview|lesson|lunch|marathon|match|meeting|move|operation|party|performance|presentation|race|recital|reservation|reunion|show|surgery|test|tournament|trip|vacation|visit|wedding";
export const EVENT_WORDS = pattern(`\\b(?:${EVENTS_EN})\\b`, "i", EVENT_NEED);
const CONDITION = pattern(
  `^(?:${CONDITIONS_EN})$`,
  "i",
  "a bad back|a bad knee|a heart condition|a herniated disc|acid reflux|adhd|allergies|anemia|anxiety|arthritis|asthma|autism|back pain|cancer|celiac|chronic pain|crohn's|depression|diabetes|dyslexia|eczema|epilepsy|fibromyalgia|gerd|glaucoma|gluten intolerance|gout|heart disease|high blood pressure|high cholesterol|hypertension|hypothyroidism|ibs|insomnia|lactose intolerance|long covid|low blood pressure|lupus|migraine|ms|multiple sclerosis|palpitations|pcos|psoriasis|scoliosis|sleep apnea|thyroid issues|tinnitus",
);
const CAPITALISED = pattern("^[A-Z]");
const NAME_CAPITAL = pattern("^[A-Z][a-z]");

interface Context {
  readonly text: string;
  readonly match: RegExpExecArray;
  readonly lang: FactLang;
}

const CHECKS: Readonly<Record<Check, (value: string, at: Context) => boolean>> = {
  /** Starts with a capital ("Acme" is a workplace, "marketing" a field of work). */
  capitalised: (value) => CAPITALISED.test(value),
  lowercase: (value) => !CAPITALISED.test(value),
  /** A name: capitalised, or framed by a greeting (`greet`) or an aside (`aside`). */
  introduced: (value, { match }) =>
    NAME_CAPITAL.test(value) ||
    match.groups?.greet !== undefined ||
    match.groups?.aside !== undefined,
  /** Not a common word, nationality, job word or relation ("I'm Tired", "I'm Korean"). */
  notTaken: (value) => {
    const lower = firstWord(value).toLowerCase();
    return (
      !NOT_NAMES_EN.has(lower) &&
      NATIONALITIES[lower] === undefined &&
      !JOB_HEADS_EN.has(lower) &&
      relationOf(lower) === undefined
    );
  },
  /** Not a common word, nationality, day, month or pronoun ("Monday here"). */
  notCommonWord: (value) => {
    const lower = value.toLowerCase();
    return (
      !NOT_NAMES_EN.has(lower) && NATIONALITIES[lower] === undefined && !NOT_CASUAL_NAME.test(lower)
    );
  },
  /** "my name's on the list": a lower-case function word (`stopword`'s list) first. */
  notFunctionWord: (value) => {
    stopWords ??= new Set(eng);
    const first = firstWord(value);
    return first !== first.toLowerCase() || !stopWords.has(first);
  },
  /** The sentence of the match says nothing of a visit. */
  notVisit: (_value, { text, match }) => {
    const start = Math.max(
      text.lastIndexOf(".", match.index - 1),
      text.lastIndexOf("?", match.index - 1),
    );
    return !VISIT_CUE.test(text.slice(start + 1, match.index + match[0].length));
  },
  /** Not a field of work ("I'm in IT"). */
  notField: (value) => !NOT_PLACES.has(value),
  /** Does not end with a relation ("I have two kids" is family, not a possession). */
  notMember: (value) => relationOf(CUT_RE1.split(value).at(-1) ?? "") === undefined,
  notEvent: (value) => !EVENT_WORDS.test(value),
  notCondition: (value) => !CONDITION.test(value),
  /** Names no language ("I picked up Spanish" is a language fact, languages.ts). */
  notLanguage: (value) => languageCode(value) === undefined,
  /** Has no word that names a language ("learning Spanish slowly"). */
  noLanguageWord: (value) => !CUT_RE1.split(value).some((word) => languageCode(word) !== undefined),
  contentKo: (value) => isContentWord(value),
  placeKo: (value) => isPlaceKo(value),
  notPlaceKo: (value) => !isPlaceKo(value),
  orgKo: (value) => isOrgKo(value),
  jobKo: (value) => isJobKo(value),
  notJobKo: (value) => !isJobKo(value),
  notPossession: (value) => possessionKind(value) === undefined,
  nameLike: (value) => isNameLike(value),
  /** An age: digits or a native Korean numeral ("서른"). */
  ageKo: (value) => DIGITS.test(value) || KOREAN_NUMBER.test(value),
  /** A comparison (더, 제일 …, or "Y보다" before the thing) makes "X가 좋아요" a taste. */
  compared: (_value, { text, match }) =>
    tokensOf(match.groups?.adverbs ?? "").some((word) => COMPARATIVE_KO.has(word)) ||
    (tokensOf(text.slice(0, match.index)).at(-1)?.endsWith("보다") ?? false),
  /** The token before the verb is no time word ("내일 가요"). */
  tokenNotTime: (_value, { match }) => !isTimeWord(match.groups?.value ?? ""),
  /** "남편이랑 살아요": whom the speaker lives with, not where. */
  tokenNotWith: (_value, { match }) =>
    !COMITATIVE.some((particle) => (match.groups?.value ?? "").endsWith(particle)),
  /** "알레르기가 있어요" alone names no allergen. */
  tokenNotAllergy: (_value, { match }) => {
    const token = match.groups?.value ?? "";
    return token !== "" && !ALLERGY_FIRST.test(token);
  },
  /** The token before the verb has no particle. */
  tokenBare: (_value, { match }) => splitParticle(match.groups?.value ?? "")[1] === "",
};

const DIGITS = pattern(String.raw`^\d{1,3}$`);
const COMPARATIVE_KO: ReadonlySet<string> = new Set(["더", "제일", "가장", "젤"]);
const COMITATIVE = ["랑", "하고", "와", "과"];
const ALLERGY_FIRST = pattern(
  "^(?:알레르기|알러지|알레지|알르레기|앨러지)",
  "",
  "알러지|알레르기|알레지|알르레기|앨러지",
);
const SPACES = pattern(String.raw`\s+`, "g");

/** The ways of eating that share the `health:diet` slot ("락토 오보" is 락토). */
const DIET = new RegExp(`^(?:${WAYS_OF_EATING_EN}|${WAYS_OF_EATING_KO}|락토\\s*오보)$`, "i");
const BRAND_VERB = /^(?:drive|ride|own|bought|picked up|am driving)$/i;
const ABSTAIN_VERB = pattern(String.raw`^(?:eat|drink)\s+`, "i", "drink|eat");

/** The mapped value and the key it gives, or undefined when the map rejects it. */
function mapValue(
  map: ValueMap,
  value: string,
  { match }: Context,
): { value: string; key?: string | undefined; form?: CandidateForm } | undefined {
  switch (map) {
    case "nationality": {
      const national = NATIONALITIES[value.toLowerCase()];
      return national === undefined ? undefined : { value: national };
    }
    case "abstain": {
      const thing = `no ${ABSTAIN_VERB.replace(value, "")}`;
      return { value: thing.toLowerCase() === "no drink" ? "no alcohol" : thing };
    }
    case "possession": {
      const thing = match.groups?.thing;
      if (thing !== undefined)
        return { value, key: possessionKind(thing) ?? possessionKind(value) };
      // "I drive a Vespa", "I own a Leica": a brand after drive/ride/own is a possession.
      const verb = match.groups?.verb ?? "";
      const brand = BRAND_VERB.test(verb) && CAPITALISED.test(value);
      const kind = possessionKind(value) ?? (brand && verb.includes("driv") ? "car" : undefined);
      return kind === undefined && !brand ? undefined : { value, key: kind };
    }
    case "member": {
      const words = CUT_RE1.split(value.trim());
      // "guinea pigs": a two-word relation first.
      const relation = relationOf(words.slice(-2).join(" ")) ?? relationOf(words.at(-1) ?? "");
      return relation === undefined
        ? undefined
        : { value: value.trim().toLowerCase(), key: relation };
    }
    case "possessionSlot": {
      const kind = possessionKind(value);
      return { value, key: kind === undefined ? undefined : `possession:${kind}` };
    }
    case "relationKo": {
      const relation = RELATIONS_KO[value];
      return relation === undefined ? undefined : { value, key: relation };
    }
    case "remoteKo":
      return value === "집" || value === "재택" ? { value: "재택", form: "remote" } : { value };
    case "possessionKo": {
      const kind = possessionKind(value);
      return kind === undefined || kind === "home" ? undefined : { value, key: kind };
    }
    case "nationalityKo":
      return { value: NATIONALITIES[SPACES.replace(value, "")] ?? value };
    case "owner":
      return { value: `${value.toLowerCase()} owner` };
    case "jobTitle":
      return { value: JOB_ABBREVIATIONS_EN[value.toLowerCase()] ?? value };
    case "diet":
      return DIET.test(value) ? { value, key: "diet" } : { value };
    case "activity": {
      const words = tokensOf(value);
      const last = words.at(-1) ?? "";
      const activity =
        words.length > 1 && last.endsWith("러") ? words.slice(0, -1).join(" ") : value;
      return isContentWord(activity) ? { value: activity } : undefined;
    }
  }
}

const JOB_PUNCT = pattern("[,.;!?]+$", "", "!|,|.|;|?");
const ENDS_SENTENCE = pattern("[,.;!?]$", "", "!|,|.|;|?");
// "a night person", not "a night-shift nurse" (the shift a worker is on).
const NOT_A_JOB = pattern(
  String.raw`\b(?:fan|lover|bit|lot|kind|sort|type|night(?![- ]?shifts?\b)|morning(?![- ]?shifts?\b)|big|huge)\b`,
  "i",
  "big|bit|fan|huge|kind|lot|lover|morning|night|sort|type",
);
const ORG_AFTER = pattern(String.raw`^\s*(?:at|for|with)\s+`, "i", "at|for|with");
const PROFESSION = pattern("^[a-z]{3,}(?:ist|ician|ologist|grapher)s?$", "", "grapher|ician|ist");
const CHARACTER = pattern(
  "^(?:optimist|pessimist|realist|idealist|perfectionist|minimalist|extremist|narcissist|racist|sexist|purist|specialist|artist)s?$",
  "",
  "artist|extremist|idealist|minimalist|narcissist|optimist|perfectionist|pessimist|purist|racist|realist|sexist|specialist",
);

/** A job head noun, or a profession by its suffix ("hygienist", "optician"), not a character. */
function isJobHead(word: string): boolean {
  const lower = word.toLowerCase();
  if (JOB_HEADS_EN.has(lower)) return true;
  if (lower.endsWith("s") && JOB_HEADS_EN.has(lower.slice(0, -1))) return true;
  return PROFESSION.test(lower) && !CHARACTER.test(lower);
}

/** "senior engineer at Acme, …": the words up to the head noun, and what follows it. */
function jobHead(rest: string): { value: string; after: string } | undefined {
  const words = CUT_RE1.split(rest).slice(0, 6);
  for (let i = 0; i < words.length; i++) {
    const written = words[i] ?? "";
    if (!isJobHead(JOB_PUNCT.replace(written, ""))) {
      if (ENDS_SENTENCE.test(written)) return undefined;
      continue;
    }
    const value = JOB_PUNCT.replace(words.slice(0, i + 1).join(" "), "");
    if (NOT_A_JOB.test(value)) return undefined;
    // The workplace only when "at/for/with" comes within the first six words.
    const ends = ENDS_SENTENCE.test(written) || i + 1 >= words.length;
    const after = ends
      ? ""
      : CUT_RE1.split(rest)
          .slice(i + 1)
          .join(" ");
    return { value, after };
  }
  return undefined;
}

/** Plan verbs whose object alone names the plan ("visiting Tokyo" → Tokyo). */
const OBJECT_ONLY = pattern(
  "^(?:visiting|renovating|expecting|attending|adopting|buying|getting|picking up|training for|preparing for|studying for|competing in|flying out for)$",
  "",
  "adopting|attending|buying|competing in|expecting|flying out for|getting|picking up|preparing for|renovating|studying for|training for|visiting",
);
const BABY_OR_PARTY = pattern("baby|party", "i", "baby|party");

function planVerb(match: RegExpExecArray): string | undefined {
  const verb = (match.groups?.verb ?? "").toLowerCase();
  const object = cut(match.groups?.object ?? "", PLAN_STOP, 4);
  if (verb === "getting married") return "wedding";
  if (verb === "having" && !EVENT_WORDS.test(object) && !BABY_OR_PARTY.test(object)) {
    return undefined;
  }
  if (object === "") return verb;
  return OBJECT_ONLY.test(verb) ? object : `${verb} ${object}`;
}

const SPEAKER_KO: ReadonlySet<string> = new Set(SPEAKER_WORDS_KO);
const NOT_CHARGE = pattern(
  "^(?:회사|집안|많은|이런|그런|무슨|여러|같은|다른|그)$",
  "",
  "같은|그|다른|많은|무슨|여러|이런|집안|회사",
);
const TEACHING_PLACE = pattern(
  "(?:(학교|유치원|어린이집)|(학원|대학|대학교|대학원|센터|스튜디오|체육관|도장|교습소))$",
  "",
  "교|도장|센터|스튜디오|원|집|체육관|학",
);
const NAMED_EVENT = pattern("^[가-힣A-Za-z0-9]+$");
const TRAVEL_EVENT = pattern("이사|여행|출장", "", "여행|이사|출장");
const REASON_WORDS: ReadonlySet<string> = new Set([...SPEAKER_WORDS_KO, "요즘", "요새", ""]);

/** The values of a Korean reader in a match (`raw` is the group or the text after the match). */
function readKo(
  read: Reader,
  raw: string,
  { text, match }: Context,
  strip: readonly string[] | undefined,
): string[] {
  const one = (value: string | undefined): string[] => (value === undefined ? [] : [value]);
  switch (read) {
    case "copulaRest":
      return one(copulaRest(raw));
    case "copulaOrWord":
      return one(copulaRest(raw) ?? (isContentWord(raw) ? raw : undefined));
    case "bareName":
      return one(nounOfCopula(raw) ?? (PREDICATE_END.test(raw) ? undefined : raw));
    case "ownName": {
      const second = match.groups?.second;
      return [
        raw.length === 1 && second !== undefined
          ? `${raw} ${stripCopula(second)}`
          : stripCopula(raw),
      ];
    }
    case "jobWords": {
      const tokens = tokensOf(text);
      const out: string[] = [];
      tokens.forEach((token, index) => {
        const noun = nounOfCopula(token) ?? connectiveCopula(token);
        if (noun !== undefined && isJobKo(noun)) out.push(nounPhrase(tokens, index, noun, 2));
      });
      return out;
    }
    case "jobPhrase": {
      if (!isJobKo(raw)) return [];
      const before = tokensOf(text.slice(0, match.index));
      return [nounPhrase(before, before.length, raw, 1)];
    }
    case "charge": {
      const words = tokensOf(raw).filter((word) => !NOT_CHARGE.test(word) && !SPEAKER_KO.has(word));
      const value = words.map((word) => stripParticle(word)).join(" ");
      return words.length > 0 && splitParticle(words.at(-1) ?? "")[1] === "" ? [value] : [];
    }
    case "teach": {
      const kind = TEACHING_PLACE.exec(raw);
      if (kind === null || !isContentWord(raw)) return [];
      return [`${raw} ${kind[1] !== undefined ? "교사" : "강사"}`];
    }
    case "event": {
      const prefix = match.groups?.prefix ?? "";
      if (prefix !== "" && !NAMED_EVENT.test(prefix)) return [];
      const before = tokensOf(text.slice(0, match.index));
      const previous = before.at(-1) ?? "";
      const [stem, particle] = splitParticle(previous, ["으로", "로", "에"]);
      const value = `${prefix}${raw}`;
      if (
        particle !== "" &&
        isContentWord(stem) &&
        !isTimeWord(previous) &&
        TRAVEL_EVENT.test(raw)
      ) {
        return [`${stem} ${value}`];
      }
      if (particle === "" && isContentWord(previous) && !isTimeWord(previous)) {
        return [nounPhrase(before, before.length, value, 1)];
      }
      return [value];
    }
    case "stem": {
      const [stem, particle] = splitParticle(raw, strip);
      return particle === "" ? [] : [stem];
    }
    case "words": {
      const words = tokensOf(raw).filter((word) => !STOP_KO.has(word) && !REASON_WORDS.has(word));
      return words.length === 0 ? [] : [words.join(" ")];
    }
    default:
      return [];
  }
}

/** What a take reads in a match: its values, and whether a topic value was a location. */
interface Read {
  readonly values: string[];
  /** The values were checked already (a Korean head before its list). */
  readonly checked?: boolean;
  readonly located?: boolean;
}

/** Korean: the head noun before the verb (see Take.head), and its list. */
function readHead(take: Take, at: Context): Read {
  const spec = take.head;
  const token = rawValue(take, at) ?? "";
  if (spec === undefined) return { values: [] };
  let head = headBefore(at.text, at.match.index, token, spec.particles, spec.max);
  if (head === undefined && spec.orTopic === true) head = reasonTopic(at.text, token);
  if (head === undefined) return { values: [] };
  if (head.particle === "") {
    if (spec.bare === "no") return { values: [] };
    // "인천 부평 살아요": a district no table knows, inside a city the table knows.
    if (
      spec.bare === "place" &&
      !isPlaceKo(stripParticle(token)) &&
      !isPlaceKo(head.value.split(/\s+/)[0] ?? "")
    ) {
      return { values: [] };
    }
    if (spec.bare === "notHave" && at.match[0].slice(token.length).includes("있")) {
      return { values: [] };
    }
  }
  if (spec.only !== undefined && head.particle !== spec.only) return { values: [] };
  if (take.list !== "before") return { values: [head.value] };
  if (!passes(take, head.value, at)) return { values: [] };
  return { values: listBefore(at.text, at.match.index, head.value), checked: true };
}

/** The raw value of a take in a match: fixed, a group, or the text after the match. */
function rawValue(take: Take, at: Context): string | undefined {
  if (take.value !== undefined) return take.value;
  const { match, text } = at;
  if (typeof take.group === "number") return match[take.group];
  const group = take.group ?? "value";
  if (match.groups !== undefined && group in match.groups) return match.groups[group];
  return text.slice(match.index + match[0].length);
}

/** The values a take gives in a match, before the checks. */
function valuesOf(take: Take, at: Context, out: Candidate[], lang: FactLang): Read {
  if (take.read === "planVerb") {
    const value = planVerb(at.match);
    return { values: value === undefined ? [] : [value] };
  }
  if (take.head !== undefined) return readHead(take, at);
  let raw = rawValue(take, at);
  if (raw === undefined) return { values: [] };
  if (take.drop !== undefined) raw = take.drop.replace(raw, "");
  const strip = take.strip === "any" ? undefined : take.strip;
  if (take.strip !== undefined && take.read !== "stem") raw = stripParticle(raw, strip);
  if (take.copula === true) raw = stripCopula(raw);
  if (take.read === "jobHead") {
    const head = jobHead(raw);
    if (head === undefined) return { values: [] };
    if (take.thenOrg === true) orgAfter(head.after, out, lang);
    return { values: [head.value] };
  }
  if (take.read === "topic") {
    const topic = topicValue(raw);
    return topic === undefined ? { values: [] } : { values: [topic.value], located: topic.located };
  }
  if (take.read !== undefined) {
    const values = readKo(take.read, raw, at, strip);
    return { values: take.list === "split" ? values.flatMap(splitList) : values };
  }
  if (take.list === true) return { values: items(raw) };
  let value = take.cut === undefined ? raw.trim() : cut(raw, STOPS[take.cut[0]], take.cut[1]);
  const suffix = take.suffix === undefined ? undefined : at.match.groups?.[take.suffix.group];
  if (suffix !== undefined && take.suffix !== undefined)
    value = `${value}${take.suffix.join}${suffix}`;
  if (take.article === true) value = LEADING.replace(value, "");
  return { values: [take.lower === true ? value.toLowerCase() : value] };
}

/** "… at Acme": the workplace after a job. */
function orgAfter(after: string, out: Candidate[], lang: FactLang): void {
  const org = ORG_AFTER.exec(after);
  if (org === null) return;
  const place = cut(after.slice(org[0].length), PLACE_STOP, 5);
  if (usable(place)) out.push({ category: "workplace", value: place, lang });
}

function passes(take: Take, value: string, at: Context): boolean {
  // An English value is a word, not a pronoun; a member value is its relation word ("son"),
  // which the map already checked. Korean rows check content words by name (contentKo).
  const english = at.lang === "en" && take.value === undefined && take.map !== "member";
  if (english && !usable(value)) return false;
  if (take.reject?.some((p) => p.test(value)) === true) return false;
  if (take.accept !== undefined && !take.accept.some((p) => p.test(value))) return false;
  return take.checks?.every((check) => CHECKS[check](value, at)) ?? true;
}

/** The candidates of one take in one match. */
function readTake(take: Take, at: Context, lang: FactLang, out: Candidate[]): void {
  const later: Candidate[] = [];
  const read = valuesOf(take, at, later, lang);
  for (const written of read.values) {
    let value = written;
    let key = take.key;
    let form = take.form;
    if (take.map !== undefined) {
      const mapped = mapValue(take.map, value, at);
      if (mapped === undefined) continue;
      value = mapped.value;
      key = mapped.key ?? key;
      form = mapped.form ?? form;
    }
    if (read.checked !== true && !passes(take, value, at)) continue;
    if (key === "favorite") {
      const written = at.match.groups?.slot;
      const slot =
        written === undefined ? (take.slot ?? "") : written.toLowerCase().replace(/s$/, "");
      out.push({ category: take.kind, value, lang, key: `favorite:${slot}`, form, slot });
      continue;
    }
    const group = take.formIf?.group;
    const located =
      group === undefined ? read.located === true : at.match.groups?.[group] !== undefined;
    if (take.formIf !== undefined && located) {
      form = take.formIf.form;
      key = take.formIf.key;
    }
    const candidate: Candidate = { category: take.kind, value, lang };
    if (key !== undefined) candidate.key = key;
    if (form !== undefined) candidate.form = form;
    if (take.slot !== undefined) candidate.slot = take.slot;
    if (take.detail === true) candidate.detail = at.text;
    const name = take.named === undefined ? undefined : at.match.groups?.[take.named];
    if (name !== undefined) candidate.name = name;
    out.push(candidate);
    if (take.thenOrg === true && take.read === undefined) {
      const rest = at.match.groups?.value === undefined ? (rawValue(take, at) ?? "") : "";
      orgAfter(rest.slice(rest.indexOf(written) + written.length), out, lang);
    }
  }
  out.push(...later);
  if (take.more !== undefined) {
    let rest = at.text.slice(at.match.index + at.match[0].length);
    for (let next = take.more.exec(rest); next !== null; next = take.more.exec(rest)) {
      readTake({ ...take, more: undefined }, { ...at, match: next }, lang, out);
      rest = rest.slice(next[0].length);
    }
  }
}

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
const RECENTLY: ReadonlySet<string> = new Set([
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
const SPEAKER_FIRST = pattern(
  "^(?:(?:안녕하세요|안녕하십니까|안녕|반가워요|반갑습니다)[.,!~]*\\s*)?(?:저는|전|나는|난|저|나)\\s",
  "",
  "나|난|저|전",
);

const CLAUSE_CHECKS: Readonly<Record<ClauseCheck, (text: string) => boolean>> = {
  selfish: (text) => SPEAKER_FIRST.test(text) || tokensOf(text).length <= 2,
  habitual: (text) => tokensOf(text).some((token) => token.endsWith("마다") || HABITUAL.has(token)),
  notHabitual: (text) => !CLAUSE_CHECKS.habitual(text),
  recently: (text) => tokensOf(text).some((token) => RECENTLY.has(token)),
};

/** Whether the clause meets every `when` and no `unless` of the row (each tested once a clause). */
function whenHolds(rule: Rule, text: string, seen: Map<Pattern | ClauseCheck, boolean>): boolean {
  const holds = (p: Pattern | ClauseCheck): boolean => {
    let result = seen.get(p);
    if (result === undefined) {
      result = typeof p === "string" ? CLAUSE_CHECKS[p](text) : p.test(text);
      seen.set(p, result);
    }
    return result;
  };
  if (rule.when !== undefined && !rule.when.every(holds)) return false;
  return rule.unless === undefined || !rule.unless.some(holds);
}

/** A row and the ids of its need words (lower case: a superset of a case-sensitive pattern's). */
interface Ready {
  readonly rule: Rule;
  readonly needs: readonly (readonly number[])[] | null;
}

/** A table made ready: its fact rows, its retraction rows, and the automaton of their words. */
interface Table {
  readonly facts: readonly Ready[];
  readonly retractions: readonly Ready[];
  readonly words: NeedWords;
  readonly seen: Uint8Array;
  /** The clause `seen` was scanned for (its facts and its retractions read the same clause). */
  scanned: string;
}

const TABLES = new WeakMap<readonly Rule[], Table>();

/** The table of a list of rows, made once per list. */
function tableOf(rules: readonly Rule[]): Table {
  let table = TABLES.get(rules);
  if (table === undefined) {
    const words = new NeedWords();
    const rows = rules.map((rule) => ({
      rule,
      needs:
        rule.pattern
          .needGroups()
          ?.map((group) => group.map((word) => words.id(word.toLowerCase()))) ?? null,
    }));
    table = {
      facts: rows.filter((row) => row.rule.retract !== true),
      retractions: rows.filter((row) => row.rule.retract === true),
      words,
      seen: new Uint8Array(words.size),
      scanned: "",
    };
    TABLES.set(rules, table);
  }
  return table;
}

function scan(table: Table, text: string): void {
  if (table.scanned === text && text !== "") return;
  table.words.scan(text.toLowerCase(), table.seen);
  table.scanned = text;
}

/**
 * Whether the clause has a word of each of the row's need groups (`seen`: NeedWords.scan):
 * checked before every run, as the expression of a row that cannot match costs more.
 */
function hasNeeds(needs: readonly (readonly number[])[] | null, seen: Uint8Array): boolean {
  if (needs === null) return true;
  for (const words of needs) {
    let found = false;
    for (let i = 0; i < words.length && !found; i++) found = seen[words[i] as number] === 1;
    if (!found) return false;
  }
  return true;
}

/** The candidates the rows give on a prepared clause (English: englishClause). */
export function runRules(rules: readonly Rule[], text: string, self: boolean): Candidate[] {
  const out: Candidate[] = [];
  const table = tableOf(rules);
  scan(table, text);
  const seen = new Map<Pattern | ClauseCheck, boolean>();
  for (const { rule, needs } of table.facts) {
    if (rule.subject !== "any" && (rule.subject === "none") === self) continue;
    if (!hasNeeds(needs, table.seen) || !whenHolds(rule, text, seen)) continue;
    for (const match of rule.pattern.all(text)) {
      const at = { text, match, lang: rule.lang };
      readTake(rule, at, rule.lang, out);
      for (const take of rule.also ?? []) readTake(take, at, rule.lang, out);
    }
  }
  return out;
}

/** What the retraction rows take back in a prepared clause. */
export function runRetractions(rules: readonly Rule[], text: string): Retraction[] {
  const out: Retraction[] = [];
  const table = tableOf(rules);
  scan(table, text);
  const seen = new Map<Pattern | ClauseCheck, boolean>();
  for (const { rule, needs } of table.retractions) {
    if (!hasNeeds(needs, table.seen) || !whenHolds(rule, text, seen)) continue;
    for (const match of rule.pattern.all(text)) {
      const at = { text, match, lang: rule.lang };
      const id = rule.id;
      if (rule.value !== undefined) {
        out.push({ category: rule.kind, id });
        continue;
      }
      const values = valuesOf(rule, at, [], rule.lang).values.filter((v) => passes(rule, v, at));
      if (values.length === 0 && rule.bare === true) out.push({ category: rule.kind, id });
      for (const value of values) {
        const slot = rule.map === "possessionSlot" ? mapValue(rule.map, value, at)?.key : undefined;
        if (slot !== undefined) out.push({ category: rule.kind, id: slot });
        else
          out.push(
            id === undefined ? { category: rule.kind, value } : { category: rule.kind, value, id },
          );
      }
    }
  }
  return out;
}
