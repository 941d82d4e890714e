/**
 * Conversation recall on Postgres (migration 0008): messages that left the live tail are
 * found in `llamon_messages` by the tsvector/GIN index inside the turn's read batch (still
 * ≤ 2 round trips), messages of the tail outside the window by the tail itself; never
 * another thread's or agent's; erase and prune take the index entries with the rows, and
 * with trim nothing reaches the transcript.
 */
import { describe, expect, it } from "vitest";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { RECALL_HEADER } from "../../src/memory/prompt.ts";
import { byHigherScore } from "../../src/memory/recall/bm25.ts";
import {
  NEIGHBOURS,
  queryTerms,
  recallMessages,
  searchTerms,
  TERMS_VERSION,
} from "../../src/memory/recall/index.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { applyPrune, planPrune } from "../../src/store/prune.ts";
import { parseRecallRow } from "../../src/store/recall-prefetch.ts";
import { SELECT_RECALL } from "../../src/store/sql.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const agent = testAgent("Recall agent");
const DOG = "제 강아지 이름은 초코예요";
const QUESTION = "우리 강아지 이름이 뭐였죠?";

function deps(agentId: string, model = new OfflineChatModel()) {
  return {
    agent,
    config: resolveMemoryConfig({ code: { window_size: 6 } }).config,
    model,
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
  } satisfies TurnDeps;
}

async function chatter(agentId: string, threadId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await runTurn(deps(agentId), { threadId, text: `오늘의 잡담 ${i}: 날씨와 점심 이야기` });
  }
}

async function recallRows(agentId: string, threadId: string) {
  const { rows } = await backend.pg.query<{ recall: unknown }>(SELECT_RECALL, [
    agentId,
    threadId,
    queryTerms(QUESTION),
    20,
  ]);
  return parseRecallRow(rows[0]?.recall);
}

describe("conversation recall on Postgres (migration 0008)", () => {
  it("R6.1 a message in the transcript is quoted, found in the read batch: ≤ 2 round trips", async () => {
    await chatter("rc-a", "t", 2);
    await runTurn(deps("rc-a"), { threadId: "t", text: DOG });
    await chatter("rc-a", "t", 12);
    const { rows } = await backend.pg.query<{ search_terms: string; terms_version: number }>(
      "SELECT search_terms, terms_version FROM llamon_messages WHERE agent_id = 'rc-a' AND thread_id = 't' AND seq = 4",
    );
    expect(rows[0]).toEqual({
      search_terms: searchTerms(DOG).join(" "),
      terms_version: TERMS_VERSION,
    });
    // The statistics are the thread's indexed messages, their terms as the runtime made them.
    const all = await backend.pg.query<{ search_terms: string }>(
      "SELECT search_terms FROM llamon_messages WHERE agent_id = 'rc-a' AND thread_id = 't' AND search_terms IS NOT NULL",
    );
    const lengths = all.rows.map((r) => r.search_terms.split(" ").length);
    const read = await recallRows("rc-a", "t");
    expect(read.stats.docs).toBe(lengths.length);
    expect(read.stats.avgLength).toBeCloseTo(
      lengths.reduce((a, b) => a + b, 0) / lengths.length,
      6,
    );
    const dog = read.candidates.find((c) => c.text === DOG);
    expect(dog?.scores?.own).toBeGreaterThan(0);
    backend.proxy.resetStats();
    const result = await runTurn(deps("rc-a"), { threadId: "t", text: QUESTION });
    expect(backend.proxy.stats.requests).toBeLessThanOrEqual(2);
    expect(result.archived.messages).toBeGreaterThan(4);
    const system = String(result.lastPrompt?.messages[0]?.content);
    expect(system).toContain(`${RECALL_HEADER}\n`);
    expect(system).toContain(`- user: "${DOG}"`);
  });

  it("a message of the live tail outside the window is quoted from the tail", async () => {
    await chatter("rc-t", "t", 2);
    await runTurn(deps("rc-t"), { threadId: "t", text: DOG });
    await chatter("rc-t", "t", 3);
    const result = await runTurn(deps("rc-t"), { threadId: "t", text: QUESTION });
    // The DOG message is still in the checkpoint's tail, but not in the 6-message window.
    expect(result.thread.some((m) => m.content === DOG)).toBe(true);
    expect(result.lastPrompt?.window.messages.some((m) => m.content === DOG)).toBe(false);
    expect(String(result.lastPrompt?.messages[0]?.content)).toContain(`- user: "${DOG}"`);
  });

  it("R2.3 never another thread's or another agent's messages", async () => {
    await runTurn(deps("rc-b"), { threadId: "t", text: DOG });
    await chatter("rc-b", "t", 8);
    await runTurn(deps("rc-c"), { threadId: "other", text: DOG });
    await chatter("rc-c", "other", 8);
    await chatter("rc-c", "t", 8);
    expect((await recallRows("rc-b", "t")).candidates.length).toBeGreaterThan(0);
    const result = await runTurn(deps("rc-c"), { threadId: "t", text: QUESTION });
    expect(String(result.lastPrompt?.messages[0]?.content)).not.toContain(RECALL_HEADER);
    expect((await recallRows("rc-c", "t")).candidates).toEqual([]);
  });

  it("R4.2 with trim nothing goes to the transcript: a trimmed message is never recalled", async () => {
    const trimmed = (window: number) => ({
      ...deps("rc-trim"),
      config: resolveMemoryConfig({
        code: { window_size: window, persist_trim_keep_groups: 2 },
      }).config,
    });
    await runTurn(trimmed(2), { threadId: "t", text: DOG });
    for (let i = 0; i < 4; i++) {
      await runTurn(trimmed(2), { threadId: "t", text: `오늘의 잡담 ${i}: 날씨와 점심 이야기` });
    }
    // A wide window would show it if it were still stored; it is not, and not recalled.
    const result = await runTurn(trimmed(20), { threadId: "t", text: QUESTION });
    expect(result.thread.some((m) => m.content === DOG)).toBe(false);
    expect(String(result.lastPrompt?.messages[0]?.content)).not.toContain(DOG);
    expect((await recallRows("rc-trim", "t")).stats.docs).toBe(0);
  });

  it("R4.3 erase and prune remove the index entries with the messages", async () => {
    for (const thread of ["erased", "pruned"]) {
      await runTurn(deps("rc-p"), { threadId: thread, text: DOG });
      await chatter("rc-p", thread, 8);
      expect((await recallRows("rc-p", thread)).candidates.map((c) => c.text)).toContain(DOG);
    }
    await new NeonSaver({ db: backend.neon, agentId: "rc-p" }).deleteThread("erased");
    const plan = await planPrune(backend.pg, { agentId: "rc-p", threadIds: ["pruned"] });
    await applyPrune(backend.pg, plan);
    for (const thread of ["erased", "pruned"]) {
      expect(await recallRows("rc-p", thread)).toEqual({
        candidates: [],
        stats: {
          docs: 0,
          avgLength: 0,
          df: Object.fromEntries(queryTerms(QUESTION).map((t) => [t, 0])),
        },
      });
    }
    const { rows } = await backend.pg.query(
      "SELECT 1 FROM llamon_messages WHERE agent_id = 'rc-p' AND search @@ plainto_tsquery('simple', '초코')",
    );
    expect(rows).toEqual([]);
  });

  it("the database ranks like BM25 + neighbour fusion over the whole transcript, and sends only the best items", async () => {
    const texts = [
      "제 강아지 이름은 초코예요",
      "좋은 이름이네요! 초코는 몇 살이에요?",
      "초코는 세 살이고 푸들이에요",
      "My sister plays the cello in an orchestra",
      "That sounds lovely. Does she play concerts?",
      "tool output that is not indexed",
      "오늘은 점심으로 김치찌개를 먹었어요",
      "강아지랑 산책하러 한강에 갔어요",
      "We went to Jeju island last spring with the dog",
      "제주도 여행은 어땠어요?",
      "my sister's cello teacher lives in Busan",
      "강아지 간식은 뭐가 좋아요?",
    ];
    const rows = Array.from({ length: 60 }, (_, seq) => {
      const text = texts[seq % texts.length] ?? "";
      const indexed = seq % texts.length !== 5;
      const kind = seq % 2 === 0 ? "HumanMessage" : "AIMessage";
      return {
        seq,
        message: {
          lc: 1,
          type: "constructor",
          id: ["langchain_core", "messages", kind],
          kwargs: { content: `${text} (${seq})`, id: `x${seq}` },
        },
        terms: indexed ? searchTerms(`${text} (${seq})`).join(" ") : null,
        version: indexed ? TERMS_VERSION : null,
      };
    });
    await backend.pg.query(
      `INSERT INTO llamon_messages (agent_id, thread_id, seq, message, search_terms, terms_version)
       SELECT 'rc-rank', 't', x.seq, x.message, x.terms, x.version
         FROM jsonb_to_recordset($1::jsonb) AS x(seq bigint, message jsonb, terms text, version smallint)`,
      [JSON.stringify(rows)],
    );
    const reference = rows.flatMap((r) =>
      r.terms === null ? [] : [{ id: `x${r.seq}`, seq: r.seq, terms: r.terms.split(" ") }],
    );
    for (const question of [
      "우리 강아지 이름이 뭐였죠?",
      "who plays the cello?",
      "제주도 여행",
      "초코 푸들",
    ]) {
      const { rows: answer } = await backend.pg.query<{ recall: unknown }>(SELECT_RECALL, [
        "rc-rank",
        "t",
        queryTerms(question),
        5,
      ]);
      const read = parseRecallRow(answer[0]?.recall);
      // Postgres scores every candidate itself.
      expect(read.candidates.every((c) => c.scores !== undefined)).toBe(true);
      const fused = read.candidates
        .map((c) => ({
          id: c.id,
          seq: c.seq,
          score:
            (c.scores?.own ?? 0) +
            NEIGHBOURS.previous * (c.scores?.previous ?? 0) +
            NEIGHBOURS.next * (c.scores?.next ?? 0),
        }))
        // Ties to the later message, as the in-memory ranker (equal texts score the same).
        .sort((a, b) => byHigherScore(a.score, b.score) || b.seq - a.seq);
      const expected = recallMessages(question, reference, 5);
      expect(expected.length).toBeGreaterThan(0);
      // The best 5 and their scores, as the in-memory ranker over every indexed message.
      expect(fused.slice(0, expected.length).map((f) => f.id)).toEqual(expected.map((e) => e.id));
      fused.slice(0, expected.length).forEach((f, i) => {
        expect(f.score).toBeCloseTo(expected[i]?.score ?? Number.NaN, 9);
      });
      // At most the 5 items and the transcript's last message: not every match.
      expect(read.candidates.length).toBeLessThanOrEqual(6);
      expect(read.candidates.filter((c) => c.id !== "x59").length).toBeLessThanOrEqual(5);
      expect(read.stats.docs).toBe(reference.length);
    }
  });
});
