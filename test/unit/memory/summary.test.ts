/**
 * R7.1 (schedule) and R7.2 (incremental input) of the out-of-window summary: the pure
 * rules in src/memory/summary*.ts, and the job runner over an in-memory persistent_memory
 * with a model that records exactly what it was sent.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type MemoryConfig,
  resolveMemoryConfig,
  summaryPeriod,
} from "../../../src/memory/config.ts";
import { groupMessages } from "../../../src/memory/groups.ts";
import {
  effectiveCovers,
  evictedBoundary,
  parseSummaryCache,
  SUMMARY_KEY,
  type SummaryCache,
  summaryDue,
  summaryTextOf,
} from "../../../src/memory/summary.ts";
import {
  EVICTED_HEADER,
  NO_PREVIOUS_SUMMARY,
  SUMMARIZER_SYSTEM_PROMPT,
  summarizerInput,
} from "../../../src/memory/summary-input.ts";
import { enqueueSummaryIfDue, summaryJobFor } from "../../../src/queue/enqueue.ts";
import type { SummarizeJob } from "../../../src/queue/jobs.ts";
import { runSummarizeJob } from "../../../src/queue/summarize.ts";
import { createMapMemory, type MemoryMap } from "../../../src/store/do-memory.ts";
import type { PersistentMemory } from "../../../src/store/persistent-memory.ts";
import { historyArb } from "./histories.ts";

const AGENT = "agent-sum";
const THREAD = "t-sum";

/** A summarizer that records its inputs and answers with a fixed-size summary. */
class RecordingSummarizer extends BaseChatModel {
  readonly inputs: BaseMessage[][] = [];
  fail = false;
  constructor() {
    super({});
  }
  _llmType(): string {
    return "recording-summarizer";
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    if (this.fail) throw new Error("model down");
    this.inputs.push([...messages]);
    const text = `summary #${String(this.inputs.length).padStart(4, "0")}`;
    return { generations: [{ message: new AIMessage(text), text }] };
  }
}

function config(patch: Record<string, unknown> = {}): MemoryConfig {
  return resolveMemoryConfig({ code: { summarize: true, ...patch } }).config;
}

const u = (id: string, text = id) => new HumanMessage({ id, content: text });
const a = (id: string, text = id) => new AIMessage({ id, content: text });
const toolCalls = (id: string, callIds: readonly string[]) =>
  new AIMessage({
    id,
    content: "",
    tool_calls: callIds.map((c) => ({ id: c, name: "lookup", args: { q: c }, type: "tool_call" })),
  });
const toolResult = (id: string, callId: string) =>
  new ToolMessage({ id, content: `result of ${callId}`, tool_call_id: callId, name: "lookup" });

/** One plain turn: user + AI (fixed-width texts so sizes compare exactly). */
function plainTurn(t: number): BaseMessage[] {
  const n = String(t).padStart(4, "0");
  return [u(`h${t}`, `question ${n}`), a(`a${t}`, `answer ${n}`)];
}

/** Every 3rd turn uses three parallel tool calls answered out of order. */
function toolTurn(t: number): BaseMessage[] {
  if (t % 3 !== 0) return plainTurn(t);
  const ids = [`c${t}a`, `c${t}b`, `c${t}c`];
  return [
    u(`h${t}`, `look up ${t}`),
    toolCalls(`tc${t}`, ids),
    toolResult(`r${t}b`, ids[1] as string),
    toolResult(`r${t}c`, ids[2] as string),
    toolResult(`r${t}a`, ids[0] as string),
    a(`a${t}`, `found ${t}`),
  ];
}

interface Simulation {
  /** Turns after which the summarizer ran. */
  summarizedAt: number[];
  /** The `upto` of each job, in order. */
  uptos: number[];
  model: RecordingSummarizer;
  thread: BaseMessage[];
  memory: PersistentMemory;
}

/** Runs a conversation; after each turn, checks the schedule and runs a due job at once. */
async function simulate(
  turns: number,
  cfg: MemoryConfig,
  turn: (t: number) => BaseMessage[] = plainTurn,
  onDue?: (thread: readonly BaseMessage[], upto: number) => void,
): Promise<Simulation> {
  const model = new RecordingSummarizer();
  const memory = createMapMemory(new Map() as MemoryMap, AGENT);
  const thread: BaseMessage[] = [];
  const summarizedAt: number[] = [];
  const uptos: number[] = [];
  for (let t = 1; t <= turns; t++) {
    thread.push(...turn(t));
    const cache = parseSummaryCache(await memory.get(THREAD, SUMMARY_KEY));
    const due = summaryDue(thread, cache, cfg);
    if (!due.due) continue;
    onDue?.(thread, due.upto);
    const job: SummarizeJob = {
      type: "summarize",
      agent_id: AGENT,
      thread_id: THREAD,
      upto: due.upto,
    };
    const outcome = await runSummarizeJob(
      { loadThread: async () => [...thread], memory, model },
      job,
    );
    expect(outcome.status).toBe("summarized");
    summarizedAt.push(t);
    uptos.push(due.upto);
  }
  return { summarizedAt, uptos, model, thread, memory };
}

/**
 * An oracle for plain user/AI turns that does not use selectWindow: the window keeps the
 * last `window` messages, so after turn t (2t messages) `max(0, 2t - window)` have left it.
 */
function expectedTurns(threshold: number, window: number, turns: number): number[] {
  const period = threshold <= window ? window : threshold - window;
  const out: number[] = [];
  let covers: number | undefined;
  for (let t = 1; t <= turns; t++) {
    const n = 2 * t;
    const evicted = Math.max(0, n - window);
    if (n < threshold) continue;
    if (covers === undefined ? evicted > 0 : evicted - covers >= period) {
      out.push(t);
      covers = evicted;
    }
  }
  return out;
}

describe("R7.1 schedule over a 200-turn conversation", () => {
  const cases: [threshold: number, window: number, calls: number][] = [
    [40, 20, 19], // defaults: first at turn 20 (40 messages), then every 10 turns
    [41, 20, 17], // odd threshold, period 21: first at 42 messages, then every 11 turns
    [30, 20, 38], // period 10: every 5 turns
    [100, 20, 4], // period 80
    [20, 20, 19], // threshold = window: window_size is the period
    [10, 20, 19], // threshold < window: window_size is the period, never every call
    [1, 20, 19],
    [21, 7, 28], // odd window
  ];
  for (const [threshold, window, calls] of cases) {
    it(`R7.1 threshold=${threshold} window_size=${window}: ${calls} summarizer calls in 200 turns`, async () => {
      const cfg = config({ summarize_threshold: threshold, window_size: window });
      const sim = await simulate(200, cfg);
      expect(sim.model.inputs).toHaveLength(calls);
      expect(sim.summarizedAt).toEqual(expectedTurns(threshold, window, 200));
      const period = summaryPeriod(cfg);
      // never every call: consecutive summaries are a whole period of messages apart
      for (let i = 1; i < sim.uptos.length; i++) {
        expect((sim.uptos[i] as number) - (sim.uptos[i - 1] as number)).toBeGreaterThanOrEqual(
          period,
        );
      }
    });
  }

  it("R7.1 no summary before the total message count reaches the threshold, the first one at it", async () => {
    const cfg = config(); // threshold 40, window 20
    const thread = Array.from({ length: 19 }, (_, i) => plainTurn(i + 1)).flat(); // 38 messages
    expect(summaryDue(thread, undefined, cfg)).toEqual({ due: false });
    thread.push(...plainTurn(20)); // 40 messages: 20 have left the window
    expect(summaryDue(thread, undefined, cfg)).toEqual({ due: true, upto: 20 });
    const cache: SummaryCache = { text: "s", covers: 20, updated_at: "", version: 1 };
    for (let t = 21; t < 30; t++) {
      thread.push(...plainTurn(t));
      expect(summaryDue(thread, cache, cfg), `turn ${t}`).toEqual({ due: false });
    }
    thread.push(...plainTurn(30)); // 60 messages: 40 out, 20 more since the summary
    expect(summaryDue(thread, cache, cfg)).toEqual({ due: true, upto: 40 });
  });

  it("R7.1 threshold <= window_size: the first summary waits until something left the window", () => {
    const cfg = config({ summarize_threshold: 10, window_size: 20 });
    const thread = Array.from({ length: 10 }, (_, i) => plainTurn(i + 1)).flat(); // 20 messages
    expect(summaryDue(thread, undefined, cfg)).toEqual({ due: false });
    thread.push(...plainTurn(11));
    expect(summaryDue(thread, undefined, cfg)).toEqual({ due: true, upto: 2 });
  });

  it("R7.1 uses the real window: max_history_tokens moves the evicted boundary too", () => {
    const thread = Array.from({ length: 20 }, (_, i) => plainTurn(i + 1)).flat();
    const byCount = evictedBoundary(thread, config());
    const byTokens = evictedBoundary(thread, config({ max_history_tokens: 40 }));
    expect(byCount).toBe(20);
    expect(byTokens).toBeGreaterThan(byCount);
    expect(byTokens).toBeLessThanOrEqual(38); // never the latest user turn
  });
});

describe("R7.1 boundaries: never the latest user turn, never a split tool group", () => {
  const splits = (thread: readonly BaseMessage[], upto: number) =>
    groupMessages(thread).some((g) => g.start < upto && upto < g.end);
  const lastHuman = (thread: readonly BaseMessage[]) =>
    thread.findLastIndex((m) => m.getType() === "human");

  it("R7.1 with parallel tool calls answered out of order, every upto falls between groups", async () => {
    const seen: number[] = [];
    const sim = await simulate(
      200,
      config({ summarize_threshold: 30, window_size: 10 }),
      toolTurn,
      (thread, upto) => {
        seen.push(upto);
        expect(splits(thread, upto), `upto ${upto}`).toBe(false);
        expect(upto).toBeLessThanOrEqual(lastHuman(thread));
      },
    );
    expect(seen.length).toBeGreaterThan(10);
    // the transcripts keep each tool exchange whole: calls and all three results together
    for (const input of sim.model.inputs) {
      const body = String(input[1]?.content);
      for (const match of body.matchAll(/tool call lookup\(\{"q":"c(\d+)a"\}\)/g)) {
        for (const suffix of ["a", "b", "c"])
          expect(body).toContain(`result of c${match[1]}${suffix}`);
      }
    }
  });

  it("R7.1 a latest user turn larger than the window stays out of the summary", () => {
    const earlier = Array.from({ length: 30 }, (_, i) => plainTurn(i + 1)).flat();
    const current = [
      u("now"),
      toolCalls("tc", ["x", "y"]),
      toolResult("ry", "y"),
      toolResult("rx", "x"),
      a("done"),
    ];
    const thread = [...earlier, ...current];
    const due = summaryDue(thread, undefined, config({ window_size: 2, summarize_threshold: 3 }));
    expect(due).toEqual({ due: true, upto: earlier.length });
  });

  it("R7.1 property: for any stored thread (malformed exchanges too) upto is a group boundary before the latest user turn", () => {
    fc.assert(
      fc.property(
        historyArb({ malformed: true, maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 30 }),
        (history, window, threshold) => {
          const thread = history.messages;
          const due = summaryDue(
            thread,
            undefined,
            config({ window_size: window, summarize_threshold: threshold }),
          );
          if (!due.due) return;
          expect(splits(thread, due.upto)).toBe(false);
          const last = lastHuman(thread);
          if (last >= 0) expect(due.upto).toBeLessThanOrEqual(last);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("R7.2 incremental summarizer input", () => {
  it("R7.2 the input at turn 600 is the size of the input at turn 60: previous summary + one period", async () => {
    const sim = await simulate(600, config());
    const at = (turn: number) => {
      const index = sim.summarizedAt.indexOf(turn);
      expect(index, `a summary after turn ${turn}`).toBeGreaterThanOrEqual(0);
      return sim.model.inputs[index] as BaseMessage[];
    };
    const early = at(60);
    const late = at(600);
    const body = (input: BaseMessage[]) => String(input[1]?.content);
    const lines = (input: BaseMessage[]) =>
      body(input)
        .split(EVICTED_HEADER)[1]
        ?.split("\n")
        .filter((l) => /^(user|assistant):/.test(l)) ?? [];
    expect(lines(early)).toHaveLength(20);
    expect(lines(late)).toHaveLength(20);
    expect(body(late).length).toBe(body(early).length); // fixed-width texts: exactly equal
    expect(early[0]?.content).toBe(SUMMARIZER_SYSTEM_PROMPT);
    expect(early).toHaveLength(2);
    // only the newly evicted messages: turn 600's input starts after the previous summary's reach
    // 1200 messages, 1180 out of the window, 1160 summarized: [1160, 1180) = turns 581–590
    expect(body(late)).toContain("question 0581");
    expect(body(late)).toContain("answer 0590");
    expect(body(late)).not.toContain("question 0580");
    expect(body(late)).not.toContain("question 0001");
    expect(body(late)).toContain("summary #0058"); // the previous summary text
    const sizes = sim.model.inputs.slice(1).map((i) => body(i).length);
    expect(Math.max(...sizes)).toBe(Math.min(...sizes));
  });

  it("R7.2 input = previous summary + [covers, upto) only; stored system text is never passed on", () => {
    const thread = [
      ...plainTurn(1),
      new SystemMessage({ id: "sys", content: "old system prompt" }),
      ...plainTurn(2),
      ...plainTurn(3),
    ];
    const cache: SummaryCache = {
      text: "earlier: greeting",
      covers: 2,
      covers_id: "a1",
      updated_at: "",
      version: 1,
    };
    const [sys, user] = summarizerInput(thread, cache, 5);
    expect(sys?.content).toBe(SUMMARIZER_SYSTEM_PROMPT);
    const body = String(user?.content);
    expect(body).toContain("earlier: greeting");
    expect(body).toContain("user: question 0002\nassistant: answer 0002");
    expect(body).not.toContain("question 0001");
    expect(body).not.toContain("question 0003");
    expect(body).not.toContain("old system prompt");
    expect(String(summarizerInput(thread, undefined, 2)[1]?.content)).toContain(
      NO_PREVIOUS_SUMMARY,
    );
  });
});

describe("summary cache and jobs", () => {
  it("reads older cache shapes", () => {
    expect(parseSummaryCache("plain text")).toEqual({
      text: "plain text",
      covers: 0,
      updated_at: "",
      version: 1,
    });
    expect(parseSummaryCache({ text: "t", covers: 2 })).toMatchObject({ text: "t", covers: 2 });
    expect(parseSummaryCache({ summary: "s", upto: 4 })).toMatchObject({ text: "s", covers: 4 });
    expect(parseSummaryCache({ covers: 3 })).toBeUndefined();
    expect(parseSummaryCache(42)).toBeUndefined();
    expect(summaryTextOf({ text: "  t  ", covers: 1, updated_at: "x", version: 1 })).toBe("t");
  });

  it("re-anchors covers on covers_id after a trim removed older turns (R4.2)", () => {
    const thread = Array.from({ length: 5 }, (_, i) => plainTurn(i + 1)).flat();
    const cache: SummaryCache = {
      text: "s",
      covers: 4,
      covers_id: "a2",
      updated_at: "",
      version: 1,
    };
    expect(effectiveCovers(thread, cache)).toBe(4);
    expect(effectiveCovers(thread.slice(2), cache)).toBe(2); // turn 1 trimmed
    expect(effectiveCovers(thread.slice(6), cache)).toBe(0); // trimmed past the summary
  });

  it("R7.5 duplicate delivery does no double work; a failing model leaves the cache as it was", async () => {
    const model = new RecordingSummarizer();
    const memory = createMapMemory(new Map() as MemoryMap, AGENT);
    const thread = Array.from({ length: 30 }, (_, i) => plainTurn(i + 1)).flat();
    const deps = { loadThread: async () => thread, memory, model };
    const job: SummarizeJob = { type: "summarize", agent_id: AGENT, thread_id: THREAD, upto: 20 };
    expect(await runSummarizeJob(deps, job)).toMatchObject({ status: "summarized", covers: 20 });
    const first = await memory.get(THREAD, SUMMARY_KEY);
    expect(await runSummarizeJob(deps, job)).toMatchObject({
      status: "skipped",
      reason: "already_covered",
    });
    expect(model.inputs).toHaveLength(1);
    expect(await memory.get(THREAD, SUMMARY_KEY)).toEqual(first);

    model.fail = true;
    await expect(runSummarizeJob(deps, { ...job, upto: 40 })).rejects.toThrow("model down");
    expect(await memory.get(THREAD, SUMMARY_KEY)).toEqual(first);
  });

  it("a job whose messages were trimmed away is skipped, not retried forever", async () => {
    const memory = createMapMemory(new Map() as MemoryMap, AGENT);
    const model = new RecordingSummarizer();
    const thread = Array.from({ length: 3 }, (_, i) => plainTurn(i + 1)).flat();
    const outcome = await runSummarizeJob(
      { loadThread: async () => thread, memory, model },
      { type: "summarize", agent_id: AGENT, thread_id: THREAD, upto: 2, upto_id: "gone" },
    );
    expect(outcome).toMatchObject({ status: "skipped", reason: "not_in_thread" });
    expect(model.inputs).toHaveLength(0);
  });

  it("R7.5 enqueues once when due, not again on every turn while the job is pending or failing", async () => {
    const cfg = config();
    const sent: SummarizeJob[] = [];
    const thread: BaseMessage[] = [];
    for (let t = 1; t <= 60; t++) {
      thread.push(...plainTurn(t));
      await enqueueSummaryIfDue({
        config: cfg,
        agentId: AGENT,
        threadId: THREAD,
        thread,
        cache: undefined, // the summary never lands (the job keeps failing)
        turnMessages: 2,
        queue: { send: async (job) => void sent.push(job) },
      });
    }
    // due from turn 20 on; enqueued at turn 20, then once per further period (30, 40, 50, 60)
    expect(sent.map((j) => j.upto)).toEqual([20, 40, 60, 80, 100]);
    expect(sent[0]).toEqual({
      type: "summarize",
      agent_id: AGENT,
      thread_id: THREAD,
      upto: 20,
      upto_id: "a10",
    });
  });

  it("R7.5 enqueueing never rejects, and never waits for a local run; summarize off enqueues nothing", async () => {
    const thread = Array.from({ length: 20 }, (_, i) => plainTurn(i + 1)).flat();
    const base = { config: config(), agentId: AGENT, threadId: THREAD, thread, cache: undefined };
    const failedSend = await enqueueSummaryIfDue({
      ...base,
      queue: { send: () => Promise.reject(new Error("queue unavailable")) },
    });
    expect(failedSend).toBeUndefined(); // logged, not thrown

    let release: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    const background: Promise<unknown>[] = [];
    const job = await enqueueSummaryIfDue({
      ...base,
      runLocally: () => running, // a summary that has not finished
      waitUntil: (p) => background.push(p),
    });
    expect(job?.upto).toBe(20); // resolved while the local run is still pending
    expect(background).toHaveLength(1);
    release();
    await Promise.all(background);

    expect(summaryJobFor({ ...base, config: config({ summarize: false }) })).toBeUndefined();
  });
});
