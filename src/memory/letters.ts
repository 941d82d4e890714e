/**
 * Letter and digit tests and splits with a fast path (cold isolate start). A
 * Unicode property class (`\p{L}`, `/u`) costs a fresh isolate about half a millisecond of
 * CPU per expression to compile; for text whose characters are all ASCII, Latin (1,
 * Extended, Additional), Hangul, general punctuation or full-width forms — nearly every
 * message here — explicit ranges give the same answer, and the property classes are used
 * (and compiled) only for other scripts. Each goes through a pattern (facts/regex.ts): one
 * compilation, straight to machine code.
 */
import { type Pattern, pattern } from "./facts/regex.ts";

const COMMON = pattern(
  String.raw`^[\t\n\r\u0020-\u024f\u1e00-\u1eff\u2000-\u206f\u3000-\u303f\u3131-\u318e\uac00-\ud7a3\uff01-\uff5e]*$`,
);
/** The letters and digits (\p{L}\p{N}) among the COMMON characters. */
const LN =
  "0-9A-Za-z\\u00aa\\u00b2\\u00b3\\u00b5\\u00b9\\u00ba\\u00bc-\\u00be\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u1e00-\\u1eff\\u3131-\\u318e\\uac00-\\ud7a3\\uff10-\\uff19\\uff21-\\uff3a\\uff41-\\uff5a";
const L =
  "A-Za-z\\u00aa\\u00b5\\u00ba\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u1e00-\\u1eff\\u3131-\\u318e\\uac00-\\ud7a3\\uff21-\\uff3a\\uff41-\\uff5a";

const cache = new Map<string, Pattern>();
function rx(source: string, flags: string): Pattern {
  const key = `${flags}/${source}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = pattern(source, flags);
    cache.set(key, found);
  }
  return found;
}

export function isCommonText(text: string): boolean {
  return COMMON.test(text);
}

/** `/[\p{L}\p{N}]/u.test(text)` (`/\p{L}/u` with `digits` false). */
export function hasLetter(text: string, digits = true): boolean {
  return isCommonText(text)
    ? rx(`[${digits ? LN : L}]`, "").test(text)
    : rx(digits ? "[\\p{L}\\p{N}]" : "\\p{L}", "u").test(text);
}

/** `text.split(/[^\p{L}\p{N}<keep>]+/u)`; `keep` is a class fragment ("'-"); `digits` false drops \p{N}. */
export function splitWords(text: string, keep = "", digits = true): string[] {
  return isCommonText(text)
    ? rx(`[^${digits ? LN : L}${keep}]+`, "").split(text)
    : rx(`[^${digits ? "\\p{L}\\p{N}" : "\\p{L}"}${keep}]+`, "u").split(text);
}

/** Every run of letters and digits with apostrophe tails ("don't", "Caroline's"). */
export function wordRuns(text: string): string[] {
  return isCommonText(text)
    ? (rx(`[${LN}]+(?:['’][${L}]+)*`, "g").matchAll(text) ?? [])
    : (rx("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)*", "gu").matchAll(text) ?? []);
}

/** `text.replace(/[^\p{L}\p{N}]+/gu, "")`. */
export function lettersOnly(text: string): string {
  return isCommonText(text)
    ? rx(`[^${LN}]+`, "g").replace(text, "")
    : rx("[^\\p{L}\\p{N}]+", "gu").replace(text, "");
}
