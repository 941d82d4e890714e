/**
 * The recall port through the in-memory source (what the in_memory Durable Object
 * will use) — scope by thread key, the window excluded, Korean particles and spacing
 * variants, neighbours, and index entries leaving with their messages.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ListRecallSource,
  queryTerms,
  type RecallSource,
  recallForTurn,
  recallMessages,
  type StoredMessage,
  searchTerms,
} from "../../../../src/memory/recall/index.ts";
import { threadKey } from "../../../../src/runtime/thread-keys.ts";

const user = (id: string, text: string) => new HumanMessage({ content: text, id });
const agent = (id: string, text: string) => new AIMessage({ content: text, id });

/** Threads by key; each message's seq is its position. */
function store(threads: Record<string, BaseMessage[]>) {
  const lists = new Map<string, StoredMessage[]>();
  for (const [key, messages] of Object.entries(threads)) {
    lists.set(
      key,
      messages.map((message, seq) => ({ seq, message })),
    );
  }
  return { lists, source: new ListRecallSource((key) => lists.get(key)) };
}

const recall = (
  source: RecallSource,
  threadId: string,
  question: string,
  options: { exclude?: string[]; beforeSeq?: number; maxItems?: number } = {},
) =>
  recallForTurn(source, {
    threadId,
    question,
    exclude: new Set(options.exclude ?? []),
    beforeSeq: options.beforeSeq,
    maxItems: options.maxItems ?? 3,
  });

const MINSU = [
  user("u0", "안녕하세요! 반가워요"),
  agent("a0", "안녕하세요, 무엇을 도와드릴까요?"),
  user("u1", "제 이름은 민수예요. 부산에 살아요"),
  agent("a1", "반가워요, 민수님."),
  user("u2", "매운음식을 정말 좋아해요"),
  agent("a2", "떡볶이 어떠세요?"),
  user("u3", "What are you painting these days?"),
  agent("a3", "A sunset over the lake, with lots of orange"),
  user("u4", "오늘 날씨 좋네요"),
  agent("a4", "산책하기 좋은 날이에요."),
];

describe("the recall port, in-memory source", () => {
  it("R2.3 never returns another thread's or another principal's messages", async () => {
    const alice = threadKey("alice", "c-1");
    const bob = threadKey("bob", "c-1");
    const { source } = store({
      [alice]: [user("x0", "안녕"), agent("x1", "네 안녕하세요")],
      [bob]: [user("y0", "제 강아지 이름은 초코예요"), agent("y1", "초코 귀엽네요")],
      "c-1": [user("z0", "my dog is called Choco"), agent("z1", "Nice")],
    });
    expect(await recall(source, alice, "내 강아지 이름이 뭐였지?")).toEqual([]);
    expect(await recall(source, alice, "What is my dog called?")).toEqual([]);
    expect(await recall(source, threadKey("carol", "c-1"), "강아지 이름")).toEqual([]);
    const own = await recall(source, bob, "내 강아지 이름이 뭐였지?");
    expect(own.map((i) => i.text)).toContain("제 강아지 이름은 초코예요");
    expect((await recall(source, "c-1", "dog called")).map((i) => i.seq)).toContain(0);
  });

  it("never returns a window message, by id or before the window's first seq", async () => {
    const key = "t-window";
    const { source } = store({ [key]: MINSU });
    const all = await recall(source, key, "내 이름이 뭐였지?");
    expect(all[0]).toEqual({ seq: 2, role: "user", text: "제 이름은 민수예요. 부산에 살아요" });
    const byId = await recall(source, key, "내 이름이 뭐였지?", { exclude: ["u1", "a1"] });
    expect(byId.map((i) => i.seq)).not.toContain(2);
    expect(byId.map((i) => i.seq)).not.toContain(3);
    const bySeq = await recall(source, key, "내 이름이 뭐였지?", { beforeSeq: 2 });
    expect(bySeq.every((i) => i.seq < 2)).toBe(true);
  });

  it("Korean particles and endings match: 이름은 / 이름이에요 / 이름이", async () => {
    for (const stored of ["제 이름은 민수", "제 이름이에요, 민수", "이름이 민수라고 해요"]) {
      const { source } = store({ k: [user("s", stored), agent("r", "네")] });
      for (const question of ["내 이름이 뭐였지?", "제 이름은요?", "이름 기억해?"]) {
        const found = await recall(source, "k", question);
        expect(found[0]?.text, `${stored} ← ${question}`).toBe(stored);
      }
    }
    expect(searchTerms("이름은")).toEqual(searchTerms("이름이에요"));
  });

  it("spacing variants match: 매운음식 / 매운 음식", async () => {
    const key = "t-space";
    const { source } = store({ [key]: MINSU });
    const found = await recall(source, key, "제가 매운 음식 좋아한다고 했나요?", { maxItems: 1 });
    expect(found[0]?.text).toBe("매운음식을 정말 좋아해요");
    const { source: spaced } = store({ s: [user("m", "매운 음식 좋아해요"), agent("n", "네")] });
    expect((await recall(spaced, "s", "매운음식 뭐 좋아해?"))[0]?.text).toBe("매운 음식 좋아해요");
  });

  it("candidates carry their neighbours, so the reply to a matching question is found", async () => {
    const key = "t-neighbour";
    const { source } = store({ [key]: MINSU });
    const answer = await source.recall({
      threadId: key,
      terms: queryTerms("painting"),
      exclude: new Set(),
      limit: 1,
    });
    expect(answer.candidates.map((c) => c.seq).sort()).toEqual([5, 6, 7]);
    expect(answer.stats?.docs).toBe(MINSU.length);
    // The reply shares no term with the question; its question before it does.
    const found = await recall(source, key, "What was the painting about?", { maxItems: 2 });
    expect(found.map((i) => i.seq)).toEqual([6, 7]);
    expect(found[1]?.text).toBe("A sunset over the lake, with lots of orange");
  });

  it("prune, erase and trim: a message gone from the list is never recalled", async () => {
    const key = "t-prune";
    const { lists, source } = store({ [key]: MINSU });
    expect((await recall(source, key, "부산")).map((i) => i.seq)).toContain(2);
    lists.set(
      key,
      (lists.get(key) ?? []).filter((m) => m.seq > 3),
    );
    expect((await recall(source, key, "부산")).map((i) => i.seq)).not.toContain(2);
    lists.delete(key);
    expect(await recall(source, key, "날씨")).toEqual([]);
  });

  it("indexes user and assistant text only, never tool results", async () => {
    const tool = new ToolMessage({
      content: "secret tool payload zebra",
      tool_call_id: "c1",
      id: "t",
    });
    const calls = new AIMessage({
      content: "",
      id: "c",
      tool_calls: [{ id: "c1", name: "lookup", args: { q: "zebra" }, type: "tool_call" }],
    });
    const { source } = store({
      k: [user("u", "look up zebra facts"), calls, tool, agent("a", "Done")],
    });
    expect((await recall(source, "k", "zebra")).map((i) => i.text)).toEqual([
      "look up zebra facts",
    ]);
    expect(await recall(source, "k", "secret payload")).toEqual([]);
  });

  // One difference by design: a window message does not lend its score to the neighbour just
  // outside the window (a backend's index holds what left the window, not the window).
  it("scores like BM25 over the whole thread (the port loses nothing on a small thread)", async () => {
    const key = "t-same";
    const { source } = store({ [key]: MINSU });
    const reference = MINSU.map((m, seq) => ({
      id: m.id as string,
      seq,
      terms: searchTerms(String(m.content)),
    }));
    for (const question of ["이름이 뭐였지?", "what did I paint", "날씨 어때", "매운 음식"]) {
      const exclude = new Set<string>();
      const expected = recallMessages(question, reference, 3, { exclude }).map((r) => r.seq);
      const got = (await recall(source, key, question, { exclude: [...exclude] })).map(
        (i) => i.seq,
      );
      expect(got, question).toEqual(expected);
    }
  });

  it("for any conversation, window and question: only this thread's out-of-window messages, at most max", async () => {
    const words = [
      "강아지",
      "이름은",
      "초코",
      "부산에",
      "paint",
      "sunset",
      "lake",
      "매운음식",
      "날씨",
    ];
    const text = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 })
      .map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 30 }),
        fc.array(text, { maxLength: 10 }),
        fc.nat(30),
        text,
        fc.integer({ min: 1, max: 6 }),
        async (mine, theirs, windowed, question, maxItems) => {
          const own = mine.map((t, i) => (i % 2 === 0 ? user(`m${i}`, t) : agent(`m${i}`, t)));
          const other = theirs.map((t, i) => user(`o${i}`, t));
          const { source } = store({ mine: own, theirs: other });
          const exclude = own.slice(Math.max(0, own.length - windowed)).map((m) => m.id as string);
          const found = await recall(source, "mine", question, { exclude, maxItems });
          expect(found.length).toBeLessThanOrEqual(maxItems);
          for (const item of found) {
            const message = own[item.seq];
            expect(message).toBeDefined();
            expect(exclude).not.toContain(message?.id);
            expect(item.text).toBe(message?.content);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
