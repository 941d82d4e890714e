import { describe, expect, it } from "vitest";
import { extractFacts, recallFacts } from "../../../../src/memory/facts/index.ts";
import { LANGUAGE_CODES, LANGUAGE_NAMES } from "../../../../src/memory/facts/languages-table.ts";

const show = (text: string) => extractFacts(text).map((f) => `${f.id}=${f.value}`);

describe("languages the user speaks or learns", () => {
  it("the name table is what Intl.DisplayNames gives (generated, not hand-written)", () => {
    const en = new Intl.DisplayNames(["en"], { type: "language" });
    const ko = new Intl.DisplayNames(["ko"], { type: "language" });
    const expected = Object.fromEntries(LANGUAGE_CODES.map((c) => [c, [en.of(c), ko.of(c)]]));
    // When ICU changes, paste this object into src/memory/facts/languages-table.ts.
    expect(LANGUAGE_NAMES, JSON.stringify(expected)).toEqual(expected);
  });

  it("one fact per language, keyed by code in either language", () => {
    expect(show("I'm fluent in Spanish and French.")).toEqual([
      "other:language:es=Spanish",
      "other:language:fr=French",
    ]);
    expect(show("저는 한국어랑 영어를 해요")).toEqual([
      "other:language:ko=한국어",
      "other:language:en=영어",
    ]);
    expect(extractFacts("요즘 일본어 공부하고 있어")[0]?.text).toBe(
      "사용자는 일본어를 배우고 있다",
    );
    expect(extractFacts("I've been learning Japanese for a year.")[0]?.text).toBe(
      "The user is learning Japanese",
    );
  });

  it("no language fact without a speaking or learning verb, or about someone else", () => {
    expect(show("I'm Korean")).not.toContain("other:language:ko=Korean");
    expect(show("영어 시험 너무 어려웠어")).toEqual([]);
    expect(show("My wife speaks German")).toEqual(["family:wife=wife"]);
  });

  it("a Korean question finds an English language fact and the other way round", () => {
    const facts = [
      ...extractFacts("I speak Portuguese"),
      ...extractFacts("독일어는 조금 할 줄 알아요"),
    ];
    expect(recallFacts(facts, "제가 할 줄 아는 외국어가 뭐였죠?", 3)).toHaveLength(2);
    expect(recallFacts(facts, "Can I order in German there?", 1)[0]?.value).toBe("독일어");
  });
});
