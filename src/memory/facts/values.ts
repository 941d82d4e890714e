/**
 * Parts of the rule engine (rules.ts) that read a value out of a clause: cutting it at the
 * words that end a place, a thing or a plan, splitting a list of items, and the English
 * relation words a member value ends with.
 */
import { hasLetter } from "../letters.ts";
import { BREED_SUFFIXES, PET_RELATIONS, RELATIONS_EN, RELATIONS_KO } from "./lexicon.ts";
import { type Pattern, pattern } from "./regex.ts";

/** Words that end a place/organisation value ("Busan now", "Google since 2020"). */
export const PLACE_STOP = pattern(
  String.raw`\s+(?:now|currently|these days|nowadays|since|with|and|but|because|so|which|where|who|when|though|although|as|anymore|any more|too|actually|btw|lol|haha|right now|at the moment|recently|last|next|this|ago|yesterday|today|tomorrow|tonight|for|from|in|on|at|by|every|each|lately|already|again|if|or|to|near|after|before|until|while|full[- ]time|part[- ]time|remotely|myself|though|downtown|uptown|nearby)\b|\s+-\s+|[,;!?()"]|(?<!\b(?:St|Dr|Mt|Ft|Jr|Sr|Inc|Co|Ltd|Corp))\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|-|.|;|?|actually|after|ago|already|and|as|at|because|btw|but|by|currently|downtown|each|every|from|full time|haha|if|in|lol|myself|near|nearby|next|now|on|or|part time|recently|remotely|so|these days|this|though|to|until|uptown|when|where|which|while|who|with|yesterday',
);

/** Words that end a liked/disliked thing; "and"/"or" split lists instead. */
export const THING_STOP = pattern(
  String.raw`\s+(?:but|because|so|though|although|since|when|which|who|if|too|lol|haha|btw|actually|anymore|any more|a lot|so much|very much|more than|than|these days|lately|nowadays|right now|now|honestly|though|either|as well)\b|\s+-\s+|[,;!?()"]|\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|-|.|;|?|a lot|actually|any more|anymore|as well|because|btw|but|either|haha|honestly|if|lately|lol|now|nowadays|right now|since|so|than|these days|though|too|very much|when|which|who',
);

export const LEADING = pattern(
  String.raw`^(?:the|a|an|some|my|our|any)\s+`,
  "i",
  "a|my|our|some|the",
);
const PRONOUN = pattern(
  String.raw`^(?:it|that|this|these|those|them|you|yours|mine|his|hers|theirs|ours|him|her|everything|anything|nothing|something|one|ones|when|how|what|the idea|doing that|myself|yourself|u|ya|em|being|having)\b`,
  "i",
  "anything|being|em|everything|having|her|him|his|how|it|mine|myself|nothing|one|something|that|the idea|theirs|these|those|u|what|when|ya",
);

export const CUT_RE1 = pattern(String.raw`\s+`);

/** The value that starts at `rest`, cut at the first stop; at most `maxWords` words. */
export function cut(rest: string, stop: Pattern, maxWords = 6): string {
  const match = stop.exec(rest);
  const raw = match === null ? rest : rest.slice(0, match.index);
  let value = raw.trim();
  while (LEADING.test(value)) value = LEADING.replace(value, "");
  const words = CUT_RE1.split(value).filter((word) => word !== "");
  return words.slice(0, maxWords).join(" ");
}

const ITEMS_RE1 = pattern(String.raw`^\s*(?:my|our)\s`, "i", "my|our");

const ITEMS_RE2 = pattern(String.raw`\s*,\s*|\s+(?:and|or|&)\s+`, "i");

const ITEMS_RE3 = pattern(String.raw`^to\s+`, "i", "to");

export function items(rest: string): string[] {
  // "I love my job", "I hate my commute": about the user's own things, not a taste.
  if (ITEMS_RE1.test(rest)) return [];
  const value = cut(rest, THING_STOP, 8);
  return ITEMS_RE2.split(value)
    .map((item) => ITEMS_RE3.replace(LEADING.replace(item, ""), "").trim())
    .filter((item) => item !== "" && !PRONOUN.test(item) && hasLetter(item, false));
}

/** Every match of `pattern` with the text after it. */
export function after(text: string, pattern: Pattern): { rest: string; match: RegExpExecArray }[] {
  const out: { rest: string; match: RegExpExecArray }[] = [];
  for (const match of pattern.all(text)) {
    out.push({ rest: text.slice((match.index ?? 0) + match[0].length), match });
  }
  return out;
}

export function usable(value: string): boolean {
  return value !== "" && !PRONOUN.test(value) && hasLetter(value);
}

const PATTERN_RE1 = pattern("-", "g", "-");

/** Korean pet words in an English sentence ("I have a 진돗개 named Baekgu"). */
const PETS_KO = Object.entries(RELATIONS_KO)
  .filter(([, relation]) => PET_RELATIONS.has(relation))
  .map(([word]) => word)
  .sort((a, b) => b.length - a.length);

/** Plurals in -ies of the relation words in -y ("puppies", "babies", "kitties"). */
const IES_PLURALS = Object.keys(RELATIONS_EN)
  .filter((word) => /[^aeiou]y$/.test(word))
  .map((word) => `${word.slice(0, -1)}ies`);

export const REL_WORDS_EN = [
  ...BREED_SUFFIXES.map(([suffix]) => `[a-z]+${suffix}`),
  ...PETS_KO,
  ...IES_PLURALS,
  ...Object.keys(RELATIONS_EN)
    .sort((a, b) => b.length - a.length)
    .map((word) => PATTERN_RE1.replace(word, "\\-")),
].join("|");

/** The relation words themselves: every family pattern needs one (regex-needs.test.ts). */
export const REL_NEED_EN = [
  ...BREED_SUFFIXES.map(([suffix]) => suffix),
  ...PETS_KO,
  ...IES_PLURALS,
  ...Object.keys(RELATIONS_EN).map((word) => word.replace(/[^ -~].*$/, "")), // "fiancé" → "fianc"
].join("|");

export const RELATION_OF_RE1 = pattern("s$", "", "s");

const petKo = (word: string): string | undefined => {
  const relation = RELATIONS_KO[word];
  return relation !== undefined && PET_RELATIONS.has(relation) ? relation : undefined;
};

export function relationOf(word: string): string | undefined {
  const lower = word.toLowerCase();
  const singular = lower.endsWith("ies")
    ? `${lower.slice(0, -3)}y`
    : RELATION_OF_RE1.replace(lower, "");
  const known = RELATIONS_EN[lower] ?? RELATIONS_EN[singular] ?? petKo(lower);
  if (known !== undefined) return known;
  for (const [suffix, relation] of BREED_SUFFIXES) {
    if (singular.length > suffix.length + 2 && singular.endsWith(suffix)) return relation;
  }
  return undefined;
}

/** "I'm" in its spellings, and the adverbs a rule lets stand before its verb. */
export const I_AM = "(?:i'm|i am|im)";
export const ADVERBS =
  "(?:really\\s+|absolutely\\s+|just\\s+|also\\s+|totally\\s+|kinda\\s+|kind of\\s+|do\\s+|still\\s+|genuinely\\s+|honestly\\s+|truly\\s+|definitely\\s+|actually\\s+|so\\s+|super\\s+|very\\s+|now\\s+|currently\\s+|more\\s+|mostly\\s+|mainly\\s+|way\\s+)*";

/** Words that end a plan value. */
export const PLAN_STOP = pattern(
  String.raw`\s+(?:tomorrow|tonight|today|next|this|on|in|at|for|with|soon|later|after|before|and|but|because|so|since|during|over|by)\b|[,;!?()"]|\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|.|;|?|after|and|at|because|but|by|for|in|next|on|over|so|this|today|tomorrow|with',
);

/** Words that end a name given after "my name is". */
export const NAME_STOP = pattern(
  String.raw`\s+(?:and|but|by|btw|from|i|i'm|im|nice|but)\b|[,;.!?]`,
  "i",
  "!|,|.|;|?|and|btw|but|by|from|i",
);

/** Words that end a name given after "call me". */
export const CALL_STOP = pattern(
  String.raw`\s+(?:though|and|but|instead|please|everyone|if|since|because|for|lol)\b|[,;.!?]`,
  "i",
  "!|,|.|;|?|and|because|but|everyone|for|if|instead|lol|please|since|though",
);

/** Words that end a date ("my birthday is May 3rd, so …"). */
export const DATE_STOP = pattern(
  String.raw`\s+(?:so|and|but|btw)\b|[,;!?]|\.(?=\s|$)`,
  "i",
  "!|,|.|;|?|and|btw|but|so",
);

/**
 * The key of a workplace read from "it's called X": a name whose business the clause before
 * must have named as the user's own (extract.ts), removed once that is so.
 */
export const OWN_BUSINESS_NAME = "own-business-name";
