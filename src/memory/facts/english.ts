/**
 * How the engine (rules.ts) prepares an English clause before its rows run: contractions
 * expanded so one pattern covers both spellings ("I've lived" = "I have lived", "can't" =
 * "cannot"), fillers dropped and a dropped "I" put back ("Just moved to Seattle"), and
 * whether the speaker is the subject at all.
 */
import { pattern } from "./regex.ts";

const QUOTES = pattern("[’‘]", "g", "‘|’");

/** Each contraction and what it stands for ("$1" keeps the case of the pronoun). */
const CONTRACTIONS = [
  [pattern(String.raw`\b([Ii])'m\b`, "g", "I'm|i'm"), "$1 am"],
  [pattern(String.raw`\b([Ii])'ve\b`, "g", "I've|i've"), "$1 have"],
  [pattern(String.raw`\b([Ii])'ll\b`, "g", "I'll|i'll"), "$1 will"],
  [pattern(String.raw`\b([Ww]e)'re\b`, "g", "We're|we're"), "$1 are"],
  [pattern(String.raw`\b([Ww]e)'ve\b`, "g", "We've|we've"), "$1 have"],
  [pattern(String.raw`\b([Ww]e)'ll\b`, "g", "We'll|we'll"), "$1 will"],
  [pattern(String.raw`\bim\b(?=\s+\S)`, "gi", "im"), "I am"],
  [pattern(String.raw`\bcan't\b|\bcant\b`, "gi", "can't|cant"), "cannot"],
  [pattern(String.raw`\bdon't\b|\bdont\b`, "gi", "don't|dont"), "do not"],
  [pattern(String.raw`\bdoesn't\b`, "gi", "doesn't"), "does not"],
  [pattern(String.raw`\bdidn't\b`, "gi", "didn't"), "did not"],
] as const;

/** The clause with its contractions expanded; values keep their original casing. */
export function expandContractions(text: string): string {
  let out = QUOTES.replace(text, "'");
  for (const [contraction, full] of CONTRACTIONS) out = contraction.replace(out, full);
  return out;
}

const FILLER = pattern(
  String.raw`^(?:(?:so|well|ok|okay|oh|also|btw|anyway|and|but|honestly|actually|yeah|yes|no|lol|haha|ugh|hmm)[,!.]?\s+)+(?=\S)`,
  "i",
  "actually|and|anyway|btw|but|haha|hmm|honestly|lol|no|oh|ok|so|ugh|well|yeah|yes",
);

/** Clause openings that drop the "I", and what to put back. */
const DROPPED_I = [
  [
    pattern(
      String.raw`^(?:(?:just|recently|finally|currently|also|still|now)\s+)*(?:moved|relocated|live|living|work|working|cannot eat|cannot have|have|got|drive|own|love|like(?!\s+(?:\d|one|two|three|four|five|six|ten|twenty|half|twice|maybe|every|a\s+(?:few|couple|lot|day|week))\b)|hate|grew up|started|joined|teach|major|majoring|adopted|rescued|bought|picked up|switched)\b`,
      "i",
      "adopted|bought|cannot eat|drive|got|grew up|hate|have|joined|like|live|living|love|major|moved|own|picked up|relocated|rescued|started|switched|teach|work",
    ),
    "I ",
  ],
  // "Been living in Lisbon for a year", "Heading to Montreal next weekend".
  [
    pattern(String.raw`^been\s+(?:living|working|studying|learning|teaching)\b`, "i", "been"),
    "I have ",
  ],
  [
    pattern(
      String.raw`^(?:(?:just|finally|also)\s+)?(?:heading|flying|driving|moving|going|off)\s+to\b`,
      "i",
      "to",
    ),
    "I am ",
  ],
  [pattern(String.raw`^(?:(?:very|severely|also)\s+)?allergic\b`, "i", "allergic"), "I am "],
] as const;

/**
 * Clauses without a subject are common in chat ("Just moved to Seattle", "Can't eat
 * gluten", "Allergic to cats"): when a clause starts with such a verb, "I" is implied.
 */
function impliedSubject(text: string): string {
  const body = FILLER.replace(text, "");
  for (const [opening, subject] of DROPPED_I) if (opening.test(body)) return `${subject}${body}`;
  return body;
}

/** An English clause as the rows read it. */
export function englishClause(raw: string): string {
  return impliedSubject(expandContractions(raw));
}

/** The speaker is in the clause: I, me, my, we, our (after implied subjects). */
export const FIRST_PERSON = pattern(
  String.raw`\b(?:i|me|my|mine|we|our|us|name's)\b|^(?:honestly,?\s+)?not\s`,
  "i",
  "i|me|my|not|our|us|we",
);
