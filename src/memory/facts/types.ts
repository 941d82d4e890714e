/**
 * The Fact shape of R8 (fact recall) and the pure helpers every part shares: categories,
 * stable ids, value keys, and the normalised fact text in Korean or English.
 *
 * Ids are stable per (category, subject): a correction produces the same id and so
 * replaces the earlier fact in mergeFacts. Single-valued categories use the category as
 * id (`name`, `residence`, `workplace`, `job`; plus the `residence:hometown` and
 * `workplace:location` sub-slots); the others add a key (`allergy:peanut`,
 * `family:wife`, `possession:car`, `preference:favorite:color`, `other:age`).
 */

import { splitWords } from "../letters.ts";
import { pattern } from "./regex.ts";
import { type FactCategory, SINGLE_KINDS } from "./slots.ts";

// The kinds of fact are the slot table's (slots.ts); re-exported for the modules that read facts.
export { FACT_CATEGORIES, type FactCategory } from "./slots.ts";

export type FactLang = "ko" | "en";

export interface Fact {
  /** Stable for (category, subject key), so a correction replaces it: "residence", "allergy:peanut". */
  id: string;
  category: FactCategory;
  /** Normalised fact text, e.g. "사용자는 부산에 산다" / "The user lives in Busan". */
  text: string;
  /** The key value, e.g. "부산". */
  value: string;
  lang: FactLang;
  /** The utterance it came from (capped at {@link MAX_SOURCE_CHARS}). */
  source: string;
  /** Optional ordering hint (the turn number of the utterance). */
  turn?: number;
  /** The A2A messageId of the user message it came from (provenance). */
  messageId?: string;
  /** Position of that message in the stored thread (0-based). */
  position?: number;
  /** The date it was said, ISO `YYYY-MM-DD`. */
  since?: string;
}

/** A fact no longer current: replaced by a newer value or taken back by a retraction cue. */
export interface RetiredFact extends Fact {
  /** The date it was retired, ISO `YYYY-MM-DD`. */
  retiredAt: string;
  /** The messageId of the user message that retired it. */
  retiredBy?: string;
}

/**
 * Categories with one current value: a new fact of the category replaces the old one (the
 * slot table's single-valued rows, slots.ts).
 */
export const SINGLE_VALUED: ReadonlySet<FactCategory> = new Set(SINGLE_KINDS);

export const MAX_SOURCE_CHARS = 500;
export const MAX_VALUE_CHARS = 120;
export const MAX_TEXT_CHARS = 400;
export const MAX_ID_CHARS = 100;

const HANGUL = pattern(String.raw`[\u3131-\u318e\uac00-\ud7a3]`);

export function hasHangul(text: string): boolean {
  return HANGUL.test(text);
}

export function langOf(text: string): FactLang {
  return hasHangul(text) ? "ko" : "en";
}

const CLEAN_TEXT_RE1 = pattern(String.raw`\s+`, "g");

/** Collapses whitespace and trims; NFC so Hangul compares by syllable. */
export function cleanText(text: string): string {
  return CLEAN_TEXT_RE1.replace(text.normalize("NFC"), " ").trim();
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const VALUE_KEY_RE1 = pattern("^[a-z]{4,}s$", "", "s");

/**
 * The comparison key of a value: NFKC, lower case, letters and digits only; English words
 * lose a plural `s` ("peanuts" → "peanut"). "매운 음식" and "매운음식" share a key.
 */
export function valueKey(value: string): string {
  const words = splitWords(value.normalize("NFKC").toLowerCase())
    .filter((word) => word !== "")
    .map((word) => (VALUE_KEY_RE1.test(word) && !word.endsWith("ss") ? word.slice(0, -1) : word));
  return words.join("");
}

/** The id of a fact; `key` is the sub-key of multi-valued categories (defaults to the value). */
export function factId(category: FactCategory, value: string, key?: string): string {
  if (SINGLE_VALUED.has(category) && key === undefined) return category;
  const sub = key ?? valueKey(value);
  return clip(`${category}:${sub}`, MAX_ID_CHARS);
}

const HAS_BATCHIM_RE1 = pattern("[0-9]");

// --- Korean particles (josa) for the generated text -------------------------------------

/**
 * The final consonant (받침) of one Hangul syllable as its index in the syllable block: 0 for
 * none, 4 for ㄴ, 8 for ㄹ, …; undefined for anything that is not a Hangul syllable.
 */
export function finalConsonantOf(syllable: string): number | undefined {
  const code = syllable.charCodeAt(0);
  if (syllable.length !== 1 || code < 0xac00 || code > 0xd7a3) return undefined;
  return (code - 0xac00) % 28;
}

/** True when the last Hangul syllable has a final consonant (받침); undefined for non-Hangul. */
export function hasBatchim(word: string): boolean | undefined {
  const last = word.trim().at(-1);
  if (last === undefined) return undefined;
  // Digits are read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구 ("15를", "3일을" → "3을").
  if (HAS_BATCHIM_RE1.test(last)) return "1 0 3 6 7 8".split(" ").includes(last);
  const final = finalConsonantOf(last);
  return final === undefined ? undefined : final !== 0;
}

/** Attaches the right form of a particle pair: josa("부산", "을", "를") → "부산을". */
export function josa(word: string, withBatchim: string, without: string): string {
  const batchim = hasBatchim(word);
  if (batchim === undefined) return `${word}${withBatchim}(${without})`;
  return `${word}${batchim ? withBatchim : without}`;
}

/** Copula in written style: "부산이다", "간호사다". */
export function copula(word: string): string {
  return `${word}${hasBatchim(word) === false ? "다" : "이다"}`;
}
