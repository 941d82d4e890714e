/**
 * planTrim (memory/trim.ts): what a trimmed turn deletes of the checkpoint and of the
 * transcript before it.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { planTrim } from "../../../src/memory/trim.ts";

function turns(from: number, count: number): BaseMessage[] {
  return Array.from({ length: count }, (_, i) => [
    new HumanMessage({ content: `q${from + i}`, id: `u${from + i}` }),
    new AIMessage({ content: `a${from + i}`, id: `a${from + i}` }),
  ]).flat();
}

const prefix = (messages: number) => ({ messages, conversation: messages, ai: true });
const cache = (covers: number, id?: string) => ({
  text: "s",
  covers,
  ...(id === undefined ? {} : { covers_id: id }),
  updated_at: "",
  version: 1 as const,
});

describe("planTrim", () => {
  it("R4.2 without a transcript only the checkpoint is trimmed", () => {
    const plan = planTrim(turns(0, 5), 4);
    expect(plan.removed.map((m) => m.id)).toEqual(["u0", "a0", "u1", "a1", "u2", "a2"]);
    expect(plan.transcript).toBeUndefined();
    expect(plan.archived).toBeUndefined();
  });

  it("R4.2 a checkpoint holding N groups: the whole transcript goes and the count restarts", () => {
    const plan = planTrim(turns(20, 5), 4, prefix(40));
    expect(plan.removed).toHaveLength(6);
    expect(plan.transcript).toEqual({ all: true });
    expect(plan.archived).toEqual({ messages: 0, conversation: 0, ai: false });
  });

  it("R4.2 fewer groups in the checkpoint: the transcript keeps the rest of N", () => {
    const plan = planTrim(turns(20, 5), 14, prefix(40));
    expect(plan.removed).toEqual([]);
    expect(plan.transcript).toEqual({ all: false, before: 40, keepGroups: 4, archived: 40 });
    expect(plan.archived).toBeUndefined();
  });

  it("R7 a summary reaching into the transcript keeps every checkpoint message and bounds the transcript's cut", () => {
    // covers 30 is a transcript position; its message is not in the checkpoint.
    const plan = planTrim(turns(20, 5), 2, prefix(40), cache(30, "a14"));
    expect(plan.removed).toEqual([]);
    expect(plan.transcript).toEqual({ all: false, before: 30, keepGroups: 0, archived: 40 });
  });

  it("R7 a summary reaching into the checkpoint: covered messages go there, all of the transcript", () => {
    const plan = planTrim(turns(20, 5), 2, prefix(40), cache(44, "a21"));
    expect(plan.removed.map((m) => m.id)).toEqual(["u20", "a20", "u21", "a21"]);
    expect(plan.transcript).toEqual({ all: true });
  });

  it("R7 summaries on and none made yet: nothing is deleted", () => {
    const plan = planTrim(turns(20, 5), 2, prefix(40), null);
    expect(plan.removed).toEqual([]);
    expect(plan.transcript).toEqual({ all: false, before: 0, keepGroups: 0, archived: 40 });
  });
});
