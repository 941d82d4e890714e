import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupMessages, trimToLastGroups } from "../../../src/memory/groups.ts";
import { estimateTokens } from "../../../src/memory/tokens.ts";
import { selectWindow } from "../../../src/memory/window.ts";
import {
  ai,
  assertToolPairing,
  calls,
  expectedGroups,
  historyArb,
  human,
  result,
  suffixStart,
  system,
} from "./histories.ts";

/** A conversation of `turns` user/assistant pairs. */
function chat(turns: number): BaseMessage[] {
  return Array.from({ length: turns }, (_, i) => [human(`q${i}`), ai(`a${i}`)]).flat();
}

const texts = (messages: readonly BaseMessage[]) => messages.map((message) => message.content);

describe("window: rules table of the product document", () => {
  it("R3.1 sends only the last window_size messages of a long thread", () => {
    const thread = [...chat(15), human("now")];
    const window = selectWindow(thread, { window_size: 20 });
    expect(window.messages).toHaveLength(20);
    expect(window.messages).toEqual(thread.slice(-20));
    expect(window.threadMessages).toBe(31);
    expect(window.dropped.flatMap((group) => group.messages)).toEqual(thread.slice(0, 11));
  });

  it("R3.2 keeps the latest user turn even when it alone exceeds window_size", () => {
    const turn = [human("do it"), calls(["a", "b"]), result("b"), result("a"), ai("done")];
    const window = selectWindow([...chat(3), ...turn], { window_size: 2 });
    expect(window.messages).toEqual(turn);
  });

  it("R3.2 keeps AIMessage(tool_calls) with its ToolMessages", () => {
    const group = [calls(["a", "b", "c"]), result("c"), result("a"), result("b")];
    const thread = [human("q0"), ...group, ai("a0"), human("q1")];
    expect(texts(selectWindow(thread, { window_size: 3 }).messages)).toEqual(["a0", "q1"]);
    expect(selectWindow(thread, { window_size: 6 }).messages).toEqual(thread.slice(1));
    expect(selectWindow(thread, { window_size: 6 }).groups.map((g) => g.kind)).toEqual([
      "tool_group",
      "ai",
      "user",
    ]);
  });

  it("R3.2 drops the oldest groups first and keeps the rest contiguous", () => {
    const thread = [human("q0"), ai("a0"), human("q1"), calls(["x"]), result("x"), ai("a1")];
    const window = selectWindow([...thread, human("q2")], { window_size: 4 });
    // q2 (1) + a1 (2) + tool group (4); q1 would make 5: stop, even though it is small.
    expect(window.messages).toEqual([thread[3], thread[4], thread[5], expect.anything()]);
    expect(window.dropped.map((group) => group.start)).toEqual([0, 1, 2]);
  });

  it("R3.2 the count may differ from window_size (a group never cut)", () => {
    const thread = [
      human("q0"),
      calls(["x", "y"]),
      result("x"),
      result("y"),
      ai("a0"),
      human("q1"),
    ];
    const window = selectWindow(thread, { window_size: 4 });
    expect(texts(window.messages)).toEqual(["a0", "q1"]);
    expect(window.messages.length).toBeLessThan(4);
  });

  it("R3.2 leaves system messages out (the system prompt is rebuilt each call)", () => {
    const thread = [system("old prompt"), human("q0"), calls(["x"]), system("note"), result("x")];
    const window = selectWindow([...thread, ai("a0"), human("q1")], { window_size: 20 });
    expect(window.messages.some((message) => message.getType() === "system")).toBe(false);
    expect(window.messages).toHaveLength(5);
    assertToolPairing(window.messages);
  });

  it("R3.3 MAX_HISTORY_TOKENS caps by tokens with the same group boundaries", () => {
    const group = [calls(["a"]), result("a")];
    const thread = [human("q0"), ai("a0"), human("q1"), ...group, ai("a1"), human("q2")];
    const countTokens = () => 10;
    const byTokens = selectWindow(thread, {
      window_size: 100,
      max_history_tokens: 35,
      countTokens,
    });
    expect(texts(byTokens.messages)).toEqual(["a1", "q2"]);
    const more = selectWindow(thread, { window_size: 100, max_history_tokens: 40, countTokens });
    expect(more.messages).toEqual([...group, thread[5], thread[6]]);
    const both = selectWindow(thread, { window_size: 3, max_history_tokens: 1000, countTokens });
    expect(texts(both.messages)).toEqual(["a1", "q2"]);
  });

  it("R3.3 keeps the latest user turn even above the token cap", () => {
    const thread = [human("q0"), ai("a0"), human("x".repeat(4000))];
    const window = selectWindow(thread, { window_size: 20, max_history_tokens: 10 });
    expect(window.messages).toEqual([thread[2]]);
  });

  it("R3.1 windowing does not change the stored thread", () => {
    const thread = [human("q0"), calls(["a"]), result("a"), ai("a0"), system("s"), human("q1")];
    const before = JSON.stringify(thread);
    const refs = [...thread];
    selectWindow(Object.freeze(thread), { window_size: 1, max_history_tokens: 5 });
    expect(thread).toEqual(refs);
    for (const [i, message] of thread.entries()) expect(message).toBe(refs[i]);
    expect(JSON.stringify(thread)).toBe(before);
  });

  it("R3.2 never sends an orphan tool result or unanswered tool calls", () => {
    const thread = [
      result("ghost"),
      human("q0"),
      calls(["a", "b"]),
      result("a"),
      human("q1"),
      calls(["c"]),
      result("c"),
      result("c"),
      ai("a1"),
      human("q2"),
      calls(["d"]),
    ];
    const window = selectWindow(thread, { window_size: 50 });
    assertToolPairing(window.messages);
    expect(window.malformed.map((group) => group.kind)).toEqual([
      "orphan_tool",
      "unanswered_tool_calls",
      "orphan_tool",
      "unanswered_tool_calls",
    ]);
    expect(texts(window.messages)).toEqual(["q0", "q1", "", "result of c", "a1", "q2"]);
  });

  it("R3.2 tool calls without ids or with a repeated id are unanswered; their results orphans", () => {
    const noIds = [human("q"), calls([""]), result("")];
    expect(groupMessages(noIds).map((group) => group.kind)).toEqual([
      "user",
      "unanswered_tool_calls",
      "orphan_tool",
    ]);
    const repeated = [human("q"), calls(["a", "a"]), result("a"), result("a"), ai("ok")];
    expect(groupMessages(repeated).map((group) => group.kind)).toEqual([
      "user",
      "unanswered_tool_calls",
      "orphan_tool",
      "ai",
    ]);
    expect(selectWindow(repeated, { window_size: 10 }).messages).toEqual([
      repeated[0],
      repeated[4],
    ]);
  });
});

describe("estimateTokens", () => {
  it("R3.3 counts ~4 ASCII characters or ~1.5 Hangul syllables per token, plus framing", () => {
    expect(estimateTokens(human(""))).toBe(4);
    expect(estimateTokens(human("a".repeat(400)))).toBe(104);
    expect(estimateTokens(human("가".repeat(300)))).toBe(204);
    const blocks = [
      { type: "text", text: "a".repeat(40) },
      { type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(9000)}` } },
    ];
    expect(estimateTokens(new HumanMessage({ content: blocks.slice(0, 1) }))).toBe(14);
    expect(estimateTokens(new HumanMessage({ content: blocks }))).toBe(14 + 256);
  });

  it("R3.3 includes tool call names and arguments and tool_call_id", () => {
    const small = calls(["a"]);
    const big = calls(["a"]);
    big.tool_calls = [{ id: "a", name: "lookup", args: { q: "x".repeat(400) }, type: "tool_call" }];
    expect(estimateTokens(big) - estimateTokens(small)).toBeGreaterThan(90);
    expect(estimateTokens(result("a".repeat(40), ""))).toBe(14);
  });
});

const windowOptions = fc.record({
  window_size: fc.integer({ min: 1, max: 25 }),
  max_history_tokens: fc.option(
    fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 3000 })),
    { nil: undefined },
  ),
});

/** Threads with and without malformed tool exchanges. */
const histories = fc.oneof(historyArb(), historyArb({ malformed: false }));

describe("window properties (fast-check)", () => {
  it("R3.2 output is provider-valid: no orphan ToolMessage, no unanswered tool_call, no system", () => {
    fc.assert(
      fc.property(histories, windowOptions, (history, options) => {
        const window = selectWindow(history.messages, options);
        assertToolPairing(window.messages);
        expect(window.messages.every((message) => message.getType() !== "system")).toBe(true);
      }),
    );
  });

  it("R3.2 output is a suffix of the well-formed groups, in order, always with the latest user turn", () => {
    fc.assert(
      fc.property(histories, windowOptions, (history, options) => {
        const groups = expectedGroups(history);
        const window = selectWindow(history.messages, options);
        const k = suffixStart(groups, window.messages);
        expect(k).toBeGreaterThanOrEqual(0);
        const latest = groups.findLastIndex((group) => group[0]?.getType() === "human");
        if (latest >= 0) expect(k).toBeLessThanOrEqual(latest);
        expect(window.groups.map((group) => group.messages)).toEqual(groups.slice(k));
        expect(window.dropped.map((group) => group.messages)).toEqual(groups.slice(0, k));
      }),
    );
  });

  it("R3.1 R3.3 respects window_size and the token cap unless the latest turn alone is larger", () => {
    fc.assert(
      fc.property(histories, windowOptions, (history, options) => {
        const groups = expectedGroups(history);
        const window = selectWindow(history.messages, options);
        const k = suffixStart(groups, window.messages);
        const latest = groups.findLastIndex((group) => group[0]?.getType() === "human");
        const tokens = (messages: readonly BaseMessage[]) =>
          messages.reduce((sum, message) => sum + estimateTokens(message), 0);
        if (k < latest || latest < 0) {
          expect(window.messages.length).toBeLessThanOrEqual(options.window_size);
          if (options.max_history_tokens !== undefined) {
            expect(tokens(window.messages)).toBeLessThanOrEqual(options.max_history_tokens);
          }
        }
        // Oldest dropped first, and no more than needed: the next older group did not fit.
        const next = groups[k - 1];
        if (next !== undefined && (latest < 0 || k <= latest)) {
          const tooMany = window.messages.length + next.length > options.window_size;
          const tooBig =
            options.max_history_tokens !== undefined &&
            tokens(window.messages) + tokens(next) > options.max_history_tokens;
          expect(tooMany || tooBig).toBe(true);
        }
      }),
    );
  });

  it("R3.1 never mutates the input", () => {
    fc.assert(
      fc.property(historyArb({ maxLength: 15 }), windowOptions, (history, options) => {
        const refs = [...history.messages];
        const before = JSON.stringify(history.messages);
        selectWindow(history.messages, options);
        expect(history.messages).toHaveLength(refs.length);
        for (const [i, message] of history.messages.entries()) expect(message).toBe(refs[i]);
        expect(JSON.stringify(history.messages)).toBe(before);
      }),
      { numRuns: 50 },
    );
  });

  it("R3.2 groupMessages finds exactly the generated groups", () => {
    fc.assert(
      fc.property(histories, (history) => {
        const found = groupMessages(history.messages).map((group) => group.kind);
        const wanted = history.segments.filter((s) => s.kind !== "system").map((s) => s.kind);
        expect(found).toEqual(wanted);
      }),
    );
  });
});

describe("window cost", () => {
  /** A long thread whose reads of message slots are counted. */
  function counted(thread: BaseMessage[]): { thread: BaseMessage[]; reads: () => number } {
    let reads = 0;
    const proxy = new Proxy(thread, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    return { thread: proxy, reads: () => reads };
  }

  it("R3.1 reads O(window) messages of a 100,000-message thread, not the whole thread", () => {
    const long = [...chat(50_000), human("now")];
    const { thread, reads } = counted(long);
    const window = selectWindow(thread, { window_size: 20 });
    expect(reads()).toBeLessThan(400);
    expect(texts(window.messages)).toEqual(texts(long.slice(-20)));
    expect(window.dropped).toHaveLength(long.length - 20);
  });

  it("R3.2 groups from the end across tool groups, system messages and malformed runs", () => {
    const tail = [
      human("q"),
      calls(["a", "b"]),
      system("s"),
      result("b"),
      result("a"),
      result("ghost"),
      ai("done"),
    ];
    const long = [...chat(5_000), ...tail, ...tail, human("now")];
    const { thread, reads } = counted(long);
    const window = selectWindow(thread, { window_size: 9 });
    // 1 (latest turn) + 5 (second tail, ghost and system left out) + 1 ("done") = 7; the
    // first tail's tool group (3) would make 10 > 9.
    const second = long.length - 1 - tail.length;
    const expected = [second - 1, ...[0, 1, 3, 4, 6].map((i) => second + i), long.length - 1];
    expect(reads()).toBeLessThan(200);
    expect(window.messages).toEqual(expected.map((i) => long[i]));
    expect(window.malformed).toHaveLength(2);
  });
});

describe("trimToLastGroups (R4.2 selection)", () => {
  it("R4.2 keeps only the last N groups and never cuts a tool group", () => {
    const thread = [
      human("q0"),
      ai("a0"),
      human("q1"),
      calls(["x", "y"]),
      result("y"),
      result("x"),
    ];
    const two = trimToLastGroups([...thread, ai("a1")], 2);
    expect(texts(two.kept)).toEqual(["", "result of y", "result of x", "a1"]);
    expect(two.removed).toEqual(thread.slice(0, 3));
    expect(trimToLastGroups(thread, 1).kept).toEqual(thread.slice(3));
  });

  it("R4.2 keeps system messages and removes nothing when N covers the thread", () => {
    const thread = [system("s"), human("q0"), ai("a0"), human("q1")];
    expect(trimToLastGroups(thread, 1)).toEqual({
      kept: [thread[0], thread[3]],
      removed: thread.slice(1, 3),
    });
    expect(trimToLastGroups(thread, 3)).toEqual({ kept: thread, removed: [] });
    expect(trimToLastGroups(thread, 0).kept).toEqual([thread[0]]);
  });

  it("R4.2 counts well-formed groups only; malformed ones before the cut go, after it stay", () => {
    const thread = [result("ghost"), human("q0"), calls(["z"]), human("q1"), ai("a1")];
    expect(trimToLastGroups(thread, 2).kept).toEqual(thread.slice(3));
    expect(trimToLastGroups(thread, 3).kept).toEqual(thread);
    const later = [human("q0"), ai("a0"), human("q1"), calls(["z"]), ai("a1")];
    expect(trimToLastGroups(later, 2).kept).toEqual(later.slice(2));
  });

  it("R4.2 property: a partition of the input at a group boundary, system kept, idempotent", () => {
    fc.assert(
      fc.property(histories, fc.integer({ min: 0, max: 30 }), (history, n) => {
        const { messages } = history;
        const groups = expectedGroups(history);
        const { kept, removed } = trimToLastGroups(messages, n);
        let cut = 0;
        if (n === 0) cut = messages.length;
        else if (n < groups.length)
          cut = messages.indexOf(groups[groups.length - n]?.[0] as BaseMessage);
        const isSystem = (message: BaseMessage) => message.getType() === "system";
        expect(kept).toEqual(messages.filter((message, i) => i >= cut || isSystem(message)));
        expect(removed).toEqual(messages.filter((message, i) => i < cut && !isSystem(message)));
        const keptGroups = n === 0 ? [] : groups.slice(Math.max(0, groups.length - n));
        for (const group of keptGroups)
          for (const message of group) expect(kept).toContain(message);
        const wide = selectWindow(kept, { window_size: Number.MAX_SAFE_INTEGER });
        expect(wide.groups.map((group) => group.messages)).toEqual(keptGroups);
        expect(trimToLastGroups(kept, n).kept).toEqual(kept);
      }),
    );
  });
});
