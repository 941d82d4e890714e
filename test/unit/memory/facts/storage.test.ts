import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  extractFacts,
  FACTS_MEMORY_KEY,
  type Fact,
  factsToJson,
  factTexts,
  parseStoredFacts,
} from "../../../../src/memory/facts/index.ts";
import * as memory from "../../../../src/memory/index.ts";

const facts: Fact[] = [
  ...extractFacts("I live in Busan", { turn: 1 }),
  ...extractFacts("저는 땅콩 알레르기가 있어요"),
  ...extractFacts("My wife's name is Emily", { turn: 3 }),
];

describe("R8.2 facts in persistent_memory (key 'facts')", () => {
  it("round-trips through JSON", () => {
    expect(FACTS_MEMORY_KEY).toBe("facts");
    const stored = JSON.parse(JSON.stringify(factsToJson(facts)));
    expect(stored).toMatchObject({ version: 2, retired: [] });
    expect(parseStoredFacts(stored)).toEqual(facts);
  });

  it("reads a bare array too", () => {
    expect(parseStoredFacts(JSON.parse(JSON.stringify(facts)))).toEqual(facts);
  });

  it("ignores malformed entries and keeps the good ones", () => {
    const good = facts[0];
    const stored = {
      version: 1,
      facts: [
        good,
        null,
        42,
        "residence",
        { ...good, id: "" },
        { ...good, id: "x", category: "favourite_food" },
        { ...good, id: "y", value: 7 },
        { ...good, id: "z", lang: "fr" },
        { id: "w", category: "name", text: "t", value: "v", lang: "en", source: 5, turn: -1 },
      ],
    };
    const parsed = parseStoredFacts(stored);
    expect(parsed.map((f) => f.id)).toEqual([good?.id, "w"]);
    expect(parsed[1]).toEqual({
      id: "w",
      category: "name",
      text: "t",
      value: "v",
      lang: "en",
      source: "",
    });
  });

  it("anything unreadable is no facts", () => {
    for (const value of [undefined, null, "facts", 1, {}, { facts: "no" }, [[]]]) {
      expect(parseStoredFacts(value)).toEqual([]);
    }
  });

  it("a duplicate id keeps the later entry", () => {
    const a = { ...facts[0], value: "Seoul" };
    const b = { ...facts[0], value: "Busan" };
    expect(parseStoredFacts([a, b]).map((f) => f.value)).toEqual(["Busan"]);
  });

  it("never throws on arbitrary JSON (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(Array.isArray(parseStoredFacts(value))).toBe(true);
        expect(Array.isArray(parseStoredFacts({ facts: [value] }))).toBe(true);
      }),
    );
  });

  it("factTexts fills the prompt's facts slot", () => {
    expect(factTexts(facts)).toEqual(facts.map((f) => f.text));
  });

  it("is exported from llamon/memory", () => {
    expect(memory.extractFacts).toBe(extractFacts);
    expect(typeof memory.recallFacts).toBe("function");
    expect(typeof memory.mergeFacts).toBe("function");
    expect(memory.FACTS_MEMORY_KEY).toBe("facts");
  });
});
