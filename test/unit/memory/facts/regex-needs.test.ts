/**
 * Every fact and recall pattern skips its expression when
 * the text has none of the words it needs (src/memory/facts/regex.ts). A wrong list would
 * silently drop facts, so each list is checked against what the pattern's syntax proves
 * (./regex-needs.ts), the analysis is checked on generated expressions, and every pattern
 * must give what its expression gives on the whole fact corpus.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { corpus } from "../../../../bench/facts-same.ts";
import "../../../../src/memory/facts/index.ts";
import { allMatches, PATTERNS, pattern } from "../../../../src/memory/facts/regex.ts";
import "../../../../src/memory/recall/index.ts";
import { implies, necessary, needList, needs } from "./regex-needs.ts";

const show = (p: (typeof PATTERNS)[number]) => `/${p.regex.source.slice(0, 90)}/${p.regex.flags}`;

/** Texts of the corpus, and each clause-sized piece of them. */
const TEXTS = (() => {
  const { utterances } = corpus();
  const pieces = utterances.flatMap((text) => text.split(/[.!?,]\s*/));
  return [...new Set([...utterances, ...pieces])].filter((text) => text !== "");
})();

describe("what a regular expression needs (the analysis)", () => {
  it("reads literals, alternations, classes, quantifiers and lookarounds", () => {
    expect(needs("abc", "")).toEqual(["abc"]);
    expect(needs("(?:좋아해|좋아합|사랑해)", "")).toEqual(["사랑해", "좋아합", "좋아해"]);
    expect(needs("(\\S+)\\s+(?:정말\\s+)*좋아", "")).toEqual(["좋아"]);
    expect(needs("x?", "")).toBeNull();
    expect(needs("(?:ab)*c+", "")).toEqual(["c"]);
    expect(needs("a|\\s", "")).toBeNull(); // one alternative needs nothing
    expect(needs("(?=.*살)\\S+", "")).toEqual(["살"]);
    expect(needs("(?!살)\\S+", "")).toBeNull();
    expect(needs("[Ii] live", "")).toEqual(["I live", "i live"]);
    expect(needs("I Live", "i")).toEqual(["i live"]);
    expect(needs("\\bmy\\s+(?:cat|dog)s?\\b", "i")).toEqual(["cat", "dog"]);
    expect(needs("(a)\\1", "")).toEqual(["a"]);
    expect(needs("é", "i")).toBeNull(); // a case outside ASCII
    expect(needs("s", "iu")).toBeNull(); // ſ folds to s under iu
    expect(needs("\\u0041\\x42", "")).toEqual(["AB"]);
  });

  const atom = fc.oneof(
    fc.constantFrom(
      "a",
      "b",
      "A",
      "가",
      "나",
      " ",
      "\\s",
      "\\S",
      ".",
      "[ab]",
      "[^a]",
      "\\b",
      "^",
      "$",
    ),
  );
  const regex: fc.Arbitrary<string> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      atom,
      fc
        .tuple(tie("node"), fc.constantFrom("?", "*", "+", "{0,2}", "{1,3}", "{2}", "+?"))
        .map(([n, q]) => `(?:${n})${q}`),
      fc.array(tie("node"), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")),
      fc
        .array(tie("node"), { minLength: 2, maxLength: 3 })
        .map((parts) => `(?:${parts.join("|")})`),
      fc
        .tuple(fc.constantFrom("(?=", "(?!", "(?<=", "(?<!", "("), tie("node"))
        .map(([open, n]) => `${open}${n})`),
    ),
  })).node as fc.Arbitrary<string>;

  it("is sound: whenever a generated expression matches, the text has a needed word", () => {
    fc.assert(
      fc.property(
        regex,
        fc.constantFrom("", "i"),
        fc.array(fc.constantFrom("a", "b", "A", "B", "가", "나", " ", "x"), { maxLength: 12 }),
        (source, flags, chars) => {
          const text = chars.join("");
          if (!new RegExp(source, flags).test(text)) return;
          const subject = flags.includes("i") ? text.toLowerCase() : text;
          for (const set of necessary(source, flags)) {
            expect(
              set.some((word) => subject.includes(word)),
              `${source} on "${text}"`,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("the fact and recall patterns' need lists", () => {
  it("every list is implied by its pattern's syntax", () => {
    const listed = PATTERNS.filter((p) => p.needGroups() !== undefined);
    expect(listed.length).toBeGreaterThan(250);
    for (const p of listed) {
      const proved = necessary(p.regex.source, p.regex.flags);
      for (const given of p.needGroups() ?? []) {
        // Each "&"-group must follow from one set the syntax proves.
        expect(
          proved.some((set) => implies(set, given)),
          `${show(p)}: ${JSON.stringify(given.join("|"))} is not implied; the analysis gives ${JSON.stringify(needList(p.regex.source, p.regex.flags))}`,
        ).toBe(true);
        expect(given.every((word) => word !== "")).toBe(true);
        if (p.regex.ignoreCase) {
          expect(
            given.every((word) => word === word.toLowerCase()),
            `${show(p)}: lower case`,
          ).toBe(true);
        }
      }
    }
  });

  it("every pattern of 40 characters or more that needs a word says which", () => {
    const missing = PATTERNS.filter(
      (p) =>
        p.regex.source.length >= 40 &&
        p.needGroups() === undefined &&
        needs(p.regex.source, p.regex.flags) !== null,
    ).map(
      (p) => `${show(p)} needs ${JSON.stringify(needs(p.regex.source, p.regex.flags)?.join("|"))}`,
    );
    expect(missing).toEqual([]);
  });

  it(`every pattern gives what its expression gives on the fact corpus (${TEXTS.length} texts)`, () => {
    const wrong: string[] = [];
    let skipped = 0;
    for (const p of PATTERNS) {
      const raw = new RegExp(p.regex.source, p.regex.flags.replace("g", ""));
      const flags = p.regex.flags.includes("g") ? p.regex.flags : `${p.regex.flags}g`;
      const global = new RegExp(p.regex.source, flags);
      for (const text of TEXTS) {
        const want = raw.exec(text);
        // The list itself (a pattern stops looking at it once its expression is compiled).
        const groups = p.needGroups();
        const subject = p.regex.ignoreCase ? text.toLowerCase() : text;
        if (groups?.some((words) => !words.some((word) => subject.includes(word)))) {
          skipped++;
          if (want !== null) wrong.push(`${show(p)} skips "${text}" but matches it`);
        }
        const got = p.exec(text);
        if (got?.[0] !== want?.[0] || got?.index !== want?.index) {
          wrong.push(`${show(p)} on "${text}": ${got?.[0]} at ${got?.index}, not ${want?.[0]}`);
        }
        if (p.regex.global) {
          const all = p
            .all(text)
            .map((m) => m.index)
            .join();
          if (
            all !==
            allMatches(global, text)
              .map((m) => m.index)
              .join()
          ) {
            wrong.push(`${show(p)}: every match of "${text}"`);
          }
        }
      }
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(skipped).toBeGreaterThan(0);
  });

  it("replace, split and match are the expression's", () => {
    const anchored = pattern("[.!?~]+$", "u", "!|.|?|~");
    const global = pattern(String.raw`\b(?:i)'m\b`, "gi", "'m");
    const split = pattern(String.raw`\s*[;,]\s*`, "", ",|;");
    for (const text of ["민수예요!!", "I'm here, I'm there; ok", "", "nothing to do"]) {
      expect(anchored.replace(text, "")).toBe(text.replace(/[.!?~]+$/u, ""));
      expect(global.replace(text, "I am")).toBe(text.replace(/\b(?:i)'m\b/gi, "I am"));
      expect(split.split(text)).toEqual(text.split(/\s*[;,]\s*/));
      expect(global.matchAll(text)).toEqual(text.match(/\b(?:i)'m\b/gi));
      expect(global.test(text)).toBe(/\b(?:i)'m\b/i.test(text));
    }
  });
});
