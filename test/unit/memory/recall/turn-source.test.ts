/**
 * The recall source of a Postgres turn (memory/recall/turn-source.ts `withTail`): the
 * transcript's prefetched answer and the live tail as one source; and the parse of the read
 * batch's recall row (store/recall-prefetch.ts) and the index entry of a message.
 */
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import {
  indexTermsOf,
  queryTerms,
  recallForTurn,
  searchTerms,
  withTail,
} from "../../../../src/memory/recall/index.ts";
import { parseRecallRow } from "../../../../src/store/recall-prefetch.ts";

const DOG = "제 강아지 이름은 초코예요";
const CELLO = "My sister plays the cello";

function candidate(seq: number, text: string, role: "user" | "assistant" = "user") {
  return { id: `m${seq}`, seq, role, text, terms: searchTerms(text) };
}

describe("withTail: transcript answer + live tail", () => {
  const transcript = {
    candidates: [candidate(3, DOG), candidate(4, "좋은 이름이네요", "assistant")],
    stats: { docs: 40, avgLength: 6, df: { 강아: 1 } },
  };
  const tail = [
    { seq: 40, message: new HumanMessage({ content: CELLO, id: "t40" }) },
    { seq: 41, message: new AIMessage({ content: "nice", id: "t41" }) },
    { seq: 42, message: new HumanMessage({ content: "강아지 산책", id: "t42" }) },
  ];

  it("issue 16 merges both sides' candidates and adds up the statistics", async () => {
    const terms = queryTerms("강아지 이름이 뭐였죠?");
    const answer = await withTail(transcript, tail).recall({
      threadId: "t",
      terms,
      exclude: new Set(),
      limit: 20,
    });
    expect(answer.candidates.map((c) => c.seq).sort((a, b) => a - b)).toEqual([3, 4, 41, 42]);
    expect(answer.stats?.docs).toBe(43);
    expect(answer.stats?.df.강아).toBe(2);
    expect(answer.stats?.avgLength).toBeCloseTo((40 * 6 + tailLength(tail)) / 43, 5);
  });

  it("issue 16 a tail message excluded as the window is never recalled; the transcript's is", async () => {
    const items = await recallForTurn(withTail(transcript, tail), {
      threadId: "t",
      question: "강아지 이름이 뭐였죠?",
      exclude: new Set(["t40", "t41", "t42"]),
      maxItems: 5,
    });
    expect(items.map((i) => i.text)).toContain(DOG);
    expect(items.map((i) => i.text)).not.toContain("강아지 산책");
  });

  it("issue 16 without a transcript answer it is the tail alone", async () => {
    const answer = await withTail(undefined, tail).recall({
      threadId: "t",
      terms: queryTerms("cello"),
      exclude: new Set(),
      limit: 5,
    });
    expect(answer.candidates.map((c) => c.id)).toContain("t40");
    expect(answer.stats?.docs).toBe(3);
  });
});

function tailLength(tail: { message: HumanMessage | AIMessage }[]): number {
  return tail.reduce((n, m) => n + searchTerms(String(m.message.content)).length, 0);
}

describe("parseRecallRow and indexTermsOf", () => {
  it("issue 16 parses the read batch's row: the query terms it holds, padded to its length", () => {
    const parsed = parseRecallRow({
      docs: "12",
      avg_len: 7.5,
      df: { 강아: "2" },
      rows: [
        { seq: 3, id: "a", role: "user", text: DOG, n: 5, hits: ["강아", "이름", "강아"] },
        { seq: 4, id: "b", role: "assistant", text: "x", n: 0, hits: [] },
        { seq: 5, id: 7, role: "user", text: "bad id", n: 1, hits: [] },
      ],
    });
    expect(parsed.stats).toEqual({ docs: 12, avgLength: 7.5, df: { 강아: 2 } });
    expect(parsed.candidates.map((c) => c.id)).toEqual(["a", "b"]);
    expect(parsed.candidates[0]?.terms).toEqual(["강아", "이름", "강아", "", ""]);
    expect(parsed.candidates[1]?.terms).toEqual([]);
    expect(parseRecallRow(undefined)).toEqual({
      candidates: [],
      stats: { docs: 0, avgLength: 0, df: {} },
    });
  });

  it("issue 16 indexes user and assistant text only", () => {
    expect(indexTermsOf(new HumanMessage(DOG))).toBe(searchTerms(DOG).join(" "));
    expect(indexTermsOf(new AIMessage(CELLO))).toBe(searchTerms(CELLO).join(" "));
    expect(indexTermsOf(new AIMessage({ content: "", tool_calls: [] }))).toBeNull();
    expect(indexTermsOf(new ToolMessage({ content: DOG, tool_call_id: "c" }))).toBeNull();
  });
});
