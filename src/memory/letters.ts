/**
 * Letter and digit tests and splits with a fast path (issue 14: cold isolate start). A
 * Unicode property class (`\p{L}`, `/u`) costs a fresh isolate about half a millisecond of
 * CPU per expression to compile; for text whose characters are all ASCII, Latin (1,
 * Extended, Additional), Hangul, general punctuation or full-width forms — nearly every
 * message here — explicit ranges give the same answer, and the property classes are used
 * (and compiled) only for other scripts.
 */
const COMMON =
  /^[\t\n\r\u0020-\u024f\u1e00-\u1eff\u2000-\u206f\u3000-\u303f\u3131-\u318e\uac00-\ud7a3\uff01-\uff5e]*$/;
/** The letters and digits (\p{L}\p{N}) among the COMMON characters. */
const LN =
  "0-9A-Za-z\\u00aa\\u00b2\\u00b3\\u00b5\\u00b9\\u00ba\\u00bc-\\u00be\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u1e00-\\u1eff\\u3131-\\u318e\\uac00-\\ud7a3\\uff10-\\uff19\\uff21-\\uff3a\\uff41-\\uff5a";
const L =
  "A-Za-z\\u00aa\\u00b5\\u00ba\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f\\u1e00-\\u1eff\\u3131-\\u318e\\uac00-\\ud7a3\\uff21-\\uff3a\\uff41-\\uff5a";

const cache = new Map<string, RegExp>();
function rx(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let regex = cache.get(key);
  if (regex === undefined) {
    regex = new RegExp(source, flags);
    cache.set(key, regex);
  }
  regex.lastIndex = 0;
  return regex;
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
    ? text.split(rx(`[^${digits ? LN : L}${keep}]+`, ""))
    : text.split(rx(`[^${digits ? "\\p{L}\\p{N}" : "\\p{L}"}${keep}]+`, "u"));
}

/** Every run of letters and digits with apostrophe tails ("don't", "Caroline's"). */
export function wordRuns(text: string): string[] {
  return isCommonText(text)
    ? (text.match(rx(`[${LN}]+(?:['’][${L}]+)*`, "g")) ?? [])
    : (text.match(rx("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)*", "gu")) ?? []);
}

/** `text.replace(/[^\p{L}\p{N}]+/gu, "")`. */
export function lettersOnly(text: string): string {
  return isCommonText(text)
    ? text.replace(rx(`[^${LN}]+`, "g"), "")
    : text.replace(rx("[^\\p{L}\\p{N}]+", "gu"), "");
}
