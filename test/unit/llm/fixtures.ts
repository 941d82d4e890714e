/**
 * What the adapter tests share: the `weather` tool and its wire form, the check of a
 * failed call, and the smallest LangGraph agent loop (agent → ToolNode → agent).
 */
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { expect } from "vitest";
import { z } from "zod";
import { isLlamonError, type LlamonError } from "../../../src/errors.ts";
import type { ModelErrorDetails } from "../../../src/llm/http.ts";

export const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
  name: "weather",
  description: "Current weather of a city",
  schema: z.object({ city: z.string().describe("City name") }),
});

/** The JSON Schema of `weather`'s arguments, as every adapter sends it. */
export const WEATHER_PARAMETERS = {
  type: "object",
  properties: { city: { type: "string", description: "City name" } },
  required: ["city"],
  additionalProperties: false,
};

/** `weather` in OpenAI function format (OpenAI-compatible and Workers AI). */
export const WEATHER_WIRE = {
  type: "function",
  function: {
    name: "weather",
    description: "Current weather of a city",
    parameters: WEATHER_PARAMETERS,
  },
};

/**
 * The LlamonError `promise` rejects with; fails the test if it resolves or rejects with
 * anything else. With `secret`, also checks the error never shows it.
 */
export async function failure(
  promise: Promise<unknown>,
  secret?: string,
): Promise<LlamonError<ModelErrorDetails>> {
  try {
    await promise;
  } catch (error) {
    expect(isLlamonError(error)).toBe(true);
    const e = error as LlamonError<ModelErrorDetails>;
    if (secret !== undefined) {
      expect(e.message).not.toContain(secret);
      expect(JSON.stringify(e.toJSON())).not.toContain(secret);
    }
    return e;
  }
  throw new Error("expected the call to fail");
}

/**
 * Run `model` (tools already bound) in a LangGraph agent loop with a ToolNode of `weather`
 * until it answers without tool calls, starting from one user message; `system` is put
 * before the messages on every call. Returns the final state's messages.
 */
export async function runWeatherLoop(
  model: { invoke(messages: BaseMessage[]): Promise<BaseMessage> },
  question: string,
  system?: BaseMessage,
): Promise<BaseMessage[]> {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("agent", async (s: typeof MessagesAnnotation.State) => ({
      messages: [await model.invoke(system ? [system, ...s.messages] : s.messages)],
    }))
    .addNode("tools", new ToolNode([weather]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
  const out = await graph.invoke({ messages: [new HumanMessage(question)] });
  return out.messages;
}
