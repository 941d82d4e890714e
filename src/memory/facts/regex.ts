/**
 * Compiled regular expressions, cached by source and flags: the rules build their patterns
 * from word lists, and compiling them once keeps extraction well under a millisecond.
 * A cached expression is shared, so its `lastIndex` is reset on every lookup (`matchAll`
 * copies the expression; `exec`/`test` on a global one start from 0).
 */
const cache = new Map<string, RegExp>();

export function cachedRegExp(source: string, flags = ""): RegExp {
  const key = `${flags}/${source}`;
  let regex = cache.get(key);
  if (regex === undefined) {
    regex = new RegExp(source, flags);
    cache.set(key, regex);
  }
  regex.lastIndex = 0;
  return regex;
}

/**
 * Every match of a global expression, without the copy `String.prototype.matchAll` makes
 * of the expression on each call (which dominated the extractor's cost).
 */
export function allMatches(regex: RegExp, text: string): RegExpExecArray[] {
  if (!regex.global) throw new TypeError("allMatches needs a global expression");
  const out: RegExpExecArray[] = [];
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    out.push(match);
    if (match[0].length === 0) regex.lastIndex++;
  }
  regex.lastIndex = 0;
  return out;
}
