/**
 * The summary job's bounded read (queue/summarize.ts): it reads the head, then only
 * [covers, end] of the transcript, at most `maxMessages` per job; a cut at the cap moves back
 * to the start of a tool exchange, and successive jobs cover every message once.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { effectiveCovers, parseSummaryCache, SUMMARY_KEY } from "../../../src/memory/summary.ts";
import { EVICTED_HEADER } from "../../../src/memory/summary-input.ts";
import { runSummarizeJob, type SummaryThread } from "../../../src/queue/summarize.ts";
import { createMapMemory } from "../../../src/store/do-memory.ts";

/** user, tool call, tool result, answer: one turn of 4 messages (3 groups). */
function toolTurn(i: number): BaseMessage[] {
  return [
    new HumanMessage({ id: `u${i}`, content: `question ${i}` }),
    new AIMessage({
      id: `c${i}`,
      content: "",
      tool_calls: [{ id: `call${i}`, name: "lookup", args: { i }, type: "tool_call" }],
    }),
    new ToolMessage({ id: `r${i}`, content: `result ${i}`, tool_call_id: `call${i}` }),
    new AIMessage({ id: `a${i}`, content: `answer ${i}` }),
  ];
}

/** A thread whose first `offset` messages are a transcript read by range, counting reads. */
function splitThread(messages: readonly BaseMessage[], offset: number) {
  const reads: [number, number][] = [];
  const thread: SummaryThread = {
    head: async () => ({ messages: messages.slice(offset), offset }),
    range: async (from, to) => {
      reads.push([from, to]);
      return messages.slice(from, Math.min(to, offset));
    },
  };
  return { thread, reads };
}

describe("summary job: bounded range reads", () => {
  it("R7.2 a cap inside a tool exchange ends the job at the exchange's start; the next job goes on from there", async () => {
    const messages = Array.from({ length: 30 }, (_, i) => toolTurn(i)).flat();
    const offset = 100;
    const { thread, reads } = splitThread(messages, offset);
    const memory = createMapMemory(new Map(), "a");
    const model = new OfflineChatModel() as unknown as BaseChatModel;
    const job = { type: "summarize" as const, agent_id: "a", thread_id: "t", upto: offset };
    const covered: number[] = [];
    for (let run = 0; run < 20; run++) {
      reads.length = 0;
      const outcome = await runSummarizeJob({ thread, memory, model, maxMessages: 10 }, job);
      if (outcome.status === "skipped") break;
      // [from, from + 10] at most: the range plus the message after it.
      for (const [from, to] of reads) expect(to - from).toBeLessThanOrEqual(11);
      covered.push(outcome.covers);
      // Never inside a tool exchange: the next job starts at a group's first message.
      expect(messages[outcome.covers]?.getType()).not.toBe("tool");
      expect(outcome.covers - (covered.at(-1) ?? 0)).toBeLessThanOrEqual(10);
    }
    // Position 10 is the tool result of the call at 9: the first job stops before the call.
    expect(covered[0]).toBe(9);
    expect(covered.at(-1)).toBe(offset);
    const cache = parseSummaryCache(await memory.get("t", SUMMARY_KEY));
    expect(cache).toMatchObject({ covers: offset, covers_id: messages[offset - 1]?.id });
  });

  it("R7.5 a job whose upto_id is no longer at its position is skipped", async () => {
    const messages = Array.from({ length: 10 }, (_, i) => toolTurn(i)).flat();
    const { thread } = splitThread(messages, 24);
    const memory = createMapMemory(new Map(), "a");
    const model = new OfflineChatModel() as unknown as BaseChatModel;
    const job = { type: "summarize" as const, agent_id: "a", thread_id: "t", upto: 20 };
    await expect(
      runSummarizeJob({ thread, memory, model }, { ...job, upto_id: "a3" }),
    ).resolves.toMatchObject({ status: "skipped", reason: "not_in_thread" });
    await expect(
      runSummarizeJob({ thread, memory, model }, { ...job, upto_id: "a4" }),
    ).resolves.toMatchObject({ status: "summarized", from: 0, covers: 20 });
  });
});

/** The offline model as the summarizer, keeping the evicted part of each input. */
class RecordingModel extends OfflineChatModel {
  readonly inputs: string[] = [];
  override async _generate(...args: Parameters<OfflineChatModel["_generate"]>) {
    this.inputs.push(String(args[0].at(-1)?.content).split(EVICTED_HEADER).at(-1) ?? "");
    return super._generate(...args);
  }
}

/** A question answered by `calls` parallel tool calls: one group of calls + 1 messages. */
function wideToolTurn(i: number, calls: number): BaseMessage[] {
  const ids = Array.from({ length: calls }, (_, k) => `w${i}-${k}`);
  return [
    new HumanMessage({ id: `wu${i}`, content: `wide question ${i}` }),
    new AIMessage({
      id: `wc${i}`,
      content: "",
      tool_calls: ids.map((id, k) => ({ id, name: "lookup", args: { k }, type: "tool_call" })),
    }),
    ...ids.map(
      (id, k) =>
        new ToolMessage({ id: `wr${i}-${k}`, content: `wide result ${i}.${k}`, tool_call_id: id }),
    ),
    new AIMessage({ id: `wa${i}`, content: `wide answer ${i}` }),
  ];
}

describe("summary job: a message group longer than the cap", () => {
  it("R7.2 R3.2 a tool exchange longer than the cap is summarized over several bounded jobs, each message once, covers only ever at a group boundary", async () => {
    const messages = [
      ...toolTurn(0),
      ...wideToolTurn(1, 23), // positions 4 … 29: the group [5, 29) is 24 messages
      ...toolTurn(2),
      ...wideToolTurn(3, 12), // a group of 13 at 35
      ...toolTurn(4),
      ...toolTurn(5),
    ];
    const offset = messages.length - 4;
    const { thread, reads } = splitThread(messages, offset);
    const memory = createMapMemory(new Map(), "a");
    const model = new RecordingModel();
    const cap = 10;
    const job = { type: "summarize" as const, agent_id: "a", thread_id: "t", upto: offset };
    let reached = 0;
    for (let run = 0; run < 30; run++) {
      reads.length = 0;
      const outcome = await runSummarizeJob({ thread, memory, model, maxMessages: cap }, job);
      if (outcome.status === "skipped") {
        expect(outcome.reason).toBe("already_covered");
        break;
      }
      // Each job reads its range plus the message after it, never the whole group.
      for (const [from, to] of reads) expect(to - from).toBeLessThanOrEqual(cap + 1);
      expect(outcome.from).toBe(reached);
      const now = outcome.covers + (outcome.partial ?? 0);
      expect(now - outcome.from).toBeGreaterThan(0);
      expect(now - outcome.from).toBeLessThanOrEqual(cap);
      reached = now;
      // The stored covers is always a group boundary (trim and the schedule rely on it).
      const cache = parseSummaryCache(await memory.get("t", SUMMARY_KEY));
      expect(messages[cache?.covers ?? 0]?.getType()).not.toBe("tool");
      expect(cache?.covers_id).toBe(
        (cache?.covers ?? 0) > 0 ? messages[(cache?.covers ?? 0) - 1]?.id : undefined,
      );
      expect(cache?.partial).toBe(outcome.partial);
    }
    expect(reached).toBe(offset);
    const cache = parseSummaryCache(await memory.get("t", SUMMARY_KEY));
    expect(cache).toMatchObject({ covers: offset, covers_id: messages[offset - 1]?.id });
    expect(cache?.partial).toBeUndefined();
    // Every tool result of both wide exchanges went to the summarizer exactly once.
    const sent = model.inputs.join("\n").split("\n");
    for (const [i, calls] of [
      [1, 23],
      [3, 12],
    ] as const) {
      for (let k = 0; k < calls; k++) {
        const line = `tool result: wide result ${i}.${k}`;
        expect(sent.filter((l) => l === line).length, line).toBe(1);
      }
    }
    expect(sent.filter((l) => l === "user: wide question 3")).toHaveLength(1);
  });

  it("R7.5 a job inside a long group, delivered twice, does no double work; the schedule still sees the group as not covered", async () => {
    const messages = [...toolTurn(0), ...wideToolTurn(1, 30), ...toolTurn(2), ...toolTurn(3)];
    const offset = messages.length - 4;
    const { thread } = splitThread(messages, offset);
    const memory = createMapMemory(new Map(), "a");
    const model = new RecordingModel();
    const job = { type: "summarize" as const, agent_id: "a", thread_id: "t", upto: offset };
    const deps = { thread, memory, model, maxMessages: 10 };
    // [0, 5) then 10 of the group at 5.
    expect(await runSummarizeJob(deps, job)).toMatchObject({ covers: 5 });
    const inside = await runSummarizeJob(deps, job);
    expect(inside).toMatchObject({ status: "summarized", from: 5, covers: 5, partial: 10 });
    const cache = parseSummaryCache(await memory.get("t", SUMMARY_KEY));
    expect(cache).toMatchObject({ covers: 5, covers_id: "wu1", partial: 10 });
    // The R7.1 schedule and trim read `covers`: the half-summarized group is not covered.
    expect(effectiveCovers(messages, cache)).toBe(5);
    // A job whose upto is already reached by the cache is skipped without a model call.
    const calls = model.inputs.length;
    expect(
      await runSummarizeJob(deps, { ...job, upto: 5, upto_id: messages[4]?.id as string }),
    ).toMatchObject({ status: "skipped", reason: "already_covered" });
    expect(model.inputs.length).toBe(calls);
  });
});
