/// <reference path="../../types/stopword.d.ts" />
import { eng } from "stopword";
import {
  after,
  CUT_RE1,
  cut,
  type Found,
  I_AM,
  PLACE_STOP,
  relationOf,
  usable,
} from "./extract-en-shared.ts";
import { JOB_HEADS_EN, NATIONALITIES, NOT_NAMES_EN } from "./lexicon.ts";
import { type Pattern, pattern } from "./regex.ts";

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

let stopWords: ReadonlySet<string> | undefined;

/**
 * "my name's on the list", "my name is in the credits": a value that starts with a
 * lower-case function word (the `stopword` package's English list) is not a name.
 */
function functionWordFirst(value: string): boolean {
  stopWords ??= new Set(eng);
  const first = value.split(/\s+/)[0] ?? "";
  return first === first.toLowerCase() && stopWords.has(first);
}

export function name(text: string): Found {
  const out: Found = [];
  for (const { rest } of after(text, NAME_RE1)) {
    const value = cut(rest, NAME_RE3, 3);
    if (usable(value) && !NOT_A_NAME.test(value) && !functionWordFirst(value)) {
      out.push({ category: "name", value, lang: "en" });
    }
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
    // "I finally moved into my new place in Portland": a home named by where it is.
    pattern(
      String.raw`\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+|already\s+)?moved\s+into\s+(?:my|our|a|the)\s+(?:new\s+|own\s+|first\s+)?(?:place|apartment|flat|house|home|condo|studio)\s+(?:in|near|outside(?:\s+of)?)\s+`,
      "gi",
      "moved&into",
    ),
    "plain",
  ],
  [
    pattern(
      String.raw`\b(?:i'm|i am|im|we're|we are)\s+(?:currently\s+|now\s+)?(?:based|located|living)\s+(?:in|out\s+of)\s+`,
      "gi",
      "based|living|located&i am|i'm|im|we are|we're&in|out",
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

/**
 * "I'm in Chicago." said on its own: where the user is. A named place of one to three
 * capitalised words that ends the sentence, in a sentence with no sign of a visit (today,
 * this week, for work, visiting, on a trip…), and not a field of work ("I'm in IT.").
 */
const BARE_IN = pattern(
  String.raw`\b(?:[Ii]'m|[Ii] am|[Ii]m)\s+in\s+([A-Z][A-Za-z'.-]*(?:\s+[A-Z][A-Za-z'.-]*){0,2}?)\s*(?:[.!]+\s*|$)`,
  "g",
  "I am|I'm|Im|i am|i'm|im&in",
);
const VISIT_CUE = pattern(
  String.raw`\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|month|morning|afternoon|evening)|right now|at the moment|for\s+(?:a|the|work|business|vacation|holiday|now)|visiting|on\s+(?:a\s+)?(?:trip|vacation|holiday|business)|until|till|staying|travell?ing|layover|transit|stuck)\b`,
  "i",
  "afternoon|at the moment|business|evening|for|holiday|layover|month|morning|right now|staying|stuck|till|today|tomorrow|tonight|transit|traveling|travelling|trip|until|vacation|visiting|week",
);
const NOT_PLACES = new Set(
  "IT HR PR QA Sales Marketing Finance Accounting Engineering Tech Operations Ops Product Design Support Legal Research Admin Management Retail Healthcare Education Law Medicine Charge Love Trouble Class School College Bed Town Time Public Office".split(
    " ",
  ),
);

function bareIn(text: string): Found {
  const out: Found = [];
  for (const m of BARE_IN.all(text)) {
    const value = (m[1] as string).replace(/[.]+$/, "");
    const start = Math.max(text.lastIndexOf(".", m.index - 1), text.lastIndexOf("?", m.index - 1));
    const sentence = text.slice(start + 1, m.index + m[0].length);
    if (NOT_PLACES.has(value) || !usable(value) || VISIT_CUE.test(sentence)) continue;
    out.push({ category: "residence", value, lang: "en" });
  }
  return out;
}

export function residence(text: string): Found {
  const out: Found = bareIn(text);
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
  // "I got the job at Spotify", "I just landed an internship with NASA".
  pattern(
    String.raw`\bi\s+(?:just\s+|finally\s+|recently\s+)?(?:got|landed|accepted)\s+(?:the|a|an)\s+(?:new\s+)?(?:job|position|role|internship|offer)\s+(?:at|with)\s+`,
    "gi",
    "accepted|got|landed&internship|job|offer|position|role",
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
export const WORKPLACE_RE7 = pattern("^[A-Z]");

export function workplace(text: string): Found {
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
  String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|also\s+|just\s+|recently\s+)?(?:work|(?:am|'m)\s+(?:now\s+|currently\s+|also\s+)?working|'ve been working|have been working|started|start)\s+(?:(?:a\s+new\s+job\s+|working\s+)?(?:at|for)\s+[\w&.' -]+?\s+)?as\s+(?:a\s+|an\s+)?`,
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
// "a night person", not "a night-shift nurse" (the shift a worker is on).
const JOB_RE7 = pattern(
  String.raw`\b(?:fan|lover|bit|lot|kind|sort|type|night(?![- ]?shifts?\b)|morning(?![- ]?shifts?\b)|big|huge)\b`,
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

export function job(text: string): Found {
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
