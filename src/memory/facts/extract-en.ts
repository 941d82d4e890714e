/**
 * English rules of the heuristic extractor. Every rule needs the speaker as subject ("I",
 * "I'm", "my", "we"), so "My friend lives in Busan" or "She lives in Canada" give no
 * residence; family members are caught by "my wife …" / "I have two kids" instead.
 */

import type { Candidate, Retraction } from "./build.ts";
import { family, health, likes } from "./extract-en-life.ts";
import { other, plans, possessions } from "./extract-en-plans.ts";
import { job, name, residence, workplace } from "./extract-en-profile.ts";
import {
  after,
  cut,
  type Found,
  I_AM,
  items,
  LEADING,
  PLACE_STOP,
  usable,
} from "./extract-en-shared.ts";
import { EN_GATES, type GateName, open } from "./gates.ts";
import { languagesEn } from "./languages.ts";
import { NATIONALITIES, NOT_NAMES_EN, possessionKind } from "./lexicon.ts";
import { pattern } from "./regex.ts";

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
  String.raw`^(?:(?:just|recently|finally|currently|also|still|now)\s+)*(?:moved|relocated|live|living|work|working|cannot eat|cannot have|have|got|drive|own|love|like|hate|grew up|started|joined|teach|major|majoring|adopted|rescued|bought|picked up)\b`,
  "i",
  "adopted|bought|cannot eat|drive|got|grew up|hate|have|joined|like|live|living|love|major|moved|own|picked up|relocated|rescued|started|teach|work",
);
const IMPLIED_SUBJECT_RE3 = pattern(
  String.raw`^been\s+(?:living|working|studying|learning|teaching)\b`,
  "i",
  "been",
);
const IMPLIED_SUBJECT_RE4 = pattern(
  String.raw`^(?:(?:just|finally|also)\s+)?(?:heading|flying|driving|moving|going|off)\s+to\b`,
  "i",
  "to",
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
  // "Been living in Lisbon for a year", "Heading to Montreal next weekend".
  if (IMPLIED_SUBJECT_RE3.test(body)) return `I have ${body}`;
  if (IMPLIED_SUBJECT_RE4.test(body)) return `I am ${body}`;
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
