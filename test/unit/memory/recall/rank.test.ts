import { describe, expect, it } from "vitest";
import {
  fuseNeighbours,
  NEIGHBOURS,
  RecallIndex,
  rankCandidates,
  recallFromIndex,
  recallMessages,
  searchTerms,
} from "../../../../src/memory/recall/index.ts";

const conversation = [
  "안녕하세요! 반가워요",
  "제 이름은 민수예요. 부산에 살아요",
  "강아지를 키우고 있어요. 이름은 초코예요",
  "What are you painting these days?",
  "A sunset over the lake, with lots of orange",
  "오늘 날씨 좋네요",
  "I'm allergic to peanuts, by the way",
];
const messages = conversation.map((text, seq) => ({
  id: `m${seq}`,
  seq,
  terms: searchTerms(text),
}));

describe("BM25 ranker", () => {
  it("ranks the message that shares the rare terms first, in Korean and English", () => {
    expect(recallMessages("우리 강아지 이름 기억나?", messages, 1)[0]?.id).toBe("m2");
    expect(recallMessages("부산에서 갈 만한 곳 있어?", messages, 1)[0]?.id).toBe("m1");
    expect(recallMessages("Do I have any peanut allergy?", messages, 1)[0]?.id).toBe("m6");
  });

  it("returns nothing when no term matches, never pads", () => {
    expect(recallMessages("quantum chromodynamics", messages, 3)).toEqual([]);
    expect(recallMessages("", messages, 3)).toEqual([]);
    expect(recallMessages("강아지", [], 3)).toEqual([]);
  });

  it("the neighbour fusion finds an answer whose words were in the question before it", () => {
    const found = recallMessages("What was I painting?", messages, 2).map((r) => r.id);
    expect(found).toContain("m4");
  });

  it("excluded ids (the window) are never returned but still lend their score", () => {
    const exclude = new Set(["m3"]);
    const found = recallMessages("What was I painting?", messages, 3, { exclude });
    expect(found.map((r) => r.id)).not.toContain("m3");
    expect(found[0]?.id).toBe("m4");
  });

  it("fuseNeighbours adds previous × 0.4 and next × 0.3; ties go to the later message", () => {
    const order = [0, 1, 2].map((seq) => ({ id: `x${seq}`, seq }));
    const fused = fuseNeighbours(order, new Map([["x1", 1]]), 3);
    expect(fused).toEqual([
      { id: "x1", seq: 1, score: 1 },
      { id: "x2", seq: 2, score: NEIGHBOURS.previous },
      { id: "x0", seq: 0, score: NEIGHBOURS.next },
    ]);
    const tie = fuseNeighbours(
      [
        { id: "a", seq: 0 },
        { id: "b", seq: 5 },
      ],
      new Map([
        ["a", 1],
        ["b", 1],
      ]),
      2,
    );
    expect(tie.map((r) => r.id)).toEqual(["b", "a"]);
  });

  it("RecallIndex: add, replace and remove keep scores equal to ranking the same set", () => {
    const index = new RecallIndex();
    for (const m of messages) index.add(m.id, m.terms);
    index.add("gone", searchTerms("peanut peanut peanut"));
    expect(index.remove("gone")).toBe(true);
    expect(index.remove("gone")).toBe(false);
    expect(index.size).toBe(messages.length);
    const query = ["peanut", "allerg", "강아"];
    expect(index.search(query, 3)).toEqual(rankCandidates(query, messages, 3));
    const order = messages.map(({ id, seq }) => ({ id, seq }));
    expect(recallFromIndex("우리 강아지 이름 기억나?", index, order, 2)).toEqual(
      recallMessages("우리 강아지 이름 기억나?", messages, 2),
    );
    // Replacing a document by id changes its terms.
    index.add("m6", searchTerms("I love pizza"));
    expect(index.search(["peanut"], 3)).toEqual([]);
  });

  it("k bounds the answer and k < 1 gives nothing", () => {
    expect(recallMessages("강아지 이름 부산 painting", messages, 2)).toHaveLength(2);
    expect(recallMessages("강아지", messages, 0)).toEqual([]);
    expect(rankCandidates(["강아"], messages, 0)).toEqual([]);
  });
});
