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

  it("merges both sides' candidates and adds up the statistics", async () => {
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

  it("a tail message excluded as the window is never recalled; the transcript's is", async () => {
    const items = await recallForTurn(withTail(transcript, tail), {
      threadId: "t",
      question: "강아지 이름이 뭐였죠?",
      exclude: new Set(["t40", "t41", "t42"]),
      maxItems: 5,
    });
    expect(items.map((i) => i.text)).toContain(DOG);
    expect(items.map((i) => i.text)).not.toContain("강아지 산책");
  });

  it("without a transcript answer it is the tail alone", async () => {
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

describe("withTail: a transcript ranked by the database", () => {
  const scored = (seq: number, text: string, own: number, previous = 0, next = 0) => ({
    id: `m${seq}`,
    seq,
    role: "user" as const,
    text,
    terms: [],
    scores: { own, previous, next },
  });
  const stats = { docs: 40, avgLength: 6, df: {} };

  it("a row's neighbours the database did not send still lend their scores", async () => {
    // m10's next neighbour scored 2 (not sent): 1 + 0.3 × 2 = 1.6 beats m20's 1.5.
    const transcript = { candidates: [scored(10, "A", 1, 0, 2), scored(20, "C", 1.5)], stats };
    const items = await recallForTurn(withTail(transcript, []), {
      threadId: "t",
      question: "cello",
      exclude: new Set(),
      maxItems: 1,
    });
    expect(items.map((i) => i.text)).toEqual(["A"]);
  });

  it("across the transcript's end: its last message and the tail's first fuse", async () => {
    const tail = [
      { seq: 40, message: new HumanMessage({ content: CELLO, id: "t40" }) },
      { seq: 41, message: new AIMessage({ content: "nice", id: "t41" }) },
    ];
    const transcript = { candidates: [scored(10, "A", 1, 0, 0.1), scored(39, "B", 1)], stats };
    const ask = (exclude: string[]) =>
      recallForTurn(withTail(transcript, tail), {
        threadId: "t",
        question: "cello",
        exclude: new Set(exclude),
        maxItems: 2,
      });
    // B (seq 39) gains 0.3 × the tail's cello message: it outranks A; the tail message
    // itself gains 0.4 × B.
    expect((await ask(["t41"])).map((i) => i.text)).toEqual([CELLO, "B"]);
    // The tail message in the window lends nothing (as with a backend index): A (1.03) first.
    expect((await ask(["t40", "t41"])).map((i) => i.text)).toEqual(["A", "B"]);
  });
});

function tailLength(tail: { message: HumanMessage | AIMessage }[]): number {
  return tail.reduce((n, m) => n + searchTerms(String(m.message.content)).length, 0);
}

describe("parseRecallRow and indexTermsOf", () => {
  it("parses the read batch's row: items with the database's scores", () => {
    const parsed = parseRecallRow({
      docs: "12",
      avg_len: 7.5,
      df: { 강아: "2" },
      rows: [
        [3, "a", "u", 2.5, 0, "1.25", DOG],
        [4, "b", "a", 0, 2.5, 0, "x"],
        [5, 7, "u", 1, 0, 0, "bad id"],
        { seq: 6, id: "c", text: "not an array" },
      ],
    });
    expect(parsed.stats).toEqual({ docs: 12, avgLength: 7.5, df: { 강아: 2 } });
    expect(parsed.candidates.map((c) => c.id)).toEqual(["a", "b"]);
    expect(parsed.candidates[0]).toEqual({
      id: "a",
      seq: 3,
      role: "user",
      text: DOG,
      terms: [],
      scores: { own: 2.5, previous: 0, next: 1.25 },
    });
    expect(parsed.candidates[1]?.scores).toEqual({ own: 0, previous: 2.5, next: 0 });
    expect(parseRecallRow(undefined)).toEqual({
      candidates: [],
      stats: { docs: 0, avgLength: 0, df: {} },
    });
  });

  it("indexes user and assistant text only", () => {
    expect(indexTermsOf(new HumanMessage(DOG))).toBe(searchTerms(DOG).join(" "));
    expect(indexTermsOf(new AIMessage(CELLO))).toBe(searchTerms(CELLO).join(" "));
    expect(indexTermsOf(new AIMessage({ content: "", tool_calls: [] }))).toBeNull();
    expect(indexTermsOf(new ToolMessage({ content: DOG, tool_call_id: "c" }))).toBeNull();
  });
});
