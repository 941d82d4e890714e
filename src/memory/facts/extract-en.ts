/**
 * English rules of the heuristic extractor. Every rule needs the speaker as subject ("I",
 * "I'm", "my", "we"), so "My friend lives in Busan" or "She lives in Canada" give no
 * residence; family members are caught by "my wife …" / "I have two kids" instead.
 */

import { hasLetter } from "../letters.ts";
import type { Candidate, Retraction } from "./build.ts";
import { EN_GATES, type GateName, HEALTH_GATES, open } from "./gates.ts";
import { languageCode, languagesEn } from "./languages.ts";
import {
  CONDITIONS_EN,
  DIET_EN,
  EVENTS_EN,
  JOB_HEADS_EN,
  NATIONALITIES,
  NOT_NAMES_EN,
  possessionKind,
  RELATIONS_EN,
  TIME_EN,
} from "./lexicon.ts";
import { type Pattern, pattern } from "./regex.ts";

type Found = Candidate[];

/** Words that end a place/organisation value ("Busan now", "Google since 2020"). */
const PLACE_STOP = pattern(
  String.raw`\s+(?:now|currently|these days|nowadays|since|with|and|but|because|so|which|where|who|when|though|although|as|anymore|any more|too|actually|btw|lol|haha|right now|at the moment|recently|last|next|this|ago|yesterday|today|tomorrow|tonight|for|from|in|on|at|by|every|each|lately|already|again|if|or|to|near|after|before|until|while|full[- ]time|part[- ]time|remotely|myself|though)\b|\s+-\s+|[,;!?()"]|(?<!\b(?:St|Dr|Mt|Ft|Jr|Sr|Inc|Co|Ltd|Corp))\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|-|.|;|?|actually|after|ago|already|and|as|at|because|btw|but|by|currently|each|every|from|full time|haha|if|in|lol|myself|near|next|now|on|or|part time|recently|remotely|so|these days|this|though|to|until|when|where|which|while|who|with|yesterday',
);

/** Words that end a liked/disliked thing; "and"/"or" split lists instead. */
const THING_STOP = pattern(
  String.raw`\s+(?:but|because|so|though|although|since|when|which|who|if|too|lol|haha|btw|actually|anymore|any more|a lot|so much|very much|more than|than|these days|lately|nowadays|right now|now|honestly|though|either|as well)\b|\s+-\s+|[,;!?()"]|\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|-|.|;|?|a lot|actually|any more|anymore|as well|because|btw|but|either|haha|honestly|if|lately|lol|now|nowadays|right now|since|so|than|these days|though|too|very much|when|which|who',
);

const LEADING = pattern(String.raw`^(?:the|a|an|some|my|our|any)\s+`, "i", "a|my|our|some|the");
const PRONOUN = pattern(
  String.raw`^(?:it|that|this|these|those|them|you|yours|mine|his|hers|theirs|ours|him|her|everything|anything|nothing|something|one|ones|when|how|what|the idea|doing that|myself|yourself|u|ya|em|being|having)\b`,
  "i",
  "anything|being|em|everything|having|her|him|his|how|it|mine|myself|nothing|one|something|that|the idea|theirs|these|those|u|what|when|ya",
);

const CUT_RE1 = pattern(String.raw`\s+`);

/** The value that starts at `rest`, cut at the first stop; at most `maxWords` words. */
function cut(rest: string, stop: Pattern, maxWords = 6): string {
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

function items(rest: string): string[] {
  // "I love my job", "I hate my commute": about the user's own things, not a taste.
  if (ITEMS_RE1.test(rest)) return [];
  const value = cut(rest, THING_STOP, 8);
  return ITEMS_RE2.split(value)
    .map((item) => ITEMS_RE3.replace(LEADING.replace(item, ""), "").trim())
    .filter((item) => item !== "" && !PRONOUN.test(item) && hasLetter(item, false));
}

/** Every match of `pattern` with the text after it. */
function after(text: string, pattern: Pattern): { rest: string; match: RegExpExecArray }[] {
  const out: { rest: string; match: RegExpExecArray }[] = [];
  for (const match of pattern.all(text)) {
    out.push({ rest: text.slice((match.index ?? 0) + match[0].length), match });
  }
  return out;
}

function usable(value: string): boolean {
  return value !== "" && !PRONOUN.test(value) && hasLetter(value);
}

const PATTERN_RE1 = pattern("-", "g", "-");

const REL_WORDS_EN = Object.keys(RELATIONS_EN)
  .sort((a, b) => b.length - a.length)
  .map((word) => PATTERN_RE1.replace(word, "\\-"))
  .join("|");

/** The relation words themselves: every family pattern needs one (regex-needs.test.ts). */
const REL_NEED_EN = Object.keys(RELATIONS_EN)
  .map((word) => word.replace(/[^ -~].*$/, "")) // "fiancé" → "fianc": é has a case outside ASCII
  .join("|");

const RELATION_OF_RE1 = pattern("s$", "", "s");

function relationOf(word: string): string | undefined {
  const lower = word.toLowerCase();
  return RELATIONS_EN[lower] ?? RELATIONS_EN[RELATION_OF_RE1.replace(lower, "")];
}

const I_AM = "(?:i'm|i am|im)";
const ADVERBS =
  "(?:really\\s+|absolutely\\s+|just\\s+|also\\s+|totally\\s+|kinda\\s+|kind of\\s+|do\\s+|still\\s+|genuinely\\s+|honestly\\s+|truly\\s+|definitely\\s+|actually\\s+|so\\s+|super\\s+|very\\s+|now\\s+|currently\\s+|more\\s+|mostly\\s+|mainly\\s+|way\\s+)*";

const NOT_A_NAME = pattern(
  String.raw`^(?:not|none|nothing|secret|private|irrelevant|unimportant|unknown|a|an|the|what|whatever|too|so|hard|long|weird|complicated)\b`,
  "i",
  "a|long|none|not|secret|so|the|too|unknown|weird",
);

const NAME_RE1 = pattern(
  String.raw`(?:\bmy name(?:'s|\s+is)|^(?:(?:hi|hey|hello)(?:\s+there)?[,!.]?\s+)?(?:the\s+)?name's)\s+`,
  "gi",
  "my name|name's",
);
const NAME_RE2 = pattern(
  String.raw`\b(?:you can call me|just call me|please call me|call me|people call me|everyone calls me|i go by)\s+`,
  "gi",
  "call me|everyone calls me|i go by",
);

const NAME_RE3 = pattern(
  String.raw`\s+(?:and|but|by|btw|from|i|i'm|im|nice|but)\b|[,;.!?]`,
  "i",
  "!|,|.|;|?|and|btw|but|by|from|i",
);
const NAME_RE4 = pattern(
  String.raw`\s+(?:though|and|but|instead|please|everyone|if|since|because|for|lol)\b|[,;.!?]`,
  "i",
  "!|,|.|;|?|and|because|but|everyone|for|if|instead|lol|please|since|though",
);
const NAME_RE5 = pattern(
  String.raw`^(?:back|later|anytime|maybe|when|if|crazy|old)\b`,
  "i",
  "anytime|back|crazy|if|later|maybe|old|when",
);
const NAME_RE6 = pattern(
  String.raw`^(?:((?:hi|hey|hello|hiya|yo|greetings|howdy|heya)(?:\s+there)?)[,!.]?\s+)?(?:i'm|i am|im)\s+([A-Za-z][A-Za-z'-]*)((?:\s+[A-Za-z][A-Za-z'-]*)?)\s*(.*)$`,
  "i",
  "i am|i'm|im",
);
const NAME_RE7 = pattern("^[A-Z][a-z]");
const NAME_RE8 = pattern(
  String.raw`^(?:$|[,.!]|(?:btw|by the way|here|from|and|nice to meet you)\b)`,
  "i",
);
const NAME_RE9 = pattern(String.raw`^(?:btw|by the way|here)\b`, "i", "btw|by the way|here");
const NAME_RE10 = pattern(
  String.raw`^(?:hi|hey|hello)[,!]?\s+(?:this is|it's)\s+([A-Z][a-z]+)\b`,
  "",
  "it's|this is&hello|hey|hi",
);

function name(text: string): Found {
  const out: Found = [];
  for (const { rest } of after(text, NAME_RE1)) {
    const value = cut(rest, NAME_RE3, 3);
    if (usable(value) && !NOT_A_NAME.test(value)) out.push({ category: "name", value, lang: "en" });
  }
  for (const { rest } of after(text, NAME_RE2)) {
    const value = cut(rest, NAME_RE4, 2);
    if (usable(value) && !NAME_RE5.test(value)) {
      out.push({ category: "name", value, lang: "en", form: "nickname" });
    }
  }
  const intro = NAME_RE6.exec(text);
  if (intro !== null) {
    const first = intro[2] ?? "";
    let second = (intro[3] ?? "").trim();
    let tail = (intro[4] ?? "").trim();
    if (second !== "" && !NAME_RE7.test(second)) {
      tail = `${second} ${tail}`.trim();
      second = "";
    }
    const ends = NAME_RE8.test(tail);
    const lower = first.toLowerCase();
    const capital = NAME_RE7.test(first);
    const context = intro[1] !== undefined || NAME_RE9.test(tail);
    const taken =
      NOT_NAMES_EN.has(lower) ||
      NATIONALITIES[lower] !== undefined ||
      JOB_HEADS_EN.has(lower) ||
      relationOf(lower) !== undefined;
    if (ends && !taken && (capital || context)) {
      out.push({
        category: "name",
        value: second === "" ? first : `${first} ${second}`,
        lang: "en",
      });
    }
  }
  const thisIs = NAME_RE10.exec(text);
  if (thisIs !== null) out.push({ category: "name", value: thisIs[1] ?? "", lang: "en" });
  return out;
}

const RESIDENCE_PATTERNS: readonly [Pattern, "plain" | "hometown"][] = [
  [
    pattern(
      String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+|actually\s+|also\s+|both\s+)?(?:live|reside|am living|'m living|are living|'re living|have lived|'ve lived|have been living|'ve been living)\s+(?:(?:alone|together|with\s+[\w\s]+?)\s+)?(?:in|near|at|on|outside(?:\s+of)?)\s+`,
      "gi",
      "'m living|'re living|'ve been living|am living|are living|have been living|live|reside&at|in|near|on|outside",
    ),
    "plain",
  ],
  [
    pattern(
      String.raw`\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+|actually\s+|already\s+)?(?:moved|relocated)\s+(?:back\s+)?(?:from\s+[\w.' -]+?\s+)?to\s+`,
      "gi",
      "moved|relocated&to",
    ),
    "plain",
  ],
  [
    pattern(
      String.raw`\b(?:i'm|i am|im|we're|we are)\s+(?:currently\s+|now\s+)?(?:based|located|living)\s+in\s+`,
      "gi",
      "based|living|located&i am|i'm|im|we are|we're&in",
    ),
    "plain",
  ],
  [
    // "For now I'm stuck in Ohio", "we're settled in Leeds": a named place only.
    pattern(
      String.raw`\b(?:[Ii]'m|[Ii] am|[Ii]m|[Ww]e're|[Ww]e are)\s+(?:(?:currently|now|still|kind of|kinda|pretty much)\s+)?(?:stuck|settled)\s+in\s+(?=[A-Z])`,
      "g",
      "settled|stuck&in",
    ),
    "plain",
  ],
  [
    pattern(
      String.raw`\bmy\s+(?:home|place|apartment|house|flat)\s+is\s+in\s+`,
      "gi",
      "apartment|flat|home|house|place&in&is",
    ),
    "plain",
  ],
  [
    pattern(
      String.raw`\b(?:i|we)\s+(?:rent|own|have|share|am renting|are renting)\s+(?:a|an|my|our)\s+(?:[\w-]+\s+){0,2}?(?:apartment|studio|house|flat|place|room|condo|home)\s+(?:in|near)\s+`,
      "gi",
      "apartment|condo|flat|home|house|place|room|studio&have|own|rent|share&in|near",
    ),
    "plain",
  ],
  [pattern(String.raw`\bmy\s+home\s*town\s+is\s+`, "gi", "home&town&is"), "hometown"],
  [
    pattern(String.raw`\b(?:i'm|i am|im)\s+(?:originally\s+)?from\s+`, "gi", "from&i am|i'm|im"),
    "hometown",
  ],
  [
    pattern(
      String.raw`\bi\s+(?:grew up|was raised|was born and raised)\s+in\s+`,
      "gi",
      "grew up|was born and raised|was raised&in",
    ),
    "hometown",
  ],
  [pattern(String.raw`\bi\s+was\s+born\s+in\s+(?=[A-Z])`, "g", "born&was&in"), "hometown"],
];

const RESIDENCE_RE1 = pattern(
  String.raw`\b(?:team|department|company|office|work|family)\b`,
  "i",
  "company|department|family|office|team|work",
);
const RESIDENCE_RE2 = pattern(
  "^(?:here|there|home|town|the city|a house|an apartment)$",
  "i",
  "a house|an apartment|here|home|the city|town",
);
const RESIDENCE_RE3 = pattern(
  String.raw`\bi\s+live\s+(?:alone|by myself|on my own)\b`,
  "i",
  "alone|by myself|on my own&live",
);

function residence(text: string): Found {
  const out: Found = [];
  for (const [pattern, form] of RESIDENCE_PATTERNS) {
    for (const { rest } of after(text, pattern)) {
      const value = cut(rest, PLACE_STOP, 5);
      if (!usable(value) || RESIDENCE_RE1.test(value)) {
        continue;
      }
      if (RESIDENCE_RE2.test(value)) continue;
      out.push(
        form === "hometown"
          ? { category: "residence", value, lang: "en", key: "hometown", form: "hometown" }
          : { category: "residence", value, lang: "en" },
      );
    }
  }
  if (RESIDENCE_RE3.test(text)) {
    out.push({ category: "other", value: "alone", lang: "en", key: "living", slot: "living" });
  }
  return out;
}

const WORKPLACE_PATTERNS = [
  pattern(
    String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+|also\s+|actually\s+)?(?:work|am working|'m working|'ve been working|have been working|teach|intern)\s+(?:at|for)\s+`,
    "gi",
    "intern|teach|work&at|for",
  ),
  pattern(
    String.raw`\b(?:i'm|i am|im)\s+(?:currently\s+)?(?:employed|working|interning)\s+(?:at|by|for|with)\s+`,
    "gi",
    "employed|interning|working&i am|i'm|im&at|by|for|with",
  ),
  pattern(
    String.raw`\bi\s+(?:just\s+|recently\s+)?(?:joined|started\s+(?:a\s+new\s+job\s+|working\s+|my\s+new\s+job\s+|an\s+internship\s+)?at)\s+`,
    "gi",
    "joined|started",
  ),
  pattern(
    String.raw`\bmy\s+(?:company|employer|workplace|firm)\s+is\s+`,
    "gi",
    "company|employer|firm|workplace&is&my",
  ),
];

const WORKPLACE_RE1 = pattern(
  String.raw`\bmy\s+(?:shift|shifts|job|internship|desk|work)\s+at\s+|\b(?:i|we)\s+(?:work|am working)\s+(?:the\s+)?(?:night|day|early|late)\s+shifts?\s+at\s+`,
  "gi",
  "desk|internship|job|shift|work",
);
const WORKPLACE_RE2 = pattern(
  String.raw`\bmy\s+office\s+is\s+(?:in|at|located in|near)\s+`,
  "gi",
  "office&at|in|near&is",
);
const WORKPLACE_RE3 = pattern(String.raw`\bi\s+(?:currently\s+)?work\s+in\s+`, "gi", "work&in");

const WORKPLACE_RE4 = pattern(String.raw`^(?:in|at|located in|based in)\s+`, "i", "at|in");
const WORKPLACE_RE5 = pattern(
  "^(?:home|work|night|the moment)$",
  "i",
  "home|night|the moment|work",
);
const WORKPLACE_RE6 = pattern(
  String.raw`\bi\s+(?:mostly\s+|mainly\s+)?work\s+(?:from\s+home|remotely|at\s+home)\b`,
  "i",
  "from|home|remotely&work",
);
const WORKPLACE_RE7 = pattern("^[A-Z]");

function workplace(text: string): Found {
  const out: Found = [];
  for (const pattern of WORKPLACE_PATTERNS) {
    for (const { rest } of after(text, pattern)) {
      const located = WORKPLACE_RE4.exec(rest);
      const value = cut(located === null ? rest : rest.slice(located[0].length), PLACE_STOP, 5);
      if (!usable(value) || WORKPLACE_RE5.test(value)) continue;
      out.push(
        located === null
          ? { category: "workplace", value, lang: "en" }
          : { category: "workplace", value, lang: "en", key: "location", form: "location" },
      );
    }
  }
  for (const { rest } of after(text, WORKPLACE_RE1)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (usable(value)) out.push({ category: "workplace", value, lang: "en" });
  }
  for (const { rest } of after(text, WORKPLACE_RE2)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (usable(value)) {
      out.push({ category: "workplace", value, lang: "en", key: "location", form: "location" });
    }
  }
  if (WORKPLACE_RE6.test(text)) {
    out.push({ category: "workplace", value: "remote", lang: "en", form: "remote" });
  }
  for (const { rest } of after(text, WORKPLACE_RE3)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (!usable(value)) continue;
    out.push(
      WORKPLACE_RE7.test(value)
        ? { category: "workplace", value, lang: "en" }
        : { category: "job", value, lang: "en" },
    );
  }
  return out;
}

const IS_PROFESSION_RE1 = pattern(
  "^[a-z]{3,}(?:ist|ician|ologist|grapher)s?$",
  "",
  "grapher|ician|ist",
);
const IS_PROFESSION_RE2 = pattern(
  "^(?:optimist|pessimist|realist|idealist|perfectionist|minimalist|extremist|narcissist|racist|sexist|purist|specialist|artist)s?$",
  "",
  "artist|extremist|idealist|minimalist|narcissist|optimist|perfectionist|pessimist|purist|racist|realist|sexist|specialist",
);

/**
 * Professions outside the word list by their suffix ("hygienist", "pianist", "optician",
 * "cardiologist", "videographer"), minus words of character ("optimist", "realist").
 */
function isProfession(word: string): boolean {
  const lower = word.toLowerCase();
  return IS_PROFESSION_RE1.test(lower) && !IS_PROFESSION_RE2.test(lower);
}

function singular(word: string): string {
  const lower = word.toLowerCase();
  if (JOB_HEADS_EN.has(lower)) return lower;
  if (lower.endsWith("s") && JOB_HEADS_EN.has(lower.slice(0, -1))) return lower.slice(0, -1);
  return lower;
}

const JOB_RE1 = pattern(
  `\\b${I_AM}\\s+(?:now\\s+|currently\\s+|also\\s+|actually\\s+|just\\s+|still\\s+)?(?:a|an)\\s+`,
  "i",
  "i am|i'm|im",
);
const JOB_RE2 = pattern(
  String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|also\s+|just\s+|recently\s+)?(?:work|am working|'m working|'ve been working|have been working|started|start)\s+(?:(?:a\s+new\s+job\s+|working\s+)?(?:at|for)\s+[\w&.' -]+?\s+)?as\s+(?:a\s+|an\s+)?`,
  "gi",
  "start|work&as",
);
const JOB_RE3 = pattern(
  String.raw`\bmy\s+(?:job|profession|occupation|role|position|title)\s+is\s+(?:a\s+|an\s+|being\s+a\s+)?`,
  "gi",
  "job|occupation|position|profession|role|title&is&my",
);
const JOB_RE4 = pattern(
  `\\b${I_AM}\\s+(retired|unemployed|self-employed|between jobs|a stay-at-home (?:mom|dad|parent)|job hunting)\\b`,
  "i",
  "a stay-at-home dad|a stay-at-home mom|a stay-at-home parent|between jobs|job hunting|retired|self-employed|unemployed&i am|i'm|im",
);
const JOB_RE5 = pattern(String.raw`\bi\s+do\s+`, "gi", "do");

const JOB_RE6 = pattern("[,.;!?]$", "", "!|,|.|;|?");
const JOB_RE7 = pattern(
  String.raw`\b(?:fan|lover|bit|lot|kind|sort|type|night|morning|big|huge)\b`,
  "i",
  "big|bit|fan|huge|kind|lot|lover|morning|night|sort|type",
);
const JOB_RE8 = pattern(String.raw`^(?:at|for|with)\s+`, "i", "at|for|with");
const JOB_RE9 = pattern(String.raw`^\s*(?:at|for|with)\s+`, "i", "at|for|with");
const JOB_RE10 = pattern(
  String.raw`\bi\s+(?:currently\s+|now\s+|still\s+)?teach\b(?!\s+(?:myself|yourself|him|her|them|my\s+(?:kids|son|daughter|dog)))`,
  "i",
  "teach",
);
const JOB_RE11 = pattern(String.raw`^(.+?)\s+for\s+a\s+living\b`, "i", "living&for");

const JOB_RE12 = pattern("[,.;!?]+$", "", "!|,|.|;|?");

function job(text: string): Found {
  const out: Found = [];
  for (const { rest } of after(text, JOB_RE1)) {
    const words = CUT_RE1.split(rest).slice(0, 6);
    for (let i = 0; i < words.length; i++) {
      const word = JOB_RE12.replace(words[i] ?? "", "");
      if (!JOB_HEADS_EN.has(singular(word)) && !isProfession(word)) {
        if (JOB_RE6.test(words[i] ?? "")) break;
        continue;
      }
      const value = JOB_RE12.replace(words.slice(0, i + 1).join(" "), "");
      if (JOB_RE7.test(value)) break;
      out.push({ category: "job", value, lang: "en" });
      const tail = words.slice(i + 1).join(" ");
      const org = JOB_RE8.exec(tail);
      if (org !== null && !JOB_RE6.test(words[i] ?? "")) {
        const place = cut(
          CUT_RE1.split(rest)
            .slice(i + 1)
            .join(" ")
            .slice(org[0].length),
          PLACE_STOP,
          5,
        );
        if (usable(place)) out.push({ category: "workplace", value: place, lang: "en" });
      }
      break;
    }
  }
  for (const { rest } of after(text, JOB_RE2)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (!usable(value)) continue;
    out.push({ category: "job", value, lang: "en" });
    const org = JOB_RE9.exec(rest.slice(rest.indexOf(value) + value.length));
    if (org !== null) {
      const tail = rest.slice(rest.indexOf(value) + value.length + org[0].length);
      const place = cut(tail, PLACE_STOP, 5);
      if (usable(place)) out.push({ category: "workplace", value: place, lang: "en" });
    }
  }
  for (const { rest } of after(text, JOB_RE3)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (usable(value)) out.push({ category: "job", value, lang: "en" });
  }
  const status = JOB_RE4.exec(text);
  if (status !== null) out.push({ category: "job", value: status[1] ?? "", lang: "en" });
  if (JOB_RE10.test(text)) {
    out.push({ category: "job", value: "teacher", lang: "en" });
  }
  for (const { rest } of after(text, JOB_RE5)) {
    const living = JOB_RE11.exec(rest);
    if (living !== null && usable(living[1] ?? "")) {
      out.push({ category: "job", value: living[1] ?? "", lang: "en" });
    }
  }
  return out;
}

const FAMILY_RE1 = pattern(
  `(?:^|[\\s,;])(?:my|our)\\s+(?:(?:older|younger|little|big|baby|twin|eldest|oldest|youngest|step|new|\\d+-year-old)\\s+)?(${REL_WORDS_EN})s?(?=(?:'s|\\s+(?:[A-Z][a-z]+\\s+)?(?:is|are|was born|just|named|called|and\\s+i\\b|and\\s+me\\b|will|got|can|cannot|[a-z]+s|[a-z]+ed)\\b|,\\s+[A-Z][a-z]+,))`,
  "gi",
  `${REL_NEED_EN}&my|our`,
);
const FAMILY_RE2 = pattern(
  `\\b(?:i|we)\\s+(?:also\\s+|now\\s+)?(?:have|'ve got|have got|got|adopted|own|just adopted|have had|'ve had)\\s+(?:a|an|one|two|three|four|five|\\d+|our|my)\\s+((?:[\\w-]+\\s+){0,3}?(?:${REL_WORDS_EN})s?)\\b`,
  "gi",
  `${REL_NEED_EN}&'ve had|adopted|got|have|own`,
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

const FAMILY_RE7 = pattern(
  String.raw`\b(?:live|living|moved|stay|staying)\b`,
  "i",
  "live|living|moved|stay",
);

function family(text: string): Found {
  const out: Found = [];
  const add = (written: string, detail = text): void => {
    const words = CUT_RE1.split(written.trim());
    const relation = relationOf(words.at(-1) ?? "");
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
  if (FAMILY_RE7.test(text)) {
    for (const m of FAMILY_RE4.all(text)) {
      add(m[1] ?? "");
    }
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
const LIKES_RE5 = pattern(
  `\\b(?:i|we)\\s+${ADVERBS}(?:hate|dislike|detest|loathe|despise|can't stand|cannot stand|can not stand|can't bear|cant stand)\\s+`,
  "i",
  "can not stand|can't bear|can't stand|cannot stand|cant stand|despise|detest|dislike|hate|loathe",
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

function likes(text: string): Found {
  const out: Found = [];
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
  `\\b(?:i'm|i am|im|i've been|i have been|ive been)\\s+(?:a\\s+|an\\s+)?(?:strict\\s+|full\\s+|also\\s+|now\\s+)?(${DIET_EN})\\b`,
  "gi",
  "asthmatic|celiac|colorblind|colourblind|deaf|diabetic|gluten free|gluten intolerant|gluten-free|gluten-intolerant|halal|hard of hearing|in recovery|keto|kosher|lactose intolerant|lactose-intolerant|on a diet|on a low carb diet|on a low-carb diet|on medication|pescatarian|pregnant|sober|teetotal|vegan|vegetarian&i am|i have been|i'm|i've been|im|ive been",
);
const HEALTH_RE6 = pattern(
  String.raw`\bi\s+(?:don't|do not|never)\s+(drink(?:\s+alcohol)?|smoke|eat\s+(?:meat|pork|beef|red meat|dairy|gluten|sugar|fish))\b`,
  "gi",
  "do not|don't|never",
);

const HEALTH_RE7 = pattern("do not|never", "", "do not|never");

const HEALTH_RE8 = pattern(String.raw`^(?:eat|drink)\s+`, "i", "drink|eat");

const HEALTH_RE9 = pattern("^no drink$", "i", "no drink");

function health(text: string): Found {
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

/** Words TIME_EN needs (besides a digit): its large expression runs only behind them. */
const TIME_GATE = `tomorrow tonight today next this soon later holiday christmas day week month
  year spring summer fall autumn winter evening afternoon morning monday tuesday wednesday
  thursday friday saturday sunday january february march april may june july august september
  october november december`.split(/\s+/);

/** What every event pattern needs: one of the event words. */
const EVENT_NEED =
  "appointment|audition|ceremony|check-up|checkup|class|concert|conference|date|deadline|dinner|exam|flight|game|graduation|hearing|hike|holiday|interview|lesson|lunch|marathon|match|meeting|move|operation|party|performance|presentation|race|recital|reservation|reunion|show|surgery|test|tournament|trip|vacation|visit|wedding";

const EVENT_WORDS = pattern(`\\b(?:${EVENTS_EN})\\b`, "i", EVENT_NEED);

/** Plan verbs whose object alone names the plan ("visiting Tokyo" → Tokyo). */
const OBJECT_ONLY = pattern(
  "^(?:visiting|renovating|expecting|attending|adopting|buying|getting|picking up|training for|preparing for|studying for|competing in|flying out for)$",
  "",
  "adopting|attending|buying|competing in|expecting|flying out for|getting|picking up|preparing for|renovating|studying for|training for|visiting",
);

const PLANS_RE1 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:going|heading|flying|driving|traveling|travelling|moving|off|taking a trip|going on a trip|taking the kids)\s+to\s+`,
  "gi",
  "driving|flying|going|heading|moving|off|taking a trip|taking the kids|traveling|travelling&'m|'re|am|are&to",
);
const PLANS_RE2 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+going\s+(camping|hiking|skiing|fishing|surfing|shopping|backpacking|diving)\b(?:\s+(?:in|at|to)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*))?`,
  "gi",
  "backpacking|camping|diving|fishing|hiking|shopping|skiing|surfing&going&'m|'re|am|are",
);
const PLANS_RE3 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(visiting|attending|hosting|renovating|expecting|running|starting|getting married|having|adopting|buying|getting|picking up|launching|opening|training for|preparing for|studying for|competing in|flying out for)\b\s*([^,.;!?]*)`,
  "gi",
  "adopting|attending|buying|competing in|expecting|flying out for|getting|having|hosting|launching|opening|picking up|preparing for|renovating|running|starting|studying for|training for|visiting&'m|'re|am|are",
);
const PLANS_RE4 = pattern(
  `\\b(?:i|we)\\s+(?:have|'ve got|have got|got)\\s+(?:a|an|my|our)\\s+((?:[\\w-]+\\s+){0,2}?(?:${EVENTS_EN}))\\b`,
  "gi",
  `${EVENT_NEED}&got|have`,
);
const PLANS_RE5 = pattern(
  String.raw`\b(?:i|we)(?:'ll|\s+will)\s+be\s+(?:in|at|visiting)\s+([^,.;!?]+)`,
  "gi",
  "'ll|will&be&at|in",
);
const PLANS_RE6 = pattern(
  `\\bmy\\s+((?:[\\w-]+\\s+){0,2}?(?:${EVENTS_EN}))\\s+is\\s+(?:on|at|next|this|tomorrow|in|coming up|scheduled|tonight|today)\\b`,
  "gi",
  `${EVENT_NEED}&my`,
);
const PLANS_RE7 = pattern(
  String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+(?:planning|plan|scheduled|booked|set)\s+to\s+`,
  "gi",
  "booked|plan|scheduled|set&to",
);

const PLANS_RE8 = pattern(String.raw`\d`);
const PLANS_RE9 = pattern(
  String.raw`\b(?:planning|plan|scheduled|booked)\s+to\b`,
  "i",
  "booked|plan|scheduled&to",
);
const PLANS_RE10 = pattern("baby|party", "i", "baby|party");

/** Words that end a plan value. */
const PLAN_STOP = pattern(
  String.raw`\s+(?:tomorrow|tonight|today|next|this|on|in|at|for|with|soon|later|after|before|and|but|because|so|since|during|over|by)\b|[,;!?()"]|\.(?=\s|$)`,
  "i",
  '!|"|(|)|,|.|;|?|after|and|at|because|but|by|for|in|next|on|over|so|this|today|tomorrow|with',
);

const PLANS_RE11 = pattern(String.raw`^(?:our|my|the|a|an)\s+`, "i", "a|my|our|the");

function plans(text: string): Found {
  const out: Found = [];
  const lower = text.toLowerCase();
  const timed = (PLANS_RE8.test(lower) || open(TIME_GATE, lower)) && TIME_EN.test(text);
  const explicit =
    (lower.includes("plan") || lower.includes("schedul") || lower.includes("book")) &&
    PLANS_RE9.test(text);
  const add = (value: string): void => {
    const clean = PLANS_RE11.replace(value, "").trim();
    if (usable(clean)) out.push({ category: "plan", value: clean, lang: "en", detail: text });
  };
  if (timed) {
    for (const { rest } of after(text, PLANS_RE1)) {
      add(cut(rest, PLAN_STOP, 5));
    }
    for (const m of PLANS_RE2.all(text)) {
      add(m[2] === undefined ? (m[1] ?? "") : `${m[1]} in ${m[2]}`);
    }
    for (const m of PLANS_RE3.all(text)) {
      const verb = (m[1] ?? "").toLowerCase();
      const object = cut(m[2] ?? "", PLAN_STOP, 4);
      if (verb === "getting married") add("wedding");
      else if (verb === "having" && !EVENT_WORDS.test(object) && !PLANS_RE10.test(object)) continue;
      else if (object === "") add(verb);
      else add(OBJECT_ONLY.test(verb) ? object : `${verb} ${object}`);
    }
    for (const m of PLANS_RE4.all(text)) {
      add(m[1] ?? "");
    }
    for (const m of PLANS_RE5.all(text)) {
      add(cut(m[1] ?? "", PLAN_STOP, 4));
    }
  }
  for (const m of PLANS_RE6.all(text)) {
    add(m[1] ?? "");
  }
  if (explicit) {
    for (const { rest } of after(text, PLANS_RE7)) {
      add(cut(rest, PLAN_STOP, 5));
    }
  }
  return out;
}

const POSSESSIONS_RE1 = pattern(
  String.raw`\b(?:i|we)\s+(?:also\s+|still\s+|now\s+|do\s+|just\s+|recently\s+|finally\s+)*(?:have|own|drive|ride|use|got|bought|'ve got|have got|am driving|'m driving)\s+(?:a|an|the|my|two|\d+)?\s*(?:new\s+|used\s+|old\s+|brand[- ]new\s+|second-hand\s+|little\s+)?`,
  "gi",
  "'m driving|am driving|bought|drive|got|have|own|ride|use",
);
const POSSESSIONS_RE2 = pattern(
  `^(?:${CONDITIONS_EN})$`,
  "i",
  "a bad back|a bad knee|a heart condition|a herniated disc|acid reflux|adhd|allergies|anemia|anxiety|arthritis|asthma|autism|back pain|cancer|celiac|chronic pain|crohn's|depression|diabetes|dyslexia|eczema|epilepsy|fibromyalgia|gerd|glaucoma|gluten intolerance|gout|heart disease|high blood pressure|high cholesterol|hypertension|hypothyroidism|ibs|insomnia|lactose intolerance|long covid|low blood pressure|lupus|migraine|ms|multiple sclerosis|pcos|psoriasis|scoliosis|sleep apnea|thyroid issues|tinnitus",
);
const POSSESSIONS_RE3 = pattern(
  String.raw`\bmy\s+(car|phone|laptop|computer|bike|tablet|camera|watch|ride|cell|mobile)\s+is\s+(?:a\s+|an\s+)?([^,.;!?]+)`,
  "gi",
  "bike|camera|car|cell|computer|laptop|mobile|phone|ride|tablet|watch&is&my",
);

const POSSESSIONS_RE4 = pattern(
  String.raw`\b(drive|ride|own|bought|am driving)\s+\S*\s*$`,
  "i",
  "am driving|bought|drive|own|ride",
);
const POSSESSIONS_RE5 = pattern("drive|driving", "", "drive|driving");

function possessions(text: string): Found {
  const out: Found = [];
  for (const { rest } of after(text, POSSESSIONS_RE1)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (!usable(value) || relationOf(CUT_RE1.split(value).at(-1) ?? "") !== undefined) continue;
    if (EVENT_WORDS.test(value) || POSSESSIONS_RE2.test(value)) continue;
    // "I drive a Vespa" / "I own a Leica": a brand after drive/ride/own is a possession.
    const lead = text.slice(0, text.length - rest.length);
    const verb = POSSESSIONS_RE4.exec(lead)?.[1]?.toLowerCase();
    const brand = verb !== undefined && WORKPLACE_RE7.test(value);
    const kind =
      possessionKind(value) ?? (brand && POSSESSIONS_RE5.test(verb ?? "") ? "car" : undefined);
    if (kind === undefined && !brand) continue;
    out.push({ category: "possession", value, lang: "en", key: kind });
  }
  for (const m of POSSESSIONS_RE3.all(text)) {
    const value = cut(m[2] ?? "", PLACE_STOP, 4);
    if (!usable(value)) continue;
    const kind = possessionKind(m[1] ?? "") ?? possessionKind(value);
    out.push({ category: "possession", value, lang: "en", key: kind });
  }
  return out;
}

const OTHER_RE1 = pattern(
  `\\b${I_AM}\\s+(\\d{1,3})(?:\\s*(?:years?\\s*old|yrs?\\s*old|y\\/o|yo))?(?=\\s*$|\\s*[,.!]|\\s+(?:and|but|years?|yrs?|y\\/o|yo|now)\\b)`,
  "i",
  "i am|i'm|im",
);
const OTHER_RE2 = pattern(String.raw`\bmy\s+birthday\s+is\s+(?:on\s+)?`, "gi", "birthday&is&my");
const OTHER_RE3 = pattern(
  `\\b${I_AM}\\s+(?:originally\\s+|half\\s+|also\\s+|proudly\\s+)?([A-Za-z]+)(?=\\s*$|\\s*[,.!]|\\s+(?:and|but|btw)\\b)`,
  "i",
  "i am|i'm|im",
);
const OTHER_RE4 = pattern(
  String.raw`\b(?:i\s+major|i'm\s+majoring|i\s+am\s+majoring|im\s+majoring)\s+in\s+|\bmy\s+major\s+is\s+`,
  "gi",
  "major",
);

const OTHER_RE5 = pattern(String.raw`\bi\s+(?:just\s+)?turned\s+(\d{1,3})\b`, "i", "turned");
const OTHER_RE6 = pattern(String.raw`\bmy\s+age\s+is\s+(\d{1,3})\b`, "i", "age&is&my");
const OTHER_RE7 = pattern(
  String.raw`\s+(?:so|and|but|btw)\b|[,;!?]|\.(?=\s|$)`,
  "i",
  "!|,|.|;|?|and|btw|but|so",
);
const OTHER_RE8 = pattern(String.raw`\bi\s+was\s+born\s+on\s+([^,.;!?]+)`, "i", "born&was&on");

function other(text: string): Found {
  const out: Found = [];
  const age = OTHER_RE1.exec(text) ?? OTHER_RE5.exec(text) ?? OTHER_RE6.exec(text);
  if (age !== null) {
    out.push({ category: "other", value: age[1] ?? "", lang: "en", key: "age", slot: "age" });
  }
  for (const { rest } of after(text, OTHER_RE2)) {
    const value = cut(rest, OTHER_RE7, 4);
    if (usable(value)) {
      out.push({ category: "other", value, lang: "en", key: "birthday", slot: "birthday" });
    }
  }
  const born = OTHER_RE8.exec(text);
  if (born !== null) {
    out.push({
      category: "other",
      value: (born[1] ?? "").trim(),
      lang: "en",
      key: "birthday",
      slot: "birthday",
    });
  }
  const nationality = OTHER_RE3.exec(text);
  const national = NATIONALITIES[(nationality?.[1] ?? "").toLowerCase()];
  if (national !== undefined) {
    out.push({
      category: "other",
      value: national,
      lang: "en",
      key: "nationality",
      slot: "nationality",
    });
  }
  for (const { rest } of after(text, OTHER_RE4)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (usable(value))
      out.push({ category: "other", value, lang: "en", key: "major", slot: "major" });
  }
  return out;
}

const EXPAND_CONTRACTIONS_RE1 = pattern("[’‘]", "g", "‘|’");

const EXPAND_CONTRACTIONS_RE2 = pattern(String.raw`\b([Ii])'m\b`, "g", "I'm|i'm");

const EXPAND_CONTRACTIONS_RE3 = pattern(String.raw`\b([Ii])'ve\b`, "g", "I've|i've");

const EXPAND_CONTRACTIONS_RE4 = pattern(String.raw`\b([Ii])'ll\b`, "g", "I'll|i'll");

const EXPAND_CONTRACTIONS_RE5 = pattern(String.raw`\b([Ww]e)'re\b`, "g", "We're|we're");

const EXPAND_CONTRACTIONS_RE6 = pattern(String.raw`\b([Ww]e)'ve\b`, "g", "We've|we've");

const EXPAND_CONTRACTIONS_RE7 = pattern(String.raw`\b([Ww]e)'ll\b`, "g", "We'll|we'll");

const EXPAND_CONTRACTIONS_RE8 = pattern(String.raw`\bim\b(?=\s+\S)`, "gi", "im");

const EXPAND_CONTRACTIONS_RE9 = pattern(String.raw`\bcan't\b|\bcant\b`, "gi", "can't|cant");

const EXPAND_CONTRACTIONS_RE10 = pattern(String.raw`\bdon't\b|\bdont\b`, "gi", "don't|dont");

/**
 * Contractions expanded so one pattern covers both spellings ("I've lived" = "I have
 * lived", "can't" = "cannot"); values keep their original casing.
 */
export function expandContractions(text: string): string {
  return EXPAND_CONTRACTIONS_RE10.replace(
    EXPAND_CONTRACTIONS_RE9.replace(
      EXPAND_CONTRACTIONS_RE8.replace(
        EXPAND_CONTRACTIONS_RE7.replace(
          EXPAND_CONTRACTIONS_RE6.replace(
            EXPAND_CONTRACTIONS_RE5.replace(
              EXPAND_CONTRACTIONS_RE4.replace(
                EXPAND_CONTRACTIONS_RE3.replace(
                  EXPAND_CONTRACTIONS_RE2.replace(
                    EXPAND_CONTRACTIONS_RE1.replace(text, "'"),
                    "$1 am",
                  ),
                  "$1 have",
                ),
                "$1 will",
              ),
              "$1 are",
            ),
            "$1 have",
          ),
          "$1 will",
        ),
        "I am",
      ),
      "cannot",
    ),
    "do not",
  )
    .replace(/\bdoesn't\b/gi, "does not")
    .replace(/\bdidn't\b/gi, "did not");
}

const FILLER = pattern(
  String.raw`^(?:(?:so|well|ok|okay|oh|also|btw|anyway|and|but|honestly|actually|yeah|yes|no|lol|haha|ugh|hmm)[,!.]?\s+)+(?=\S)`,
  "i",
  "actually|and|anyway|btw|but|haha|hmm|honestly|lol|no|oh|ok|so|ugh|well|yeah|yes",
);

const IMPLIED_SUBJECT_RE1 = pattern(
  String.raw`^(?:(?:just|recently|finally|currently|also|still|now)\s+)*(?:moved|relocated|live|living|work|working|cannot eat|cannot have|have|got|drive|own|love|like|hate|grew up|started|joined|teach|major|majoring)\b`,
  "i",
  "cannot eat|drive|got|grew up|hate|have|joined|like|live|living|love|major|moved|own|relocated|started|teach|work",
);
const IMPLIED_SUBJECT_RE2 = pattern(
  String.raw`^(?:(?:very|severely|also)\s+)?allergic\b`,
  "i",
  "allergic",
);

/**
 * Clauses without a subject are common in chat ("Just moved to Seattle", "Can't eat
 * gluten", "Allergic to cats"): when a clause starts with such a verb, "I" is implied.
 */
function impliedSubject(text: string): string {
  const body = FILLER.replace(text, "");
  if (IMPLIED_SUBJECT_RE1.test(body)) {
    return `I ${body}`;
  }
  if (IMPLIED_SUBJECT_RE2.test(body)) return `I am ${body}`;
  return body;
}

/** All English candidates of one statement clause. */
/** Every English rule needs the speaker: I, me, my, we, our (after implied subjects). */
const FIRST_PERSON = pattern(
  String.raw`\b(?:i|me|my|mine|we|our|us|name's)\b|^(?:honestly,?\s+)?not\s`,
  "i",
  "i|me|my|not|our|us|we",
);

/**
 * Casual introductions without "I" or "my": "Priya here!", "it's Tom btw", "hey, this is
 * Dev here". A capitalised word, with a greeting before it or "here"/"btw" after it.
 */
const CASUAL_NAME = pattern(
  String.raw`^(?:(?:hi|hey|hello|yo|hiya|heya)(?:\s+there)?[,!.]?\s+)?(?:(?:it's|it is|this is)\s+)?([A-Z][a-z]+)(?:\s+(here|btw|by the way))?[!.]*$`,
);

const CASUAL_NAME_RE1 = pattern(
  String.raw`^(?:hi|hey|hello|yo|hiya|heya|it's|it is|this is)\b`,
  "i",
  "hello|hey|hi|it is|it's|yo",
);
const CASUAL_NAME_RE2 = pattern("^(?:it's|it is|this is)", "i", "it is|it's|this is");
const CASUAL_NAME_RE3 = pattern(
  "^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|me|him|her|that|this|there|here)$",
  "",
  "april|august|december|february|friday|her|him|january|july|june|march|may|me|monday|november|october|saturday|september|sunday|that|this|thursday|tuesday|wednesday",
);

const CASUAL_NAME_RE4 = pattern(String.raw`^\S+[,!.]?\s+`);

function casualName(text: string): Found {
  const m = CASUAL_NAME.exec(text.trim());
  if (m === null) return [];
  const word = m[1] ?? "";
  const framed = CASUAL_NAME_RE1.test(text.trim());
  if (m[2] === undefined && !framed) return [];
  if (m[2] === undefined && !CASUAL_NAME_RE2.test(CASUAL_NAME_RE4.replace(text.trim(), ""))) {
    return [];
  }
  const lower = word.toLowerCase();
  if (
    NOT_NAMES_EN.has(lower) ||
    NATIONALITIES[lower] !== undefined ||
    CASUAL_NAME_RE3.test(lower)
  ) {
    return [];
  }
  return [{ category: "name", value: word, lang: "en" }];
}

export function extractEn(raw: string): Candidate[] {
  const text = impliedSubject(expandContractions(raw));
  if (!FIRST_PERSON.test(text)) return casualName(text);
  const lower = text.toLowerCase();
  const g = (gate: GateName, rule: () => Candidate[]): Candidate[] =>
    open(EN_GATES[gate], lower) ? rule() : [];
  return [
    ...g("name", () => name(text)),
    ...g("residence", () => residence(text)),
    ...g("workplace", () => workplace(text)),
    ...g("job", () => job(text)),
    ...g("family", () => family(text)),
    ...g("likes", () => likes(text)),
    ...g("health", () => health(text)),
    ...plans(text),
    ...g("possessions", () => possessions(text)),
    ...g("other", () => other(text)),
    ...g("languages", () => languagesEn(text)),
  ];
}

/** English statements that take a fact back ("I don't live in Seattle anymore"). */
const RETRACTION_HINT_EN = pattern(
  String.raw`\b(?:not|no longer|anymore|any more|quit|left|sold|got rid|crashed|totall?ed|lost|moved|cancell?ed|called off|postponed)\b`,
  "i",
  "any more|anymore|called off|canceled|cancelled|crashed|got rid|left|lost|moved|no longer|not|postponed|quit|sold|totaled|totalled",
);

const RETRACTIONS_EN_RE1 = pattern(
  String.raw`\bi\s+(?:don't|do not|dont|no longer)\s+live\s+(?:in|at)\s+`,
  "gi",
  "do not|don't|dont|no longer&live&at|in",
);
const RETRACTIONS_EN_RE2 = pattern(
  String.raw`\bi\s+(?:moved|moved away)\s+(?:out of|away from)\s+`,
  "gi",
  "away from|out of&moved",
);
const RETRACTIONS_EN_RE3 = pattern(
  String.raw`\bi\s+(?:don't|do not|no longer)\s+work\s+(?:at|for)\s+`,
  "gi",
  "do not|don't|no longer&work&at|for",
);
const RETRACTIONS_EN_RE4 = pattern(
  `\\b${I_AM}\\s+(?:no longer|not)\\s+(?:a|an)\\s+`,
  "i",
  "no longer|not&i am|i'm|im",
);
const RETRACTIONS_EN_RE5 = pattern(
  String.raw`\bi\s+(?:sold|got rid of|crashed|totaled|totalled|lost)\s+my\s+`,
  "gi",
  "crashed|got rid of|lost|sold|totaled|totalled&my",
);
const RETRACTIONS_EN_RE6 = pattern(
  String.raw`\bi\s+(?:don't|do not|no longer)\s+(?:have|own)\s+(?:a|an|my)\s+`,
  "gi",
  "do not|don't|no longer&have|own",
);
const RETRACTIONS_EN_RE7 = pattern(
  `\\b${I_AM}\\s+(?:no longer|not)\\s+allergic\\s+to\\s+`,
  "i",
  "allergic&no longer|not&i am|i'm|im",
);
const RETRACTIONS_EN_RE8 = pattern(
  String.raw`\b(?:my|the|our)\s+([\w\s-]+?)\s+(?:was|got|has been|is)\s+(?:cancell?ed|postponed|called off)\b`,
  "gi",
  "called off|canceled|cancelled|postponed&got|has been|is|was&my|our|the",
);
const RETRACTIONS_EN_RE9 = pattern(
  String.raw`\bi\s+(?:cancell?ed|called off|postponed)\s+(?:my|the|our)\s+`,
  "gi",
  "called off|canceled|cancelled|postponed&my|our|the",
);
const RETRACTIONS_EN_RE10 = pattern(
  String.raw`\bi\s+(?:no longer|don't|do not)\s+(?:like|love|enjoy)\s+(.+?)\s+(?:anymore|any more)\b`,
  "gi",
  "any more|anymore&do not|don't|no longer&enjoy|like|love",
);

const RETRACTIONS_EN_RE11 = pattern(
  String.raw`\bi\s+(?:just\s+)?(?:quit|left)\s+(?:my\s+job|my\s+company|work|last|this|my\s+position)\b|\bi\s+(?:just\s+)?quit\b`,
  "i",
  "left|quit",
);

export function retractionsEn(raw: string): Retraction[] {
  const text = impliedSubject(expandContractions(raw));
  if (!RETRACTION_HINT_EN.test(text) || !FIRST_PERSON.test(text)) return [];
  const out: Retraction[] = [];
  const tail = /\s+(?:anymore|any more)\b.*$/i;
  for (const { rest } of after(text, RETRACTIONS_EN_RE1)) {
    const value = cut(rest.replace(tail, ""), PLACE_STOP, 4);
    out.push(
      usable(value)
        ? { category: "residence", value, id: "residence" }
        : { category: "residence", id: "residence" },
    );
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE2)) {
    const value = cut(rest, PLACE_STOP, 4);
    if (usable(value)) out.push({ category: "residence", value, id: "residence" });
  }
  if (RETRACTIONS_EN_RE11.test(text)) {
    out.push({ category: "workplace", id: "workplace" });
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE3)) {
    const value = cut(rest.replace(tail, ""), PLACE_STOP, 4);
    out.push(
      usable(value)
        ? { category: "workplace", value, id: "workplace" }
        : { category: "workplace", id: "workplace" },
    );
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE4)) {
    const value = cut(rest.replace(tail, ""), PLACE_STOP, 4);
    if (usable(value)) out.push({ category: "job", value, id: "job" });
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE5)) {
    const value = cut(rest, PLACE_STOP, 3);
    if (!usable(value)) continue;
    const kind = possessionKind(value);
    out.push(
      kind === undefined
        ? { category: "possession", value }
        : { category: "possession", id: `possession:${kind}` },
    );
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE6)) {
    const value = cut(rest.replace(tail, ""), PLACE_STOP, 3);
    if (!usable(value)) continue;
    const kind = possessionKind(value);
    out.push(
      kind === undefined
        ? { category: "possession", value }
        : { category: "possession", id: `possession:${kind}` },
    );
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE7)) {
    for (const item of items(rest.replace(tail, "")))
      out.push({ category: "allergy", value: item });
  }
  for (const m of RETRACTIONS_EN_RE8.all(text)) {
    out.push({ category: "plan", value: (m[1] ?? "").trim() });
  }
  for (const { rest } of after(text, RETRACTIONS_EN_RE9)) {
    const value = cut(rest, PLACE_STOP, 3);
    if (usable(value)) out.push({ category: "plan", value });
  }
  for (const m of RETRACTIONS_EN_RE10.all(text)) {
    out.push({ category: "preference", value: LEADING.replace(m[1] ?? "", "") });
  }
  return out;
}
