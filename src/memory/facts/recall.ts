/**
 * Recall (R8.2): the facts that match a follow-up question, at most k, best first.
 *
 * A fact scores by
 * - intent: keywords of the question in Korean and English mapped to categories with a
 *   weight ("어디 살" / "사는 곳" / "where do I live" / "near me" → residence; "저녁 뭐
 *   먹" / "recipe" → allergy, dislike, preference, health), so a Korean question finds
 *   an English fact and the other way round;
 * - value: the question names the fact's value ("부산 날씨 어때?" → the 부산 fact), its
 *   family relation in either language ("아내" ↔ wife), its possession kind ("차" ↔
 *   Tesla) or its favorite slot ("색" ↔ color).
 * Facts below {@link MIN_SCORE} are never returned: a question that matches nothing gets
 * [] rather than padding. Ties go to the more recent fact (later in the list).
 */

import { splitWords } from "../letters.ts";
import { rankCandidates } from "../recall/bm25.ts";
import { queryTerms, searchTerms } from "../recall/terms.ts";
import { isNativeLanguage } from "./build.ts";
import { HEALTH_GATES, open } from "./gates.ts";
import { languagesIn } from "./languages.ts";
import {
  CHILD_RELATIONS,
  CONDITIONS_KO,
  DIET_KO,
  PET_RELATIONS,
  PLACE_ALIASES,
  RELATIONS_EN,
  RELATIONS_KO,
  SIBLING_RELATIONS,
} from "./lexicon.ts";
import { pattern } from "./regex.ts";
import { SLOTS as SLOT_TABLE } from "./slots.ts";
import type { Fact, FactCategory } from "./types.ts";
import { FACT_CATEGORIES, valueKey } from "./types.ts";

export const MIN_SCORE = 0.5;

interface Intent {
  /** Category → weight. */
  cats: Partial<Record<FactCategory, number>>;
  /** Fact id → weight (overrides the category weight when higher). */
  ids?: Record<string, number>;
  /** Fact id prefix → weight ("other:language:" for every language). */
  prefixes?: Record<string, number>;
  /** Korean phrases, matched on the question without spaces. */
  ko?: readonly string[];
  /** Korean nouns, matched as whole words (particles stripped). */
  koNouns?: readonly string[];
  /** English words or phrases, matched on word boundaries. */
  en?: readonly string[];
}

/** A question about the user's own language ("what's my first language?", "모국어가 뭐야?"). */
const NATIVE_CUES_KO = ["모국어", "원어민", "네이티브", "제1언어", "첫언어"];
const NATIVE_CUES_EN = ["native", "first language", "mother tongue", "grew up speaking"];

/** What a native language adds for such a question: enough to rank it above the others. */
const NATIVE_BONUS = 0.5;

/** Food questions: what the user must not eat comes first, then tastes. */
const FOOD = { allergy: 1.1, health: 1, dislike: 0.95, preference: 0.9 } as const;

/** The slot table's question cues (slots.ts), category words included. */
const SLOT_INTENTS: readonly Intent[] = SLOT_TABLE.flatMap((row) =>
  row.questions.map((cue) => {
    const intent: Intent = { cats: cue.asks, ko: cue.ko, en: cue.en };
    if (cue.prefixes !== undefined) intent.prefixes = { ...cue.prefixes };
    return intent;
  }),
);

const KEYWORD_INTENTS: readonly Intent[] = [
  {
    cats: { residence: 1 },
    ko: [
      "어디살",
      "어디에살",
      "어디사",
      "어디산",
      "어디삽",
      "어디서살",
      "어디에산",
      "사는곳",
      "사는데가",
      "사는동네",
      "살고있",
      "거주",
      "이사",
      "주소",
      "집이어디",
      "우리집",
      "사는도시",
      "사는지역",
      "사는나라",
      "어디에서살",
    ],
    koNouns: ["동네", "도시"],
    en: [
      "where do i live",
      "where i live",
      "where am i living",
      "live",
      "living",
      "home",
      "address",
      "city",
      "town",
      "moved",
      "reside",
      "neighborhood",
      "neighbourhood",
      "move",
    ],
  },
  {
    cats: { residence: 1 },
    ids: { "residence:hometown": 1.4 },
    ko: ["고향", "출신", "자란곳", "태어난", "어디서자랐"],
    en: [
      "hometown",
      "grew up",
      "grow up",
      "raised",
      "originally",
      "born",
      "where am i from",
      "where i'm from",
      "where im from",
    ],
  },
  {
    cats: { residence: 1.2, workplace: 0.3 },
    ko: ["근처", "가까운", "주변", "여기서", "이근처", "동네"],
    en: [
      "near me",
      "nearby",
      "around here",
      "local",
      "close to me",
      "in my area",
      "my city",
      "my town",
      "near where",
      "near my place",
      "near my house",
      "near my home",
      "near my apartment",
      "near my flat",
      "close to home",
      "my neighborhood",
      "my neighbourhood",
    ],
  },
  {
    cats: { residence: 0.7, plan: 0.6 },
    ko: ["날씨", "비와", "비오", "우산", "기온", "미세먼지"],
    en: ["weather", "rain", "umbrella", "temperature", "forecast"],
  },
  {
    cats: { workplace: 1.1, job: 0.6 },
    ko: [
      "회사",
      "직장",
      "근무",
      "출근",
      "퇴근",
      "사무실",
      "일하는곳",
      "다니는곳",
      "어디서일",
      "어디에서일",
      "회사생활",
      "동료",
      "상사",
      "야근",
      "재택",
      "집에서일",
      "가게",
      "매장",
      "사업",
      "장사",
      "손님",
    ],
    en: [
      "office",
      "company",
      "employer",
      "workplace",
      "where do i work",
      "where i work",
      "commute",
      "coworker",
      "coworkers",
      "colleague",
      "colleagues",
      "boss",
    ],
  },
  {
    // A commute runs between home and work: both ends matter.
    cats: { residence: 1, workplace: 1 },
    ko: ["출퇴근", "통근", "출근길", "퇴근길"],
    en: ["commute", "commuting"],
  },
  {
    cats: { job: 1, workplace: 0.6 },
    ko: [
      "직업",
      "무슨일",
      "하는일",
      "일뭐",
      "커리어",
      "경력",
      "이직",
      "자격증",
      "포트폴리오",
      "이력서",
      "업무",
      "직무",
      "일하는데",
      // What happens while working is about the job more than the place.
      "일할때",
      "일하다",
      "일하면서",
      "일관련",
      "일이랑관련",
      // Teaching work: a teacher's question names the class, not the job.
      "수업",
      "강의",
      "학생들",
      "학부모",
      "교실",
    ],
    en: [
      "job",
      "work",
      "career",
      "profession",
      "occupation",
      "for a living",
      "what do i do",
      "resume",
      "portfolio",
      "skills",
      "certification",
      "my field",
      "work as",
      "clients",
      "shifts",
      "at work",
      "lesson",
      "lessons",
      "lecture",
      "lectures",
      "classroom",
      "my students",
      "my pupils",
      "teaching",
    ],
  },
  {
    cats: { name: 1 },
    ko: [
      "이름",
      "뭐라고불러",
      "날뭐라고",
      "나를뭐라고",
      "호칭",
      "별명",
      "애칭",
      "내가누구",
      "나누구",
      // 누군지 ("나 누군지 알아?"): 누구 with the ending fused into its last syllable.
      "나누군지",
      "내가누군지",
      "저누군지",
      "제가누군지",
    ],
    en: ["name", "nickname", "call me", "who am i", "who i am", "what to call me"],
  },
  {
    cats: { family: 1 },
    ko: ["가족", "결혼", "배우자", "육아", "입학"],
    koNouns: Object.keys(RELATIONS_KO),
    en: ["family", "married", "spouse", "parenting", ...Object.keys(RELATIONS_EN)],
  },
  {
    cats: { family: 1, allergy: 0.6, preference: 0.5 },
    // 키우/키울/키워: raising one ("새 키울 때"); a child named in the question is a relation too.
    ko: [
      "반려",
      "애완",
      "펫",
      "입양",
      "산책",
      "모이",
      "사료",
      "동물병원",
      "배변",
      "목줄",
      "키우",
      "키울",
      "키워",
    ],
    en: ["pet", "pets", "adopt", "vet", "treats", "crate", "leash", "litter", "kibble", "groomer"],
  },
  {
    cats: { health: 1, allergy: 0.8 },
    ko: [
      "건강",
      "병원",
      "약",
      "질환",
      "진료",
      "운동",
      "다이어트",
      "혈당",
      "혈압",
      "당뇨",
      "채식",
      "비건",
      "임신",
      "술",
      "마셔도",
      "먹어도",
      "식단",
      "디저트",
      "단거",
      "단것",
    ],
    en: [
      "health",
      "healthy",
      "doctor",
      "medicine",
      "medication",
      "diet",
      "exercise",
      "workout",
      "sugar",
      "blood",
      "symptoms",
      "safe for me",
      "okay for me",
      "ok for me",
      "vegan",
      "vegetarian",
      "alcohol",
      "dessert",
      "sweets",
    ],
  },
  {
    cats: { allergy: 1, health: 0.7, dislike: 0.5 },
    ko: ["알레르기", "알러지", "못먹", "먹으면안", "먹어도돼", "먹어도될", "괜찮을까"],
    en: ["allergic", "allergy", "allergies", "can't eat", "cannot eat", "safe to eat"],
  },
  {
    cats: FOOD,
    ko: [
      "먹",
      "음식",
      "메뉴",
      "요리",
      "레시피",
      "식당",
      "맛집",
      "간식",
      "디저트",
      "야식",
      "주문",
      "배달",
      "외식",
      "회식",
      "반찬",
      "마실",
      "음료",
      "카페",
      "빵",
      "과자",
      "케이크",
      "해산물",
      "시킬",
      "샐러드",
      "재료",
      // Kinds of food and shopping for it.
      "과일",
      "채소",
      "야채",
      "장보",
      "장볼",
      "도시락",
      "샌드위치",
      "김밥",
      "찌개",
      "라면",
    ],
    en: [
      "eat",
      "eating",
      "food",
      "meal",
      "menu",
      "dinner",
      "lunch",
      "breakfast",
      "snack",
      "snacks",
      "dessert",
      "recipe",
      "cook",
      "cooking",
      "restaurant",
      "restaurants",
      "order",
      "drink",
      "cafe",
      "bakery",
      "takeout",
      "dish",
      "dishes",
      "cuisine",
      "grocery",
      "groceries",
      "bbq",
      "pack his lunch",
      "milkshake",
      // Kinds of food and making it.
      "sandwich",
      "sandwiches",
      "salad",
      "soup",
      "fruit",
      "vegetables",
      "veggies",
      "bake",
      "baking",
      "pizza",
      "pasta",
      "burger",
    ],
  },
  {
    cats: { preference: 1, dislike: 0.9 },
    ko: [
      "영화",
      "드라마",
      "음악",
      "노래",
      "책",
      "게임",
      "볼만한",
      "들을만한",
      "공연",
      "플레이리스트",
      "넷플릭스",
    ],
    en: [
      "movie",
      "movies",
      "film",
      "films",
      "show",
      "shows",
      "music",
      "song",
      "songs",
      "book",
      "books",
      "read",
      "watch",
      "playlist",
      "game",
      "games",
      "concert",
    ],
  },
  {
    cats: { preference: 0.9, family: 0.6 },
    ko: ["선물", "사주", "사줄"],
    en: ["gift", "present", "presents", "buy for"],
  },
  {
    cats: { preference: 0.8, plan: 0.5 },
    // Which sport to do is a matter of taste too ("운동 뭐 할까?").
    ko: [
      "취미",
      "주말에뭐",
      "뭐하고놀",
      "할만한",
      "뭐하면좋을",
      "뭐하지",
      "놀거리",
      "갈만한",
      "운동뭐",
      "무슨운동",
      "어떤운동",
    ],
    en: [
      "hobby",
      "hobbies",
      "activity",
      "activities",
      "this weekend",
      "for fun",
      "free time",
      "which sport",
      "what sport",
      "what workout",
      "which workout",
      "what exercise",
    ],
  },
  {
    cats: { preference: 0.8, dislike: 0.6 },
    ko: ["좋아하", "취향", "최애", "관심", "즐겨", "추천", "고를", "골라"],
    en: [
      "like",
      "love",
      "favorite",
      "favourite",
      "enjoy",
      "prefer",
      "recommend",
      "suggest",
      "pick",
      "choose",
      "into",
      "should i try",
      "worth trying",
    ],
  },
  {
    cats: { dislike: 1, allergy: 0.6 },
    ko: ["싫어", "별로", "빼달", "빼줘", "피해", "피할"],
    en: ["hate", "dislike", "avoid", "don't like", "can't stand"],
  },
  {
    // Where to go on a trip depends on what the user likes (산 or 바다, beaches or hiking).
    cats: { plan: 1, preference: 0.6 },
    ko: ["여행", "휴가", "놀러", "여행지", "갈만한"],
    en: ["trip", "travel", "vacation", "holiday", "getaway", "where should i go"],
  },
  {
    cats: { plan: 1 },
    ko: [
      "여행",
      "휴가",
      "이사",
      "짐",
      "챙겨",
      "챙길",
      "준비물",
      "비행기",
      "호텔",
      "숙소",
      "일정",
      "계획",
      "예정",
      "약속",
      "스케줄",
      "면접",
      "시험",
      "회의",
      "준비",
      "결혼식",
      "돌잔치",
    ],
    en: [
      "trip",
      "travel",
      "move",
      "moving",
      "pack",
      "packing",
      "flight",
      "hotel",
      "vacation",
      "holiday",
      "itinerary",
      "schedule",
      "plan",
      "plans",
      "appointment",
      "interview",
      "exam",
      "meeting",
      "calendar",
      "agenda",
      "upcoming",
      "prepare",
      "renovation",
      "race",
      "marathon",
      "wedding",
      "conference",
      "surgery",
      "arrives",
    ],
  },
  {
    cats: { possession: 1 },
    ko: [
      "자동차",
      "운전",
      "폰",
      "휴대폰",
      "핸드폰",
      "스마트폰",
      "노트북",
      "컴퓨터",
      "태블릿",
      "충전",
      "배터리",
      "기종",
      "타이어",
      "엔진오일",
      "연비",
      "주차",
      // Things done with a car.
      "차박",
      "세차",
      "주유",
      "블랙박스",
    ],
    koNouns: ["차"],
    en: [
      "car",
      "drive",
      "driving",
      "phone",
      "laptop",
      "computer",
      "tablet",
      "battery",
      "charger",
      "tires",
      "tyres",
      "engine",
      "device",
      "gadget",
      "mileage",
      "bike",
      "helmet",
      "parking",
      "scooter",
      "motorcycle",
      "vehicle",
      "gas mileage",
      "oil change",
      "car wash",
    ],
  },
  {
    cats: { other: 0.9 },
    ids: { "other:age": 1.2 },
    ko: ["나이", "몇살", "연세"],
    en: ["how old", "age"],
  },
  {
    cats: { other: 0.9 },
    ids: { "other:birthday": 1.2 },
    ko: ["생일", "생년"],
    en: ["birthday", "born on"],
  },
  {
    cats: { other: 0.9, job: 0.5 },
    ids: { "other:major": 1.2 },
    ko: ["전공", "학과"],
    en: ["major", "degree", "study", "studies"],
  },
  {
    cats: {},
    prefixes: { "other:language:": 1.2 },
    ko: [
      "언어",
      "외국어",
      "어학",
      "통역",
      "번역",
      "말이통",
      "회화",
      "할줄아는말",
      "할줄아는언어",
      ...NATIVE_CUES_KO,
    ],
    en: [
      "language",
      "languages",
      "speak",
      "fluent",
      "translate",
      "translation",
      "interpreter",
      "bilingual",
      ...NATIVE_CUES_EN,
    ],
  },
  {
    cats: { other: 0.9 },
    ko: ["mbti", "성격"],
    en: ["mbti", "personality"],
  },
  {
    cats: Object.fromEntries(FACT_CATEGORIES.map((c) => [c, 0.6])) as Record<FactCategory, number>,
    ko: [
      "나에대해",
      "나에대한",
      "저에대해",
      "제정보",
      "내정보",
      "뭘기억",
      "기억하는거",
      "기억나는거",
      "알고있는거",
    ],
    en: ["about me", "remember about me", "know about me", "what do you remember"],
  },
];

/** Favorite slots in both languages (id `preference:favorite:<slot>`). */
const SLOTS: readonly (readonly string[])[] = [
  ["color", "colour", "색", "색깔", "컬러"],
  ["food", "dish", "음식", "요리", "메뉴"],
  ["movie", "film", "영화"],
  ["music", "song", "음악", "노래"],
  ["book", "책"],
  ["sport", "운동", "스포츠"],
  ["drink", "음료", "술"],
  ["singer", "band", "artist", "가수", "밴드"],
  ["animal", "동물"],
  ["season", "계절"],
  ["game", "게임"],
];

interface Query {
  lower: string;
  /** The words joined by single spaces, with a space at both ends (for phrase lookups). */
  spaced: string;
  compact: string;
  words: Set<string>;
  koNouns: Set<string>;
}

const KO_PARTICLE_END = pattern(
  "(?:에서는|에서도|에서|에게|한테|으로|이랑|랑|하고|에는|에도|이는|은|는|이|가|을|를|의|에|로|도|와|과|만|요|야)$",
  "",
  "가|과|는|도|랑|로|를|만|야|에|와|요|은|을|의|이|하고|한테",
);

const PARSE_QUERY_RE1 = pattern("[가-힣]");

const PARSE_QUERY_RE2 = pattern("[’‘]", "g", "‘|’");
const PARSE_QUERY_RE3 = pattern(String.raw`\s+`, "g");

function parseQuery(query: string): Query {
  const lower = PARSE_QUERY_RE2.replace(query.normalize("NFKC").toLowerCase(), "'");
  const list = splitWords(lower, "'-").filter((word) => word !== "");
  const words = new Set(list);
  for (const word of [...words]) {
    if (word.endsWith("'s")) words.add(word.slice(0, -2));
    // "my kids' names": the plural possessive.
    if (word.endsWith("s'")) words.add(word.slice(0, -1));
  }
  const koNouns = new Set<string>();
  for (const word of words) {
    if (!PARSE_QUERY_RE1.test(word)) continue;
    koNouns.add(word);
    let stem = word;
    for (let i = 0; i < 2; i++) {
      const next = KO_PARTICLE_END.replace(stem, "");
      if (next === stem || next === "") break;
      stem = next;
      koNouns.add(stem);
    }
    if (stem.endsWith("들")) koNouns.add(stem.slice(0, -1));
  }
  return {
    lower,
    spaced: ` ${list.join(" ")} `,
    compact: PARSE_QUERY_RE3.replace(lower, ""),
    words,
    koNouns,
  };
}

/**
 * The intents as lookups: English single words and Korean nouns in maps from the word to
 * the intents it cues; Korean phrases (looked up with `includes` on the question without
 * spaces) bucketed by their first two letters, English phrases (" words ", looked up in
 * Query.spaced) by their first word, so a question only tries the phrases that can start in
 * it. No regular expression per intent, which a fresh isolate would compile on its first
 * recall (about 13 ms of CPU for all of them).
 */
const INTENTS: readonly Intent[] = [...SLOT_INTENTS, ...KEYWORD_INTENTS];

interface IntentIndex {
  readonly words: ReadonlyMap<string, readonly number[]>;
  readonly koNouns: ReadonlyMap<string, readonly number[]>;
  /** First two letters → [phrase, intent]; phrases of one letter under "". */
  readonly koPhrases: ReadonlyMap<string, readonly (readonly [string, number])[]>;
  /** First word → [" phrase ", intent]. */
  readonly enPhrases: ReadonlyMap<string, readonly (readonly [string, number])[]>;
}

function indexIntents(intents: readonly Intent[]): IntentIndex {
  const words = new Map<string, number[]>();
  const koNouns = new Map<string, number[]>();
  const koPhrases = new Map<string, [string, number][]>();
  const enPhrases = new Map<string, [string, number][]>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };
  intents.forEach((intent, i) => {
    for (const phrase of intent.ko ?? []) {
      push(koPhrases, phrase.length < 2 ? "" : phrase.slice(0, 2), [phrase, i] as [string, number]);
    }
    for (const noun of intent.koNouns ?? []) push(koNouns, noun, i);
    for (const phrase of intent.en ?? []) {
      if (!phrase.includes(" ")) push(words, phrase, i);
      else push(enPhrases, phrase.split(" ")[0] ?? "", [` ${phrase} `, i] as [string, number]);
    }
  });
  return { words, koNouns, koPhrases, enPhrases };
}

const INDEX = indexIntents(INTENTS);

/** Each intent's id prefixes and their weights, as a list. */
const PREFIXES: ReadonlyMap<Intent, readonly (readonly [string, number])[]> = new Map(
  INTENTS.filter((intent) => intent.prefixes !== undefined).map((intent) => [
    intent,
    Object.entries(intent.prefixes ?? {}),
  ]),
);

/** The intents the question cues, in their table order. */
function activeIntents(q: Query): Intent[] {
  const hit = new Uint8Array(INTENTS.length);
  const mark = (list: readonly number[] | undefined) => {
    if (list !== undefined) for (const i of list) hit[i] = 1;
  };
  for (const word of q.words) mark(INDEX.words.get(word));
  for (const noun of q.koNouns) mark(INDEX.koNouns.get(noun));
  const tryPhrases = (
    list: readonly (readonly [string, number])[] | undefined,
    text: string,
  ): void => {
    if (list === undefined) return;
    for (const [phrase, i] of list) if (hit[i] === 0 && text.includes(phrase)) hit[i] = 1;
  };
  tryPhrases(INDEX.koPhrases.get(""), q.compact);
  const seen = new Set<string>();
  for (let i = 0; i + 1 < q.compact.length; i++) {
    const pair = q.compact.slice(i, i + 2);
    if (seen.has(pair)) continue;
    seen.add(pair);
    tryPhrases(INDEX.koPhrases.get(pair), q.compact);
  }
  for (const word of q.words) tryPhrases(INDEX.enPhrases.get(word), q.spaced);
  const out: Intent[] = [];
  hit.forEach((on, i) => {
    if (on === 1) out.push(INTENTS[i] as Intent);
  });
  return out;
}

/** The relation words as maps: a question's words are looked up in them on every recall. */
const RELATION_OF_KO: ReadonlyMap<string, string> = new Map(Object.entries(RELATIONS_KO));
const RELATION_OF_EN: ReadonlyMap<string, string> = new Map(Object.entries(RELATIONS_EN));

/** Canonical relations the question names ("아내" / "wife" → wife; "아이" → every child). */
function relationsIn(q: Query): Set<string> {
  const out = new Set<string>();
  const add = (relation: string): void => {
    out.add(relation);
    if (relation === "children" || relation === "baby") for (const r of CHILD_RELATIONS) out.add(r);
    if (relation === "sibling" || relation === "brother" || relation === "sister") {
      for (const r of SIBLING_RELATIONS) {
        if (relation === "sibling" || r.includes(relation)) out.add(r);
      }
    }
    if (relation === "mother" || relation === "father") out.add("parents");
    if (relation === "spouse") {
      out.add("wife");
      out.add("husband");
    }
  };
  for (const noun of q.koNouns) {
    const relation = RELATION_OF_KO.get(noun);
    if (relation !== undefined) add(relation);
  }
  for (const word of q.words) {
    const bare = word.endsWith("'s") ? word.slice(0, -2) : word;
    const relation =
      RELATION_OF_EN.get(bare) ?? RELATION_OF_EN.get(bare.endsWith("s") ? bare.slice(0, -1) : bare);
    if (relation !== undefined) add(relation);
  }
  if (
    RAISING_KO.some((cue) => q.compact.includes(cue)) ||
    q.words.has("pet") ||
    q.words.has("pets")
  ) {
    for (const r of PET_RELATIONS) out.add(r);
  }
  if (q.compact.includes("남친")) add("boyfriend");
  if (q.compact.includes("여친")) add("girlfriend");
  if (q.compact.includes("결혼") || q.words.has("married")) add("spouse");
  return out;
}

/** Question cues for the user's pets: companion animals, raising one. */
const RAISING_KO = ["반려", "키우", "키울", "키워"];

const POSSESSION_WORDS: Readonly<Record<string, readonly string[]>> = {
  car: [
    "차",
    "자동차",
    "운전",
    "car",
    "drive",
    "driving",
    "tires",
    "tyres",
    "engine",
    "mileage",
    "연비",
    "타이어",
    "엔진오일",
    "주차",
    "parking",
  ],
  phone: ["폰", "휴대폰", "핸드폰", "스마트폰", "phone", "iphone", "galaxy"],
  laptop: ["노트북", "laptop", "computer", "컴퓨터"],
  tablet: ["태블릿", "tablet", "ipad", "아이패드"],
  bike: ["자전거", "bike", "bicycle", "helmet", "헬멧"],
  home: ["집", "house", "home", "apartment", "아파트"],
};

function valueTokens(value: string): string[] {
  return splitWords(value.normalize("NFKC").toLowerCase())
    .filter((token) => (PARSE_QUERY_RE1.test(token) ? token.length >= 2 : token.length >= 3))
    .filter((token) => !VALUE_STOP.has(token));
}

const VALUE_STOP = new Set(
  "the and for with from food 음식 사람 여행 회사 the my your new old good".split(" "),
);

const ALIASES = new Map<string, readonly string[]>();
for (const group of PLACE_ALIASES) for (const name of group) ALIASES.set(name, group);

function mentions(q: Query, token: string): boolean {
  return PARSE_QUERY_RE1.test(token)
    ? q.compact.includes(token)
    : q.words.has(token) || q.words.has(`${token}s`);
}

function valueScore(view: FactView, q: Query): number {
  const { tokens, compactValue } = view;
  if (tokens.length === 0) return 0;
  const hit = tokens.some((token) => {
    if (mentions(q, token)) return true;
    const group = ALIASES.get(token) ?? ALIASES.get(compactValue);
    return (
      group?.some((alias) =>
        PARSE_QUERY_RE1.test(alias)
          ? q.compact.includes(alias)
          : (q.compact.includes(alias) && alias.length > 2) || q.words.has(alias),
      ) ?? false
    );
  });
  return hit ? 1 : 0;
}

function subKeyScore(view: FactView, q: Query, relations: Set<string>): number {
  const [category, sub, slot] = view.idParts;
  if (category === "family" && sub !== undefined && relations.has(sub)) return 0.8;
  if (category === "possession" && sub !== undefined) {
    const words = POSSESSION_WORDS[sub];
    if (
      words?.some((word) =>
        PARSE_QUERY_RE1.test(word)
          ? q.koNouns.has(word) || (q.compact.includes(word) && word.length > 1)
          : q.words.has(word),
      )
    ) {
      return 0.6;
    }
  }
  if (category === "preference" && sub === "favorite" && slot !== undefined) {
    const group = SLOTS.find((names) => names.includes(slot));
    const names = group ?? [slot];
    if (
      names.some((name) =>
        PARSE_QUERY_RE1.test(name) ? q.compact.includes(name) : q.words.has(name),
      )
    ) {
      return 0.6;
    }
  }
  return 0;
}

/** The score of each fact for the question (0 = irrelevant). Exposed for tests and tuning. */
/** Only the first this many characters of a question are read. */
export const MAX_QUERY_CHARS = 500;

/**
 * Words the question shares with what the user said (the fact's source): "초코 목욕은?"
 * finds "강아지 키워요. 이름은 초코예요". BM25 over the facts' sources (recall/terms.ts),
 * scaled so the best match adds {@link LEXICAL_WEIGHT}: enough alone to pass MIN_SCORE.
 */
export const LEXICAL_WEIGHT = 0.6;

/**
 * What recall derives from a fact's own text (its index terms, value tokens, whether it is a
 * family member's health), kept for the facts an isolate saw last: a thread's facts are the
 * same turn after turn, and deriving them again on every recall was most of its CPU (stemming
 * the sources alone was about 0.15 ms of 0.17 ms per recall in Node for eight facts). Derived
 * from the fact alone, so sharing them between conversations shows nothing of one to another.
 */
interface FactView {
  readonly terms: readonly string[];
  readonly tokens: readonly string[];
  readonly compactValue: string;
  readonly memberHealth: boolean;
  /** The id's parts: category, sub-key, slot. */
  readonly idParts: readonly string[];
}

const FACT_VIEWS_KEPT = 512;
const factViews = new Map<string, FactView>();

function viewOf(fact: Fact): FactView {
  const key = `${fact.id}\u0000${fact.category}\u0000${fact.value}\u0000${fact.source}`;
  const known = factViews.get(key);
  if (known !== undefined) return known;
  const view: FactView = {
    terms: searchTerms(`${fact.source} ${fact.value}`),
    tokens: valueTokens(fact.value),
    compactValue: valueKey(fact.value),
    memberHealth: memberHealth(fact),
    idParts: fact.id.split(":"),
  };
  if (factViews.size >= FACT_VIEWS_KEPT) {
    const oldest = factViews.keys().next().value;
    if (oldest !== undefined) factViews.delete(oldest);
  }
  factViews.set(key, view);
  return view;
}

function lexicalScores(views: readonly FactView[], question: string): number[] {
  const query = queryTerms(question);
  const out = views.map(() => 0);
  if (query.length === 0 || views.length === 0) return out;
  const ranked = rankCandidates(
    query,
    views.map((view, index) => ({ id: index, terms: view.terms })),
    views.length,
  );
  const best = ranked[0]?.score ?? 0;
  for (const { id, score } of ranked) out[id] = best > 0 ? (LEXICAL_WEIGHT * score) / best : 0;
  return out;
}

/**
 * Words of a health condition or diet ("당뇨", "diabetes", "vegan"), whole enough not to
 * hide inside other words: a family fact whose source names one ("엄마가 당뇨가 있으세요")
 * matters to a food question as the user's own health does.
 */
const CONDITION_WORDS: readonly string[] = [
  ...`${CONDITIONS_KO}|${DIET_KO}`.split("|").filter((word) => word.length >= 2),
  ...[...HEALTH_GATES.conditions, ...HEALTH_GATES.diet].filter((word) => word.length >= 4),
];

/** A family member's health: {@link CONDITION_WORDS} in the fact's source. */
function memberHealth(fact: Fact): boolean {
  return fact.category === "family" && open(CONDITION_WORDS, fact.source.toLowerCase());
}

export function scoreFacts(facts: readonly Fact[], query: string): number[] {
  const text = typeof query === "string" ? query.slice(0, MAX_QUERY_CHARS) : "";
  const q = parseQuery(text);
  const active = activeIntents(q);
  const relations = relationsIn(q);
  const views = facts.map(viewOf);
  const lexical = lexicalScores(views, text);
  const languages = facts.some((f) => f.id.startsWith("other:language:"))
    ? languagesIn(text)
    : new Set<string>();
  const nativeAsked =
    NATIVE_CUES_KO.some((cue) => q.compact.includes(cue)) ||
    NATIVE_CUES_EN.some((cue) => q.spaced.includes(` ${cue} `));
  return facts.map((fact, index) => {
    const view = views[index] as FactView;
    const health = view.memberHealth;
    // The strongest matching intent, plus a little for each further one that agrees
    // ("사는 곳 근처" = residence twice beats "맛집" = food once).
    let intent = 0;
    let support = 0;
    for (const candidate of active) {
      let weight = Math.max(candidate.cats[fact.category] ?? 0, candidate.ids?.[fact.id] ?? 0);
      if (health) weight = Math.max(weight, 0.9 * (candidate.cats.health ?? 0));
      for (const [prefix, w] of PREFIXES.get(candidate) ?? []) {
        if (fact.id.startsWith(prefix)) weight = Math.max(weight, w);
      }
      support += weight;
      intent = Math.max(intent, weight);
    }
    const agreement = Math.min(0.5, 0.25 * (support - intent));
    const language =
      fact.id.startsWith("other:language:") && languages.has(fact.id.slice(15)) ? 1 : 0;
    const native = nativeAsked && isNativeLanguage(fact) ? NATIVE_BONUS : 0;
    return (
      intent +
      agreement +
      Math.max(valueScore(view, q), language) +
      subKeyScore(view, q, relations) +
      native +
      (lexical[index] ?? 0)
    );
  });
}

/**
 * The best `k` facts for the follow-up question (see the file header): at most k, only
 * facts scoring at least {@link MIN_SCORE}, best first, ties to the more recent fact.
 */
export function recallFacts(facts: readonly Fact[], query: string, k: number): Fact[] {
  if (!Number.isFinite(k) || k < 1 || facts.length === 0) return [];
  const limit = Math.floor(k);
  const scores = scoreFacts(facts, query);
  return facts
    .map((fact, index) => ({ fact, index, score: scores[index] ?? 0, turn: fact.turn ?? -1 }))
    .filter((entry) => entry.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || b.turn - a.turn || b.index - a.index)
    .slice(0, limit)
    .map((entry) => entry.fact);
}
