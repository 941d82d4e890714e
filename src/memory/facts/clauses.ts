/**
 * Splitting an utterance into clauses and deciding which clauses can state a fact.
 *
 * - Sentences end at . ! ? (not after "St." / "Dr." …) and newlines; a sentence is cut
 *   again at commas/semicolons and at conjunctions that start a new clause (", what about
 *   you?", " but I live in …", Korean 는데/지만/니까/어서 endings).
 * - Discourse markers that open a clause are dropped ("아 참 나 수진이야", "oh and I live
 *   in …", "근데 요즘은 …"): the rules anchor on the clause start, and a marker there
 *   says nothing. A word set, not an expression: nothing to compile in a fresh isolate.
 * - Questions state nothing: a clause ending in "?" or starting like a question ("Where do
 *   I live", "Do you know my name") or with a Korean interrogative (제가 어디 살죠, 뭐예요).
 * - Hypotheticals and wishes state nothing: if / would / wish / imagine / suppose; Korean
 *   만약, -다면, -(으)면 (conditional clause), -고 싶다, -면 좋겠다.
 */

import { pattern } from "./regex.ts";

export interface Clause {
  /** The clause text (trimmed, without the final punctuation). */
  text: string;
  /** The clause ended with "?" (or another question mark). */
  asked: boolean;
  /** The clause follows a Korean conditional "-(으)면" of its sentence (see splitSentence). */
  afterIf?: boolean;
}

const ABBREVIATIONS = pattern(
  String.raw`(?:\b(?:Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|vs|etc|No|Ave|Rd|Inc|Ltd|Co|U\.S|e\.g|i\.e))$`,
  "i",
  "ave|co|dr|e.g|etc|i.e|inc|jr|ltd|mr|ms|mt|no|rd|sr|st|u.s|vs",
);

const SPLIT_CLAUSES_RE1 = pattern(String.raw`\d$`);
const SPLIT_CLAUSES_RE2 = pattern(String.raw`\s`);
const SPLIT_CLAUSES_RE3 = pattern("[?？]", "", "?|？");

const SPLIT_CLAUSES_RE4 = pattern("[’‘]", "g", "‘|’");
const SPLIT_CLAUSES_RE5 = pattern(String.raw`^[-–—,;:]+\s*`, "", ",|-|:|;|–|—");

const SPLIT_CLAUSES_RE6 = pattern("[“”]", "g", "“|”");

/** Splits an utterance into clauses (see the file header). */
export function splitClauses(text: string): Clause[] {
  const clauses: Clause[] = [];
  const sentences: { text: string; asked: boolean }[] = [];
  let start = 0;
  const normalized = SPLIT_CLAUSES_RE6.replace(
    SPLIT_CLAUSES_RE4.replace(text.normalize("NFC"), "'"),
    '"',
  );
  const enders = /[.!?。！？]+|\n+/g;
  for (const match of normalized.matchAll(enders)) {
    const end = match.index ?? 0;
    const piece = normalized.slice(start, end);
    const mark = match[0];
    // "St. Mary's", "3.5", "U.S.": not an end of sentence.
    const next = normalized[end + mark.length] ?? "";
    if (mark === "." && (ABBREVIATIONS.test(piece) || SPLIT_CLAUSES_RE1.test(piece)) && next !== "")
      continue;
    if (mark === "." && next !== "" && !SPLIT_CLAUSES_RE2.test(next)) continue;
    sentences.push({ text: piece, asked: SPLIT_CLAUSES_RE3.test(mark) });
    start = end + mark.length;
  }
  sentences.push({ text: normalized.slice(start), asked: false });

  for (const sentence of sentences) {
    const parts = splitSentence(sentence.text);
    let afterIf = false;
    parts.forEach((part, index) => {
      const trimmed = withoutMarkers(SPLIT_CLAUSES_RE5.replace(part.trim(), ""));
      if (trimmed === "") return;
      const clause: Clause = { text: trimmed, asked: sentence.asked && index === parts.length - 1 };
      if (afterIf) clause.afterIf = true;
      afterIf ||= KO_CONDITIONAL_END.test(trimmed);
      clauses.push(clause);
    });
  }
  return clauses;
}

/**
 * Whole words that open a clause without saying anything (interjections, discourse
 * connectives, 걍/그냥 "just" opening a casual sentence). Korean adverbs that carry meaning
 * (요즘, 이제, 원래) are not here: the rules read them.
 */
const MARKERS: ReadonlySet<string> = new Set([
  ..."아 아참 참 음 어 오 와 앗 헐 그리고 근데 그런데 아무튼 암튼 그래서 그럼 아니 아니다 사실 참고로 맞다 글쎄 걍 그냥 ㅎㅇ 하이 안뇽 헬로".split(
    " ",
  ),
  ..."oh ah um uh er well anyway anyways btw also ok okay so and but yeah hey hi hmm".split(" "),
]);

/** Trailing punctuation a marker may carry ("아,", "oh!", "음…"). */
const MARKER_PUNCTUATION = ",.!~…";

/** Index of the first space, tab or newline, or -1 (a loop: no expression to compile). */
function firstSpace(text: string): number {
  for (let i = 0; i < text.length; i++) if (" \t\n\r".includes(text[i] as string)) return i;
  return -1;
}

/** The clause without its leading discourse markers (at most four; never all of it). */
export function withoutMarkers(text: string): string {
  let rest = text;
  for (let i = 0; i < 4; i++) {
    const space = firstSpace(rest);
    if (space <= 0) break;
    let word = rest.slice(0, space).toLowerCase();
    while (word !== "" && MARKER_PUNCTUATION.includes(word[word.length - 1] as string)) {
      word = word.slice(0, -1);
    }
    if (!MARKERS.has(word)) break;
    const next = rest.slice(space).trimStart();
    if (next === "") break;
    rest = next;
  }
  // Laughter or crying after the statement ("민지라고 해 ㅎㅎ", "I'm Sam lol") says nothing either.
  for (let i = 0; i < 2; i++) {
    const space = lastSpace(rest);
    if (space <= 0 || !isLaughter(rest.slice(space + 1).toLowerCase())) break;
    rest = rest.slice(0, space).trimEnd();
  }
  return rest;
}

/** Index of the last space, tab or newline, or -1. */
function lastSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (" \t\n\r".includes(text[i] as string)) return i;
  return -1;
}

const LAUGHTER: ReadonlySet<string> = new Set(["lol", "lmao", "haha", "hahaha", "hehe", "xd"]);

/** A token of only ㅋ ㅎ ㅠ ㅜ (and ~ ! .), or lol / haha. */
function isLaughter(word: string): boolean {
  if (LAUGHTER.has(word)) return true;
  if (word === "") return false;
  for (const c of word) if (!"ㅋㅎㅠㅜ~!.^".includes(c)) return false;
  return true;
}

/**
 * Every Hangul syllable with the final consonant ㄴ (은, 인, 운, 큰, 바쁜 …): before 데 it is the
 * connective "-(으)ㄴ데" of an adjective or the copula ("시끄러운데", "추운데", "학생인데").
 */
const N_FINAL = Array.from({ length: 399 }, (_, i) =>
  String.fromCharCode(0xac00 + i * 28 + 4),
).join("");

/**
 * Korean connective endings (는데, 지만, 어서, the reason 이라 of "회사는 강남이라 멀어요" …) end a clause; so do sentence-final endings
 * that only ever close a sentence (formal 습니다, plain past 었다/았다/했다/였다), which casual
 * writing runs on without a full stop: "처음 뵙겠습니다 저는 최유나라고 합니다", "잘못 말했다
 * 김도훈이야".
 */
const KO_CONNECTIVE_SPLIT = pattern(
  String.raw`(?:(?<=[가-힣A-Za-z0-9](?:는데|[${N_FINAL}]데|지만|니까|으니까|거든요|거든|고요|구요|어서|아서|해서|여서|라서|는데요|던데|습니다|었다|았다|했다|였다|겠다))|(?<=[가-힣](?:예요|에요|이야|이라|어요|아요|해요|워요|와요|져요))(?=\s+[가-힣]))\s+`,
  "",
  "거든|고요|구요|니까|데|라서|아서|어서|여서|지만|해서|습니다|었다|았다|했다|였다|겠다|예요|에요|이야|이라|어요|아요|해요|워요|와요|져요",
);

const SPLIT_SENTENCE_RE1 = pattern(String.raw`\s*[;,，、]\s*|\s+[-–—]\s+`, "", ",|-|;|–|—|、|，");
const SPLIT_SENTENCE_RE2 = pattern(
  String.raw`(?<!^\s*(?:my|our)\s+[\w-]+)\s+(?=(?:but|and|so|because|although|though|while|whereas)\s+(?:i|i'm|im|i've|my|we|we're|our|now|then|what|where|how|do you|can you|are you)\b)`,
  "i",
  "and|because|but|so|though|whereas|while",
);
const SPLIT_SENTENCE_RE3 = pattern(
  String.raw`^(?:but|and|so|because|although|though|while|whereas)\s+`,
  "i",
  "and|because|but|so|though|whereas|while",
);

/**
 * A Korean conditional "-(으)면" ends a clause: "퇴근하고 집에 오면 | 제일 먼저 반겨주는 게 우리
 * 햄스터예요". The conditional part is hypothetical ("서울에 살면"); what follows states a fact
 * unless it says what would then happen (see {@link isHypothetical}). Nouns ending in 면
 * (냉면, 라면, 화면, 반면) are not conditionals.
 */
const KO_CONDITIONAL_SPLIT = pattern(
  String.raw`(?<=[가-힣](?<!(?:^|\s)(?:\S*라|냉|쫄|짜장|비빔|화|가|측|정|표|내|반|방|전))면)\s+(?=[가-힣])`,
  "",
  "면",
);
const KO_CONDITIONAL_END = pattern("[가-힣]면$", "", "면");
/** What would happen then: a future or volitional ending after a conditional ("포르쉐 살 거예요"). */
const KO_CONSEQUENCE = pattern(
  String.raw`(?:거예요|거에요|거야|거임|건데|겁니다|[을할갈볼살될]\s*거|겠|래요|ㄹ래|을래|할래|갈래|ㄹ게|을게|할게|갈게|텐데)`,
  "",
  "거|건|겁|겠|게|래|텐데",
);

/** What eating or drinking something does to the user (큰일 나요, 두드러기, 배탈…). */
export const KO_HARM_AFTER = String.raw`(?:\S+\s+){0,2}?(?:큰일\s*나|죽어|죽을|두드러기|탈\s*나|배\s*아파|배가\s*아파|배탈|응급실|부어|가려워|가렵|토해|토하|체해|숨이?\s*막|알레르기|난리\s*나)`;
/**
 * "땅콩 먹으면 큰일 나요": a conditional about eating with what it does is a statement about
 * the user, not a hypothetical; it is kept whole (rules-ko.ts reads it).
 */
const KO_HARM = pattern(
  String.raw`(?:먹|마시)(?:으면|면)\s+${KO_HARM_AFTER}`,
  "",
  "마시면|마시으면|먹면|먹으면",
);

function splitSentence(sentence: string): string[] {
  const out: string[] = [];
  for (const piece of SPLIT_SENTENCE_RE1.split(sentence)) {
    // English: " but|and|so|because <subject>" starts a new clause.
    const english = SPLIT_SENTENCE_RE2.split(piece);
    for (const part of english) {
      const stripped = SPLIT_SENTENCE_RE3.replace(part, "");
      for (const clause of KO_CONNECTIVE_SPLIT.split(stripped)) {
        out.push(...(KO_HARM.test(clause) ? [clause] : KO_CONDITIONAL_SPLIT.split(clause)));
      }
    }
  }
  return out.filter((part) => part.trim() !== "");
}

const EN_QUESTION_START = pattern(
  String.raw`^(?:(?:hey|hi|so|and|but|ok|okay|um|uh|well|also|btw|lol)[,\s]+)*(?:do|does|did|is|are|am|was|were|can|could|would|will|should|shall|have|has|had|what|what's|whats|where|where's|wheres|who|who's|whos|when|when's|why|how|how's|which|whom|whose|remind me|tell me|any idea|got any)(?=\s|$)`,
  "i",
  "am|any idea|are|can|could|did|do|got any|had|has|have|how|is|remind me|shall|should|tell me|was|were|what|when|where|which|who|why|will|would",
);

const KO_INTERROGATIVE = pattern(
  String.raw`(?:^|\s)(?:어디|어딘|어디에|어디서|뭐|뭘|뭔|무엇|무슨|누구|누가|언제|어느|어떤|어떻게|어때|왜)(?!든|라도|나\s|가\s*있|든지|가\s*그렇게)`,
  "",
  "누가|누구|무슨|무엇|뭐|뭔|뭘|어느|어디|어딘|어때|어떤|어떻게|언제|왜",
);

const KO_QUESTION_END = pattern(
  String.raw`(?:나요|까요|냐|냐고|던가요|습니까|는가요|은가요|을까|ㄹ까|려나|했니|하니|있니|없니|했어\?|니\?)$`,
  "",
  "ㄹ까|까요|나요|냐|는가요|니?|던가요|려나|습니까|없니|은가요|을까|있니|하니|했니|했어?",
);

/** "비누 맛 나요", "냄새 나요": 나요 as the verb 나다 after what arises, not a question ending. */
const KO_NADA = pattern(
  String.raw`(?:맛|냄새|땀|열|탈|두드러기|소리|화|짜증|생각|기억)(?:이|가)?\s*나요$`,
  "",
  "나요",
);

const IS_QUESTION_RE1 = pattern(String.raw`[?？]\s*$`, "", "?|？");
const IS_QUESTION_RE2 = pattern("[가-힣]");

export function isQuestion(clause: Clause): boolean {
  if (clause.asked || IS_QUESTION_RE1.test(clause.text)) return true;
  const text = clause.text.trim();
  if (EN_QUESTION_START.test(text)) return true;
  if (IS_QUESTION_RE2.test(text)) {
    // "땅콩 먹으면 큰일 나요": 나요 is the verb 나다 here, not a question ending.
    if (KO_QUESTION_END.test(text) && !KO_HARM.test(text) && !KO_NADA.test(text)) return true;
    if (KO_INTERROGATIVE.test(` ${text}`)) return true;
  }
  return false;
}

/**
 * "If I eat peanuts I end up in the ER", "if I have dairy I get sick": what eating something
 * does to the user is a statement about them, not a hypothetical (rules-en.ts reads it).
 */
export const EN_HARM = pattern(
  String.raw`\bif\s+i\s+(?:eat|have|drink|touch)\s+(?!(?:too|so|a\s+lot|late|fast|quickly|anything|something|that|this|it|them)\b)([a-z][\w\s'-]{0,40}?),?\s+(?:i\s+)?(?:get\s+(?:sick|hives|a\s+rash|really\s+sick)|break\s+out|throw\s+up|end\s+up\s+in|swell\s+up|can(?:'t|not)\s+breathe|my\s+(?:throat|face|lips|stomach))`,
  "i",
  "drink|eat|have|touch&if",
);

/**
 * "I could eat dumplings every single day", "I could listen to jazz all day": a "could" that
 * says how much the user likes something, not a hypothetical (rules-en.ts reads it).
 */
export const EN_COULD_FOREVER = pattern(
  String.raw`\b(?:i|we)\s+could\s+(?:honestly\s+|literally\s+|happily\s+|probably\s+|easily\s+)?(?:eat|drink|live\s+on|listen\s+to|watch|read|play)\s+([a-z][\w'-]*(?:\s+[\w'-]+){0,3}?)\s+(?:every\s+(?:single\s+)?(?:day|night|meal|week)|all\s+day|forever|for\s+days|on\s+repeat)\b`,
  "i",
  "could&all|days|every|forever|repeat&drink|eat|listen|live|play|read|watch",
);

const EN_HYPOTHETICAL = pattern(
  String.raw`\b(?:if|unless|suppose|supposing|imagine|imagining|hypothetically|wish|wishes|would(?!\s+(?:much\s+)?rather)|wouldn't|could|might|maybe|someday|one day|dream of|dreaming of|i'd(?!\s+(?:much\s+)?rather)|hope to|hoping to|want to|wanna|would like|'d like|'d love|pretend)\b`,
  "i",
  "'d like|'d love|could|dream of|dreaming of|hope to|hoping to|hypothetically|i'd|if|imagine|imagining|maybe|might|one day|pretend|someday|suppose|supposing|unless|wanna|want to|wish|would",
);

/** Conditional / hypothetical / wish markers in Korean. */
const KO_HYPOTHETICAL = pattern(
  String.raw`(?:만약|만일|가령|가정하면|[가-힣](?:다면|라면|었으면|았으면|였으면|했으면)(?=\s|$|[,.!?])|고\s*싶|면\s*좋겠|[아어해]야\s*(?:하는데|되는데|겠|할\s*텐데|할텐데)|ㄹ\s*텐데|을\s*텐데|텐데|할걸|했을걸|(?:면|으면)\s+[가-힣]|ㄴ다면)`,
  "",
  "가령|만약|만일|면|싶|야|좋겠|텐데|할걸|했을걸",
);

/** Korean nouns that end in 라면/면 and are food, not a conditional. */
const KO_NOODLES = pattern(
  String.raw`(?:^|\s)(?:\S*라면|냉면|쫄면|짜장면|비빔면|\S*국수면|화면|가면|측면|정면|표면|내면|반면|방면|전면)(?:\s|$|[을를이가은는도])`,
  "",
  "가면|국수면|내면|냉면|라면|반면|방면|비빔면|전면|정면|짜장면|쫄면|측면|표면|화면",
);

export function isHypothetical(clause: Clause): boolean {
  const text = clause.text;
  if (EN_HYPOTHETICAL.test(text) && !EN_HARM.test(text) && !EN_COULD_FOREVER.test(text)) {
    return true;
  }
  if (!IS_QUESTION_RE2.test(text)) return false;
  if (KO_HARM.test(text)) return false;
  const stripped = KO_NOODLES.replace(text, " ");
  if (clause.afterIf === true && KO_CONSEQUENCE.test(stripped)) return true;
  return KO_HYPOTHETICAL.test(stripped) || KO_CONDITIONAL_END.test(stripped);
}
