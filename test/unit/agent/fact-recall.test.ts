/** The turn's facts step (R8.2, R8.3): provenance of the user message, retired facts, the block. */
import { describe, expect, it } from "vitest";
import { createFactRecallStep } from "../../../src/agent/turn/fact-recall.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { FACTS_MEMORY_KEY, parseFactState } from "../../../src/memory/facts/index.ts";
import { withoutFactSources } from "../../../src/memory/prompt-recall.ts";
import type { JsonValue } from "../../../src/store/persistent-memory.ts";

/** A thread's facts row across turns, as the saver would keep it. */
function thread(facts_mode: "heuristic" | "off" = "heuristic") {
  const rows: Record<string, JsonValue> = {};
  const staged: JsonValue[] = [];
  const step = (day: number) =>
    createFactRecallStep({
      config: resolveMemoryConfig({ code: { facts_mode } }).config,
      memory: () => ({ thread: rows, agent: {} }),
      stage: (key, value) => {
        rows[key] = value;
        staged.push(value);
      },
      now: () => new Date(Date.UTC(2026, 4, day, 12)),
    });
  return { rows, staged, step };
}

describe("R8.3 the facts step of a turn", () => {
  it("R8.3 stores the user message's id, position and date with the fact; a new value retires the old one", async () => {
    const t = thread();
    await t.step(1).update("I live in Seoul.", { messageId: "msg-a", position: 0 });
    const second = t.step(9);
    await second.update("I moved to Busan.", { messageId: "msg-b", position: 4 });
    const state = parseFactState(t.rows[FACTS_MEMORY_KEY]);
    expect(state.facts).toEqual([
      expect.objectContaining({
        value: "Busan",
        messageId: "msg-b",
        position: 4,
        since: "2026-05-09",
      }),
    ]);
    expect(state.retired).toEqual([
      expect.objectContaining({
        value: "Seoul",
        messageId: "msg-a",
        retiredAt: "2026-05-09",
        retiredBy: "msg-b",
      }),
    ]);
    expect(second.recall("Where do I live?")).toEqual([
      "The user lives in Busan (since 2026-05-09; earlier: Seoul)",
    ]);
  });

  it("R8.3 a version 1 row is read and not rewritten when the message changes nothing", async () => {
    const t = thread();
    t.rows[FACTS_MEMORY_KEY] = {
      version: 1,
      facts: [
        {
          id: "residence",
          category: "residence",
          text: "The user lives in Seoul",
          value: "Seoul",
          lang: "en",
          source: "I live in Seoul",
        },
      ],
    };
    const step = t.step(2);
    await step.update("Nice weather today.", { messageId: "m", position: 2 });
    expect(t.staged).toEqual([]);
    expect(step.recall("Where do I live?")).toEqual(["The user lives in Seoul"]);
    await step.update("I moved out last week.", { messageId: "m2", position: 4 });
    expect(t.rows[FACTS_MEMORY_KEY]).toMatchObject({
      version: 2,
      facts: [],
      retired: [{ value: "Seoul", retiredBy: "m2" }],
    });
    expect(step.recall("Where do I live?")).toEqual([]);
  });

  it("R8.3 a malformed facts row never breaks the turn", async () => {
    const t = thread();
    t.rows[FACTS_MEMORY_KEY] = { version: 2, facts: [{ id: 1 }], retired: [null, "x"] };
    const step = t.step(3);
    await expect(
      step.update("I live in Seoul.", { messageId: "m", position: 0 }),
    ).resolves.toHaveLength(1);
  });
});

describe("R8.2 facts and conversation recall fuse into one block of evidence", () => {
  it("R8.2 the step names the messages its shown facts came from; recall does not quote them again", async () => {
    const t = thread();
    const step = t.step(1);
    await step.update("I dislike mushrooms, the texture just gets me.", {
      messageId: "m0",
      position: 0,
    });
    await step.update("I live in Denver.", { messageId: "m1", position: 2 });
    const shown = step.shown("Which ingredient should you keep out of my meals?");
    expect(shown.lines).toEqual(["The user dislikes mushrooms (since 2026-05-01)"]);
    expect([...shown.sources]).toEqual([0]);
    const recalled = [
      { seq: 0, role: "user" as const, text: "I dislike mushrooms, the texture just gets me." },
      { seq: 1, role: "assistant" as const, text: "Noted: no mushrooms." },
      { seq: 2, role: "user" as const, text: "I live in Denver." },
    ];
    expect(withoutFactSources(recalled, shown.sources).map((item) => item.seq)).toEqual([1, 2]);
    expect(withoutFactSources(recalled, new Set())).toEqual(recalled);
  });
});
