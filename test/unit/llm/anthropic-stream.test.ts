import { type AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { describe, expect, it } from "vitest";
import { AnthropicChatModel } from "../../../src/llm/anthropic.ts";
import { failure, weather } from "./fixtures.ts";
import { sseFetch } from "./sse-fixtures.ts";

const KEY = "sk-ant-SECRET-0123456789";

/** Anthropic names each event and repeats the name as `type` in its data. */
function events(...list: Record<string, unknown>[]): string {
  return list.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join("");
}

const START = {
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [],
    usage: {
      input_tokens: 20,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 0,
      output_tokens: 1,
    },
  },
};

function model(fetch: ReturnType<typeof sseFetch>["fetch"]) {
  return new AnthropicChatModel({ model: "claude-test", apiKey: KEY, fetch });
}

async function collect(stream: Promise<AsyncIterable<AIMessageChunk>>) {
  const chunks: AIMessageChunk[] = [];
  for await (const c of await stream) chunks.push(c);
  return { chunks, whole: chunks.reduce((a, b) => concat(a, b)) };
}

describe("AnthropicChatModel streaming", () => {
  it("R12.1 streams text deltas, then usage (input from message_start, output from message_delta)", async () => {
    const server = sseFetch(
      events(
        START,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "ping" },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Bon" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "jour" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 7 },
        },
        { type: "message_stop" },
      ),
      { size: 9 },
    );
    const { chunks, whole } = await collect(model(server.fetch).stream([new HumanMessage("hi")]));
    expect(chunks.map((c) => c.content).filter((t) => t !== "")).toEqual(["Bon", "jour"]);
    expect(whole.content).toBe("Bonjour");
    expect(whole.usage_metadata).toMatchObject({
      input_tokens: 120,
      output_tokens: 7,
      total_tokens: 127,
      input_token_details: { cache_read: 100, cache_creation: 0 },
    });
    expect(whole.response_metadata).toMatchObject({ stop_reason: "end_turn", id: "msg_1" });
    expect(server.bodies[0]).toMatchObject({ model: "claude-test", stream: true });
  });

  it("R12.1 assembles a tool_use block from input_json_delta pieces; its preamble text stays text", async () => {
    const server = sseFetch(
      events(
        START,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Checking." } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "toolu_1", name: "weather", input: {} },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: "" },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: '{"city": "Pa' },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: 'ris"}' },
        },
        { type: "content_block_stop", index: 1 },
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 30 } },
        { type: "message_stop" },
      ),
    );
    const { whole } = await collect(
      model(server.fetch)
        .bindTools([weather])
        .stream([new HumanMessage("weather in Paris?")]),
    );
    expect(whole.content).toBe("Checking.");
    expect(whole.tool_calls).toEqual([
      { id: "toolu_1", name: "weather", args: { city: "Paris" }, type: "tool_call" },
    ]);
  });

  it("R12.1 an error event mid-stream (overloaded) fails the call with a clear, retryable LlamonError", async () => {
    const server = sseFetch(
      events(
        START,
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      ),
    );
    const e = await failure(collect(model(server.fetch).stream([new HumanMessage("hi")])), KEY);
    expect(e.code).toBe("MODEL_FAILED");
    expect(e.details).toMatchObject({ reason: "unavailable", retryable: true });
    expect(e.message).toContain("Overloaded");
  });

  it("R12.1 a stream that ends before message_stop is an error", async () => {
    const server = sseFetch(
      events(START, {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "Hi" },
      }),
    );
    const e = await failure(collect(model(server.fetch).stream([new HumanMessage("hi")])));
    expect(e.message).toContain("ended before the model finished");
  });
});
