/**
 * What a regular expression needs (cold isolate start): the literal strings of
 * which every match must contain one, read off the pattern's syntax tree. The fact rules'
 * patterns carry such a list (src/memory/facts/regex.ts `pattern(…, need)`), so a clause
 * without any of its words skips the pattern, which a fresh isolate then never compiles;
 * test/unit/memory/facts/regex-needs.test.ts checks every list against this analysis.
 *
 * `needs(source, flags)` returns the best such set it can prove (see `best`), or null when
 * the pattern can match without any fixed text ("\S+", "^$"). Sound by construction:
 * - a literal needs itself; a class of a few characters needs one of them;
 * - a sequence needs what any of its parts needs, or the product of adjacent fixed parts;
 * - an alternation needs one of what each alternative needs (null if one needs nothing);
 * - X? / X* / X{0,n} need nothing, X+ / X{n,m} with n ≥ 1 need what X needs;
 * - a positive lookaround needs what its body needs (the text is in the subject), a
 *   negative one, an anchor, a word boundary and a back-reference need nothing.
 * With the `i` flag the strings are lower case and the subject is compared lower-cased;
 * a letter with a case outside ASCII (and, with `iu`, any letter) needs nothing.
 */

interface Info {
  /** Every string the node can match, when few and short; null when unknown. */
  exact: string[] | null;
  /** Strings one of which every match contains; null when none is known. */
  need: string[] | null;
  /** Every such set known (all of them hold at once: a conjunction). */
  all: string[][];
}

const MAX_EXACT = 64;
/** Products of adjacent fixed parts above this many strings are not formed (long lists). */
const MAX_PRODUCT = 16;
const MAX_NEED = 256;
const MAX_EXACT_CHARS = 24;

const NOTHING: Info = { exact: null, need: null, all: [] };
const EMPTY: Info = { exact: [""], need: null, all: [] };

/** Drops duplicates and every string that contains another one (it implies it). */
function minimal(set: readonly string[]): string[] | null {
  const unique = [...new Set(set)];
  if (unique.includes("")) return null;
  const kept = unique.filter((s) => !unique.some((t) => t !== s && s.includes(t)));
  return kept.length > MAX_NEED ? null : kept.sort();
}

/** Particles, endings and function words: in nearly every clause, so they select nothing. */
const COMMON = new Set(
  "은 는 이 가 을 를 도 에 의 로 와 과 요 야 임 고 다 죠 a an the i my me we in at on to of is be am and or".split(
    " ",
  ),
);

/** How selective a string is: a Hangul syllable says more than a Latin letter. */
function weight(s: string): number {
  if (COMMON.has(s) || (s.length === 1 && !/[\uac00-\ud7a3]/.test(s))) return 0;
  let w = 0;
  for (const ch of s) w += /[\uac00-\ud7a3]/.test(ch) ? 2 : 1;
  return w;
}

/** The more selective of two needs: the larger weakest string, then the larger mean, then the fewer. */
function better(a: string[] | null, b: string[] | null): string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  const wa = a.map(weight);
  const wb = b.map(weight);
  const minA = Math.min(...wa);
  const minB = Math.min(...wb);
  if (minA !== minB) return minA > minB ? a : b;
  const meanA = wa.reduce((x, y) => x + y, 0) / wa.length;
  const meanB = wb.reduce((x, y) => x + y, 0) / wb.length;
  if (meanA !== meanB) return meanA > meanB ? a : b;
  const shortA = Math.min(...a.map((w) => w.length));
  const shortB = Math.min(...b.map((w) => w.length));
  if (shortA !== shortB) return shortA > shortB ? a : b;
  return a.length <= b.length ? a : b;
}

function withExact(exact: string[] | null, need: string[] | null, all: string[][] = []): Info {
  const fromExact = exact !== null && !exact.includes("") ? minimal(exact) : null;
  const sets = [
    ...all,
    ...(need === null ? [] : [need]),
    ...(fromExact === null ? [] : [fromExact]),
  ];
  return { exact, need: better(need, fromExact), all: sets };
}

function product(a: readonly string[], b: readonly string[]): string[] | null {
  if (a.length * b.length > MAX_PRODUCT) return null;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return out.some((s) => s.length > MAX_EXACT_CHARS) ? null : [...new Set(out)];
}

class Parser {
  private at = 0;
  private readonly fold: boolean;
  private readonly unicode: boolean;

  constructor(
    private readonly src: string,
    flags: string,
  ) {
    this.fold = flags.includes("i");
    this.unicode = flags.includes("u") || flags.includes("v");
  }

  parse(): Info {
    const info = this.alternation();
    if (this.at !== this.src.length)
      throw new Error(`unexpected ${this.src[this.at]} at ${this.at}`);
    return info;
  }

  private peek(): string | undefined {
    return this.src[this.at];
  }

  private alternation(): Info {
    const alternatives = [this.sequence()];
    while (this.peek() === "|") {
      this.at++;
      alternatives.push(this.sequence());
    }
    if (alternatives.length === 1) return alternatives[0] ?? NOTHING;
    const exacts = alternatives.map((a) => a.exact);
    const exact =
      exacts.every((e) => e !== null) &&
      exacts.reduce((n, e) => n + (e?.length ?? 0), 0) <= MAX_EXACT
        ? [...new Set(exacts.flatMap((e) => e ?? []))]
        : null;
    const needs = alternatives.map((a) => a.need);
    const need = needs.every((n) => n !== null) ? minimal(needs.flatMap((n) => n ?? [])) : null;
    return withExact(exact, need);
  }

  private sequence(): Info {
    const items: Info[] = [];
    while (this.at < this.src.length && this.peek() !== "|" && this.peek() !== ")") {
      items.push(this.quantified());
    }
    let need: string[] | null = null;
    let run: string[] | null = [""];
    let whole: string[] | null = [""];
    const all: string[][] = [];
    const flush = () => {
      const set = run === null ? null : minimal(run);
      if (set !== null) all.push(set);
      need = better(need, set);
    };
    for (const item of items) {
      need = better(need, item.need);
      all.push(...item.all);
      if (item.exact === null) {
        flush();
        run = [""];
        whole = null;
        continue;
      }
      const next: string[] | null = run === null ? null : product(run, item.exact);
      if (next === null) {
        flush();
        run = item.exact;
      } else {
        run = next;
      }
      whole = whole === null ? null : product(whole, item.exact);
    }
    flush();
    return withExact(whole, need, all);
  }

  private quantified(): Info {
    const atom = this.atom();
    const quantifier = this.quantifier();
    if (quantifier === undefined) return atom;
    const [min, max] = quantifier;
    if (this.peek() === "?") this.at++; // lazy
    if (min === 0) {
      return max === 1 && atom.exact !== null
        ? { exact: [...new Set(["", ...atom.exact])], need: null, all: [] }
        : NOTHING;
    }
    if (min === 1 && max === 1) return atom;
    return { exact: null, need: atom.need, all: atom.all };
  }

  private quantifier(): readonly [number, number] | undefined {
    const ch = this.peek();
    if (ch === "*") return this.step([0, Infinity]);
    if (ch === "+") return this.step([1, Infinity]);
    if (ch === "?") return this.step([0, 1]);
    if (ch !== "{") return undefined;
    const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.src.slice(this.at));
    if (m === null) return undefined; // a literal "{" (Annex B)
    this.at += m[0].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    return [min, max];
  }

  private step(q: readonly [number, number]): readonly [number, number] {
    this.at++;
    return q;
  }

  private char(ch: string): Info {
    if (!this.fold) return { exact: [ch], need: [ch], all: [[ch]] };
    const lower = ch.toLowerCase();
    const cased = lower !== ch.toUpperCase();
    if (!cased) return { exact: [ch], need: [ch], all: [[ch]] };
    if (this.unicode || ch > "\u007f") return NOTHING;
    return { exact: [lower], need: [lower], all: [[lower]] };
  }

  private atom(): Info {
    const ch = this.peek();
    if (ch === undefined) throw new Error("unexpected end");
    if (ch === "(") return this.group();
    if (ch === "[") return this.klass();
    if (ch === ".") {
      this.at++;
      return NOTHING;
    }
    if (ch === "^" || ch === "$") {
      this.at++;
      return EMPTY;
    }
    if (ch === "\\") return this.escape();
    this.at++;
    return this.char(ch);
  }

  private group(): Info {
    this.at++; // (
    let kind: "plain" | "positive" | "negative" = "plain";
    if (this.src.startsWith("?:", this.at)) this.at += 2;
    else if (this.src.startsWith("?=", this.at) || this.src.startsWith("?<=", this.at)) {
      kind = "positive";
      this.at += this.src[this.at + 1] === "=" ? 2 : 3;
    } else if (this.src.startsWith("?!", this.at) || this.src.startsWith("?<!", this.at)) {
      kind = "negative";
      this.at += this.src[this.at + 1] === "!" ? 2 : 3;
    } else if (this.src.startsWith("?<", this.at)) {
      const close = this.src.indexOf(">", this.at);
      this.at = close + 1;
    } else if (this.peek() === "?") {
      throw new Error(`unsupported group at ${this.at}`);
    }
    const inner = this.alternation();
    if (this.peek() !== ")") throw new Error(`missing ) at ${this.at}`);
    this.at++;
    if (kind === "plain") return inner;
    if (kind === "negative") return EMPTY;
    return { exact: [""], need: inner.need, all: inner.all };
  }

  /** A class: the characters when a few, else nothing known. */
  private klass(): Info {
    this.at++; // [
    const negated = this.peek() === "^";
    if (negated) this.at++;
    const chars: string[] = [];
    let known = true;
    while (this.peek() !== "]") {
      const ch = this.peek();
      if (ch === undefined) throw new Error("unterminated class");
      let single: string | undefined;
      if (ch === "\\") {
        this.at++;
        const e = this.peek() ?? "";
        this.at++;
        if ("dDwWsSpP".includes(e)) {
          known = false;
          if ((e === "p" || e === "P") && this.unicode && this.peek() === "{") {
            this.at = this.src.indexOf("}", this.at) + 1;
          }
          continue;
        }
        single = this.escapedChar(e);
      } else {
        this.at++;
        single = ch;
      }
      if (
        this.peek() === "-" &&
        this.src[this.at + 1] !== "]" &&
        this.src[this.at + 1] !== undefined
      ) {
        this.at++; // a range
        let end = this.peek() ?? "";
        this.at++;
        if (end === "\\") {
          const e = this.peek() ?? "";
          this.at++;
          if ("dDwWsS".includes(e)) {
            known = false;
            continue;
          }
          end = this.escapedChar(e);
        }
        const from = single.codePointAt(0) ?? 0;
        const to = end.codePointAt(0) ?? 0;
        if (to - from > 8) known = false;
        else for (let c = from; c <= to; c++) chars.push(String.fromCodePoint(c));
        continue;
      }
      chars.push(single);
    }
    this.at++; // ]
    if (negated || !known || chars.length === 0 || chars.length > 8) return NOTHING;
    const infos = chars.map((c) => this.char(c));
    if (infos.some((i) => i.exact === null)) return NOTHING;
    const exact = [...new Set(infos.flatMap((i) => i.exact ?? []))];
    const need = minimal(exact);
    return { exact, need, all: need === null ? [] : [need] };
  }

  /** The character an escape in a class or outside stands for (after the backslash). */
  private escapedChar(e: string): string {
    switch (e) {
      case "t":
        return "\t";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "f":
        return "\f";
      case "v":
        return "\v";
      case "0":
        return "\0";
      case "b":
        return "\b"; // in a class, a backspace
      case "u": {
        if (this.unicode && this.peek() === "{") {
          const close = this.src.indexOf("}", this.at);
          const hex = this.src.slice(this.at + 1, close);
          this.at = close + 1;
          return String.fromCodePoint(Number.parseInt(hex, 16));
        }
        const hex = this.src.slice(this.at, this.at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return "u";
        this.at += 4;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case "x": {
        const hex = this.src.slice(this.at, this.at + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) return "x";
        this.at += 2;
        return String.fromCharCode(Number.parseInt(hex, 16));
      }
      case "c": {
        const letter = this.peek() ?? "";
        if (!/^[A-Za-z]$/.test(letter)) return "\\";
        this.at++;
        return String.fromCharCode(letter.charCodeAt(0) % 32);
      }
      default:
        return e;
    }
  }

  private escape(): Info {
    this.at++; // backslash
    const e = this.peek();
    if (e === undefined) throw new Error("trailing backslash");
    this.at++;
    if ("dDwWsS".includes(e)) return NOTHING;
    if (e === "b" || e === "B") return EMPTY;
    if (/[1-9]/.test(e)) {
      while (/[0-9]/.test(this.peek() ?? "")) this.at++;
      return NOTHING; // a back-reference may match the empty string
    }
    if (e === "k" && this.peek() === "<") {
      this.at = this.src.indexOf(">", this.at) + 1;
      return NOTHING;
    }
    if ((e === "p" || e === "P") && this.unicode) {
      this.at = this.src.indexOf("}", this.at) + 1;
      return NOTHING;
    }
    return this.char(this.escapedChar(e));
  }
}

/** The strings one of which every match of the pattern contains, or null (see the header). */
export function needs(source: string, flags: string): string[] | null {
  return new Parser(source, flags).parse().need;
}

/** Every set of strings the analysis proves a match needs one of (each holds on its own). */
export function necessary(source: string, flags: string): string[][] {
  return new Parser(source, flags).parse().all;
}

/**
 * A need list for `pattern(…, need)`: the best set, then up to two more that the first
 * does not already imply (short ones, so the check stays cheap), joined as "a|b&c|d"
 * (every "&"-group must have a word in the text). Null when nothing is needed.
 */
export function needList(source: string, flags: string): string | null {
  const root = new Parser(source, flags).parse();
  if (root.need === null) return null;
  const usable = (set: readonly string[]) => set.every((w) => !w.includes("|") && !w.includes("&"));
  if (!usable(root.need)) return null;
  const chosen: string[][] = [root.need];
  const rest = root.all
    .filter(
      (set) =>
        usable(set) &&
        set.length <= 8 &&
        set.every((w) => w.length >= 2 || /[\uac00-\ud7a3]/.test(w)),
    )
    .sort((a, b) => (better(a, b) === a ? -1 : 1));
  for (const set of rest) {
    if (chosen.length >= 3) break;
    // Skip a set that one already chosen implies (adds nothing) or that implies one.
    if (chosen.some((c) => implies(c, set) || implies(set, c))) continue;
    chosen.push(set);
  }
  return chosen.map((set) => set.join("|")).join("&");
}

/**
 * Whether `given` is implied by what the analysis proved: every string of `proved` contains
 * one of `given` (so a subject with none of `given` has none of `proved`, and no match).
 */
export function implies(proved: readonly string[], given: readonly string[]): boolean {
  return proved.every((s) => given.some((g) => s.includes(g)));
}
