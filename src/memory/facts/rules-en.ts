/**
 * English cue rows (the engine: rules.ts). Each row reads a clause whose contractions are
 * expanded and whose dropped "I" is put back ("Just moved to Seattle" → "I moved to
 * Seattle"; english.ts); every row needs the speaker as subject ("I", "my", "we") unless it
 * says `subject: "none"`, so "My friend lives in Busan" gives no residence. Rows run in
 * this order, kind by kind; within one utterance the last value of a slot wins.
 */
import { EN_COULD_FOREVER, EN_HARM } from "./clauses.ts";
import {
  BUSINESSES_EN,
  CONDITIONS_EN,
  DIET_EN,
  EVENTS_EN,
  MOMENT_EN,
  PET_RELATIONS,
  RELATIONS_EN,
  TIME_EN,
  WAYS_OF_EATING_EN,
} from "./lexicon.ts";
import { type Pattern, pattern as p } from "./regex.ts";
import { EVENT_WORDS, type Rule } from "./rules.ts";
import { ADVERBS, I_AM, OWN_BUSINESS_NAME, REL_NEED_EN, REL_WORDS_EN } from "./values.ts";

const EVENT_NEED = EVENT_WORDS.need as string;

const PET_WORDS_EN = Object.entries(RELATIONS_EN)
  .filter(([, relation]) => PET_RELATIONS.has(relation))
  .map(([word]) => word)
  .sort((a, b) => b.length - a.length)
  .join("|");

/** Adjectives before a member ("two little boys"). */
const ADJECTIVES = p(
  String.raw`^(?:little|young|adorable|beautiful|wonderful|grown|teenage|lovely|cute|sweet)\s+`,
  "i",
  "adorable|beautiful|cute|grown|little|lovely|sweet|teenage|wonderful|young",
);

/** Values that are no home ("my team", "here"). */
const NOT_HOME = [
  p(
    String.raw`\b(?:team|department|company|office|work|family)\b`,
    "i",
    "company|department|family|office|team|work",
  ),
  p(
    "^(?:here|there|home|town|the city|a house|an apartment)$",
    "i",
    "a house|an apartment|here|home|the city|town",
  ),
];
/**
 * A clause whose subject is someone else doing `rest` ("My sister went vegan", "He just
 * joined Stripe"): the `unless` of a row that reads a clause without "I" ("just joined
 * Microsoft"). `need` is the words `rest` needs.
 */
function someoneElse(rest: string, need: string): Pattern {
  return p(String.raw`\b(?:he|she|they|my\s+\w+)\s+${rest}`, "i", need);
}
const NOT_WORKPLACE = [p("^(?:home|work|night|the moment)$", "i", "home|night|the moment|work")];
/** "in Berlin": a workplace named by where it is. */
const LOCATED = String.raw`(?<located>(?:in|at|located in|based in)\s+)?`;
const located = { group: "located", form: "location", key: "location" } as const;

export const RULES_EN: readonly Rule[] = [
  // ── name ──
  {
    lang: "en",
    kind: "name",
    pattern: p(
      String.raw`(?:\bmy name(?:'s|\s+is)|^(?:(?:hi|hey|hello)(?:\s+there)?[,!.]?\s+)?(?:the\s+)?name's)\s+`,
      "gi",
      "my name|name's",
    ),
    cut: ["name", 3],
    reject: [
      p(
        String.raw`^(?:not|none|nothing|secret|private|irrelevant|unimportant|unknown|a|an|the|what|whatever|too|so|hard|long|weird|complicated)\b`,
        "i",
        "a|long|none|not|secret|so|the|too|unknown|weird",
      ),
    ],
    checks: ["notFunctionWord"],
    example: ["My name is Dana Lee", "name=Dana Lee"],
  },
  {
    lang: "en",
    kind: "name",
    pattern: p(
      String.raw`\b(?:you can call me|just call me|please call me|call me|people call me|everyone calls me|i go by)\s+`,
      "gi",
      "call me|everyone calls me|i go by",
    ),
    cut: ["call", 2],
    reject: [
      p(
        String.raw`^(?:back|later|anytime|maybe|when|if|crazy|old)\b`,
        "i",
        "anytime|back|crazy|if|later|maybe|old|when",
      ),
    ],
    form: "nickname",
    example: ["Just call me Jo", "name=Jo"],
  },
  {
    // "Hi, I'm Sam", "I'm Ana btw": a name that ends the clause or comes before an aside.
    lang: "en",
    kind: "name",
    pattern: p(
      String.raw`^(?:(?<greet>(?:[Hh]i|[Hh]ey|[Hh]ello|[Hh]iya|[Yy]o|[Gg]reetings|[Hh]owdy|[Hh]eya)(?:\s+there)?)[,!.]?\s+)?(?:[Ii]'m|[Ii] am|[Ii]m)\s+(?<value>[A-Za-z][A-Za-z'-]*(?:\s+[A-Z][a-z][A-Za-z'-]*)?)\s*(?=$|[,.!]|(?<aside>[Bb]tw|[Bb]y the way|[Hh]ere)\b|(?:[Ff]rom|[Aa]nd|[Nn]ice to meet you)\b)`,
      "",
      "I am|I'm|Im|i am|i'm|im",
    ),
    checks: ["notTaken", "introduced"],
    example: ["Hi, I am Sam Park", "name=Sam Park"],
  },
  {
    lang: "en",
    kind: "name",
    pattern: p(
      String.raw`^(?:hi|hey|hello)[,!]?\s+(?:this is|it's)\s+(?<value>[A-Z][a-z]+)\b`,
      "",
      "it's|this is&hello|hey|hi",
    ),
    example: ["hello this is Mina and I live in Leeds", "name=Mina"],
  },
  {
    // "Priya here!", "it's Tom btw": a casual introduction without "I".
    lang: "en",
    kind: "name",
    subject: "none",
    pattern: p(
      String.raw`^(?:(?:hi|hey|hello|yo|hiya|heya)(?:\s+there)?[,!.]?\s+)?(?:(?:it's|it is|this is)\s+)?(?<value>[A-Z][a-z]+)\s+(?:here|btw|by the way)[!.]*$`,
      "",
      "btw|by the way|here",
    ),
    checks: ["notCommonWord"],
    example: ["Priya here!", "name=Priya"],
  },
  {
    // "hello this is Mina": a greeting, then "this is" and the name.
    lang: "en",
    kind: "name",
    subject: "none",
    pattern: p(
      String.raw`^(?:hi|hey|hello|yo|hiya|heya)[,!.]?\s+(?:it's|it is|this is)\s+(?<value>[A-Z][a-z]+)[!.]*$`,
      "",
      "it is|it's|this is",
    ),
    checks: ["notCommonWord"],
    example: ["hello this is Mina", "name=Mina"],
  },
  // ── residence ──
  {
    // "I'm back in my hometown of Leeds now", "we're settled in Austin": where the user lives
    // after a move, said without "live".
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:[Ii]'m|[Ii] am|[Ww]e're|[Ww]e are|[Ii]'ve|[Ww]e've)\s+(?:now\s+|finally\s+|officially\s+|all\s+)?(?:back\s+in|settled\s+in|based\s+in)\s+(?:my\s+home\s*town\s+of\s+|our\s+home\s*town\s+of\s+)?(?<value>[A-Z][A-Za-z'.-]*(?:\s+[A-Z][A-Za-z'.-]*){0,2})`,
      "g",
      "back|based|settled",
    ),
    checks: ["notField", "notVisit"],
    example: ["I'm back in my hometown of Leeds now.", "residence=Leeds"],
    paraphrases: [
      ["We're finally settled in Austin", "residence=Austin"],
      ["I'm back in the office on Monday"],
    ],
  },
  {
    // "been in Jersey City about a month now since the move": the home after a move.
    lang: "en",
    kind: "residence",
    subject: "any",
    when: [p(String.raw`\bmov(?:e|ed|ing)\b`, "i", "move|moved|moving")],
    unless: [someoneElse(String.raw`(?:has|have|'s)\s+been\s+in`, "been")],
    pattern: p(
      String.raw`(?:^|\b(?:[Ii]'ve|[Ii] have|[Ww]e've|[Ww]e have|[Ii]ve)\s+)been\s+in\s+(?<value>[A-Z][A-Za-z'.-]*(?:\s+[A-Z][A-Za-z'.-]*){0,2})\s+(?:for|about|almost|nearly|over|a|two|three|since)\b`,
      "g",
      "been&in",
    ),
    checks: ["notField", "notVisit"],
    example: ["been in Jersey City about a month now since the move", "residence=Jersey City"],
    paraphrases: [
      ["We've been in Austin for a year since we moved", "residence=Austin"],
      ["I've been in Paris for a week"],
    ],
  },
  {
    // "I'm in Chicago." said on its own: a named place that ends the sentence.
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:[Ii]'m|[Ii] am|[Ii]m)\s+in\s+(?<value>[A-Z][A-Za-z'.-]*(?:\s+[A-Z][A-Za-z'.-]*){0,2}?)\s*(?:[.!]+\s*|$)`,
      "g",
      "I am|I'm|Im|i am|i'm|im&in",
    ),
    drop: p("[.]+$", "", "."),
    checks: ["notField", "notVisit"],
    example: ["I'm in Chicago.", "residence=Chicago"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+|actually\s+|also\s+|both\s+|officially\s+|finally\s+)?(?:live|reside|am living|'m living|are living|'re living|have lived|'ve lived|have been living|'ve been living|am renting|'m renting|are renting|'re renting)\s+(?:(?:alone|together|with\s+[\w\s]+?)\s+)?(?:in|near|at|on|outside(?:\s+of)?)\s+`,
      "gi",
      "'m living|'m renting|'re living|'re renting|'ve been living|am living|am renting|are living|are renting|have been living|live|reside&at|in|near|on|outside",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["I live in Busan now", "residence=Busan"],
    paraphrases: [
      ["We officially live in Vancouver now", "residence=Vancouver"],
      ["We're renting in Edinburgh now", "residence=Edinburgh"],
    ],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`(?:^|\b(?:i|we|and)\s+)(?:just\s+|recently\s+|finally\s+|actually\s+|already\s+)?(?:moved|relocated)\s+(?:back\s+|down\s+|up\s+|over\s+|out\s+)?(?:home\s+)?(?:from\s+[\w.' -]+?\s+)?to\s+`,
      "gi",
      "moved|relocated&to",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["We just moved from Ohio to Denver", "residence=Denver"],
    paraphrases: [
      ["moved back home to Manchester, rent here is so much cheaper", "residence=Manchester"],
      ["finally moved down to London last weekend", "residence=London"],
      ["My sister moved to Denver"],
    ],
  },
  {
    // "I finally moved into my new place in Portland": a home named by where it is.
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+|already\s+)?moved\s+into\s+(?:my|our|a|the)\s+(?:new\s+|own\s+|first\s+)?(?:place|apartment|flat|house|home|condo|studio)\s+(?:in|near|outside(?:\s+of)?)\s+`,
      "gi",
      "moved&into",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["I finally moved into my new place in Portland", "residence=Portland"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:i'm|i am|im|we're|we are)\s+(?:currently\s+|now\s+)?(?:based|located|living)\s+(?:in|out\s+of)\s+`,
      "gi",
      "based|living|located&i am|i'm|im|we are|we're&in|out",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["I'm based in Lisbon", "residence=Lisbon"],
  },
  {
    // "For now I'm stuck in Ohio", "we're settled in Leeds": a named place only.
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:[Ii]'m|[Ii] am|[Ii]m|[Ww]e're|[Ww]e are)\s+(?:(?:currently|now|still|kind of|kinda|pretty much)\s+)?(?:stuck|settled)\s+in\s+(?=[A-Z])`,
      "g",
      "settled|stuck&in",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["For now I'm stuck in Ohio", "residence=Ohio"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\bmy\s+(?:home|place|apartment|house|flat)\s+is\s+in\s+`,
      "gi",
      "apartment|flat|home|house|place&in&is",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["My apartment is in Queens", "residence=Queens"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:rent|own|have|share|am renting|are renting)\s+(?:a|an|my|our)\s+(?:[\w-]+\s+){0,2}?(?:apartment|studio|house|flat|place|room|condo|home|townhouse|loft|(?:one|two|three|1|2|3)-bedroom)\s+(?:in|near)\s+`,
      "gi",
      "apartment|bedroom|condo|flat|home|house|loft|place|room|studio|townhouse&have|own|rent|share&in|near",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["I rent a small studio in Seoul", "residence=Seoul"],
    paraphrases: [
      ["I rent a tiny one-bedroom in Leeds right now", "residence=Leeds"],
      ["we share a two-bedroom near Austin", "residence=Austin"],
      ["I rent a car in Denver"],
    ],
  },
  {
    // "We finally closed on the house in Tampa": a purchase that is done and is the user's
    // home; "we're closing on …" is still a plan, and "bought a house" alone is a possession.
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:just\s+|finally\s+|officially\s+|recently\s+)?(?:closed\s+on|got\s+the\s+keys\s+to)\s+(?:a|an|the|my|our)\s+(?:new\s+|first\s+|own\s+|little\s+)?(?:house|home|place|condo|apartment|flat|townhouse)\s+(?:in|near|outside(?:\s+of)?)\s+`,
      "gi",
      "apartment|condo|flat|home|house|place|townhouse&closed|keys",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    example: ["We finally closed on the house in Tampa!!", "residence=Tampa"],
    paraphrases: [
      ["we closed on a condo in Reno last month", "residence=Reno"],
      ["I just bought a condo in Reno"],
      ["we got the keys to our first place in Bristol", "residence=Bristol"],
      ["We're closing on the house in Tampa next week"],
      ["My parents bought a house in Tampa"],
    ],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(String.raw`\bmy\s+home\s*town\s+is\s+`, "gi", "home&town&is"),
    cut: ["place", 5],
    reject: NOT_HOME,
    key: "hometown",
    form: "hometown",
    example: ["My hometown is Daegu", "residence=Daegu"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(String.raw`\b(?:i'm|i am|im)\s+(?:originally\s+)?from\s+`, "gi", "from&i am|i'm|im"),
    cut: ["place", 5],
    reject: NOT_HOME,
    key: "hometown",
    form: "hometown",
    example: ["I'm originally from Perth", "residence=Perth"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\bi\s+(?:grew up|was raised|was born and raised)\s+in\s+`,
      "gi",
      "grew up|was born and raised|was raised&in",
    ),
    cut: ["place", 5],
    reject: NOT_HOME,
    key: "hometown",
    form: "hometown",
    example: ["I grew up in Manila", "residence=Manila"],
  },
  {
    lang: "en",
    kind: "residence",
    pattern: p(String.raw`\bi\s+was\s+born\s+in\s+(?=[A-Z])`, "g", "born&was&in"),
    cut: ["place", 5],
    reject: NOT_HOME,
    key: "hometown",
    form: "hometown",
    example: ["i was born in Cairo", "residence=Cairo"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(
      String.raw`\bi\s+live\s+(?:alone|by myself|on my own)\b`,
      "i",
      "alone|by myself|on my own&live",
    ),
    value: "alone",
    key: "living",
    slot: "living",
    example: ["I live alone", "other=alone"],
  },
  // ── workplace ──
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|still\s+|also\s+|actually\s+)?(?:work|am working|'m working|'ve been working|have been working|teach|intern)\s+(?:at|for)\s+${LOCATED}`,
      "gi",
      "intern|teach|work&at|for",
    ),
    cut: ["place", 5],
    reject: NOT_WORKPLACE,
    formIf: located,
    example: ["I work at Naver", "workplace=Naver"],
  },
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\b(?:i'm|i am|im)\s+(?:currently\s+)?(?:employed|working|interning)\s+(?:at|by|for|with)\s+${LOCATED}`,
      "gi",
      "employed|interning|working&i am|i'm|im&at|by|for|with",
    ),
    cut: ["place", 5],
    reject: NOT_WORKPLACE,
    formIf: located,
    example: ["I'm employed by Siemens", "workplace=Siemens"],
  },
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\bi\s+(?:just\s+|recently\s+)?(?:joined|started\s+(?:a\s+new\s+job\s+|working\s+|my\s+new\s+job\s+|an\s+internship\s+)?at)\s+${LOCATED}`,
      "gi",
      "joined|started",
    ),
    cut: ["place", 5],
    reject: NOT_WORKPLACE,
    formIf: located,
    example: ["I just started working at Kakao", "workplace=Kakao"],
  },
  {
    // "I got the job at Spotify", "I just landed an internship with NASA".
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\bi\s+(?:just\s+|finally\s+|recently\s+)?(?:got|landed|accepted)\s+(?:the|a|an)\s+(?:new\s+)?(?:job|position|role|internship|offer)\s+(?:at|with)\s+${LOCATED}`,
      "gi",
      "accepted|got|landed&internship|job|offer|position|role",
    ),
    cut: ["place", 5],
    reject: NOT_WORKPLACE,
    formIf: located,
    example: ["I just landed an internship with NASA", "workplace=NASA"],
  },
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\bmy\s+(?:company|employer|workplace|firm)\s+is\s+${LOCATED}`,
      "gi",
      "company|employer|firm|workplace&is&my",
    ),
    cut: ["place", 5],
    reject: NOT_WORKPLACE,
    formIf: located,
    example: ["My employer is Samsung", "workplace=Samsung"],
  },
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\bmy\s+(?:shift|shifts|job|internship|desk|work)\s+at\s+|\b(?:i|we)\s+(?:work|am working)\s+(?:the\s+)?(?:night|day|early|late)\s+shifts?\s+at\s+`,
      "gi",
      "desk|internship|job|shift|work",
    ),
    cut: ["place", 4],
    example: ["I work the night shift at Mercy General", "workplace=Mercy General"],
  },
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\bmy\s+office\s+is\s+(?:in|at|located in|near)\s+`,
      "gi",
      "office&at|in|near&is",
    ),
    cut: ["place", 4],
    key: "location",
    form: "location",
    example: ["My office is in Gangnam", "workplace=Gangnam"],
  },
  {
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\bi\s+(?:mostly\s+|mainly\s+)?work\s+(?:from\s+home|remotely|at\s+home)\b`,
      "i",
      "from|home|remotely&work",
    ),
    value: "remote",
    form: "remote",
    example: ["I mostly work from home", "workplace=remote"],
  },
  {
    // "I work in Pangyo" names a place; "I work in marketing" a field of work (the job).
    lang: "en",
    kind: "workplace",
    pattern: p(String.raw`\bi\s+(?:currently\s+)?work\s+in\s+`, "gi", "work&in"),
    cut: ["place", 4],
    checks: ["capitalised"],
    also: [{ kind: "job", cut: ["place", 4], checks: ["lowercase"] }],
    example: ["I work in marketing", "job=marketing"],
  },
  {
    // "guess who just joined Microsoft 😅", "just joined Stripe!": a new employer said
    // without "I" ("He just joined Stripe" is someone else's).
    lang: "en",
    kind: "workplace",
    subject: "any",
    unless: [someoneElse(String.raw`(?:just\s+|finally\s+)?joined`, "joined")],
    pattern: p(
      String.raw`(?:^|[.!,;]\s*|\bwho\s+|\b[Ii]\s+)(?:[Jj]ust\s+|[Ff]inally\s+)?(?:[Jj]oined)\s+(?<value>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})`,
      "g",
      "Joined|joined",
    ),
    checks: ["capitalised"],
    reject: NOT_WORKPLACE,
    example: ["guess who just joined Microsoft 😅 first week's been a blur", "workplace=Microsoft"],
    paraphrases: [["Just joined Stripe!", "workplace=Stripe"], ["He just joined Stripe"]],
  },
  {
    // "last day at Amazon was friday!! starting at Shopify next week": a new employer said
    // without "I" ("She's starting at Shopify" is someone else's).
    lang: "en",
    kind: "workplace",
    subject: "any",
    unless: [someoneElse(String.raw`(?:is|'s|are|'re)?\s*start`, "start")],
    pattern: p(
      String.raw`(?:^|\b(?:[Ii]'m|[Ii] am|[Ii]m|[Ii]|and)\s+)(?:[Ss]tarting|[Ss]tart|[Ss]tarted)\s+(?:a\s+new\s+job\s+|my\s+new\s+job\s+)?at\s+(?<value>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})`,
      "g",
      "Start|Started|Starting|start|started|starting&at",
    ),
    checks: ["capitalised"],
    reject: NOT_WORKPLACE,
    example: ["starting at Shopify next week", "workplace=Shopify"],
    paraphrases: [
      ["I'm starting a new job at Stripe on Monday", "workplace=Stripe"],
      ["She's starting at Shopify next week"],
    ],
  },
  {
    // "I got hired at Barnes & Noble", "landed a job at Stripe".
    lang: "en",
    kind: "workplace",
    subject: "any",
    unless: [someoneElse(String.raw`(?:got|just|was)\s+(?:hired|landed)`, "hired|landed")],
    pattern: p(
      String.raw`(?:^|\b(?:[Ii]|[Ii]'ve|and)\s+)(?:just\s+|finally\s+)?(?:[Gg]ot\s+hired\s+(?:at|by)|[Ww]as\s+hired\s+(?:at|by)|[Ll]anded\s+a\s+(?:new\s+)?job\s+(?:at|with)|[Gg]ot\s+a\s+(?:new\s+)?job\s+(?:at|with))\s+(?<value>[A-Z][\w&.'-]*(?:\s+(?:&\s+)?[A-Z][\w&.'-]*){0,3})`,
      "g",
      "Landed|hired|job|landed",
    ),
    checks: ["capitalised"],
    reject: NOT_WORKPLACE,
    example: [
      "so the library job ended and I got hired at Barnes & Noble",
      "workplace=Barnes & Noble",
    ],
    paraphrases: [["Landed a job at Stripe!", "workplace=Stripe"], ["He got hired at Stripe"]],
  },
  {
    // "Jumped ship from Target to Costco": the employer one switched to ("he jumped ship …"
    // is someone else's).
    lang: "en",
    kind: "workplace",
    subject: "any",
    unless: [someoneElse(String.raw`(?:jumped|switched)\b`, "jumped|switched")],
    pattern: p(
      String.raw`\b(?:[Jj]umped\s+ship|[Ss]witched\s+(?:jobs\s+|companies\s+|employers\s+)?|[Mm]oved\s+over)\s*from\s+[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3}\s+to\s+(?<value>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})`,
      "g",
      "Jumped|Moved|Switched|jumped|moved|switched&from&to",
    ),
    checks: ["capitalised"],
    reject: NOT_WORKPLACE,
    example: ["Jumped ship from Target to Costco, the pay's way better.", "workplace=Costco"],
    paraphrases: [
      ["I switched jobs from Acme to Globex in May", "workplace=Globex"],
      ["Moved over from Target to Costco, pay is way better", "workplace=Costco"],
      ["We moved from Boston to Denver"],
      ["He jumped ship from Target to Costco"],
    ],
  },
  {
    // "I'm at a tiny climate startup called Fernwood": the name a workplace is given.
    lang: "en",
    kind: "workplace",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:(?:am|are|'m|'re)\s+(?:now\s+)?(?:at|with|joining|working\s+(?:at|for))|(?:just\s+|recently\s+|now\s+)?(?:joined|work\s+(?:at|for)|started\s+at))\s+(?:a|an)\s+(?:[\w-]+\s+){0,4}?(?:startup|start-up|company|firm|agency|studio|lab|nonprofit|non-profit|bank|school|hospital|clinic|bakery|cafe|restaurant|shop|store|consultancy|publisher|charity)\s+(?:called|named)\s+`,
      "gi",
      "called|named&agency|bakery|bank|cafe|charity|clinic|company|consultancy|firm|hospital|lab|nonprofit|non-profit|publisher|restaurant|school|shop|start-up|startup|store|studio",
    ),
    cut: ["place", 5],
    reject: NOT_WORKPLACE,
    example: [
      "Starting Monday I'm at a tiny climate startup called Fernwood, still as a PM",
      "workplace=Fernwood",
    ],
    paraphrases: [
      ["I just joined a small design agency called Brightside", "workplace=Brightside"],
      ["I work for a nonprofit named Open Harbor now", "workplace=Open Harbor"],
    ],
  },
  {
    // "My bakery opened last week, | it's called Flour & Bloom": the name of a business the
    // clause before named, kept only when that business is the user's own (extract.ts).
    lang: "en",
    kind: "workplace",
    subject: "any",
    pattern: p(String.raw`\b(?:it's|it is|it was)\s+(?:called|named)\s+`, "gi", "called|named&it"),
    cut: ["place", 5],
    checks: ["capitalised"],
    key: OWN_BUSINESS_NAME,
    example: ["My bakery opened last week, it's called Flour & Bloom", "workplace=Flour & Bloom"],
    paraphrases: [["We opened a cafe downtown, it is called Bean There", "workplace=Bean There"]],
  },
  // ── job ──
  {
    // "I'm a senior software engineer at Acme": the words up to the job head noun.
    lang: "en",
    kind: "job",
    pattern: p(
      `\\b${I_AM}\\s+(?:now\\s+|currently\\s+|also\\s+|actually\\s+|just\\s+|still\\s+)?(?:a|an)\\s+`,
      "i",
      "i am|i'm|im",
    ),
    read: "jobHead",
    thenOrg: true,
    example: [
      "I'm a senior nurse at Mercy Hospital",
      "job=senior nurse",
      "workplace=Mercy Hospital",
    ],
  },
  {
    // "I'm freelancing as a photographer full time", "working as a barista now".
    lang: "en",
    kind: "job",
    subject: "any",
    unless: [
      someoneElse(
        String.raw`(?:is|'s|are|was)\s+(?:freelancing|working|employed|hired)`,
        "employed|freelancing|hired|working",
      ),
    ],
    pattern: p(
      String.raw`(?:^|\b(?:i'm|i am|im|i've been|i was|i got|i|and)\s+)(?:now\s+|currently\s+)?(?:freelancing|freelance|working|employed|hired|contracting)\s+as\s+(?:a|an)\s+`,
      "i",
      "contracting|employed|freelance|freelancing|hired|working&as",
    ),
    read: "jobHead",
    thenOrg: true,
    example: ["I quit and I'm freelancing as a photographer full time", "job=photographer"],
    paraphrases: [["working as a nurse now", "job=nurse"], ["She's working as a nurse"]],
  },
  {
    // "I switched careers and became a software engineer": the job one became.
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`(?:^|\bi\s+|\bcareers\s+and\s+)(?:(?:just|finally|recently|officially)\s+)?became\s+(?:a|an)\s+`,
      "i",
      "became",
    ),
    subject: "any",
    read: "jobHead",
    thenOrg: true,
    example: ["I switched careers and became a software engineer", "job=software engineer"],
    paraphrases: [
      ["I finally became a nurse last year", "job=nurse"],
      ["My sister became a nurse"],
    ],
  },
  {
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:currently\s+|now\s+|also\s+|just\s+|recently\s+)?(?:work|(?:am|'m)\s+(?:now\s+|currently\s+|also\s+)?working|'ve been working|have been working|started|start)\s+(?:(?:a\s+new\s+job\s+|working\s+)?(?:at|for)\s+[\w&.' -]+?\s+)?as\s+(?:a\s+|an\s+)?`,
      "gi",
      "start|work&as",
    ),
    cut: ["place", 4],
    thenOrg: true,
    example: ["I work as a pharmacist at CVS", "job=pharmacist", "workplace=CVS"],
  },
  {
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\bmy\s+(?:job|profession|occupation|role|position|title)\s+is\s+(?:a\s+|an\s+|being\s+a\s+)?`,
      "gi",
      "job|occupation|position|profession|role|title&is&my",
    ),
    cut: ["place", 4],
    example: ["My title is data analyst", "job=data analyst"],
  },
  {
    lang: "en",
    kind: "job",
    pattern: p(
      `\\b${I_AM}\\s+(?<value>retired|unemployed|self-employed|between jobs|a stay-at-home (?:mom|dad|parent)|job hunting)\\b`,
      "i",
      "a stay-at-home dad|a stay-at-home mom|a stay-at-home parent|between jobs|job hunting|retired|self-employed|unemployed&i am|i'm|im",
    ),
    example: ["I'm retired", "job=retired"],
  },
  {
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\bi\s+(?:currently\s+|now\s+|still\s+)?teach\b(?!\s+(?:myself|yourself|him|her|them|my\s+(?:kids|son|daughter|dog)))`,
      "i",
      "teach",
    ),
    value: "teacher",
    example: ["I teach high school math", "job=teacher"],
  },
  {
    lang: "en",
    kind: "job",
    pattern: p(String.raw`\bi\s+do\s+(?<value>.+?)\s+for\s+a\s+living\b`, "i", "living&for&do"),
    example: ["I do graphic design for a living", "job=graphic design"],
  },
  {
    // "…, still as a PM", "now as a nurse": the role a move keeps or takes.
    lang: "en",
    kind: "job",
    subject: "any",
    pattern: p(
      String.raw`(?:^|[,;]\s*|\s)(?:still|now|again|this time)\s+as\s+(?:a|an|the)\s+(?<value>[A-Za-z][A-Za-z -]{1,40}?)\s*(?=$|[,.;!?]|\s+(?:at|for|with|but|and|so)\b)`,
      "g",
      "again|now|still|this time&as",
    ),
    cut: ["place", 4],
    map: "jobTitle",
    example: ["I'm at a climate startup called Fernwood, still as a PM", "job=product manager"],
    paraphrases: [
      ["I moved to the Denver office, still as a designer", "job=designer"],
      ["I'm back at the hospital, now as a charge nurse", "job=charge nurse"],
    ],
  },
  {
    // "I'm opening a bakery", "I run a small cafe": the business one runs says the job.
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:(?:am|are|'m|'re)\s+(?:now\s+|finally\s+)?(?:opening|starting|launching|running)|(?:just\s+|finally\s+|recently\s+)?(?:opened|own|run))\s+(?:a|an|my|our)\s+(?:own\s+)?(?:little\s+|small\s+|new\s+|tiny\s+)?(?<value>${BUSINESSES_EN})\b`,
      "gi",
      "bakery|bar|bistro|bookshop|bookstore|boutique|brewery|caf|coffee shop|deli|farm|florist|flower shop|food truck|gym|pizzeria|pub|restaurant|salon|winery&launching|opened|opening|own|run|starting",
    ),
    map: "owner",
    example: ["I'm opening a bakery with my husband!", "job=bakery owner"],
    paraphrases: [
      ["We just opened a little coffee shop downtown", "job=coffee shop owner"],
      ["I run a food truck on weekends", "job=food truck owner"],
    ],
  },
  // ── family ──
  {
    // "my sister is…", "our dog Biscuit turned ten", "my tabby, Oscar": a member named before
    // what they do or are; also at the end of the clause ("we kept my cat").
    lang: "en",
    kind: "family",
    pattern: p(
      `(?:^|[\\s,;])(?:my|our)\\s+(?:(?:older|younger|little|big|baby|twin|eldest|oldest|youngest|step|new|\\d+-year-old)\\s+)?(?<value>${REL_WORDS_EN})s?(?=(?:'s|\\s+(?:[A-Z][a-z]+\\s+)?(?:is|are|was born|just|named|called|and\\s+i\\b|and\\s+me\\b|will|got|can|cannot|[a-z]+s|[a-z]+ed)\\b|,\\s+[A-Z][a-z]+(?:,|$)|\\s+[A-Z][a-z]+\\s*$|\\s*$))`,
      "gi",
      `${REL_NEED_EN}&my|our`,
    ),
    map: "member",
    detail: true,
    example: ["My sister is a lawyer", "family=sister"],
  },
  {
    // "I have two cats and a parrot": every member of the list.
    lang: "en",
    kind: "family",
    pattern: p(
      `\\b(?:i|we)\\s+(?:also\\s+|now\\s+)?(?:have|'ve got|have got|got|adopted|own|just adopted|have had|'ve had|are fostering|am fostering|foster)\\s+(?:a|an|one|two|three|four|five|\\d+|our|my)\\s+(?<value>(?:[\\w-]+\\s+){0,3}?(?:${REL_WORDS_EN})s?)(?!\\w)`,
      "gi",
      `${REL_NEED_EN}&'ve had|adopted|foster|got|have|own`,
    ),
    drop: ADJECTIVES,
    map: "member",
    detail: true,
    more: p(
      `^\\s*(?:,\\s*and|,|and)\\s+(?:a|an|one|two|three|four|\\d+)\\s+(?<value>(?:[\\w-]+\\s+){0,2}?(?:${REL_WORDS_EN})s?)\\b`,
      "i",
      REL_NEED_EN,
    ),
    example: ["I have two cats and a parrot", "family=cats", "family=parrot"],
  },
  {
    // "then I had to walk the dog": caring for a pet at home says the user has one.
    lang: "en",
    kind: "family",
    pattern: p(
      `\\b(?:i|we)\\s+(?:(?:had|have|has|need|needed|got|gotta)\\s+to\\s+|just\\s+|still\\s+|always\\s+|usually\\s+)*(?:walk|walked|feed|fed|groom|groomed)\\s+(?:the|my|our)\\s+(?<value>${PET_WORDS_EN})s?\\b(?!\\s+(?:for|of)\\s+(?:my|a|the|our|her|his|their|some)\\b)`,
      "gi",
      "feed|fed|groom|walk&my|our|the",
    ),
    map: "member",
    detail: true,
    example: ["then I had to walk the dog", "family=dog"],
  },
  {
    lang: "en",
    kind: "family",
    pattern: p(`\\bwith\\s+my\\s+(?<value>${REL_WORDS_EN})\\b`, "gi", "with&my"),
    when: [p(String.raw`\b(?:live|living|moved|stay|staying)\b`, "i", "live|living|moved|stay")],
    map: "member",
    detail: true,
    example: ["I live with my grandma", "family=grandma"],
  },
  {
    // "It's a girl!", "A little boy, we named him Theo.": a birth announced by the child
    // alone, a whole clause ("A little boy asked me the way" is someone else's).
    lang: "en",
    kind: "family",
    subject: "any",
    pattern: p(
      String.raw`^(?:it's\s+|it\s+is\s+)?an?\s+(?:(?:little|baby|healthy|beautiful|tiny|perfect)\s+)*(?<value>boy|girl)\s*[.!]*$`,
      "i",
      "boy|girl",
    ),
    map: "member",
    detail: true,
    example: ["It's a girl!", "family=girl"],
    paraphrases: [
      ["A little boy", "family=boy"],
      ["a healthy baby girl!!", "family=girl"],
      ["A little boy asked me for directions"],
      ["It's a boy thing"],
    ],
  },
  {
    // "I've been seeing someone new": a partner (members.ts names them).
    lang: "en",
    kind: "family",
    pattern: p(
      String.raw`\b(?:i|we)(?:'ve|'m|\s+have|\s+am)?\s+(?:been\s+)?(?:seeing|dating)\s+someone\b`,
      "i",
      "dating|seeing&someone",
    ),
    value: "someone",
    key: "partner",
    detail: true,
    example: ["I've been seeing someone", "family=someone"],
  },
  {
    lang: "en",
    kind: "family",
    pattern: p(
      `\\b${I_AM}\\s+(?:happily\\s+)?(?<value>married|engaged)\\b`,
      "i",
      "engaged|married&i am|i'm|im",
    ),
    key: "spouse",
    detail: true,
    example: ["I'm happily married", "family=married"],
  },
  {
    lang: "en",
    kind: "family",
    pattern: p(
      `\\b${I_AM}\\s+a\\s+(?:single\\s+|new\\s+|first-time\\s+|proud\\s+|stay-at-home\\s+|working\\s+)?(?:mom|mother|dad|father|parent)\\b`,
      "i",
      "dad|father|mom|mother|parent&i am|i'm|im",
    ),
    value: "children",
    key: "children",
    detail: true,
    example: ["I'm a single mom", "family=children"],
  },
  // ── preference and dislike ──
  {
    // "Been swimming instead and loving it", "I'm cycling instead": the activity that took
    // a taste's place ("I've been working instead" is no taste).
    lang: "en",
    kind: "preference",
    subject: "any",
    unless: [someoneElse(String.raw`(?:has|'s|is|have)?\s*been`, "been")],
    pattern: p(
      String.raw`(?:^|\b(?:i've|i have|ive|i'm|i am|im)\s+)(?:been\s+)?(?<value>(?!(?:working|doing|going|trying|thinking|staying|sleeping|waiting|studying)\b)[a-z]+ing)\s+instead\b`,
      "gi",
      "instead",
    ),
    example: ["Been swimming instead and loving it", "preference=swimming"],
    paraphrases: [
      ["I'm cycling instead these days", "preference=cycling"],
      ["I've been working instead"],
    ],
  },
  {
    // "I could eat dumplings every single day": a taste, not a hypothetical.
    lang: "en",
    kind: "preference",
    pattern: EN_COULD_FOREVER,
    group: 1,
    list: true,
    example: ["I could eat dumplings every single day", "preference=dumplings"],
  },
  {
    // What the user habitually listens to, watches, reads or drinks.
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:(?:mostly|mainly|usually|always|often|only|just)\s+)+(?:listen\s+to|watch|read|drink)\s+(?!(?:before|after|at|in|on|when|while|during|every|for|a\s+lot|too)\b)`,
      "i",
      "drink|listen|read|watch&always|just|mainly|mostly|often|only|usually",
    ),
    list: true,
    example: ["I mostly listen to jazz", "preference=jazz"],
  },
  {
    // "Lately I've switched to coffee", "I switched to rooibos tea": what they drink, eat or
    // use now (a switch said after "no more coffee" is a clause of its own).
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:have\s+|just\s+|recently\s+)*switched\s+(?:over\s+)?to\s+`,
      "i",
      "switched",
    ),
    // "… and honestly I don't miss it": a new clause about the switch is no part of the value.
    drop: p(
      String.raw`\s+(?:instead\b|and\s+(?:honestly|really|actually|frankly|i|it|so|now)\b).*$`,
      "i",
      "actually|frankly|honestly|i|now|really|so",
    ),
    // A switch of work or schedule is no taste ("I switched to night shifts").
    reject: [
      p(
        String.raw`\b(?:shifts?|team|department|role|position|job|part[- ]time|full[- ]time|schedule|office|class|classes|major|school|manager|plan|mode|account)\b`,
        "i",
        "account|class|department|full time|full-time|job|major|manager|mode|office|part time|part-time|plan|position|role|schedule|school|shift|team",
      ),
    ],
    list: true,
    example: ["Lately I've switched to green tea", "preference=green tea"],
    paraphrases: [
      ["So no more coffee for me, I switched to rooibos tea", "preference=rooibos tea"],
      ["Coffee was wrecking my sleep, so I switched to decaf instead", "preference=decaf"],
      ["I switched to night shifts"],
      ["Switched to oat milk and honestly I do not miss dairy", "preference=oat milk"],
    ],
  },
  {
    // "I'd rather have ramen": what the user prefers.
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i|we)(?:'d|\s+would)\s+(?:much\s+)?rather\s+(?:have|eat|drink|watch|play|read|do|listen\s+to|go\s+for)\s+(?!not\b)`,
      "i",
      "rather",
    ),
    list: true,
    example: ["I'd rather have ramen", "preference=ramen"],
  },
  {
    lang: "en",
    kind: "preference",
    pattern: p(
      `\\b(?:i|we)\\s+${ADVERBS}(?:like|love|adore|enjoy|prefer|dig)\\s+`,
      "i",
      "adore|dig|enjoy|like|love|prefer",
    ),
    list: true,
    example: ["I really love sushi and ramen", "preference=sushi", "preference=ramen"],
  },
  {
    lang: "en",
    kind: "preference",
    pattern: p(
      `\\b${I_AM}\\s+${ADVERBS}(?:into|a\\s+(?:big\\s+|huge\\s+|massive\\s+|great\\s+)?fan\\s+of|fan\\s+of|obsessed\\s+with|crazy\\s+about|passionate\\s+about|addicted\\s+to)\\s+`,
      "i",
      "addicted|crazy|fan|into|obsessed|passionate&i am|i'm|im",
    ),
    list: true,
    example: ["I'm a huge fan of K-dramas", "preference=K-dramas"],
  },
  {
    // "My favorite color is green": a favorite, keyed by what it is the favorite of.
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\bmy\s+(?:absolute\s+|all-time\s+|current\s+|new\s+)?favou?rite\s+(?<slot>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:is|are|has to be)\s+`,
      "gi",
      "favorite|favourite&are|has to be|is&my",
    ),
    drop: p(String.raw`\s+now\b.*$`, "i", "now"),
    list: true,
    key: "favorite",
    form: "favorite",
    example: ["My favorite color is green", "preference=green"],
  },
  {
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`^(?:(?:and|but|also|honestly|oh)\s+)?(?<value>[\w' -]{2,40}?)\s+(?:is|are)\s+(?:totally\s+|definitely\s+|so\s+|really\s+)?my\s+(?:absolute\s+)?(?:favou?rite(?:\s+thing)?|jam|thing|jam though|weakness|guilty pleasure|comfort food)\b`,
      "i",
      "comfort food|favorite|favourite|guilty pleasure|jam|thing|weakness&are|is&my",
    ),
    article: true,
    example: ["Spicy ramen is my comfort food", "preference=Spicy ramen"],
  },
  {
    // "I'm learning guitar": what the speaker is learning is a hobby (a language is its own fact).
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i'm|i am|im|i've been|i have been)\s+(?:(?:also|still|currently|now|slowly)\s+)?(?:learning|taking up|practicing|practising)\s+(?:to\s+play\s+|how\s+to\s+|to\s+)?`,
      "gi",
      "learning|practicing|practising|taking up",
    ),
    cut: ["place", 4],
    checks: ["noLanguageWord"],
    form: "hobby",
    example: ["I'm learning guitar", "preference=guitar"],
  },
  {
    // "I'm more of a coffee person": the X of "an X person" is a taste.
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i'm|i am|im)\s+(?:(?:more|much more|definitely|totally|really|kind of|kinda)\s+)?(?:of\s+)?an?\s+(?<value>[a-z]+(?:\s+[a-z]+)?)\s+person\b`,
      "i",
      "person&i am|i'm|im",
    ),
    drop: p(
      String.raw`^(?:huge|big|massive|total|real|true|hardcore|diehard|die-hard)\s+`,
      "i",
      "big|diehard|die-hard|hardcore|huge|massive|real|total|true",
    ),
    reject: [p("^people$", "i", "people")],
    example: ["I'm more of a coffee person", "preference=coffee"],
    paraphrases: [
      ["I'm a huge tea person", "preference=tea"],
      ["honestly I'm a total cat person", "preference=cat"],
    ],
  },
  {
    // "I play the violin": what the speaker plays is a hobby.
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:also\s+|still\s+|usually\s+|often\s+|sometimes\s+)?play\s+(?:the\s+)?(?!with\b|for\b|at\b|in\b|on\b|around\b|it\b|along\b)`,
      "gi",
      "play",
    ),
    cut: ["place", 3],
    form: "hobby",
    example: ["I play tennis on Sundays", "preference=tennis"],
  },
  {
    // "I only drink tea": having only one thing is a taste.
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:now\s+)?(?:only|mostly|usually|just)\s+(?:drink|eat)\s+`,
      "gi",
      "drink|eat&just|mostly|only|usually",
    ),
    list: true,
    example: ["I only drink tea", "preference=tea"],
  },
  {
    lang: "en",
    kind: "preference",
    pattern: p(
      String.raw`\bmy\s+hobb(?:y|ies)\s+(?:is|are|include)\s+`,
      "gi",
      "hobbies|hobby&are|include|is&my",
    ),
    list: true,
    form: "hobby",
    example: ["My hobbies are hiking and baking", "preference=hiking", "preference=baking"],
  },
  {
    // "Cilantro tastes like soap to me": what the user finds awful.
    lang: "en",
    kind: "dislike",
    pattern: p(
      String.raw`^(?:honestly,?\s+|personally,?\s+)?(?<value>[A-Za-z][\w'-]*(?:\s+[\w'-]+){0,2}?)\s+(?:tastes|smells)\s+(?:like\s+(?:soap|dirt|garbage|trash|feet|cardboard|medicine|nothing)|(?:so\s+|really\s+|just\s+)?(?:awful|gross|disgusting|terrible|horrible|nasty|weird|bad))\b`,
      "i",
      "smells|tastes",
    ),
    article: true,
    lower: true,
    reject: [
      p(
        "^(?:it|this|that|everything|something|food)$",
        "i",
        "everything|food|it|something|that|this",
      ),
    ],
    example: ["Cilantro tastes like soap to me", "dislike=cilantro"],
  },
  {
    lang: "en",
    kind: "dislike",
    pattern: p(
      `\\b(?:i|we)\\s+${ADVERBS}(?:hate|dislike|detest|loathe|despise|can't stand|cannot stand|can not stand|can't bear|cant stand|have gone off(?!\\s+to\\b)|'ve gone off(?!\\s+to\\b)|am sick of|'m sick of)\\s+`,
      "i",
      "am sick of|can not stand|can't bear|can't stand|cannot stand|cant stand|despise|detest|dislike|gone off|hate|loathe|m sick of",
    ),
    list: true,
    example: ["I hate olives", "dislike=olives"],
  },
  {
    lang: "en",
    kind: "dislike",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:really\s+|just\s+|honestly\s+)?(?:don't|do not|dont|never)\s+(?:really\s+|particularly\s+|much\s+)?(?:like|enjoy|care for)\s+`,
      "gi",
      "care for|enjoy|like&do not|don't|dont|never",
    ),
    list: true,
    example: ["I don't really like horror movies", "dislike=horror movies"],
  },
  {
    lang: "en",
    kind: "dislike",
    pattern: p(
      `(?:\\b${I_AM}\\s+|^(?:honestly,?\\s+)?)not\\s+(?:a\\s+(?:big\\s+|huge\\s+)?fan\\s+of|really\\s+into|into|crazy about)\\s+`,
      "i",
      "crazy about|fan|into|really&not",
    ),
    list: true,
    example: ["I'm not a big fan of cilantro", "dislike=cilantro"],
  },
  // ── allergy and health ──
  {
    lang: "en",
    kind: "allergy",
    pattern: p(
      `\\b${I_AM}\\s+${ADVERBS}(?:severely\\s+|mildly\\s+|deathly\\s+|a\\s+(?:bit|little)\\s+)?allergic\\s+to\\s+`,
      "i",
      "allergic&i am|i'm|im&to",
    ),
    list: true,
    example: ["I'm allergic to peanuts and shellfish", "allergy=peanuts", "allergy=shellfish"],
  },
  {
    lang: "en",
    kind: "allergy",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:have|'ve got|have got|got)\s+(?:a|an)?\s*(?:severe\s+|mild\s+|bad\s+|serious\s+)?(?<value>[\w -]+?)\s+allerg(?:y|ies)\b`,
      "gi",
      "allergies|allergy&got|have",
    ),
    article: true,
    example: ["I have a severe nut allergy", "allergy=nut"],
  },
  {
    lang: "en",
    kind: "allergy",
    pattern: p(
      String.raw`\bi\s+(?:can't|cannot|can not|cant)\s+(?:eat|have|drink|digest)\s+`,
      "gi",
      "can not|can't|cannot|cant&digest|drink|eat|have",
    ),
    list: true,
    form: "cant-eat",
    example: ["I can't eat gluten", "allergy=gluten"],
  },
  {
    // "If I eat shrimp, I get hives": what a food does to the user.
    lang: "en",
    kind: "allergy",
    pattern: EN_HARM,
    group: 1,
    article: true,
    form: "cant-eat",
    example: ["if I eat shrimp I get hives", "allergy=shrimp"],
  },
  {
    // "Shellfish makes my throat close up": the food as the subject, a bodily reaction.
    lang: "en",
    kind: "allergy",
    pattern: p(
      String.raw`^(?:even\s+)?(?<value>[a-z][\w'-]*(?:\s+[\w'-]+){0,2}?)\s+(?:makes?|gives?|made|gave)\s+(?:me\s+(?:break\s+out|hives|a\s+rash|swell\s+up|itchy|wheezy)|my\s+(?:throat|face|lips|tongue|mouth|skin|eyes)\s+(?:close|swell|itch|tingle|burn|break\s+out))`,
      "i",
      "gave|give|gives|made|make|makes",
    ),
    article: true,
    form: "cant-eat",
    example: ["Shellfish makes my throat close up", "allergy=Shellfish"],
  },
  {
    lang: "en",
    kind: "health",
    pattern: p(
      `\\b(?:i|we)\\s+(?:have|'ve got|have got|was diagnosed with|suffer from|live with|struggle with|deal with)\\s+(?:a\\s+|an\\s+)?(?:mild\\s+|severe\\s+|chronic\\s+|bad\\s+)?(?<value>${CONDITIONS_EN})\\b`,
      "gi",
      "'ve got|deal with|have|live with|struggle with|suffer from|was diagnosed with",
    ),
    detail: true,
    example: ["I have asthma", "health=asthma"],
  },
  {
    lang: "en",
    kind: "health",
    pattern: p(
      `\\b(?:i'm|i am|im|i've been|i have been|ive been)\\s+(?:a\\s+|an\\s+)?(?:strict\\s+|full\\s+|also\\s+|now\\s+|type\\s+[12]\\s+)?(?<value>${DIET_EN})\\b`,
      "gi",
      "asthmatic|celiac|colorblind|colourblind|deaf|diabetic|gluten free|gluten intolerant|gluten-free|gluten-intolerant|halal|hard of hearing|in recovery|keto|kosher|lactose intolerant|lactose-intolerant|on a diet|on a low carb diet|on a low-carb diet|on medication|pescatarian|pregnant|sober|teetotal|vegan|vegetarian&i am|i have been|i'm|i've been|im|ive been",
    ),
    detail: true,
    map: "diet",
    example: ["I'm vegetarian", "health=vegetarian"],
  },
  {
    // "I've gone fully vegan now", "I went vegetarian in May", "switched to pescatarian".
    lang: "en",
    kind: "health",
    pattern: p(
      `\\b(?:gone|went|going|switched\\s+to|turned|became)\\s+(?:fully\\s+|full\\s+|completely\\s+|totally\\s+|100%\\s+)?(?<value>${WAYS_OF_EATING_EN})\\b`,
      "gi",
      `${WAYS_OF_EATING_EN}&became|going|gone|switched|turned|went`,
    ),
    unless: [
      someoneElse(
        String.raw`(?:has\s+|have\s+|just\s+)?(?:gone|went|going|switched|turned|became)`,
        "became|going|gone|switched|turned|went",
      ),
    ],
    detail: true,
    map: "diet",
    subject: "any",
    example: ["I've gone fully vegan now, no dairy or eggs either", "health=vegan"],
    paraphrases: [
      ["I went vegetarian in May", "health=vegetarian"],
      ["went fully vegan at the start of the month!", "health=vegan"],
      ["My sister went vegan"],
    ],
  },
  {
    // "cilantro grew on me", "olives have grown on me": a taste that came.
    lang: "en",
    kind: "preference",
    subject: "any",
    pattern: p(
      String.raw`(?:^|\b(?:weirdly|honestly|actually|somehow|so|and|but)\s+)(?<value>(?!(?:weirdly|honestly|actually|somehow|so|and|but)\b)[a-z][\w'-]*(?:\s+(?!has\b|have\b)[a-z][\w'-]*)?)\s+(?:has\s+|have\s+|kinda\s+|really\s+|kind of\s+)?(?:grew|grown)\s+on\s+me\b`,
      "gi",
      "grew|grown&me&on",
    ),
    example: ["weirdly cilantro grew on me, I actually like it now", "preference=cilantro"],
    paraphrases: [["olives have grown on me", "preference=olives"], ["it grew on me"]],
    reject: [p("^(?:it|they|that|this|he|she|the\\s+\\w+)$", "i", "he|it|she|that|the|they|this")],
  },
  {
    // "signed up for the Chicago Marathon in October": a plan the user entered.
    lang: "en",
    kind: "plan",
    subject: "any",
    unless: [someoneElse(String.raw`(?:just\s+)?signed\s+up`, "signed")],
    pattern: p(
      String.raw`(?:^|[,;.!]\s*|\b(?:i|i've|i have|we|and|just)\s+)(?:just\s+|finally\s+)?signed\s+up\s+for\s+(?:the\s+|a\s+|an\s+)?(?<value>[A-Z][\w'-]*(?:\s+[A-Z0-9][\w'-]*){0,3})`,
      "g",
      "signed&for&up",
    ),
    example: [
      "Not doing Boston anymore, signed up for the Chicago Marathon in October",
      "plan=Chicago Marathon",
    ],
    paraphrases: [
      ["I just signed up for the Berlin Half", "plan=Berlin Half"],
      ["She signed up for the Chicago Marathon"],
    ],
  },
  {
    lang: "en",
    kind: "health",
    pattern: p(
      String.raw`\bi\s+(?:don't|do not|never)\s+(?<value>drink(?:\s+alcohol)?|smoke|eat\s+(?:meat|pork|beef|red meat|dairy|gluten|sugar|fish))\b`,
      "gi",
      "do not|don't|never",
    ),
    map: "abstain",
    form: "avoid",
    detail: true,
    example: ["I don't eat pork", "health=no pork"],
  },
  {
    // "my iron is low", "my blood pressure was high": a test result the user names is a
    // health fact, said as the level and the measure ("low iron").
    lang: "en",
    kind: "health",
    pattern: p(
      String.raw`\bmy\s+(?<thing>iron|ferritin|blood pressure|blood sugar|cholesterol|vitamin d|vitamin b12|b12|thyroid|potassium|hemoglobin|haemoglobin|liver enzymes|platelets?)(?:\s+(?:levels?|counts?|numbers))?\s+(?:is|are|was|were|came back|came out|has been|have been|tested)\s+(?:really\s+|very\s+|too\s+|a bit\s+|a little\s+|pretty\s+|quite\s+|super\s+|kind of\s+|kinda\s+)?(?<value>low|high|elevated)\b`,
      "gi",
      "b12|blood pressure|blood sugar|cholesterol|ferritin|haemoglobin|hemoglobin|iron|liver enzymes|platelet|potassium|thyroid|vitamin d&elevated|high|low",
    ),
    suffix: { group: "thing", join: " " },
    detail: true,
    example: ["My doctor said my iron is low", "health=low iron"],
    paraphrases: [
      ["My blood pressure was really high at the checkup", "health=high blood pressure"],
      ["my vitamin D levels came back low", "health=low vitamin D"],
    ],
  },
  {
    // "I sprained my ankle", "I tore my ACL": an injury is a health fact while it heals.
    lang: "en",
    kind: "health",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:just\s+|recently\s+|badly\s+|accidentally\s+)?(?<value>sprained|broke|twisted|fractured|tore|injured|hurt|pulled|dislocated|strained)\s+my\s+(?:left\s+|right\s+)?(?<part>ankle|wrist|knee|back|shoulder|arm|leg|foot|hand|finger|toe|hip|neck|elbow|acl|hamstring|calf|ribs?|collarbone|achilles)\b`,
      "gi",
      "broke|dislocated|fractured|hurt|injured|pulled|sprained|strained|tore|twisted&my",
    ),
    suffix: { group: "part", join: " " },
    detail: true,
    example: ["Bad news, I sprained my ankle pretty badly on a trail run", "health=sprained ankle"],
    paraphrases: [
      ["I broke my wrist skiing last week", "health=broke wrist"],
      ["I tore my ACL playing soccer", "health=tore ACL"],
    ],
  },
  {
    // "My doctor told me to cut caffeine because of heart palpitations": a condition given as
    // the reason of something the user does (not another person's: "her migraines").
    lang: "en",
    kind: "health",
    pattern: p(
      `\\b(?:because of|due to)\\s+(?:my\\s+)?(?:a\\s+|an\\s+)?(?:mild\\s+|severe\\s+|chronic\\s+|bad\\s+)?(?<value>${CONDITIONS_EN})\\b`,
      "gi",
      "because of|due to",
    ),
    when: [p(String.raw`\b(?:i|me)\b`, "i", "i|me")],
    detail: true,
    example: [
      "My doctor told me to cut caffeine because of heart palpitations",
      "health=heart palpitations",
    ],
    paraphrases: [
      ["I had to stop running because of my asthma", "health=asthma"],
      ["I skip dessert due to diabetes", "health=diabetes"],
    ],
  },
  // ── plan ──
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:going|heading|flying|driving|traveling|travelling|moving|off|taking a trip|going on a trip|taking the kids)\s+to\s+`,
      "gi",
      "driving|flying|going|heading|moving|off|taking a trip|taking the kids|traveling|travelling&'m|'re|am|are&to",
    ),
    when: [TIME_EN],
    cut: ["plan", 5],
    detail: true,
    example: ["I'm flying to Tokyo next Friday", "plan=Tokyo"],
  },
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+going\s+(?<value>camping|hiking|skiing|fishing|surfing|shopping|backpacking|diving)\b(?:\s+(?:in|at|to)\s+(?<where>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*))?`,
      "gi",
      "backpacking|camping|diving|fishing|hiking|shopping|skiing|surfing&going&'m|'re|am|are",
    ),
    when: [TIME_EN],
    suffix: { group: "where", join: " in " },
    article: true,
    detail: true,
    example: ["Next week we're going camping at Yosemite", "plan=camping in Yosemite"],
  },
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?<verb>visiting|attending|hosting|renovating|expecting|running|starting|getting married|having|adopting|buying|getting|picking up|launching|opening|training for|preparing for|studying for|competing in|flying out for)\b\s*(?<object>[^,.;!?]*)`,
      "gi",
      "adopting|attending|buying|competing in|expecting|flying out for|getting|having|hosting|launching|opening|picking up|preparing for|renovating|running|starting|studying for|training for|visiting&'m|'re|am|are",
    ),
    when: [TIME_EN],
    read: "planVerb",
    article: true,
    detail: true,
    example: ["I'm hosting a party on Saturday", "plan=hosting party"],
  },
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      `\\b(?:i|we)\\s+(?:have|'ve got|have got|got)\\s+(?:a|an|my|our)\\s+(?<value>(?:[\\w-]+\\s+){0,2}?(?:${EVENTS_EN}))\\b`,
      "gi",
      `${EVENT_NEED}&got|have`,
    ),
    when: [TIME_EN],
    article: true,
    detail: true,
    example: ["I have a dentist appointment tomorrow", "plan=dentist appointment"],
  },
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)(?:'ll|\s+will)\s+be\s+(?:in|at|visiting)\s+(?<value>[^,.;!?]+)`,
      "gi",
      "'ll|will&be&at|in",
    ),
    when: [TIME_EN],
    cut: ["plan", 4],
    detail: true,
    example: ["I'll be in Paris next week", "plan=Paris"],
  },
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      `\\bmy\\s+(?<value>(?:[\\w-]+\\s+){0,2}?(?:${EVENTS_EN}))\\s+is\\s+(?:on|at|next|this|tomorrow|in|coming up|scheduled|tonight|today)\\b`,
      "gi",
      `${EVENT_NEED}&my`,
    ),
    article: true,
    detail: true,
    example: ["My job interview is on Monday", "plan=job interview"],
  },
  {
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+(?:planning|plan|scheduled|booked|set)\s+to\s+`,
      "gi",
      "booked|plan|scheduled|set&to",
    ),
    when: [
      p(String.raw`\b(?:planning|plan|scheduled|booked)\s+to\b`, "i", "booked|plan|scheduled&to"),
    ],
    cut: ["plan", 5],
    detail: true,
    example: ["I'm planning to run a marathon", "plan=run a marathon"],
  },
  {
    // "I signed up for the Boston Marathon in April": what the user signed up for is a plan.
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:just\s+|finally\s+|already\s+)?(?:signed up|registered|enrolled)\s+(?:for|in)\s+`,
      "gi",
      "enrolled|registered|signed up&for|in",
    ),
    cut: ["plan", 5],
    article: true,
    reject: [
      p(
        "^(?:it|this|that|them|a newsletter|the newsletter|an account)$",
        "i",
        "a newsletter|an account|it|the newsletter|them|that|this",
      ),
    ],
    detail: true,
    example: [
      "I signed up for the Boston Marathon in April, my first one!",
      "plan=Boston Marathon",
    ],
    paraphrases: [
      ["We just registered for the half marathon in May", "plan=half marathon"],
      ["I enrolled in a pottery class", "plan=pottery class"],
    ],
  },
  {
    // "I'm planning a trip to Japan in April": where a trip being planned goes.
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:am|are|'m|'re)\s+(?:planning|booking|taking|going on)\s+(?:a|an|our|my)\s+(?:[\w-]+\s+)?(?:trip|vacation|holiday|getaway|honeymoon)\s+to\s+`,
      "gi",
      "getaway|holiday|honeymoon|trip|vacation&booking|going on|planning|taking",
    ),
    cut: ["plan", 4],
    detail: true,
    example: ["I'm planning a trip to Japan in April with my sister", "plan=Japan"],
    paraphrases: [
      ["We're booking a family vacation to Costa Rica", "plan=Costa Rica"],
      ["I'm taking a quick trip to Chicago next week", "plan=Chicago"],
    ],
  },
  {
    // "we're doing Portugal instead": the place that replaces a trip is the plan now.
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\b(?:[Ii]|[Ww]e)\s+(?:am|are|'m|'re)\s+(?:now\s+)?(?:doing|going to|visiting|picking|choosing|going with|heading to|flying to)\s+(?<value>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s+instead\b`,
      "g",
      "instead",
    ),
    detail: true,
    example: [
      "Change of plans, flights got too expensive, so we're doing Portugal instead",
      "plan=Portugal",
    ],
    paraphrases: [
      ["We're going to Mexico City instead", "plan=Mexico City"],
      ["I'm visiting Kyoto instead this year", "plan=Kyoto"],
    ],
  },
  {
    // "Instead I'm volunteering at a water station": what replaces a dropped plan.
    lang: "en",
    kind: "plan",
    pattern: p(
      String.raw`\binstead,?\s+(?:i|we)\s+(?:am|are|'m|'re|will be|'ll be)\s+(?:now\s+)?(?<value>(?:volunteering|running|doing|taking|visiting|hosting|joining|signing up for|training for|going to|entering|competing in|walking|cycling|riding)\b[^,.;!?]*)`,
      "gi",
      "instead",
    ),
    cut: ["plan", 5],
    detail: true,
    example: ["Instead I'm volunteering at a water station at mile 17", "plan=volunteering"],
    paraphrases: [
      ["Instead we're hosting a dinner at home", "plan=hosting a dinner"],
      ["Instead I'm running the 10k with my club", "plan=running the 10k"],
    ],
  },
  // ── possession ──
  {
    lang: "en",
    kind: "possession",
    pattern: p(
      String.raw`\b(?:i|we)\s+(?:also\s+|still\s+|now\s+|do\s+|just\s+|recently\s+|finally\s+)*(?<verb>have|own|drive|ride|use|got|bought|picked up|'ve got|have got|am driving|'m driving)\s+(?:(?:an|a|the|my|two|\d+)\s+)?(?:new\s+|used\s+|old\s+|brand[- ]new\s+|second-hand\s+|little\s+)?`,
      "gi",
      "'m driving|am driving|bought|drive|got|have|own|picked up|ride|use",
    ),
    cut: ["place", 4],
    checks: ["notMember", "notEvent", "notCondition", "notLanguage"],
    map: "possession",
    example: ["I drive a Vespa", "possession=Vespa"],
  },
  {
    lang: "en",
    kind: "possession",
    pattern: p(
      String.raw`\bmy\s+(?<thing>car|phone|laptop|computer|bike|tablet|camera|watch|ride|cell|mobile)\s+is\s+(?:a\s+|an\s+)?(?<value>[^,.;!?]+)`,
      "gi",
      "bike|camera|car|cell|computer|laptop|mobile|phone|ride|tablet|watch&is&my",
    ),
    cut: ["place", 4],
    map: "possession",
    example: ["My car is a Hyundai Avante", "possession=Hyundai Avante"],
  },
  // ── other: age, birthday, nationality, major ──
  {
    lang: "en",
    kind: "other",
    pattern: p(
      `\\b${I_AM}\\s+(?<value>\\d{1,3})(?:\\s*(?:years?\\s*old|yrs?\\s*old|y\\/o|yo))?(?=\\s*$|\\s*[,.!]|\\s+(?:and|but|years?|yrs?|y\\/o|yo|now)\\b)`,
      "i",
      "i am|i'm|im",
    ),
    key: "age",
    slot: "age",
    example: ["I'm 34 years old", "other=34"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(String.raw`\bi\s+(?:just\s+)?turned\s+(?<value>\d{1,3})\b`, "i", "turned"),
    key: "age",
    slot: "age",
    example: ["I just turned 40", "other=40"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(String.raw`\bmy\s+age\s+is\s+(?<value>\d{1,3})\b`, "i", "age&is&my"),
    key: "age",
    slot: "age",
    example: ["my age is 27", "other=27"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(String.raw`\bmy\s+birthday\s+is\s+(?:on\s+)?`, "gi", "birthday&is&my"),
    cut: ["date", 4],
    key: "birthday",
    slot: "birthday",
    example: ["My birthday is on May 3rd", "other=May 3rd"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(String.raw`\bi\s+was\s+born\s+on\s+(?<value>[^,.;!?]+)`, "i", "born&was&on"),
    key: "birthday",
    slot: "birthday",
    example: ["I was born on March 3", "other=March 3"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(
      `\\b${I_AM}\\s+(?:originally\\s+|half\\s+|also\\s+|proudly\\s+)?(?<value>[A-Za-z]+)(?=\\s*$|\\s*[,.!]|\\s+(?:and|but|btw)\\b)`,
      "i",
      "i am|i'm|im",
    ),
    map: "nationality",
    key: "nationality",
    slot: "nationality",
    example: ["I'm Korean", "other=Korean"],
  },
  {
    lang: "en",
    kind: "other",
    pattern: p(
      String.raw`\b(?:i\s+major|i'm\s+majoring|i\s+am\s+majoring|im\s+majoring)\s+in\s+|\bmy\s+major\s+is\s+`,
      "gi",
      "major",
    ),
    cut: ["place", 4],
    key: "major",
    slot: "major",
    example: ["I'm majoring in biology", "other=biology"],
  },
  // ── ways of saying a job, a workplace or a home in one phrase ──
  {
    // "I start next week as a recruiter at Mercy Hospital", "starting Monday as a PM at Fernwood".
    lang: "en",
    kind: "job",
    subject: "any",
    pattern: p(
      String.raw`\b(?:i\s+(?:start|'ll start|will start|am starting|'m starting)|starting)\s+(?:(?:next|this|on)\s+)?(?:week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today)?\s*as\s+(?:a|an)\s+(?<value>[a-z][a-z -]{1,40}?)\s+(?:at|for|with)\s+(?<org>[A-Z][\w&.' -]{1,60})`,
      "i",
      "start",
    ),
    cut: ["place", 5],
    also: [{ kind: "workplace", group: "org", cut: ["place", 5] }],
    example: [
      "Good news! I start next week as a recruiter at Mercy Hospital",
      "job=recruiter",
      "workplace=Mercy Hospital",
    ],
  },
  {
    // "I got promoted to senior engineer": the new title is the job.
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\b(?:i|i've|i have|i just|i finally)\s+(?:just\s+|finally\s+)?(?:got|was|been|have been)\s+promoted\s+to\s+(?:a\s+|an\s+)?(?<value>[a-z][a-z -]{1,40})`,
      "i",
      "promoted",
    ),
    cut: ["place", 5],
    example: ["I got promoted to senior engineer last month", "job=senior engineer"],
  },
  {
    // "I just joined Stripe as a designer": the workplace and the job.
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\b[Ii](?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?joined\s+(?<org>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s+as\s+(?:a|an)\s+(?<value>[a-z][a-z -]{1,40})`,
      "",
      "joined",
    ),
    cut: ["place", 5],
    also: [{ kind: "workplace", group: "org", cut: ["place", 5] }],
    example: ["I just joined Stripe as a designer", "job=designer", "workplace=Stripe"],
  },
  {
    // "I got a job as a barista at Blue Bottle": the job, and the workplace when named.
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\b[Ii](?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:got|landed|accepted|took)\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|role|offer)\s+as\s+(?:a|an)\s+(?<value>[a-z][a-z -]{1,40}?)(?:\s+(?:at|with|for)\s+(?<org>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})|[.!,]|$)`,
      "",
      "accepted|got|landed|took&job|offer|position|role&as",
    ),
    cut: ["place", 5],
    also: [{ kind: "workplace", group: "org", cut: ["place", 5] }],
    example: ["I got a job as a barista at Blue Bottle", "job=barista", "workplace=Blue Bottle"],
  },
  {
    // "I became a nurse last year": the job the user has now.
    lang: "en",
    kind: "job",
    pattern: p(
      String.raw`\b[Ii]\s+(?:just\s+|finally\s+|recently\s+)?became\s+(?:a|an)\s+(?<value>[a-z][a-z -]{1,40})`,
      "",
      "became",
    ),
    cut: ["place", 5],
    example: ["I became a nurse last year", "job=nurse"],
  },
  {
    // "We signed a lease in Oakland": a home the user lives in (not one "for my parents").
    lang: "en",
    kind: "residence",
    pattern: p(
      String.raw`\b(?:[Ww]e|I)\s+(?:just\s+|finally\s+)?(?:rented|signed)\s+(?:a|an|our|my)\s+(?:new\s+)?(?:house|home|apartment|flat|condo|lease)\s+in\s+(?<value>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})(?!\s+for\b)(?![\w'-])`,
      "",
      "rented|signed&apartment|condo|flat|home|house|lease&in",
    ),
    example: ["We just signed a lease in Oakland", "residence=Oakland"],
  },
  // ── retractions: what a clause takes back ──
  {
    lang: "en",
    kind: "residence",
    retract: true,
    id: "residence",
    bare: true,
    pattern: p(
      String.raw`\bi\s+(?:don't|do not|dont|no longer)\s+live\s+(?:in|at)\s+`,
      "gi",
      "do not|don't|dont|no longer&live&at|in",
    ),
    cut: ["place", 4],
    example: ["I don't live in Seattle anymore", "-residence=Seattle"],
  },
  {
    lang: "en",
    kind: "residence",
    retract: true,
    id: "residence",
    pattern: p(
      String.raw`\bi\s+(?:moved|moved away)\s+(?:out of|away from)\s+`,
      "gi",
      "away from|out of&moved",
    ),
    cut: ["place", 4],
    example: ["I moved out of Boston", "-residence=Boston"],
  },
  {
    lang: "en",
    kind: "workplace",
    retract: true,
    id: "workplace",
    pattern: p(
      // Quitting a drink or a habit is no leaving of a job.
      String.raw`\bi\s+(?:just\s+)?(?:quit|left)\s+(?:my\s+job|my\s+company|work|last|this|my\s+position)\b|\bi\s+(?:just\s+)?quit\b(?!\s+(?:coffee|caffeine|smoking|drinking|alcohol|booze|sugar|soda|vaping|cigarettes|meat|dairy|gluten|social media|caffeinated|energy drinks|cold turkey)\b)`,
      "i",
      "left|quit",
    ),
    // Leaving work for the day is no leaving of a job ("I left work early today").
    unless: [p(MOMENT_EN, "i", "am|at|early|for|pm|this|tonight")],
    value: "",
    example: ["I just quit", "-workplace"],
    paraphrases: [
      ["I quit coffee last month"],
      ["I finally quit smoking"],
      ["I left work early today, long shift"],
    ],
  },
  {
    lang: "en",
    kind: "workplace",
    retract: true,
    id: "workplace",
    bare: true,
    pattern: p(
      String.raw`\bi\s+(?:don't|do not|no longer)\s+work\s+(?:at|for)\s+`,
      "gi",
      "do not|don't|no longer&work&at|for",
    ),
    cut: ["place", 4],
    example: ["I no longer work at Google", "-workplace=Google"],
  },
  {
    lang: "en",
    kind: "job",
    retract: true,
    id: "job",
    pattern: p(`\\b${I_AM}\\s+(?:no longer|not)\\s+(?:a|an)\\s+`, "i", "no longer|not&i am|i'm|im"),
    cut: ["place", 4],
    example: ["I'm no longer a teacher", "-job=teacher"],
  },
  {
    lang: "en",
    kind: "possession",
    retract: true,
    pattern: p(
      String.raw`\bi\s+(?:sold|got rid of|crashed|totaled|totalled|lost)\s+my\s+`,
      "gi",
      "crashed|got rid of|lost|sold|totaled|totalled&my",
    ),
    cut: ["place", 3],
    map: "possessionSlot",
    example: ["I sold my car", "-possession:car"],
  },
  {
    lang: "en",
    kind: "possession",
    retract: true,
    pattern: p(
      String.raw`\bi\s+(?:don't|do not|no longer)\s+(?:have|own)\s+(?:a|an|my)\s+`,
      "gi",
      "do not|don't|no longer&have|own",
    ),
    cut: ["place", 3],
    map: "possessionSlot",
    example: ["I don't have a bike anymore", "-possession:bike"],
  },
  {
    lang: "en",
    kind: "allergy",
    retract: true,
    pattern: p(
      `\\b${I_AM}\\s+(?:no longer|not)\\s+allergic\\s+to\\s+`,
      "i",
      "allergic&no longer|not&i am|i'm|im",
    ),
    list: true,
    example: ["I'm not allergic to cats anymore", "-allergy=cats"],
  },
  {
    lang: "en",
    kind: "plan",
    retract: true,
    pattern: p(
      String.raw`\b(?:my|the|our)\s+(?<value>[\w\s-]+?)\s+(?:was|got|has been|is)\s+(?:cancell?ed|postponed|called off)\b`,
      "gi",
      "called off|canceled|cancelled|postponed&got|has been|is|was&my|our|the",
    ),
    example: ["My trip to Rome got cancelled", "-plan=trip to Rome"],
  },
  {
    lang: "en",
    kind: "plan",
    retract: true,
    pattern: p(
      String.raw`\bi\s+(?:cancell?ed|called off|postponed)\s+(?:my|the|our)\s+`,
      "gi",
      "called off|canceled|cancelled|postponed&my|our|the",
    ),
    cut: ["place", 3],
    example: ["I cancelled my dentist appointment", "-plan=dentist appointment"],
  },
  {
    lang: "en",
    kind: "preference",
    retract: true,
    pattern: p(
      String.raw`\bi\s+(?:no longer|don't|do not)\s+(?:like|love|enjoy)\s+(?<value>.+?)\s+(?:anymore|any more)\b`,
      "gi",
      "any more|anymore&do not|don't|no longer&enjoy|like|love",
    ),
    article: true,
    example: ["I don't like coffee anymore", "-preference=coffee"],
  },
];
