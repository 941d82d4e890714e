/**
 * The summary job's bounded read (queue/summarize.ts): it reads the head, then only
 * [covers, end] of the transcript, at most `maxMessages` per job; a cut at the cap moves back
 * to the start of a tool exchange, and successive jobs cover every message once.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { parseSummaryCache, SUMMARY_KEY } from "../../../src/memory/summary.ts";
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
