/**
 * A second tool call in one conversation must run. LangGraph's ToolNode skips a
 * call whose id already has a ToolMessage in the thread, so a model (the offline model, or a
 * provider that numbers its calls per answer) reusing an id looped until GraphRecursionError.
 * Tool-call ids are therefore made unique per call, whatever the model sends.
 */
import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../../src/agent/define.ts";
import { runTurn, type TurnDeps } from "../../../src/agent/turn/pipeline.ts";
import { uniqueToolCallIds } from "../../../src/agent/turn/tool-call-ids.ts";
import { OfflineChatModel, offlineReply } from "../../../src/llm/offline.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { readThreadMessages } from "../../../src/store/delta.ts";
import { InMemorySaver } from "../../../src/store/memory-saver.ts";

const echo = tool(async ({ text }: { text: string }) => `echo:${text}`, {
  name: "echo",
  description: "echo the text",
  schema: z.object({ text: z.string() }),
});
const agent = defineAgent({
  name: "tools",
  description: "for tests",
  system: "You are a helpful agent.",
  tools: [echo],
});

/** A provider that numbers its tool calls per answer, as some OpenAI-compatible servers do. */
class SameIdModel extends BaseChatModel {
  constructor(fields: BaseChatModelParams = {}) {
    super(fields);
  }
  _llmType(): string {
    return "same-id";
  }
  override bindTools(): SameIdModel {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages.at(-1);
    const message = ToolMessage.isInstance(last)
      ? new AIMessage({ content: `done: ${String(last.content)}` })
      : new AIMessage({
          content: "",
          tool_calls: [{ id: "call_0", name: "echo", args: { text: "x" }, type: "tool_call" }],
        });
    return { generations: [{ message, text: String(message.content) }] };
  }
}

async function twoToolTurns(model: BaseChatModel) {
  const saver = new InMemorySaver({ agentId: "tools" });
  const deps: TurnDeps = {
    agent,
    config: resolveMemoryConfig({}).config,
    model,
    checkpointer: saver,
  };
  const first = await runTurn(deps, { threadId: "t", text: '/tool echo {"text":"one"}' });
  const second = await runTurn(deps, { threadId: "t", text: '/tool echo {"text":"two"}' });
  const stored = (await readThreadMessages(saver, { configurable: { thread_id: "t" } })).messages;
  return { first, second, stored };
}

describe("tool-call ids", () => {
  it("the offline model's second /tool call in one conversation runs the tool", async () => {
    const { first, second, stored } = await twoToolTurns(new OfflineChatModel());
    expect(first.reply).toContain("tool results: echo:one");
    expect(second.reply).toContain("tool results: echo:two");
    const ids = stored.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []));
    expect(ids).toHaveLength(2);
    expect(new Set(ids.map((c) => c.id)).size).toBe(2);
  });

  it("a provider that reuses a tool-call id across answers still gets each call run", async () => {
    const { second, stored } = await twoToolTurns(new SameIdModel());
    expect(second.reply).toBe("done: echo:x");
    const results = stored.filter((m) => ToolMessage.isInstance(m)) as ToolMessage[];
    expect(results).toHaveLength(2);
    expect(new Set(results.map((m) => m.tool_call_id)).size).toBe(2);
  });

  it("the offline model gives every call its own id, within an answer and across answers", () => {
    const ask = [new HumanMessage('/tool echo {"text":"a"}\n/tool echo {"text":"b"}')];
    const one = (offlineReply(ask, ["echo"]).tool_calls ?? []).map((c) => c.id);
    const two = (offlineReply(ask, ["echo"]).tool_calls ?? []).map((c) => c.id);
    expect(one).toHaveLength(2);
    expect(new Set([...one, ...two]).size).toBe(4);
  });

  it("uniqueToolCallIds keeps fresh ids, renames ids the thread already used or the answer repeats", () => {
    const thread = [
      new AIMessage({
        content: "",
        tool_calls: [{ id: "call_0", name: "echo", args: {}, type: "tool_call" }],
      }),
      new ToolMessage({ content: "r", tool_call_id: "call_0" }),
    ];
    const reply = new AIMessage({
      content: "",
      tool_calls: [
        { id: "call_0", name: "echo", args: { n: 1 }, type: "tool_call" },
        { id: "fresh", name: "echo", args: { n: 2 }, type: "tool_call" },
        { id: "fresh", name: "echo", args: { n: 3 }, type: "tool_call" },
        { name: "echo", args: { n: 4 }, type: "tool_call" },
      ],
    });
    const fixed = uniqueToolCallIds(reply, thread);
    const ids = (fixed.tool_calls ?? []).map((c) => c.id);
    expect(ids[1]).toBe("fresh");
    expect(ids[0]).not.toBe("call_0");
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect((fixed.tool_calls ?? []).map((c) => c.args)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
      { n: 4 },
    ]);
    const plain = new AIMessage("no tools");
    expect(uniqueToolCallIds(plain, thread)).toBe(plain);
  });
});
