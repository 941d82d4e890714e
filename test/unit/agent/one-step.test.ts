/**
 * An agent without tools runs its turn as one LangGraph step (graph.ts oneStepTurn): each
 * Pregel step costs task preparation, config merging and an in-memory checkpoint, and a turn
 * had three (prepare, agent, persist). The one step must add the same messages as the nodes
 * did, and an answered retry must add nothing.
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../../src/agent/define.ts";
import { buildAgentGraph, TURN_NODE } from "../../../src/agent/turn/graph.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { createMemoryLogger } from "../../../src/log.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";

const agent = defineAgent({ name: "One step", description: "for tests", system: "Be brief." });
const echo = tool(async ({ text }: { text: string }) => `echo:${text}`, {
  name: "echo",
  description: "echo the text",
  schema: z.object({ text: z.string() }),
});

function graphFor(tools: boolean, userMessageId: string, checkpointer = new MemorySaver()) {
  return buildAgentGraph({
    agent: tools ? defineAgent({ ...agent, tools: [echo] }) : agent,
    config: resolveMemoryConfig({ code: { window_size: 4 } }).config,
    model: new OfflineChatModel(),
    checkpointer,
    log: createMemoryLogger(),
    memory: () => undefined,
    userMessageId,
  });
}

async function updates(graph: ReturnType<typeof graphFor>, id: string, text: string) {
  const seen: string[] = [];
  const stream = await graph.stream(
    { incoming: new HumanMessage({ content: text, id }) },
    { configurable: { thread_id: "t" }, durability: "exit", streamMode: "updates" },
  );
  for await (const chunk of stream) seen.push(...Object.keys(chunk as object));
  return seen;
}

describe("a turn without tools is one graph step", () => {
  it("R3.2 prepare, the model call and persist run as one step and add the user message and the reply", async () => {
    const saver = new MemorySaver();
    expect(await updates(graphFor(false, "m1", saver), "m1", "hello")).toEqual([TURN_NODE]);
    expect(await updates(graphFor(false, "m2", saver), "m2", "again")).toEqual([TURN_NODE]);
    const state = await graphFor(false, "m3", saver).getState({ configurable: { thread_id: "t" } });
    const messages = state.values.messages as BaseMessage[];
    expect(messages.map((m) => m.getType())).toEqual(["human", "ai", "human", "ai"]);
    expect(messages.map((m) => m.id).slice(0, 3)).toEqual(["m1", expect.any(String), "m2"]);
    expect(AIMessage.isInstance(messages[3])).toBe(true);
  });

  it("an answered retry adds nothing and calls no model", async () => {
    const saver = new MemorySaver();
    await updates(graphFor(false, "m1", saver), "m1", "hello");
    const model = new OfflineChatModel();
    const graph = buildAgentGraph({
      agent,
      config: resolveMemoryConfig({ code: {} }).config,
      model,
      checkpointer: saver,
      log: createMemoryLogger(),
      memory: () => undefined,
      userMessageId: "m1",
    });
    await updates(graph, "m1", "hello");
    expect(model.calls).toHaveLength(0);
    const state = await graph.getState({ configurable: { thread_id: "t" } });
    expect((state.values.messages as BaseMessage[]).map((m) => m.getType())).toEqual([
      "human",
      "ai",
    ]);
  });

  it("an agent with tools keeps a step per node (the tool loop needs them)", async () => {
    const nodes = await updates(graphFor(true, "m1"), "m1", '/tool echo {"text":"x"}');
    expect(nodes).toEqual(["prepare", "agent", "tools", "agent", "persist"]);
  });
});
