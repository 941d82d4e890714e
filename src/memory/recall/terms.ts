/// <reference path="../../types/stopword.d.ts" />
/**
 * Index terms for conversation recall: `searchTerms(message)` for what is stored,
 * `queryTerms(question)` for the question. Pure, deterministic, no model, no I/O; a few
 * microseconds per message; runs in workerd and Node alike.
 *
 * What a term is:
 * - English (and other Latin-script words): NFKC, lower case, diacritics removed, possessive
 *   and contraction tails dropped ("Caroline's" → "caroline", "don't" → "do"), stop words
 *   dropped (the `stopword` package's English list plus chat fillers), then the Porter stem
 *   (`stemmer` package: "painting"/"paints"/"painted" → "paint"). Digits stay ("2023").
 * - Korean (Hangul words): the stem (./korean.ts: particles, copula and one ending removed,
 *   "이름은"/"이름이에요"/"이름이" → "이름") plus the syllable bigrams of each run of
 *   adjacent stems, so a compound matches whether it was written with spaces or without
 *   ("매운 음식" and "매운음식" share 매운, 음식).
 * - Scripts written without spaces (Han, Kana, Thai, Lao, Khmer, Myanmar): the words ICU
 *   finds with `Intl.Segmenter` (created on first need only; it costs a few ms once).
 * Terms may repeat (term frequency counts); order follows the text.
 *
 * THE INDEX CONTRACT (for the storage backends that index these terms):
 * - Every term is 1–40 characters of Unicode letters and digits only (no space,
 *   punctuation, hyphen, apostrophe, underscore or combining mark), already lower case and
 *   NFC. Latin letters carry no diacritics. Hangul never shares a term with Latin letters
 *   or digits ("아이폰15" gives "아이폰" and "15").
 * - So the stored search text is `searchTerms(text).join(" ")`, and each of these indexes
 *   sees exactly those terms as its tokens:
 *   - Postgres: `to_tsvector('simple', terms)`; the default parser splits on the spaces
 *     (any non-ASCII character is a letter to it, in a C locale too) and `simple` only
 *     lower-cases, which changes nothing here. Query: `to_tsquery('simple', t1 | t2 …)`
 *     over `queryTerms(question)` (terms need no quoting: no operator characters).
 *   - SQLite FTS5 with the default `unicode61` tokenizer (`remove_diacritics` 1 or 2):
 *     letters and digits are token characters, everything else separates, case folding and
 *     diacritic removal have nothing left to change. Query: the terms OR-ed, each quoted.
 *   - in_memory: `RecallIndex` (./bm25.ts) over the same arrays.
 * - Terms are versioned by {@link TERMS_VERSION}: a backend that stores them must re-index
 *   (or index both) when it changes.
 */
/// <reference path="../../types/stopword.d.ts" />
// (the reference makes the declaration reach projects that compile llamon from node_modules)
import { stemmer } from "stemmer";
import { eng } from "stopword";
import { pattern } from "../facts/regex.ts";
import { isCommonText, lettersOnly, wordRuns } from "../letters.ts";
import { isBareEnding, koreanStem } from "./korean.ts";

/**
 * Bump when the terms of a text change, so stored search text can be rebuilt
 * (`llamon memory reindex --apply` visits every row made by an older version).
 * 2: terms of scripts outside the common ranges lost the apostrophes and combining marks that
 * ICU's word segments kept (see `contractTerms`).
 */
export const TERMS_VERSION = 2;

export const MAX_TERM_CHARS = 40;

/** Only the first this many characters of a message are indexed. */
export const MAX_TERMS_INPUT_CHARS = 4000;

/** Chat words the package list lacks; they carry no topic. */
const CHAT_STOP = `she hers herself its itself they'll i'm i've i'd i'll im ive id ill you're youre
  yeah yes yep yup no nope not just so oh ok okay really will does doing done going gonna wanna
  gotta hey hi hello thanks thank lol haha hahaha wow cool nice great good sure also even let
  lets us ours ourselves yourself yours mine myself am isn't don't didn't doesn't can't won't
  there's that's what's it's how's wasn't aren't weren't hasn't haven't hadn't shouldn't
  wouldn't couldn't one two`
  .split(/\s+/)
  .filter((word) => word !== "");

const STOP_EN: ReadonlySet<string> = new Set([...eng, ...CHAT_STOP]);

const PATTERN_RE1 = pattern("^[a-z]{3,}$");

/**
 * Words of a question that ask about the conversation itself ("what did I say", "내가
 * 뭐라고 했지"), not about its topic: never query terms.
 */
const QUERY_STOP: ReadonlySet<string> = new Set(
  `remember mention mentioned said say tell told talk talked ask asked recall earlier ago
   before again last time thing anything something when why which who whom whose where how
   what 기억 말 얘기 이야기 전에 아까 예전 저번 지난번 한 뭐 뭘 무엇 언제 어디 누구 왜 어떻게
   무슨 어떤 몇 알`
    .split(/\s+/)
    .filter((word) => word !== "")
    .flatMap((word) => [word, PATTERN_RE1.test(word) ? stemmer(word) : word]),
);

const HANGUL_RUN = /[\uac00-\ud7a3]+|[^\uac00-\ud7a3]+/g;
/** Han, Kana, Thai, Lao, Myanmar, Khmer (plain ranges: script properties cost a cold isolate ms). */
const NO_SPACE_SCRIPT = pattern(
  String.raw`[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]`,
);
const HANGUL = pattern(String.raw`^[\uac00-\ud7a3]+$`);
const LATIN_MARKED = pattern(String.raw`[\u00c0-\u024f\u1e00-\u1eff]`);

let segmenter: Intl.Segmenter | undefined;

/** ICU's word boundaries, for scripts without spaces between words. */
function segmentWords(word: string): string[] {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const out: string[] = [];
  for (const part of segmenter.segment(word)) if (part.isWordLike) out.push(part.segment);
  return out;
}

const LATIN_TERM_RE1 = pattern(String.raw`^\d$`);

const LATIN_TERM_RE2 = pattern("’", "g", "’");
const LATIN_TERM_RE3 = pattern(String.raw`\p{M}+`, "gu");

/** One English/other word → its term, or "" (stop word, one letter, too long). */
function latinTerm(raw: string): string {
  let word = LATIN_TERM_RE2.replace(raw, "'");
  if (word.endsWith("n't"))
    word = word === "can't" ? "can" : word === "won't" ? "will" : word.slice(0, -3);
  if (STOP_EN.has(word)) return "";
  const apostrophe = word.indexOf("'");
  if (apostrophe >= 0) word = word.slice(0, apostrophe);
  if (LATIN_MARKED.test(word))
    word = LATIN_TERM_RE3.replace(word.normalize("NFD"), "").normalize("NFC");
  word = lettersOnly(word);
  if (word.length < 2 && !LATIN_TERM_RE1.test(word)) return "";
  if (STOP_EN.has(word)) return "";
  const term = PATTERN_RE1.test(word) ? stemmer(word) : word;
  return term.length > MAX_TERM_CHARS ? "" : term;
}

/**
 * Holds a term from a script outside the common ranges to the index contract. ICU's word
 * segments may keep an apostrophe or a period between letters ("pa'က" from "㎀'က": NFKC
 * turns ㎀ into "pa", and ICU joins letters across an apostrophe) and the vowel signs of
 * Thai or Myanmar, which are combining marks: SQLite's unicode61 splits tokens at both, so
 * they are dropped here, on the stored and the asked side alike. Dropping a mark can leave
 * conjoining jamo side by side, which NFC then composes into a Hangul syllable: such a term
 * is split where Hangul meets other letters. Every piece is cut to MAX_TERM_CHARS without
 * splitting a surrogate pair.
 */
function contractTerms(raw: string): string[] {
  let term = lettersOnly(raw);
  if (term === "" || isCommonText(term)) return term === "" ? [] : [clip(term)];
  term = lettersOnly(term.normalize("NFC"));
  const pieces = HANGUL.test(term) ? [term] : (term.match(HANGUL_RUN) ?? []);
  return pieces.map(clip).filter((piece) => piece !== "");
}

function clip(term: string): string {
  if (term.length <= MAX_TERM_CHARS) return term;
  const code = term.charCodeAt(MAX_TERM_CHARS - 1);
  return term.slice(0, code >= 0xd800 && code <= 0xdbff ? MAX_TERM_CHARS - 1 : MAX_TERM_CHARS);
}

const COLLECT_RE1 = pattern(String.raw`^\s*$`);

const COLLECT_RE2 = pattern(String.raw`['’]+(?=[a-z\u00c0-\u024f]{3})`, "", "'|’");

/** Collects the terms of one text (see the file header). */
function collect(text: unknown, drop: ReadonlySet<string> | undefined): string[] {
  if (typeof text !== "string" || text === "") return [];
  const input = (text.length > MAX_TERMS_INPUT_CHARS ? text.slice(0, MAX_TERMS_INPUT_CHARS) : text)
    .normalize("NFKC")
    .toLowerCase();
  const terms: string[] = [];
  let run = ""; // adjacent Korean stems, for the bigrams
  const flush = (): void => {
    for (let i = 0; i + 2 <= run.length; i++) {
      const bigram = run.slice(i, i + 2);
      if (drop === undefined || !drop.has(bigram)) terms.push(bigram);
    }
    run = "";
  };
  const push = (term: string): void => {
    if (term !== "" && (drop === undefined || !drop.has(term))) terms.push(term);
  };
  let end = 0;
  let from = 0;
  for (const word of wordRuns(input)) {
    const start = input.indexOf(word, from);
    from = start + word.length;
    // A compound spans spaces only: punctuation between two words ends the run.
    if (!COLLECT_RE1.test(input.slice(end, start))) flush();
    end = start + word.length;
    const pieces = word.match(HANGUL_RUN) ?? [];
    pieces.forEach((piece, index) => {
      if (HANGUL.test(piece)) {
        if (index > 0 && isBareEnding(piece)) return; // "google에서": a particle, no term
        const stem = koreanStem(piece).slice(0, MAX_TERM_CHARS);
        if (stem === "" || drop?.has(stem)) {
          flush();
          return;
        }
        push(stem);
        run += stem;
        return;
      }
      flush();
      if (NO_SPACE_SCRIPT.test(piece)) {
        for (const part of segmentWords(piece)) for (const term of contractTerms(part)) push(term);
        return;
      }
      // latinTerm already keeps letters and digits only; common text needs nothing more.
      const common = isCommonText(piece);
      for (const part of COLLECT_RE2.split(piece)) {
        const term = latinTerm(part);
        if (common) push(term);
        else for (const held of contractTerms(term)) push(held);
      }
    });
    if (pieces.length === 0 || !HANGUL.test(pieces.at(-1) ?? "")) flush();
  }
  flush();
  return terms;
}

/** The index terms of a stored message (see the file header for the contract). */
export function searchTerms(text: string): string[] {
  return collect(text, undefined);
}

/**
 * The terms of a question: the same processing as {@link searchTerms}, without the words
 * that ask about the conversation itself ("remember", "said", "기억", "얘기", question words),
 * each term once.
 */
export function queryTerms(text: string): string[] {
  // A turn asks for the terms of its user message twice (the read batch's recall query, then
  // the ranking): the last answer is kept.
  if (lastQuery?.text !== text)
    lastQuery = { text, terms: [...new Set(collect(text, QUERY_STOP))] };
  return [...lastQuery.terms];
}

let lastQuery: { text: string; terms: readonly string[] } | undefined;
