/**
 * The recall terms and ranker run inside workerd (Intl.Segmenter, the `stemmer`
 * and `stopword` packages) and give the same terms as in Node (test/unit/memory/recall).
 */
import { describe, expect, it } from "vitest";
import { queryTerms, recallMessages, searchTerms } from "../../src/memory/recall/index.ts";

describe("conversation recall terms inside workerd", () => {
  it("gives the same terms as Node for Korean, English and a script without spaces", () => {
    expect(searchTerms("제 이름은 민수예요")).toEqual(["이름", "민수", "이름", "름민", "민수"]);
    expect(searchTerms("Caroline's paintings of a sunset")).toEqual(["carolin", "paint", "sunset"]);
    expect(searchTerms("東京に住んでいます")).toContain("東京");
    expect(queryTerms("내 이름이 뭐였지?")).toEqual(["이름"]);
  });

  it("ranks messages", () => {
    const messages = ["강아지를 키우고 있어요", "I'm allergic to peanuts"].map((text, seq) => ({
      id: `m${seq}`,
      seq,
      terms: searchTerms(text),
    }));
    expect(recallMessages("peanut allergy?", messages, 1)[0]?.id).toBe("m1");
  });
});
