/**
 * The regular expressions of the fact rules and the recall terms, wrapped so that a fresh
 * isolate compiles few of them and each only once (cold isolate start).
 *
 * V8 compiles an expression on its first use: first to bytecode for its interpreter, then,
 * on the next use, again to machine code. For the rule set's hundreds of expressions those
 * two compilations were most of the CPU of the first fact turn in an isolate. A `Pattern`
 * therefore
 * - skips its expression when the text has none of the words every match needs (`need`,
 *   written next to each pattern and checked against the pattern's syntax by
 *   test/unit/memory/facts/regex-needs.test.ts): a clause that cannot match never
 *   compiles it;
 * - on its first use for a text of each width (Latin-1 or not: V8 compiles each
 *   separately), runs its expression once at the end of that text padded to 1000
 *   characters. For a subject that long V8 compiles straight to machine code
 *   (`JSRegExp::kTierUpForSubjectLengthValue`), and a global expression started at the
 *   end tries one position only, so the probe costs the one compilation and no search.
 *   The result is never used; when V8 changes that heuristic, the probe only costs
 *   microseconds and nothing else changes.
 * A pattern's `exec`/`test` start at 0 every time (no `lastIndex` state), as a
 * non-global expression does; `all` returns every match of a global one.
 */

/** A subject at least this long makes V8 compile an expression straight to machine code. */
const PROBE = " ".repeat(1000);

let lastText = "";
let lastWide = false;

/** Whether the text has a character outside Latin-1 (V8 keeps it two bytes a character). */
function wide(text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastWide = /[\u0100-\uffff]/.test(text);
  }
  return lastWide;
}

/** Lower case, for the need words of `i` expressions; two texts remembered (a clause and a part of it). */
let lowerOf = ["", ""];
let lowered = ["", ""];
function lower(text: string): string {
  if (text === lowerOf[0]) return lowered[0] as string;
  if (text === lowerOf[1]) return lowered[1] as string;
  const value = text.toLowerCase();
  lowerOf = [text, lowerOf[0] as string];
  lowered = [value, lowered[0] as string];
  return value;
}

/**
 * The words one of which every match contains, "|"-separated (lower case for an `i`
 * expression); several such groups joined by "&" must all have a word in the text
 * ("cat|dog&my"). Or a function giving that string (built from a word list on first use).
 */
export type Need = string | (() => string);

/** Every pattern made, for the test that checks their `need` lists. */
export const PATTERNS: Pattern[] = [];

export class Pattern {
  private made: RegExp | undefined;
  private readonly fold: boolean;
  private readonly global: boolean;
  private run: RegExp | undefined;
  private groups: readonly (readonly string[])[] | null | undefined;
  private primed = 0;

  constructor(
    readonly source: string,
    readonly flags: string,
    readonly need?: Need,
  ) {
    this.fold = flags.includes("i");
    this.global = flags.includes("g");
    PATTERNS.push(this);
  }

  /**
   * The expression (for `replace`/`split`, which use it directly), made on first use: an
   * isolate that never reaches a rule does not even parse its expression.
   */
  get regex(): RegExp {
    if (this.made === undefined) this.made = new RegExp(this.source, this.flags);
    return this.made;
  }

  /** The need list's groups (undefined when the pattern has none). */
  needGroups(): readonly (readonly string[])[] | undefined {
    if (this.groups === undefined) {
      const need = typeof this.need === "function" ? this.need() : this.need;
      this.groups = need === undefined ? null : need.split("&").map((group) => group.split("|"));
    }
    return this.groups ?? undefined;
  }

  /** Whether the text has one of the words every match needs (true without a list). */
  can(text: string): boolean {
    // Compiled already: running the expression is quicker than looking for the words.
    if (this.primed !== 0) return true;
    const groups = this.groups === undefined ? this.needGroups() : this.groups;
    if (groups === null || groups === undefined) return true;
    const subject = this.fold ? lower(text) : text;
    for (const words of groups) {
      let found = false;
      for (let i = 0; i < words.length && !found; i++) found = subject.includes(words[i] as string);
      if (!found) return false;
    }
    return true;
  }

  /** The global expression that runs, compiled to machine code for this text's width. */
  private ready(text: string): RegExp {
    let run = this.run;
    if (run === undefined) {
      run = this.global ? this.regex : new RegExp(this.source, `${this.flags}g`);
      this.run = run;
    }
    if (this.primed !== 3) {
      const bit = wide(text) ? 2 : 1;
      if ((this.primed & bit) === 0) {
        this.primed |= bit;
        const probe = text + PROBE;
        run.lastIndex = probe.length;
        run.exec(probe);
      }
    }
    run.lastIndex = 0;
    return run;
  }

  private first(text: string): RegExpExecArray | null {
    const run = this.ready(text);
    const match = run.exec(text);
    run.lastIndex = 0;
    return match;
  }

  /** The first match from the start of the text, or null. */
  exec(text: string): RegExpExecArray | null {
    return this.can(text) ? this.first(text) : null;
  }

  test(text: string): boolean {
    return this.can(text) && this.first(text) !== null;
  }

  /**
   * `text.replace(regex, replacement)`, skipped when the text cannot match; a non-global
   * expression with a plain replacement runs through the primed expression.
   */
  replace(text: string, replacement: string): string {
    if (!this.can(text)) return text;
    if (this.global || replacement.includes("$")) {
      return text.replace(this.regex, replacement);
    }
    const match = this.first(text);
    if (match === null) return text;
    return text.slice(0, match.index) + replacement + text.slice(match.index + match[0].length);
  }

  /** `text.split(regex)`, skipped when the text cannot match. */
  split(text: string): string[] {
    return this.can(text) ? text.split(this.regex) : [text];
  }

  /** `text.match(regex)` of a global expression (every match), skipped when it cannot match. */
  matchAll(text: string): RegExpMatchArray | null {
    return this.can(text) ? text.match(this.regex) : null;
  }

  /** Every match (of a global expression; one at most otherwise). */
  all(text: string): RegExpExecArray[] {
    if (!this.can(text)) return [];
    if (!this.global) {
      const match = this.first(text);
      return match === null ? [] : [match];
    }
    return allMatches(this.ready(text), text);
  }
}

/**
 * A pattern over `new RegExp(source, flags)` (see the file header; `need` as {@link Need}).
 * Written with String.raw so the source reads as a literal would.
 */
export function pattern(source: string, flags = "", need?: Need): Pattern {
  return new Pattern(source, flags, need);
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
