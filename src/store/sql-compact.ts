/**
 * SQL text as sent over HTTP: comments dropped and each run of whitespace made one space,
 * outside string literals, quoted identifiers and dollar-quoted bodies (kept byte for byte).
 *
 * The statements in sql.ts are written for reading: indented, with comments. Over Neon's
 * HTTP API every request carries the full text of each of its statements, so that layout
 * would be serialized, sent and parsed again on every turn, a sizeable share of the bytes a
 * turn sends. Statements are constants: each is compacted once per isolate and kept (a
 * bounded cache, for callers that build SQL text).
 */

/** Distinct statement texts kept compacted; the cache starts over when it is full. */
export const SQL_COMPACT_CACHE = 512;

const cache = new Map<string, string>();

/** `text` compacted (see the file header); the same text gives the same result. */
export function compactSql(text: string): string {
  const known = cache.get(text);
  if (known !== undefined) return known;
  const out = compact(text);
  if (cache.size >= SQL_COMPACT_CACHE) cache.clear();
  cache.set(text, out);
  return out;
}

const isSpace = (c: string) => c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\f";
const isTagStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isTagPart = (c: string) => /[A-Za-z0-9_\u0080-\uffff]/.test(c);

/** The end (exclusive) of the quoted run that starts at `i` with `quote`, doubling escapes. */
function quotedEnd(text: string, i: number, quote: string, backslash: boolean): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (backslash && c === "\\") {
      j += 2;
      continue;
    }
    if (c === quote) {
      if (text[j + 1] === quote) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    j++;
  }
  return text.length;
}

/** The tag (`$tag$` or `$$`) that opens a dollar-quoted body at `i`, if one does. */
function dollarTag(text: string, i: number): string | undefined {
  let j = i + 1;
  if (text[j] === "$") return "$$";
  if (j >= text.length || !isTagStart(text[j] as string)) return undefined;
  while (j < text.length && isTagPart(text[j] as string)) j++;
  return text[j] === "$" ? text.slice(i, j + 1) : undefined;
}

function compact(text: string): string {
  let out = "";
  /** A space is owed before the next token (whitespace or a comment was skipped). */
  let gap = false;
  const emit = (piece: string) => {
    if (gap && out !== "") out += " ";
    gap = false;
    out += piece;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (isSpace(c)) {
      gap = true;
      i++;
    } else if (c === "-" && next === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
      gap = true;
    } else if (c === "/" && next === "*") {
      // Block comments nest in Postgres.
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (text[j] === "/" && text[j + 1] === "*") {
          depth++;
          j += 2;
        } else if (text[j] === "*" && text[j + 1] === "/") {
          depth--;
          j += 2;
        } else j++;
      }
      i = j;
      gap = true;
    } else if (c === "'" || c === '"') {
      // E'…' strings take backslash escapes; the E was emitted as part of the word before.
      const backslash =
        c === "'" && /[Ee]/.test(text[i - 1] ?? "") && !isTagPart(text[i - 2] ?? "");
      const end = quotedEnd(text, i, c, backslash);
      emit(text.slice(i, end));
      i = end;
    } else if (c === "$" && !isTagPart(text[i - 1] ?? "") && dollarTag(text, i) !== undefined) {
      const tag = dollarTag(text, i) as string;
      const close = text.indexOf(tag, i + tag.length);
      const end = close < 0 ? text.length : close + tag.length;
      emit(text.slice(i, end));
      i = end;
    } else {
      // A run of ordinary characters, up to the next character that needs a look.
      let j = i + 1;
      while (j < text.length) {
        const d = text[j] as string;
        if (isSpace(d) || d === "'" || d === '"' || d === "$") break;
        if ((d === "-" && text[j + 1] === "-") || (d === "/" && text[j + 1] === "*")) break;
        j++;
      }
      emit(text.slice(i, j));
      i = j;
    }
  }
  return out;
}
