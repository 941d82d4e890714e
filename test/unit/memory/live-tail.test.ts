import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  extendPrefix,
  liveTailStart,
  MAX_MOVED_PER_TURN,
  TAIL_MARGIN,
} from "../../../src/memory/live-tail.ts";
import { calls, result } from "./histories.ts";

const chat = (turns: number) =>
  Array.from({ length: turns }, (_, i) => [
    new HumanMessage(`q${i}`),
    new AIMessage(`a${i}`),
  ]).flat();

describe("live tail", () => {
  it("R3.2 keeps window_size + margin messages in whole groups, never splitting a tool exchange", () => {
    const thread = [
      ...chat(20),
      new HumanMessage("q"),
      calls(["x", "y"]),
      result("y"),
      result("x"),
    ];
    const start = liveTailStart(thread, { window_size: 6 });
    // Whole groups only: the tail never starts inside a tool exchange.
    expect(thread.length - start).toBeLessThanOrEqual(6 + TAIL_MARGIN);
    expect(thread[start]?.getType()).not.toBe("tool");
    expect(liveTailStart(chat(3), { window_size: 6 })).toBe(0);
  });

  it("a thread stored before the live tail moves at most MAX_MOVED_PER_TURN messages per turn", () => {
    const thread = chat(5_000);
    const start = liveTailStart(thread, { window_size: 20 });
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThanOrEqual(MAX_MOVED_PER_TURN);
    expect(thread[start]?.getType()).toBe("human");
  });

  it("the archived prefix counts messages, conversation messages and an earlier answer", () => {
    const prefix = extendPrefix({ messages: 2, conversation: 2, ai: false }, [
      new HumanMessage("a"),
      new AIMessage("b"),
    ]);
    expect(prefix).toEqual({ messages: 4, conversation: 4, ai: true });
  });
});
