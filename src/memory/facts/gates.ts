/**
 * Cheap literal gates in front of code that is no cue row (cold isolate start; the rows carry
 * their own need words, rules.ts): the language readers (languages.ts), the Korean job-word
 * scan (rules-ko.ts) and the health words recall looks for (recall.ts). Each runs only when
 * its clause contains one of the gate's words, so a fresh isolate compiles only the
 * expressions a message can reach. A gate must be a superset of what its code matches.
 */
import { CONDITIONS_EN, DIET_EN } from "./lexicon.ts";

/** The literal start of each alternative of a word-list pattern ("lactose[- ]intolerant" → "lactose"). */
const alternatives = (pattern: string): string[] =>
  pattern
    .split("|")
    .map((word) =>
      (word.split(/[[(?\\]/)[0] ?? "")
        .replace(/.$/, (c) =>
          word.length > 1 && /[?]/.test(word[word.indexOf(c) + 1] ?? "") ? "" : c,
        )
        .trim(),
    )
    .filter((word) => word.length >= 2);

/** Words one of which a Korean clause with a job word and its copula or 하다 contains. */
export const KO_JOB_GATE: readonly string[] = [
  "일",
  "근무",
  "재직",
  "활동",
  "직업",
  "직종",
  "가르",
  "담당",
  "은퇴",
  "퇴직",
  "요",
  "야",
  "임",
  "다",
  "고",
  "죠",
  "니",
  // "알바 해", "교사라 …": a job word with 하다, or the connective copula (이)라.
  "해",
  "하는",
  "라",
];

/** Words a clause about the languages the user speaks contains (English, lower case). */
export const EN_LANGUAGE_GATE: readonly string[] = [
  "speak",
  "fluent",
  "learn",
  "study",
  "studying",
  "taking",
  "know",
  "native",
  "language",
  "tongue",
  "bilingual",
  "picked up",
  "get by",
  "conversational",
  "brush",
  "practic",
  "practis",
  "use",
  "decent",
  "good",
  "okay",
  " ok",
  "solid",
  "great",
  "not bad",
];

/** Korean: 어 (영어, 일본어) or 말 (중국말). */
export const KO_LANGUAGE_GATE: readonly string[] = ["어", "말"];

/** Sub-gates of the English health words: the condition and diet lists are the largest. */
export const HEALTH_GATES = {
  conditions: alternatives(CONDITIONS_EN),
  diet: alternatives(DIET_EN),
} as const;

/** Whether `text` contains one of the gate's words. */
export function open(gate: readonly string[], text: string): boolean {
  for (const word of gate) if (text.includes(word)) return true;
  return false;
}
