/**
 * Semantic recall's fusion (select.ts): the lexical ranking (BM25 + neighbours) and the
 * semantic one are combined by reciprocal rank fusion; window messages and messages at or
 * after `beforeSeq` never come back, whichever list brought them.
 */
import { describe, expect, it } from "vitest";
import {
  queryTerms,
  type RecallAnswer,
  type RecallCandidate,
  RRF_K,
  searchTerms,
  selectRecalled,
} from "../../../../src/memory/recall/index.ts";

function message(seq: number, text: string): RecallCandidate {
  return { id: `m${seq}`, seq, role: "user", text, terms: searchTerms(text) };
}

const QUESTION = "what is my dog called";
const lexical = [message(1, "my dog likes the park"), message(5, "the weather is nice")];
const puppy = { ...message(3, "my puppy is Biscuit"), terms: [] };

describe("reciprocal rank fusion of lexical and semantic recall", () => {
  it("without semantic matches the lexical order stands", () => {
    const answer: RecallAnswer = { candidates: lexical };
    expect(
      selectRecalled(answer, queryTerms(QUESTION), { exclude: new Set(), maxItems: 5 }).map(
        (r) => r.seq,
      ),
    ).toEqual([1]);
  });

  it("a semantic-only match joins, and one on both lists ranks first", () => {
    const answer: RecallAnswer = {
      candidates: lexical,
      semantic: [puppy, lexical[0] as RecallCandidate],
    };
    const picked = selectRecalled(answer, queryTerms(QUESTION), {
      exclude: new Set(),
      maxItems: 5,
    });
    // m1: lexical rank 1 + semantic rank 2; m3: semantic rank 1 only.
    expect(1 / (RRF_K + 1) + 1 / (RRF_K + 2)).toBeGreaterThan(1 / (RRF_K + 1));
    expect(picked.map((r) => r.seq)).toEqual([1, 3]);
    expect(picked[1]?.text).toBe("my puppy is Biscuit");
  });

  it("never a window message or one at or after beforeSeq, from either list", () => {
    const answer: RecallAnswer = {
      candidates: lexical,
      semantic: [puppy, { ...message(9, "my dog again"), terms: [] }],
    };
    const picked = selectRecalled(answer, queryTerms(QUESTION), {
      exclude: new Set(["m3"]),
      beforeSeq: 9,
      maxItems: 5,
    });
    expect(picked.map((r) => r.seq)).toEqual([1]);
    const only = selectRecalled({ candidates: [], semantic: [puppy] }, ["zzz"], {
      exclude: new Set(),
      maxItems: 1,
    });
    expect(only.map((r) => r.seq)).toEqual([3]);
  });
});
