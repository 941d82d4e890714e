import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_TERM_CHARS, queryTerms, searchTerms } from "../../../../src/memory/recall/index.ts";

const shares = (a: readonly string[], b: readonly string[]): string[] =>
  [...new Set(a)].filter((term) => b.includes(term));

describe("searchTerms / queryTerms for Korean", () => {
  it("particles and endings stuck to a noun give its stem (이름은 / 이름이에요 / 이름이)", () => {
    for (const text of [
      "이름은",
      "이름이에요",
      "이름이",
      "이름을",
      "이름도",
      "이름입니다",
      "이름이야",
    ]) {
      expect(searchTerms(text), text).toContain("이름");
    }
    for (const text of ["서울에서", "서울에", "서울로", "서울은", "서울에서도", "서울이에요"]) {
      expect(searchTerms(text), text).toContain("서울");
    }
    // Nouns that merely end like a particle keep it (고양이, 제주도).
    expect(searchTerms("고양이를 키워요")).toContain("고양이");
    expect(searchTerms("제주도에 살아요")).toContain("제주도");
  });

  it("하다-verbs give their noun (공부했어요 / 공부하고 / 공부해요)", () => {
    for (const text of ["공부했어요", "공부하고", "공부해요", "공부합니다", "공부하는"]) {
      expect(searchTerms(text), text).toContain("공부");
    }
  });

  it("spacing variants share terms (매운 음식 / 매운음식, 떡 볶이 / 떡볶이)", () => {
    expect(shares(searchTerms("매운 음식을 좋아해요"), queryTerms("매운음식"))).toEqual(
      expect.arrayContaining(["매운", "음식"]),
    );
    expect(shares(searchTerms("매운음식 좋아함"), queryTerms("매운 음식 추천"))).toEqual(
      expect.arrayContaining(["매운", "음식"]),
    );
    expect(shares(searchTerms("떡 볶이 먹었어"), queryTerms("떡볶이"))).not.toEqual([]);
  });

  it("a question about the user's name matches the message that gave it", () => {
    const stored = searchTerms("제 이름은 민수예요");
    expect(shares(stored, queryTerms("내 이름이 뭐였지?"))).toContain("이름");
    // Words about the conversation itself are no query terms.
    expect(queryTerms("내가 아까 뭐라고 얘기했지? 기억나?")).toEqual([]);
  });

  it("Hangul glued to Latin or digits: the particle adds nothing, the word stays", () => {
    expect(searchTerms("Google에서 일해요")).toEqual(["googl"]);
    expect(searchTerms("아이폰15 샀어")).toEqual(expect.arrayContaining(["아이폰", "15"]));
  });
});

describe("searchTerms / queryTerms for English", () => {
  it("lower case, Porter stems, stop words and possessives dropped", () => {
    expect(searchTerms("Caroline's paintings of a sunset")).toEqual(["carolin", "paint", "sunset"]);
    for (const text of ["painting", "paints", "painted", "Paint"]) {
      expect(searchTerms(text), text).toEqual(["paint"]);
    }
    expect(searchTerms("I don't like it, do you?")).toEqual([]);
    expect(searchTerms("Café in Zürich")).toEqual(["cafe", "zurich"]);
  });

  it("a question matches its answer through the stems", () => {
    const stored = searchTerms("I went to an LGBTQ support group yesterday");
    expect(shares(stored, queryTerms("When did Caroline go to the LGBTQ support group?"))).toEqual([
      "lgbtq",
      "support",
      "group",
    ]);
    expect(queryTerms("What did I say about my dog earlier?")).toEqual(["dog"]);
  });
});

describe("the index contract (Postgres 'simple' tsvector and SQLite FTS5 unicode61 see the same tokens)", () => {
  it("every term is letters and digits only, lower case, NFC, no combining mark, ≤ MAX_TERM_CHARS; deterministic", () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: "grapheme", maxLength: 120 }),
      fc
        .array(
          fc.constantFrom(
            "저는",
            "서울에서",
            "살아요",
            "Café",
            "don't",
            "I'm",
            "東京に",
            "15살",
            "!",
            "?",
            " ",
            "e-mail",
            "foo_bar",
            "ǅ",
            "İstanbul",
            "ß",
          ),
          { maxLength: 12 },
        )
        .map((words) => words.join(" ")),
    );
    fc.assert(
      fc.property(texts, (text) => {
        for (const terms of [searchTerms(text), queryTerms(text)]) {
          for (const term of terms) {
            expect(term).toMatch(/^[\p{L}\p{N}]+$/u);
            expect(term).not.toMatch(/\p{M}/u);
            expect(term.length).toBeLessThanOrEqual(MAX_TERM_CHARS);
            expect(term).toBe(term.normalize("NFC"));
            expect(term).toBe(term.toLowerCase());
            // Hangul never shares a term with Latin letters or digits.
            if (/[\uac00-\ud7a3]/.test(term)) expect(term).toMatch(/^[\uac00-\ud7a3]+$/);
          }
        }
        expect(searchTerms(text)).toEqual(searchTerms(text));
      }),
      { numRuns: 300 },
    );
  });

  it("terms from ICU's word segments hold to the contract too (found by the property above)", () => {
    // NFKC turns ㎀ into "pa"; ICU joins letters across the apostrophe: "pa'က" was one term.
    for (const text of ["㎀'က", "pa'က", "ที่นี่", "မြန်မာ", "a.東京", "\u1100\u0301\u1161"]) {
      for (const terms of [searchTerms(text), queryTerms(text)]) {
        for (const term of terms) {
          expect(term, text).toMatch(/^[\p{L}\p{N}]+$/u);
          expect(term, text).toBe(term.normalize("NFC"));
          if (/[\uac00-\ud7a3]/.test(term)) expect(term, text).toMatch(/^[\uac00-\ud7a3]+$/);
        }
      }
    }
    expect(searchTerms("㎀'က")).toEqual(["paက"]);
    // A long run of Han is cut without splitting a surrogate pair.
    for (const term of searchTerms("𠀀".repeat(30))) expect(term).toMatch(/^[\p{L}]+$/u);
  });

  it("non-strings and empty text give no terms", () => {
    for (const value of [undefined, null, 42, {}, "", "   ", "?!"]) {
      expect(searchTerms(value as unknown as string)).toEqual([]);
      expect(queryTerms(value as unknown as string)).toEqual([]);
    }
  });

  it("scripts without spaces are split into words (Intl.Segmenter)", () => {
    expect(searchTerms("東京に住んでいます")).toContain("東京");
  });
});

describe("queryTerms keeps its last answer", () => {
  it("the same text gives the same terms, a new array each time (a caller's change never leaks)", () => {
    const question = "우리 강아지 이름이 뭐였죠?";
    const first = queryTerms(question);
    const expected = [...first];
    expect(expected.length).toBeGreaterThan(0);
    first.push("leaked");
    first[0] = "changed";
    expect(queryTerms(question)).toEqual(expected);
    expect(queryTerms("my sister plays the cello")).toEqual(["sister", "plai", "cello"]);
    expect(queryTerms(question)).toEqual(expected);
  });
});
