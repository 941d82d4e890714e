import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLlamonError } from "../../../../src/errors.ts";
import {
  extractFacts,
  FACT_EXTRACTION_PROMPT,
  FACTS_MEMORY_KEY,
  type Fact,
  factsToJson,
  factTexts,
  parseModelFacts,
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

describe("R8.1 llm mode contract: FACT_EXTRACTION_PROMPT and parseModelFacts", () => {
  it("the prompt names every category and the JSON shape", () => {
    for (const category of [
      "name",
      "residence",
      "workplace",
      "job",
      "family",
      "preference",
      "dislike",
      "allergy",
      "health",
      "plan",
      "possession",
      "other",
    ]) {
      expect(FACT_EXTRACTION_PROMPT).toContain(category);
    }
    expect(FACT_EXTRACTION_PROMPT).toContain('{"facts":[]}');
  });

  it("turns a model answer into facts with stable ids", () => {
    const answer = {
      facts: [
        { category: "residence", value: "부산", text: "사용자는 부산에 산다", lang: "ko" },
        { category: "allergy", value: "peanuts", key: "peanut" },
        { category: "family", value: "아내", key: "wife" },
        { category: "possession", value: "Tesla Model 3" },
        { category: "Residence", value: "Manchester", key: "hometown" },
      ],
    };
    const parsed = parseModelFacts(answer, "  I live in 부산 ");
    expect(parsed.map((f) => f.id)).toEqual([
      "residence",
      "allergy:peanut",
      "family:wife",
      "possession:car",
      "residence:hometown",
    ]);
    expect(parsed[0]).toEqual({
      id: "residence",
      category: "residence",
      text: "사용자는 부산에 산다",
      value: "부산",
      lang: "ko",
      source: "I live in 부산",
    });
    expect(parsed[1]?.text).toBe("The user is allergic to peanuts");
    expect(parsed[4]?.text).toBe("The user is from Manchester");
  });

  it("accepts raw text with a ```json fence, an array, and an empty answer", () => {
    expect(
      parseModelFacts('```json\n{"facts":[{"category":"job","value":"nurse"}]}\n```', "s"),
    ).toHaveLength(1);
    expect(parseModelFacts('Sure! {"facts": []}', "s")).toEqual([]);
    expect(parseModelFacts([{ category: "name", value: "Sarah" }], "s")[0]?.id).toBe("name");
    const blocks = [
      { type: "text", text: '{"facts":[{"category":"residence",' },
      { type: "text", text: '"value":"Busan"}]}' },
    ];
    expect(parseModelFacts(blocks, "s").map((f) => f.id)).toEqual(["residence"]);
  });

  it("skips invalid entries but keeps valid ones", () => {
    const parsed = parseModelFacts(
      {
        facts: [
          { category: "hobby", value: "x" },
          { category: "name", value: "" },
          { category: "name", value: "Sarah" },
        ],
      },
      "s",
    );
    expect(parsed.map((f) => f.value)).toEqual(["Sarah"]);
  });

  it("throws INPUT_INVALID on garbage so the caller falls back to heuristic", () => {
    for (const garbage of [
      "I could not find any facts.",
      "{not json",
      42,
      null,
      { facts: "none" },
      { result: [] },
      { facts: [{ category: "hobby", value: "x" }, { nope: 1 }] },
    ]) {
      try {
        parseModelFacts(garbage, "s");
        expect.unreachable(`no error for ${JSON.stringify(garbage)}`);
      } catch (error) {
        expect(isLlamonError(error, "INPUT_INVALID"), String(error)).toBe(true);
      }
    }
  });
});
