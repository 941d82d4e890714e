/**
 * The size of a `metadata.history` is checked before any item is — too many items
 * or parts reject the request (INPUT_INVALID) — so the seed report, which goes back to the
 * client and into the stored A2A task, stays small whatever the items hold.
 */
import { describe, expect, it } from "vitest";
import { isLlamonError } from "../../../src/errors.ts";
import { MEMORY_CONFIG_MAX } from "../../../src/memory/config.ts";
import {
  parseHistorySeed,
  SEED_MAX_ITEMS,
  SEED_MAX_PARTS,
  seedInputProblem,
} from "../../../src/memory/seed.ts";

const seed = (history: unknown, maxMessages = 50) => parseHistorySeed(history, { maxMessages });

function inputInvalid(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isLlamonError(error, "INPUT_INVALID"), String(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected INPUT_INVALID");
}

/** UTF-8 bytes of a value as JSON (what the task store measures). */
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("seed size caps, before any item is examined", () => {
  it("the item cap is the largest a2a_history_max_messages", () => {
    expect(SEED_MAX_ITEMS).toBe(MEMORY_CONFIG_MAX.a2a_history_max_messages);
    expect(SEED_MAX_ITEMS).toBe(1000);
    expect(SEED_MAX_PARTS).toBe(1000);
  });

  it("10k invalid items reject the request, naming the cap", () => {
    const history = Array.from({ length: 10_000 }, () => ({ role: "system", text: "x" }));
    expect(seedInputProblem(history)).toBe(
      "params.metadata.history has 10000 items; at most 1000 are accepted (send the newest)",
    );
    expect(inputInvalid(() => seed(history))).toContain("has 10000 items; at most 1000");
    // Getters are never run: only the length is read before the cap.
    const trap = new Array(SEED_MAX_ITEMS + 1).fill(null);
    Object.defineProperty(trap, 0, {
      get() {
        throw new Error("item examined");
      },
    });
    expect(inputInvalid(() => seed(trap))).toContain("at most 1000");
  });

  it("more parts than the cap, over all items, reject the request", () => {
    const parts = (n: number): Record<string, unknown>[] =>
      Array.from({ length: n }, () => ({ kind: "data", data: {} }));
    const history = [
      { role: "user", parts: parts(600) },
      { role: "agent", parts: parts(401) },
    ];
    expect(inputInvalid(() => seed(history))).toBe(
      "params.metadata.history has 1001 parts in all; at most 1000 are accepted",
    );
    history[1] = { role: "agent", parts: [...parts(399), { kind: "text", text: "ok" }] };
    expect(seed(history).report.accepted).toBe(1);
  });

  it("the cap itself is accepted, and every item is still reported", () => {
    const history = Array.from({ length: SEED_MAX_ITEMS }, (_, i) =>
      i % 2 === 0 ? { role: "tool", text: "x" } : { role: "user", text: `m${i}` },
    );
    const { report } = seed(history, MEMORY_CONFIG_MAX.a2a_history_max_messages);
    expect(report.dropped).toHaveLength(500);
    expect(report.accepted).toBe(500);
  });

  it("quoted keys and values are cut, and a part list is summarised", () => {
    const long = "k".repeat(100_000);
    const { report } = seed([
      { role: "user", text: "x", [long]: 1 },
      { role: "user", parts: [{ kind: "text", text: "y", [long]: 1 }] },
      { role: long, text: "x" },
      { role: "user", parts: Array.from({ length: 500 }, () => ({ kind: "file", file: {} })) },
    ]);
    for (const entry of report.dropped) expect(entry.reason.length).toBeLessThan(200);
    expect(report.dropped[0]?.reason).toMatch(/^unexpected field "k{32}…": only text messages/);
    expect(report.dropped[1]?.reason).toMatch(/unexpected key "k{32}…"/);
    expect(report.dropped[3]?.reason).toBe(
      'no text part (part 0: non-text part (kind "file"); part 1: non-text part (kind "file"); part 2: non-text part (kind "file"); and 497 more)',
    );
  });

  it("the worst report a request can cause stays far below the task store's 1 MiB", () => {
    // Every reason as long as it gets, with the quoted text as costly as JSON makes it.
    for (const nasty of ["\u0001", "한", '"', "\\", "\ud800", "😀"].map((c) => c.repeat(40))) {
      const history: unknown[] = Array.from({ length: SEED_MAX_ITEMS - 1 }, () => ({
        role: nasty,
        text: "x",
      }));
      history.push({
        role: "user",
        parts: [
          { kind: "text", text: "kept" },
          ...Array.from({ length: SEED_MAX_PARTS - 1 }, () => ({ kind: nasty })),
        ],
      });
      const { report } = seed(history, MEMORY_CONFIG_MAX.a2a_history_max_messages);
      expect(report.dropped).toHaveLength(SEED_MAX_ITEMS - 1);
      expect(report.partsDropped).toHaveLength(SEED_MAX_PARTS - 1);
      expect(jsonBytes(report)).toBeLessThan(384 * 1024);
    }
  });
});
