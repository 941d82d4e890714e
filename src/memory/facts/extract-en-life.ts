/**
 * English rules for the user's life (extract-en.ts): family and pets, likes and dislikes,
 * allergies and health.
 */

import { EN_COULD_FOREVER, EN_HARM } from "./clauses.ts";
import {
  ADVERBS,
  after,
  CUT_RE1,
  cut,
  type Found,
  I_AM,
  items,
  LEADING,
  PLACE_STOP,
  REL_NEED_EN,
  REL_WORDS_EN,
  RELATION_OF_RE1,
  relationOf,
  usable,
} from "./extract-en-shared.ts";
import { HEALTH_GATES, open } from "./gates.ts";
import { languageCode } from "./languages.ts";
import { CONDITIONS_EN, DIET_EN, PET_RELATIONS, RELATIONS_EN } from "./lexicon.ts";
import { pattern } from "./regex.ts";

/**
 * "my sister is…", "our dog Biscuit turned ten", "my tabby, Oscar": a member named before
 * what they do or are; also at the end of the clause ("the one who greets me is my
 * goldfish", "we kept my cat").
 */
const FAMILY_RE1 = pattern(
  `(?:^|[\\s,;])(?:my|our)\\s+(?:(?:older|younger|little|big|baby|twin|eldest|oldest|youngest|step|new|\\d+-year-old)\\s+)?(${REL_WORDS_EN})s?(?=(?:'s|\\s+(?:[A-Z][a-z]+\\s+)?(?:is|are|was born|just|named|called|and\\s+i\\b|and\\s+me\\b|will|got|can|cannot|[a-z]+s|[a-z]+ed)\\b|,\\s+[A-Z][a-z]+(?:,|$)|\\s+[A-Z][a-z]+\\s*$|\\s*$))`,
  "gi",
  `${REL_NEED_EN}&my|our`,
);
const FAMILY_RE2 = pattern(
  `\\b(?:i|we)\\s+(?:also\\s+|now\\s+)?(?:have|'ve got|have got|got|adopted|own|just adopted|have had|'ve had|are fostering|am fostering|foster)\\s+(?:a|an|one|two|three|four|five|\\d+|our|my)\\s+((?:[\\w-]+\\s+){0,3}?(?:${REL_WORDS_EN})s?)(?!\\w)`,
  "gi",
  `${REL_NEED_EN}&'ve had|adopted|foster|got|have|own`,
);
const FAMILY_RE3 = pattern(
  `^\\s*(?:,\\s*and|,|and)\\s+(?:a|an|one|two|three|four|\\d+)\\s+((?:[\\w-]+\\s+){0,2}?(?:${REL_WORDS_EN})s?)\\b`,
  "i",
  REL_NEED_EN,
);
const FAMILY_RE4 = pattern(`\\bwith\\s+my\\s+(${REL_WORDS_EN})\\b`, "gi", "with&my");
const FAMILY_RE5 = pattern(
  `\\b${I_AM}\\s+(?:happily\\s+)?(married|engaged)\\b`,
  "i",
  "engaged|married&i am|i'm|im",
);
const FAMILY_RE6 = pattern(
  `\\b${I_AM}\\s+a\\s+(?:single\\s+|new\\s+|first-time\\s+|proud\\s+|stay-at-home\\s+|working\\s+)?(mom|mother|dad|father|parent)\\b`,
  "i",
  "dad|father|mom|mother|parent&i am|i'm|im",
);

/** "I've been seeing someone new", "I'm dating someone": a partner (members.ts names them). */
const FAMILY_DATING = pattern(
  String.raw`\b(?:i|we)(?:'ve|'m|\s+have|\s+am)?\s+(?:been\s+)?(?:seeing|dating)\s+(someone)\b`,
  "i",
  "dating|seeing&someone",
);

const FAMILY_RE7 = pattern(
  String.raw`\b(?:live|living|moved|stay|staying)\b`,
  "i",
  "live|living|moved|stay",
);

const PET_WORDS_EN = Object.entries(RELATIONS_EN)
  .filter(([, relation]) => PET_RELATIONS.has(relation))
  .map(([word]) => word)
  .sort((a, b) => b.length - a.length)
  .join("|");
/**
 * "then I had to walk the dog", "I feed our cats before work": the user caring for a pet at
 * home (walking, feeding, grooming it) says they have one; not someone else's ("for my
 * neighbor").
 */
const FAMILY_CARE = pattern(
  `\\b(?:i|we)\\s+(?:(?:had|have|has|need|needed|got|gotta)\\s+to\\s+|just\\s+|still\\s+|always\\s+|usually\\s+)*(?:walk|walked|feed|fed|groom|groomed)\\s+(?:the|my|our)\\s+(${PET_WORDS_EN})s?\\b(?!\\s+(?:for|of)\\s+(?:my|a|the|our|her|his|their|some)\\b)`,
  "gi",
  "feed|fed|groom|walk&my|our|the",
);

export function family(text: string): Found {
  const out: Found = [];
  const add = (written: string, detail = text): void => {
    const words = CUT_RE1.split(written.trim());
    // "guinea pigs": a two-word relation first.
    const relation = relationOf(words.slice(-2).join(" ")) ?? relationOf(words.at(-1) ?? "");
    if (relation === undefined) return;
    out.push({
      category: "family",
      value: written.trim().toLowerCase(),
      lang: "en",
      key: relation,
      detail,
    });
  };
  const my = FAMILY_RE1;
  for (const m of my.all(text)) add(m[1] ?? "");
  const have = FAMILY_RE2;
  const adjectives =
    /^(?:little|young|adorable|beautiful|wonderful|grown|teenage|lovely|cute|sweet)\s+/i;
  const more = FAMILY_RE3;
  for (const m of have.all(text)) {
    add((m[1] ?? "").replace(adjectives, ""));
    // "two cats and a parrot": the rest of the list.
    let rest = text.slice((m.index ?? 0) + m[0].length);
    for (let next = more.exec(rest); next !== null; next = more.exec(rest)) {
      add((next[1] ?? "").replace(adjectives, ""));
      rest = rest.slice(next[0].length);
    }
  }
  for (const m of FAMILY_CARE.all(text)) add(m[1] ?? "");
  if (FAMILY_RE7.test(text)) {
    for (const m of FAMILY_RE4.all(text)) {
      add(m[1] ?? "");
    }
  }
  const dating = FAMILY_DATING.exec(text);
  if (dating !== null) {
    out.push({ category: "family", value: "someone", lang: "en", key: "partner", detail: text });
  }
  const married = FAMILY_RE5.exec(text);
  if (married !== null) {
    out.push({
      category: "family",
      value: married[1] ?? "",
      lang: "en",
      key: "spouse",
      detail: text,
    });
  }
  const parent = FAMILY_RE6.exec(text);
  if (parent !== null) {
    out.push({ category: "family", value: "children", lang: "en", key: "children", detail: text });
  }
  return out;
}

const DONT_LIKE = pattern(
  String.raw`\b(?:i|we)\s+(?:really\s+|just\s+|honestly\s+)?(?:don't|do not|dont|never)\s+(?:really\s+|particularly\s+|much\s+)?(?:like|enjoy|care for)\s+`,
  "gi",
  "care for|enjoy|like&do not|don't|dont|never",
);

const LIKES_RE1 = pattern(
  `\\b(?:i|we)\\s+${ADVERBS}(?:like|love|adore|enjoy|prefer|dig)\\s+`,
  "i",
  "adore|dig|enjoy|like|love|prefer",
);
/** "I'd rather have ramen", "I would rather watch a documentary": what the user prefers. */
const LIKES_RATHER = pattern(
  String.raw`\b(?:i|we)(?:'d|\s+would)\s+(?:much\s+)?rather\s+(?:have|eat|drink|watch|play|read|do|listen\s+to|go\s+for)\s+(?!not\b)`,
  "i",
  "rather",
);
/**
 * What the user habitually listens to, watches, reads or drinks, said with how often
 * ("I mostly listen to jazz", "I usually drink oat lattes"), or what they switched to
 * lately ("Lately I've switched to coffee"): a taste.
 */
const LIKES_HABIT = pattern(
  String.raw`\b(?:i|we)\s+(?:(?:mostly|mainly|usually|always|often|only|just)\s+)+(?:listen\s+to|watch|read|drink)\s+(?!(?:before|after|at|in|on|when|while|during|every|for|a\s+lot|too)\b)`,
  "i",
  "drink|listen|read|watch&always|just|mainly|mostly|often|only|usually",
);
const LIKES_SWITCHED = pattern(
  String.raw`\b(?:i|we)\s+(?:have\s+|just\s+|recently\s+)*switched\s+(?:over\s+)?to\s+`,
  "i",
  "switched",
);
const SWITCH_WHEN = pattern(
  String.raw`\b(?:lately|these\s+days|nowadays|now)\b`,
  "i",
  "lately|now|these",
);
const LIKES_RE2 = pattern(
  `\\b${I_AM}\\s+${ADVERBS}(?:into|a\\s+(?:big\\s+|huge\\s+|massive\\s+|great\\s+)?fan\\s+of|fan\\s+of|obsessed\\s+with|crazy\\s+about|passionate\\s+about|addicted\\s+to)\\s+`,
  "i",
  "addicted|crazy|fan|into|obsessed|passionate&i am|i'm|im",
);
const LIKES_RE3 = pattern(
  String.raw`\bmy\s+(?:absolute\s+|all-time\s+|current\s+|new\s+)?favou?rite\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:is|are|has to be)\s+`,
  "gi",
  "favorite|favourite&are|has to be|is&my",
);
const LIKES_RE4 = pattern(
  String.raw`\bmy\s+hobb(?:y|ies)\s+(?:is|are|include)\s+`,
  "gi",
  "hobbies|hobby&are|include|is&my",
);
/** "Cilantro tastes like soap to me", "Durian smells awful": what the user finds awful. */
const TASTES_AWFUL = pattern(
  String.raw`^(?:honestly,?\s+|personally,?\s+)?([A-Za-z][\w'-]*(?:\s+[\w'-]+){0,2}?)\s+(?:tastes|smells)\s+(?:like\s+(?:soap|dirt|garbage|trash|feet|cardboard|medicine|nothing)|(?:so\s+|really\s+|just\s+)?(?:awful|gross|disgusting|terrible|horrible|nasty|weird|bad))\b`,
  "i",
  "smells|tastes",
);
/** "It tastes awful", "this smells weird": no thing named. */
const TASTES_NOT_A_THING = pattern(
  "^(?:it|this|that|everything|something|food)$",
  "i",
  "everything|food|it|something|that|this",
);
const LIKES_RE5 = pattern(
  `\\b(?:i|we)\\s+${ADVERBS}(?:hate|dislike|detest|loathe|despise|can't stand|cannot stand|can not stand|can't bear|cant stand|have gone off(?!\\s+to\\b)|'ve gone off(?!\\s+to\\b)|am sick of|'m sick of)\\s+`,
  "i",
  "am sick of|can not stand|can't bear|can't stand|cannot stand|cant stand|despise|detest|dislike|gone off|hate|loathe|m sick of",
);
const LIKES_RE6 = pattern(
  `(?:\\b${I_AM}\\s+|^(?:honestly,?\\s+)?)not\\s+(?:a\\s+(?:big\\s+|huge\\s+)?fan\\s+of|really\\s+into|into|crazy about)\\s+`,
  "i",
  "crazy about|fan|into|really&not",
);

const LIKES_RE7 = pattern(
  String.raw`^(?:(?:and|but|also|honestly|oh)\s+)?([\w' -]{2,40}?)\s+(?:is|are)\s+(?:totally\s+|definitely\s+|so\s+|really\s+)?my\s+(?:absolute\s+)?(?:favou?rite(?:\s+thing)?|jam|thing|jam though|weakness|guilty pleasure|comfort food)\b`,
  "i",
  "comfort food|favorite|favourite|guilty pleasure|jam|thing|weakness&are|is&my",
);

const LIKES_RE8 = pattern(String.raw`\s+now\b.*$`, "i", "now");
/**
 * "I'm learning guitar", "I've been learning to paint": what the speaker is learning is a
 * hobby (a language is its own fact, languages.ts). "I only drink tea", "we mostly eat
 * fish": having only one thing is a taste.
 */
const LIKES_RE9 = pattern(
  String.raw`\b(?:i'm|i am|im|i've been|i have been)\s+(?:(?:also|still|currently|now|slowly)\s+)?(?:learning|taking up|practicing|practising)\s+(?:to\s+play\s+|how\s+to\s+|to\s+)?`,
  "gi",
  "learning|practicing|practising|taking up",
);
/** "I'm more of a coffee person", "I'm a morning person": the X of "an X person" is a taste. */
const LIKES_RE11 = pattern(
  String.raw`\b(?:i'm|i am|im)\s+(?:(?:more|much more|definitely|totally|really|kind of|kinda)\s+)?(?:of\s+)?an?\s+([a-z]+(?:\s+[a-z]+)?)\s+person\b`,
  "i",
  "person&i am|i'm|im",
);
/** "I play the violin", "I play tennis on Sundays": what the speaker plays is a hobby. */
const LIKES_RE12 = pattern(
  String.raw`\b(?:i|we)\s+(?:also\s+|still\s+|usually\s+|often\s+|sometimes\s+)?play\s+(?:the\s+)?(?!with\b|for\b|at\b|in\b|on\b|around\b|it\b|along\b)`,
  "gi",
  "play",
);
const LIKES_RE10 = pattern(
  String.raw`\b(?:i|we)\s+(?:now\s+)?(?:only|mostly|usually|just)\s+(?:drink|eat)\s+`,
  "gi",
  "drink|eat&just|mostly|only|usually",
);

export function likes(text: string): Found {
  const out: Found = [];
  const forever = EN_COULD_FOREVER.exec(text);
  if (forever !== null) {
    for (const item of items(forever[1] ?? "")) {
      out.push({ category: "preference", value: item, lang: "en" });
    }
  }
  for (const { rest } of after(text, LIKES_HABIT)) {
    for (const item of items(rest)) out.push({ category: "preference", value: item, lang: "en" });
  }
  for (const { rest } of SWITCH_WHEN.test(text) ? after(text, LIKES_SWITCHED) : []) {
    for (const item of items(rest)) out.push({ category: "preference", value: item, lang: "en" });
  }
  for (const { rest } of after(text, LIKES_RATHER)) {
    for (const item of items(rest)) out.push({ category: "preference", value: item, lang: "en" });
  }
  for (const { rest } of after(text, LIKES_RE1)) {
    for (const item of items(rest)) out.push({ category: "preference", value: item, lang: "en" });
  }
  for (const { rest } of after(text, LIKES_RE2)) {
    for (const item of items(rest)) out.push({ category: "preference", value: item, lang: "en" });
  }
  for (const m of LIKES_RE3.all(text)) {
    const slot = RELATION_OF_RE1.replace((m[1] ?? "").toLowerCase(), "");
    const rest = text.slice((m.index ?? 0) + m[0].length);
    for (const item of items(LIKES_RE8.replace(rest, ""))) {
      out.push({
        category: "preference",
        value: item,
        lang: "en",
        key: `favorite:${slot}`,
        form: "favorite",
        slot,
      });
    }
  }
  const mine = LIKES_RE7.exec(text);
  if (mine !== null && usable(LEADING.replace(mine[1] ?? "", ""))) {
    out.push({ category: "preference", value: LEADING.replace(mine[1] ?? "", ""), lang: "en" });
  }
  for (const { rest } of after(text, LIKES_RE9)) {
    // "learning guitar for a year": the thing ends where a place or time begins.
    const value = cut(rest, PLACE_STOP, 4);
    if (!usable(value) || CUT_RE1.split(value).some((word) => languageCode(word) !== undefined)) {
      continue;
    }
    out.push({ category: "preference", value, lang: "en", form: "hobby" });
  }
  const person = LIKES_RE11.exec(text);
  if (person !== null && usable(person[1] ?? "") && (person[1] ?? "").toLowerCase() !== "people") {
    out.push({ category: "preference", value: person[1] ?? "", lang: "en" });
  }
  for (const { rest } of after(text, LIKES_RE12)) {
    const value = cut(rest, PLACE_STOP, 3);
    if (usable(value)) out.push({ category: "preference", value, lang: "en", form: "hobby" });
  }
  for (const { rest } of after(text, LIKES_RE10)) {
    for (const item of items(rest)) out.push({ category: "preference", value: item, lang: "en" });
  }
  for (const { rest } of after(text, LIKES_RE4)) {
    for (const item of items(rest)) {
      out.push({ category: "preference", value: item, lang: "en", form: "hobby" });
    }
  }
  const awful = TASTES_AWFUL.exec(text);
  if (awful !== null) {
    const value = LEADING.replace(awful[1] ?? "", "");
    if (usable(value) && !TASTES_NOT_A_THING.test(value)) {
      out.push({ category: "dislike", value: value.toLowerCase(), lang: "en" });
    }
  }
  for (const pattern of [LIKES_RE5, DONT_LIKE, LIKES_RE6]) {
    for (const { rest } of after(text, pattern)) {
      for (const item of items(rest)) out.push({ category: "dislike", value: item, lang: "en" });
    }
  }
  return out;
}

const HEALTH_RE1 = pattern(
  `\\b${I_AM}\\s+${ADVERBS}(?:severely\\s+|mildly\\s+|deathly\\s+|a\\s+(?:bit|little)\\s+)?allergic\\s+to\\s+`,
  "i",
  "allergic&i am|i'm|im&to",
);
const HEALTH_RE2 = pattern(
  String.raw`\b(?:i|we)\s+(?:have|'ve got|have got|got)\s+(?:a|an)?\s*(?:severe\s+|mild\s+|bad\s+|serious\s+)?([\w -]+?)\s+allerg(?:y|ies)\b`,
  "gi",
  "allergies|allergy&got|have",
);
const HEALTH_RE3 = pattern(
  String.raw`\bi\s+(?:can't|cannot|can not|cant)\s+(?:eat|have|drink|digest)\s+`,
  "gi",
  "can not|can't|cannot|cant&digest|drink|eat|have",
);
const HEALTH_RE4 = pattern(
  `\\b(?:i|we)\\s+(?:have|'ve got|have got|was diagnosed with|suffer from|live with|struggle with|deal with)\\s+(?:a\\s+|an\\s+)?(?:mild\\s+|severe\\s+|chronic\\s+|bad\\s+)?(${CONDITIONS_EN})\\b`,
  "gi",
  "'ve got|deal with|have|live with|struggle with|suffer from|was diagnosed with",
);
const HEALTH_RE5 = pattern(
  `\\b(?:i'm|i am|im|i've been|i have been|ive been)\\s+(?:a\\s+|an\\s+)?(?:strict\\s+|full\\s+|also\\s+|now\\s+|type\\s+[12]\\s+)?(${DIET_EN})\\b`,
  "gi",
  "asthmatic|celiac|colorblind|colourblind|deaf|diabetic|gluten free|gluten intolerant|gluten-free|gluten-intolerant|halal|hard of hearing|in recovery|keto|kosher|lactose intolerant|lactose-intolerant|on a diet|on a low carb diet|on a low-carb diet|on medication|pescatarian|pregnant|sober|teetotal|vegan|vegetarian&i am|i have been|i'm|i've been|im|ive been",
);
const HEALTH_RE6 = pattern(
  String.raw`\bi\s+(?:don't|do not|never)\s+(drink(?:\s+alcohol)?|smoke|eat\s+(?:meat|pork|beef|red meat|dairy|gluten|sugar|fish))\b`,
  "gi",
  "do not|don't|never",
);

/**
 * "Shellfish makes my throat close up", "strawberries give me hives": what a food does to the
 * user's body, said with the food as the subject (EN_HARM reads "if I eat X, …"). Only bodily
 * reactions: "work makes me sick" is no allergy.
 */
const HARM_SUBJECT = pattern(
  String.raw`^(?:even\s+)?([a-z][\w'-]*(?:\s+[\w'-]+){0,2}?)\s+(?:makes?|gives?|made|gave)\s+(?:me\s+(?:break\s+out|hives|a\s+rash|swell\s+up|itchy|wheezy)|my\s+(?:throat|face|lips|tongue|mouth|skin|eyes)\s+(?:close|swell|itch|tingle|burn|break\s+out))`,
  "i",
  "gave|give|gives|made|make|makes",
);

const HEALTH_RE7 = pattern("do not|never", "", "do not|never");

const HEALTH_RE8 = pattern(String.raw`^(?:eat|drink)\s+`, "i", "drink|eat");

const HEALTH_RE9 = pattern("^no drink$", "i", "no drink");

export function health(text: string): Found {
  const out: Found = [];
  const lower = text.toLowerCase();
  // Each expression behind the words it needs (gates.ts: a fresh isolate compiles fewer).
  const allergic = lower.includes("allerg");
  const condition = open(HEALTH_GATES.conditions, lower);
  const diet = open(HEALTH_GATES.diet, lower);
  for (const { rest } of allergic ? after(text, HEALTH_RE1) : []) {
    for (const item of items(rest)) out.push({ category: "allergy", value: item, lang: "en" });
  }
  for (const m of allergic ? HEALTH_RE2.all(text) : []) {
    const value = LEADING.replace(m[1] ?? "", "");
    if (usable(value)) out.push({ category: "allergy", value, lang: "en" });
  }
  for (const { rest } of lower.includes("cannot") ? after(text, HEALTH_RE3) : []) {
    for (const item of items(rest)) {
      out.push({ category: "allergy", value: item, lang: "en", form: "cant-eat" });
    }
  }
  for (const m of EN_HARM.all(text)) {
    const value = LEADING.replace(m[1] ?? "", "");
    if (usable(value)) out.push({ category: "allergy", value, lang: "en", form: "cant-eat" });
  }
  const reaction = HARM_SUBJECT.exec(text);
  if (reaction !== null) {
    const value = LEADING.replace(reaction[1] ?? "", "");
    if (usable(value)) out.push({ category: "allergy", value, lang: "en", form: "cant-eat" });
  }
  for (const m of condition ? HEALTH_RE4.all(text) : []) {
    out.push({ category: "health", value: m[1] ?? "", lang: "en", detail: text });
  }
  for (const m of diet ? HEALTH_RE5.all(text) : []) {
    out.push({ category: "health", value: m[1] ?? "", lang: "en", detail: text });
  }
  for (const m of HEALTH_RE7.test(lower) ? HEALTH_RE6.all(text) : []) {
    out.push({
      category: "health",
      value: HEALTH_RE9.replace(`no ${HEALTH_RE8.replace(m[1] ?? "", "")}`, "no alcohol"),
      lang: "en",
      form: "avoid",
      detail: text,
    });
  }
  return out;
}
