/**
 * Facts with time and provenance (R8.3): supersession, retraction cues (ko + en), the block
 * never showing two current values for one single-valued slot, "earlier:" and dates,
 * version 1 rows read as version 2, and a retired list that stays bounded.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_FACT_STATE,
  type Fact,
  type FactState,
  factLines,
  factsToJson,
  MAX_RETIRED,
  MAX_RETIRED_PER_SLOT,
  parseFactState,
  recallFacts,
  reviseFacts,
  SINGLE_VALUED,
  updateFacts,
} from "../../../../src/memory/facts/index.ts";
import { FACTS_HEADER, listBlock } from "../../../../src/memory/prompt-blocks.ts";
import { talk } from "./talk.ts";

const UNCAPPED = Number.MAX_SAFE_INTEGER;

const current = (state: FactState) => state.facts.map((f) => `${f.id}=${f.value}`);
const retired = (state: FactState) => state.retired.map((f) => `${f.id}=${f.value}`);
/** The block the model would get for a question (all matching facts). */
const block = (state: FactState, question: string) =>
  factLines(recallFacts(state.facts, question, 10), state.retired).join("\n");

describe("R8.3 supersession: a newer value retires the old one", () => {
  it("R8.3 a new city retires the old one, with the date and the message that retired it", () => {
    const state = talk(["I live in Seoul.", "Nice weather today.", "I moved to Busan."]);
    expect(current(state)).toEqual(["residence=Busan"]);
    expect(state.facts[0]).toMatchObject({ messageId: "m2", position: 4, since: "2026-03-03" });
    expect(state.retired).toEqual([
      expect.objectContaining({
        id: "residence",
        value: "Seoul",
        messageId: "m0",
        position: 0,
        since: "2026-03-01",
        retiredAt: "2026-03-03",
        retiredBy: "m2",
      }),
    ]);
  });

  it("R8.3 a fact said again keeps the message and date it was first said", () => {
    const state = talk(["I live in Seoul.", "Yes, I live in Seoul."]);
    expect(state.facts).toEqual([
      expect.objectContaining({ value: "Seoul", messageId: "m0", since: "2026-03-01" }),
    ]);
    expect(state.retired).toEqual([]);
  });

  it("R8.3 moving back makes the old value current again and no longer retired", () => {
    const state = talk(["I live in Seoul.", "I moved to Busan.", "I moved back to Seoul."]);
    expect(current(state)).toEqual(["residence=Seoul"]);
    expect(retired(state)).toEqual(["residence=Busan"]);
  });
});

describe("R8.3 retraction cues retire a slot without a new value", () => {
  it("R8.3 the held-out probe (en): after leaving the clinic, the new job and employer are current, pharmacist and the clinic never", () => {
    const state = talk([
      "I'm a pharmacist.",
      "I work at a small clinic.",
      "Big news: I left the clinic last week.",
      "I'm now working as a data analyst for a health insurance company.",
    ]);
    expect(current(state)).toEqual(["job=data analyst", "workplace=health insurance company"]);
    expect(retired(state)).toEqual(["job=pharmacist", "workplace=small clinic"]);
    expect(state.retired.map((f) => f.retiredBy)).toEqual(["m2", "m2"]);
    for (const question of ["What do I do for work?", "Which company do I work for?"]) {
      const text = block(state, question);
      // Only as "earlier:", never as a current value.
      expect(text).not.toMatch(/occupation: pharmacist|works at small clinic/);
    }
  });

  it("R8.3 the probe in Korean: after 병원 그만뒀어요 the new job shows 약사 only as earlier", () => {
    const state = talk([
      "저는 약사예요.",
      "작은 병원에서 일해요.",
      "저 지난주에 병원 그만뒀어요.",
      "이제 보험회사에서 데이터 분석가로 일해요.",
    ]);
    expect(current(state)).toEqual(["job=데이터 분석가"]);
    const text = block(state, "제 직업이 뭐죠?");
    expect(text).toBe("사용자의 직업은 데이터 분석가다 (2026-03-04부터; 이전: 약사)");
    expect(block(state, "어느 병원에서 일하죠?")).not.toContain("병원에서 일한다");
  });

  const EN: readonly [string, readonly string[], string][] = [
    ["I'm a nurse. I work at a hospital.", ["job", "workplace"], "I quit my job."],
    ["I'm a nurse. I work at a hospital.", ["job", "workplace"], "I don't work there anymore."],
    ["I'm a nurse. I work at a hospital.", ["job", "workplace"], "I resigned last month."],
    ["I'm a nurse.", ["job"], "I'm not a nurse anymore."],
    ["I live in Boston.", ["residence"], "I moved out last week."],
    ["I live in Boston.", ["residence"], "I don't live there anymore."],
  ];
  it.each(EN)("R8.3 en: after %j, cue %j retires it", (before, slots, cue) => {
    const state = talk([before, cue]);
    expect(state.facts.filter((f) => slots.includes(f.id))).toEqual([]);
    expect(state.retired.map((f) => f.id).sort()).toEqual([...slots].sort());
  });

  const KO: readonly [string, readonly string[], string][] = [
    ["저는 간호사예요. 병원에서 일해요.", ["job", "workplace"], "회사 그만뒀어요."],
    ["저는 간호사예요. 병원에서 일해요.", ["job", "workplace"], "지난달에 퇴사했어요."],
    ["저는 간호사예요. 병원에서 일해요.", ["job", "workplace"], "그만뒀어요."],
    ["학교에서 일해요.", ["workplace"], "더 이상 학교 안 다녀요."],
    ["저는 간호사예요. 병원에서 일해요.", ["job", "workplace"], "더 이상 회사 일 안 해요."],
    ["대구에 살아요.", ["residence"], "지난주에 이사 갔어요."],
    ["대구에 살아요.", ["residence"], "이제 대구에 안 살아요."],
  ];
  it.each(KO)("R8.3 ko: after %j, cue %j retires it", (before, slots, cue) => {
    const state = talk([before, cue]);
    expect(state.facts.filter((f) => slots.includes(f.id))).toEqual([]);
    expect(state.retired.map((f) => f.id).sort()).toEqual([...slots].sort());
  });

  const NOT_CUES: readonly [string, string][] = [
    ["I work at a small clinic. I live in Boston.", "I left the office early today."],
    ["I work at a small clinic. I live in Boston.", "My friend quit his job and moved out."],
    ["I work at a small clinic. I live in Boston.", "I left the small town where I grew up."],
    ["병원에서 일해요. 대구에 살아요.", "담배 그만뒀어요."],
    ["병원에서 일해요. 대구에 살아요.", "친구가 이사 갔어요."],
    ["병원에서 일해요. 대구에 살아요.", "더 이상 운동 안 해요."],
  ];
  it.each(NOT_CUES)("R8.3 after %j, %j retires nothing", (before, other) => {
    const state = talk([before, other]);
    expect(state.retired).toEqual([]);
    expect(state.facts.length).toBe(talk([before]).facts.length);
  });
});

describe("R8.3 the facts block: one current value per slot, with dates and earlier values", () => {
  it("R8.3 says when each fact was stated and what it replaced (en and ko), in the block layout", () => {
    const en = talk(["I live in Seoul.", "I moved to Busan."]);
    expect(listBlock(FACTS_HEADER, factLines(en.facts, en.retired))).toBe(
      "[기억된 사실]\n- The user lives in Busan (since 2026-03-02; earlier: Seoul)",
    );
    const ko = talk(["서울에 살아요", "부산으로 이사 갔어요"]);
    expect(listBlock(FACTS_HEADER, factLines(ko.facts, ko.retired))).toBe(
      "[기억된 사실]\n- 사용자는 부산에 산다 (2026-03-02부터; 이전: 서울)",
    );
  });

  it("R8.3 facts stored without a date (version 1) show no date", () => {
    const old = parseFactState({
      version: 1,
      facts: [
        { id: "residence", category: "residence", text: "The user lives in Seoul" },
        {
          id: "residence",
          category: "residence",
          text: "The user lives in Seoul",
          value: "Seoul",
          lang: "en",
          source: "I live in Seoul",
        },
      ],
    });
    expect(factLines(old.facts, old.retired)).toEqual(["The user lives in Seoul"]);
  });

  it("R8.3 two current facts of one slot in a hand-written row: only the newer is shown", () => {
    const fact = (value: string, since: string): Fact => ({
      id: "job",
      category: "job",
      text: `The user's occupation: ${value}`,
      value,
      lang: "en",
      source: "",
      since,
    });
    const lines = factLines([fact("pharmacist", "2026-01-01"), fact("analyst", "2026-02-01")], []);
    expect(lines).toEqual(["The user's occupation: analyst (since 2026-02-01)"]);
  });

  const POOL = [
    "I live in Seoul.",
    "I moved to Busan.",
    "I moved out last week.",
    "I'm a pharmacist.",
    "I'm a teacher.",
    "I work at a small clinic.",
    "I quit my job.",
    "My name is Mina.",
    "Call me Jun.",
    "서울에 살아요",
    "부산으로 이사 갔어요",
    "저는 약사예요.",
    "퇴사했어요",
    "작은 병원에서 일해요.",
    "I'm allergic to peanuts.",
    "Nice weather today.",
  ];
  it("R8.3 never two current values for a single-valued slot, never a retired value as current (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...POOL), { maxLength: 25 }), (dialogue) => {
        const state = talk(dialogue);
        const ids = state.facts.map((f) => f.id);
        expect(new Set(ids).size).toBe(ids.length);
        const singles = state.facts.filter((f) => SINGLE_VALUED.has(f.category));
        for (const old of state.retired) {
          expect(singles.some((f) => f.id === old.id && f.value === old.value)).toBe(false);
        }
        const lines = factLines(state.facts, state.retired);
        expect(lines.length).toBe(state.facts.length);
        for (const fact of singles) {
          expect(lines.filter((line) => line.startsWith(fact.text)).length).toBe(1);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("R8.3 storage: version 2, version 1 rows still read, the retired list bounded", () => {
  it("R8.3 round-trips provenance and retired facts through JSON (version 2)", () => {
    const state = talk(["I live in Seoul.", "I moved to Busan."]);
    const json = JSON.parse(JSON.stringify(factsToJson(state.facts, state.retired)));
    expect(json.version).toBe(2);
    expect(parseFactState(json)).toEqual(state);
  });

  it("R8.3 a version 1 row reads as facts without provenance and is updated as version 2", () => {
    const v1 = {
      version: 1,
      facts: [
        {
          id: "residence",
          category: "residence",
          text: "The user lives in Seoul",
          value: "Seoul",
          lang: "en",
          source: "I live in Seoul",
          turn: 1,
        },
      ],
    };
    const read = parseFactState(v1);
    expect(read).toEqual({ facts: [v1.facts[0]], retired: [] });
    const next = talk(["I moved to Busan."], read);
    expect(current(next)).toEqual(["residence=Busan"]);
    expect(next.retired).toEqual([{ ...v1.facts[0], retiredAt: "2026-03-01", retiredBy: "m0" }]);
    expect(factsToJson(next.facts, next.retired)).toMatchObject({ version: 2 });
  });

  it("R8.3 malformed retired entries are skipped; the current facts still read", () => {
    const good = talk(["I live in Seoul.", "I moved to Busan."]);
    const json = JSON.parse(JSON.stringify(factsToJson(good.facts, good.retired)));
    json.retired.push(null, 7, { ...json.retired[0], retiredAt: "yesterday" }, { id: "x" });
    json.retired.push({ ...json.retired[0], since: 5, retiredBy: 9, position: -1 });
    const read = parseFactState(json);
    expect(read.facts).toEqual(good.facts);
    expect(read.retired.length).toBe(2);
    expect(read.retired[1]).not.toHaveProperty("since");
    expect(parseFactState({ version: 2, facts: [], retired: "no" })).toEqual(EMPTY_FACT_STATE);
  });

  it("R8.3 the retired list is bounded: the row stays flat however often a slot changes", () => {
    const cities = Array.from({ length: 60 }, (_, i) => `I moved to City${i}.`);
    const jobs = Array.from({ length: 60 }, (_, i) => `I'm a job${i}er.`);
    const short = talk(cities.slice(0, 10));
    const long = talk([...cities, ...jobs, ...cities]);
    expect(long.retired.filter((f) => f.id === "residence").length).toBe(MAX_RETIRED_PER_SLOT);
    expect(long.retired.length).toBeLessThanOrEqual(MAX_RETIRED);
    // The newest retired value is the one shown as earlier.
    expect(factLines(long.facts, long.retired).join("\n")).toContain("earlier: City58");
    const size = (s: FactState) => JSON.stringify(factsToJson(s.facts, s.retired)).length;
    expect(size(long)).toBeLessThan(size(short) * 3);
  });

  it("R8.3 a messageId too long to store is left out; the fact is still stored with its date", () => {
    const text = "I live in Seoul.";
    const state = reviseFacts(
      EMPTY_FACT_STATE,
      text,
      { messageId: "x".repeat(500), position: -3, date: "2026-03-01T10:00:00Z" },
      (current) => updateFacts(current, text, { max: UNCAPPED }),
    );
    expect(state.facts).toEqual([expect.objectContaining({ value: "Seoul", since: "2026-03-01" })]);
    expect(state.facts[0]).not.toHaveProperty("messageId");
    expect(state.facts[0]).not.toHaveProperty("position");
  });
});
