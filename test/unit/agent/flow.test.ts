/**
 * defineFlow: a flow's definition is checked when it is defined; its turns
 * run the steps with the position kept in graph state (the `flow` channel), answers checked
 * by zod, `inputRequired` between steps, and the window never consulted for the answers.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlow, isFlowAgent } from "../../../src/agent/flow.ts";
import { runTurn, type TurnDeps } from "../../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { InMemorySaver } from "../../../src/store/memory-saver.ts";

const flow = defineFlow({
  name: "order",
  description: "for tests",
  system: "Order desk.",
  steps: [
    { id: "item", ask: "What would you like?", answer: z.string().min(1) },
    {
      id: "count",
      ask: (a) => `How many ${String(a.item)}?`,
      answer: z.coerce.number().int().positive(),
      invalid: "A whole number, please.",
      next: (a) => (Number(a.count) > 10 ? "approval" : undefined),
    },
    { id: "approval", ask: "That is many. Who approves?", answer: z.string().min(2) },
  ],
  restart: ["reset"],
  finish: ({ answers }) => {
    // Typed from the steps: count is a number.
    const count: number = answers.count;
    // @ts-expect-error — "nope" is not a step of this flow
    void answers.nope;
    return `ordered ${count} × ${answers.item}${answers.approval ? ` (by ${answers.approval})` : ""}`;
  },
  done: async ({ answers, chat }) =>
    `still: ${answers.item} | ${(await chat("Be brief.")).split("\n")[0]}`,
});

function setup(config = resolveMemoryConfig({ code: { window_size: 4 } }).config) {
  const saver = new InMemorySaver({ agentId: "order" });
  const model = new OfflineChatModel();
  const deps: TurnDeps = { agent: flow, config, model, checkpointer: saver };
  let n = 0;
  const say = (text: string, threadId = "t") => {
    n += 1;
    return runTurn(deps, { threadId, text, messageId: `m-${n}` });
  };
  return { saver, say, deps, model };
}

describe("defineFlow", () => {
  it("is an agent definition with its flow", () => {
    expect(isFlowAgent(flow)).toBe(true);
    expect(flow.name).toBe("order");
    expect(flow.flow.steps.map((s) => s.id)).toEqual(["item", "count", "approval"]);
  });

  it("refuses a bad definition with what to fix", () => {
    const base = { name: "x", description: "d", finish: () => "ok" };
    expect(() => defineFlow({ ...base, steps: [] })).toThrow(/steps.*at least one step/);
    expect(() =>
      defineFlow({
        ...base,
        steps: [
          { id: "a", ask: "A?", answer: z.string() },
          { id: "a", ask: "B?", answer: z.string() },
        ],
      }),
    ).toThrow(/two steps are named "a"/);
    expect(() =>
      defineFlow({ ...base, steps: [{ id: "a b", ask: "A?", answer: z.string() }] }),
    ).toThrow(/steps\[0\]\.id.*a letter/);
    expect(() =>
      defineFlow({
        ...base,
        steps: [{ id: "a", ask: "A?", answer: "text" as unknown as z.ZodString }],
      }),
    ).toThrow(/answer must be a zod schema/);
    expect(() =>
      defineFlow({ ...base, steps: [{ id: "a", ask: "  ", answer: z.string() }] }),
    ).toThrow(/question must not be empty/);
    expect(() =>
      defineFlow({ ...base, name: " ", steps: [{ id: "a", ask: "A?", answer: z.string() }] }),
    ).toThrow(/invalid agent definition — name/);
  });

  it("asks step by step, checks answers, branches, and is input-required until the final step", async () => {
    const { say } = setup();
    const first = await say("hi");
    expect(first.reply).toBe("What would you like?");
    expect(first.inputRequired).toBe(true);
    expect((await say("tea")).reply).toBe("How many tea?");
    const bad = await say("lots");
    expect(bad.reply).toBe("A whole number, please.\nHow many tea?");
    expect(bad.inputRequired).toBe(true);
    expect((await say("12")).reply).toBe("That is many. Who approves?");
    const done = await say("Kim");
    expect(done.reply).toBe("ordered 12 × tea (by Kim)");
    expect(done.inputRequired).toBe(false);
    expect(done.signals).toBeUndefined(); // no model call in a plain step
  });

  it("keeps the answers in graph state, far beyond the window", async () => {
    const { say } = setup();
    for (const text of ["hi", "coffee", "2"]) await say(text);
    // window_size 4: after these turns the intake is long out of the window.
    for (let i = 0; i < 10; i += 1) {
      const later = await say(`question ${i}`);
      expect(later.reply.startsWith("still: coffee | offline-model:")).toBe(true);
      expect(later.inputRequired).toBe(false);
      expect(later.signals?.window).toBe(4); // done's chat() used the memory window
    }
    const restart = await say("Reset!");
    expect(restart.reply).toBe("What would you like?");
    expect((await say("juice")).reply).toBe("How many juice?");
  });

  it("done's chat() gets the memory prompt: the window, the summary slot and recalled facts", async () => {
    const config = resolveMemoryConfig({
      code: { window_size: 4, facts_mode: "heuristic" },
    }).config;
    const { say } = setup(config);
    for (const text of ["hi", "coffee", "2"]) await say(text);
    await say("my name is Mina and I live in Busan");
    const later = await say("what is my name?");
    const system = String(later.lastPrompt?.messages[0]?.content);
    expect(system).toContain("Order desk.");
    expect(system).toContain("Be brief."); // chat()'s instructions follow the system text
    expect(system).toMatch(/Mina/); // the recalled fact
  });

  it("a retried messageId is answered once; threads are separate", async () => {
    const { deps } = setup();
    const one = await runTurn(deps, { threadId: "a", text: "hi", messageId: "x" });
    const again = await runTurn(deps, { threadId: "a", text: "hi", messageId: "x" });
    expect(again.replayed).toBe(true);
    expect(again.reply).toBe(one.reply);
    expect((await runTurn(deps, { threadId: "a", text: "tea", messageId: "y" })).reply).toBe(
      "How many tea?",
    );
    expect((await runTurn(deps, { threadId: "b", text: "tea", messageId: "y" })).reply).toBe(
      "What would you like?",
    );
  });

  it("an answer schema that gives a non-JSON value fails the turn with what to change, storing nothing", async () => {
    const dated = defineFlow({
      name: "dated",
      description: "for tests",
      steps: [{ id: "when", ask: "When?", answer: z.coerce.date() }],
      finish: () => "ok",
    });
    const { deps, saver } = setup();
    const d = { ...deps, agent: dated };
    await runTurn(d, { threadId: "d", text: "hi" });
    await expect(runTurn(d, { threadId: "d", text: "2026-12-03" })).rejects.toThrow(
      /step "when": its answer schema gave a value that is not JSON/,
    );
    const stored = await saver.getTuple({ configurable: { thread_id: "d" } });
    expect(stored?.checkpoint.channel_values.flow).toEqual({ awaiting: "when", answers: {} });
  });

  it("without memory (off) every request starts the flow over", async () => {
    const { deps } = setup();
    const off = { ...deps, checkpointer: undefined };
    await runTurn(off, { threadId: "t", text: "hi" });
    const second = await runTurn(off, { threadId: "t", text: "tea" });
    expect(second.reply).toBe("What would you like?");
  });
});
