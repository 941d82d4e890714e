import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { inspectThread } from "../../../src/admin/inspect.ts";
import { type MemoryConfigPatch, resolveMemoryConfig } from "../../../src/memory/config.ts";

const config = (patch: MemoryConfigPatch = {}) => resolveMemoryConfig({ code: patch }).config;

function thread() {
  return [
    new SystemMessage({ content: "stored system text", id: "s0" }),
    new HumanMessage({ content: "weather in Seoul?", id: "h1" }),
    new AIMessage({
      content: "",
      id: "a1",
      tool_calls: [{ id: "c1", name: "weather", args: { city: "Seoul" }, type: "tool_call" }],
    }),
    new ToolMessage({ content: "sunny", tool_call_id: "c1", id: "t1" }),
    new AIMessage({ content: "It is sunny.", id: "a2" }),
    new ToolMessage({ content: "orphan", tool_call_id: "nobody", id: "t2" }),
    new HumanMessage({ content: "and tomorrow?", id: "h2" }),
    new AIMessage({ content: "Rain.", id: "a3" }),
  ];
}

describe("the inspector's view of a conversation", () => {
  it("R3.2 shows groups as the window sees them, which are in the window, and the R3.4 signals", () => {
    const view = inspectThread({
      contextId: "ctx",
      messages: thread(),
      memory: {},
      config: config({ window_size: 3 }),
      systemText: "You are helpful.",
    });
    expect(view.messages.map((m) => [m.id, m.type, m.conversation])).toEqual([
      ["s0", "system", false],
      ["h1", "human", true],
      ["a1", "ai", true],
      ["t1", "tool", true],
      ["a2", "ai", true],
      ["t2", "tool", true],
      ["h2", "human", true],
      ["a3", "ai", true],
    ]);
    expect(view.messages[2]?.tool_calls).toEqual([
      { id: "c1", name: "weather", args: { city: "Seoul" } },
    ]);
    expect(view.messages[3]?.tool_call_id).toBe("c1");
    expect(view.groups.map((g) => [g.kind, g.indexes, g.in_window])).toEqual([
      ["user", [1], false],
      ["tool_group", [2, 3], false],
      ["ai", [4], true],
      ["orphan_tool", [5], false],
      ["user", [6], true],
      ["ai", [7], true],
    ]);
    expect(view.window).toEqual({
      window_size: 3,
      max_history_tokens: null,
      kept_ids: ["a2", "h2", "a3"],
      dropped_groups: 2,
      malformed_groups: 1,
    });
    expect(view.signals).toEqual({ thread_msgs: 7, window: 3, sent_to_llm: 3, has_prior: true });
    expect(view.history_note).toBe(true);
    expect(view.system_prompt).not.toContain("stored system text");
    expect(view.hints.map((h) => h.id)).toEqual(["window_cut", "check_prompt"]);
    expect(view.hints[0]?.en).toContain("1 malformed tool group(s)");
    expect(view.hints_basis).toBe("now");
  });

  it("R7.4 R8.2 shows the summary and what it covers, the facts, and the recorded last turn", () => {
    const messages = thread();
    const view = inspectThread({
      contextId: "ctx",
      messages,
      memory: {
        summary: { text: "asked about the weather", covers: 4, covers_id: "t1", version: 1 },
        facts: { version: 1, facts: [{ id: "residence", text: "The user lives in Seoul" }, 42] },
        last_turn: {
          at: "2026-12-01T00:00:00.000Z",
          signals: { thread_msgs: 6, window: 20, sent_to_llm: 6, has_prior: false },
          sent_ids: ["h1", "a1", "t1", "a2", "h2"],
        },
      },
      config: config(),
      systemText: "You are helpful.",
    });
    expect(view.summary).toEqual({
      text: "asked about the weather",
      covers: 4,
      covers_id: "t1",
      effective_covers: 4,
      updated_at: null,
    });
    expect(view.facts).toEqual([{ id: "residence", text: "The user lives in Seoul" }]);
    expect(view.retired_facts).toEqual([]);
    // A summary part-way through a tool exchange longer than one job says how far it got.
    const partway = inspectThread({
      contextId: "ctx",
      messages: thread(),
      memory: { summary: { text: "asked", covers: 2, covers_id: "h1", partial: 1, version: 1 } },
      config: config(),
    });
    expect(partway.summary).toMatchObject({ covers: 2, effective_covers: 2, partial: 1 });
    expect(view.system_prompt).toContain("asked about the weather");
    expect(view.system_prompt).toContain("The user lives in Seoul");
    expect(view.last_turn?.signals.has_prior).toBe(false);
    // Hints follow the recorded last turn when there is one.
    expect(view.hints_basis).toBe("last_turn");
    expect(view.hints.map((h) => h.id)).toEqual(["check_context_id"]);
  });

  it("R3.5 says why no history note is added (history_aware off, no system text)", () => {
    const messages = [
      new HumanMessage({ content: "hi", id: "h1" }),
      new AIMessage({ content: "hello", id: "a1" }),
      new HumanMessage({ content: "again", id: "h2" }),
      new AIMessage({ content: "yes", id: "a2" }),
    ];
    const off = inspectThread({
      contextId: "c",
      messages,
      memory: {},
      config: config({ history_aware: false }),
      systemText: "Classify.",
    });
    expect(off.history_note).toBe(false);
    expect(off.hints.find((h) => h.id === "check_prompt")?.en).toContain("history_aware is false");
    const noSystem = inspectThread({ contextId: "c", messages, memory: {}, config: config() });
    expect(noSystem.hints.find((h) => h.id === "check_prompt")?.ko).toContain(
      "system 지시문이 없어",
    );
    const first = inspectThread({
      contextId: "c",
      messages: messages.slice(0, 2),
      memory: { last_turn: "not a record" },
      config: config(),
    });
    expect(first.last_turn).toBeNull();
    expect(first.hints.map((h) => h.id)).toEqual(["check_context_id"]);
    expect(first.hints[0]?.ko).toContain("contextId");
  });
});

describe("R8.3 retired facts in the thread view", () => {
  it("R8.3 lists retired facts with when and by which message; the prompt preview shows only current ones", () => {
    const retired = {
      id: "residence",
      category: "residence",
      text: "The user lives in Seoul",
      value: "Seoul",
      lang: "en",
      source: "I live in Seoul",
      messageId: "m1",
      position: 0,
      since: "2026-03-01",
      retiredAt: "2026-03-09",
      retiredBy: "m7",
    };
    const view = inspectThread({
      contextId: "ctx",
      messages: thread(),
      memory: {
        facts: {
          version: 2,
          facts: [{ id: "residence", text: "The user lives in Busan", since: "2026-03-09" }],
          retired: [retired, null, 3, { id: "x" }],
        },
      },
      config: config(),
      systemText: "You are helpful.",
    });
    expect(view.facts).toEqual([
      { id: "residence", text: "The user lives in Busan", since: "2026-03-09" },
    ]);
    expect(view.retired_facts).toEqual([retired]);
    expect(view.system_prompt).toContain("The user lives in Busan");
    expect(view.system_prompt).not.toContain("Seoul");
  });

  it("R8.3 the prompt preview shows the facts as the model gets them: with the date and the earlier value", () => {
    const fact = {
      id: "residence",
      category: "residence",
      text: "The user lives in Busan",
      value: "Busan",
      lang: "en",
      source: "I moved to Busan",
      since: "2026-03-09",
    };
    const old = { ...fact, text: "The user lives in Seoul", value: "Seoul", since: "2026-03-01" };
    const view = inspectThread({
      contextId: "ctx",
      messages: thread(),
      memory: {
        facts: { version: 2, facts: [fact], retired: [{ ...old, retiredAt: "2026-03-09" }] },
      },
      config: config(),
      systemText: "You are helpful.",
    });
    expect(view.system_prompt).toContain(
      "[기억된 사실]\n- The user lives in Busan (since 2026-03-09; earlier: Seoul)",
    );
  });

  /** The heuristic read "My job is stressful." as a job; the facts job for m1 and m2 did not. */
  const heuristic = {
    id: "job",
    category: "job",
    text: "The user's occupation: stressful",
    value: "stressful",
    lang: "en",
    source: "My job is stressful.",
    messageId: "m2",
    position: 2,
    since: "2026-03-09",
  };
  const fromJob = {
    ...heuristic,
    text: "The user's occupation: pharmacist",
    value: "pharmacist",
    messageId: "m1",
    position: 0,
    since: "2026-03-01",
  };

  /** The thread view with the heuristic's row and a facts job's state (`retired` by the job). */
  const viewWith = (facts_mode: "llm" | "heuristic", retired: readonly unknown[] = []) =>
    inspectThread({
      contextId: "ctx",
      messages: thread(),
      memory: {
        facts: { version: 2, facts: [heuristic], retired: [] },
        facts_llm: {
          version: 2,
          facts: [fromJob],
          retired,
          applied: [
            { id: "m1", position: 0 },
            { id: "m2", position: 2 },
          ],
        },
      },
      config: config({ facts_mode }),
      systemText: "You are helpful.",
    });

  it("R8.1 in llm mode the preview serves the facts jobs' state, as a turn does", () => {
    const preview = (facts_mode: "llm" | "heuristic") => viewWith(facts_mode).system_prompt;
    expect(preview("llm")).toContain("- The user's occupation: pharmacist (since 2026-03-01)");
    expect(preview("llm")).not.toContain("stressful");
    expect(preview("heuristic")).toContain("stressful");
  });

  it("R8.1 R8.3 in llm mode the thread view's facts are the ones served, not the heuristic's row", () => {
    const nurse = { ...heuristic, text: "The user's occupation: nurse", value: "nurse" };
    const retired = [{ ...nurse, retiredAt: "2026-03-01", retiredBy: "m1" }];
    const llm = viewWith("llm", retired);
    expect(llm.facts?.map((f) => f.value)).toEqual(["pharmacist"]);
    expect(llm.retired_facts.map((f) => f.value)).toEqual(["nurse"]);
    const heuristicView = viewWith("heuristic", retired);
    expect(heuristicView.facts?.map((f) => f.value)).toEqual(["stressful"]);
    expect(heuristicView.retired_facts).toEqual([]);
  });
});
