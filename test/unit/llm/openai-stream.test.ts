import { type AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { describe, expect, it } from "vitest";
import { OpenAICompatibleChatModel } from "../../../src/llm/openai-compatible.ts";
import { failure, weather } from "./fixtures.ts";
import { sseFetch, sseText } from "./sse-fixtures.ts";

const KEY = "sk-test-SECRET-0123456789";

function chunk(delta: Record<string, unknown>, finish: string | null = null) {
  return {
    id: "chatcmpl-9",
    object: "chat.completion.chunk",
    model: "gpt-test",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}
const USAGE = {
  id: "chatcmpl-9",
  model: "gpt-test",
  choices: [],
  usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
};

function model(fetch: ReturnType<typeof sseFetch>["fetch"]) {
  return new OpenAICompatibleChatModel({ model: "gpt-test", apiKey: KEY, fetch });
}

async function collect(
  stream: AsyncIterable<AIMessageChunk> | Promise<AsyncIterable<AIMessageChunk>>,
) {
  const chunks: AIMessageChunk[] = [];
  for await (const c of await stream) chunks.push(c);
  return { chunks, whole: chunks.reduce((a, b) => concat(a, b)) };
}

describe("OpenAICompatibleChatModel streaming", () => {
  it("R12.1 streams text as it arrives, with usage and the finish reason at the end", async () => {
    const server = sseFetch(
      sseText([
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "Hel" }),
        chunk({ content: "lo, 세" }),
        chunk({ content: "계" }),
        chunk({}, "stop"),
        USAGE,
        "[DONE]",
      ]),
      { size: 5 },
    );
    const { chunks, whole } = await collect(model(server.fetch).stream([new HumanMessage("hi")]));
    expect(chunks.map((c) => c.content).filter((t) => t !== "")).toEqual(["Hel", "lo, 세", "계"]);
    expect(whole.content).toBe("Hello, 세계");
    expect(whole.usage_metadata).toMatchObject({
      input_tokens: 11,
      output_tokens: 3,
      total_tokens: 14,
    });
    expect(whole.response_metadata).toMatchObject({
      finish_reason: "stop",
      model_name: "gpt-test",
      model_provider: "openai-compatible",
    });
    expect(server.bodies[0]).toMatchObject({
      model: "gpt-test",
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("R12.1 assembles tool calls from argument pieces split across events (two calls by index)", async () => {
    const server = sseFetch(
      sseText([
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "call_a",
              type: "function",
              function: { name: "weather", arguments: "" },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: "call_b",
              type: "function",
              function: { name: "weather", arguments: '{"city"' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: ':"Seoul"}' } }] }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const bound = model(server.fetch).bindTools([weather]);
    const { chunks, whole } = await collect(bound.stream([new HumanMessage("weather?")]));
    expect(chunks.every((c) => c.content === "")).toBe(true);
    expect(whole.tool_calls).toEqual([
      { id: "call_a", name: "weather", args: { city: "Paris" }, type: "tool_call" },
      { id: "call_b", name: "weather", args: { city: "Seoul" }, type: "tool_call" },
    ]);
    expect(server.bodies[0]?.tools).toHaveLength(1);
  });

  it("R12.1 an error in the middle of the stream fails the call with a clear LlamonError", async () => {
    const server = sseFetch(
      sseText([
        chunk({ content: "partial " }),
        {
          error: {
            message: "The server had an error while processing your request",
            type: "server_error",
          },
        },
      ]),
    );
    const seen: string[] = [];
    const e = await failure(
      (async () => {
        for await (const c of await model(server.fetch).stream([new HumanMessage("hi")])) {
          seen.push(String(c.content));
        }
      })(),
      KEY,
    );
    expect(seen).toEqual(["partial "]);
    expect(e.code).toBe("MODEL_FAILED");
    expect(e.details).toMatchObject({ reason: "unavailable", retryable: true });
    expect(e.message).toContain("The server had an error while processing your request");
  });

  it("R12.1 a stream cut before the model finished, and tool arguments that are not JSON, are errors", async () => {
    const cut = sseFetch(sseText([chunk({ content: "Hel" })]));
    const e1 = await failure(collect(model(cut.fetch).stream([new HumanMessage("hi")])));
    expect(e1.message).toContain("ended before the model finished");
    expect(e1.details.retryable).toBe(true);

    const bad = sseFetch(
      sseText([
        chunk({
          tool_calls: [
            { index: 0, id: "c1", function: { name: "weather", arguments: "{city: Paris" } },
          ],
        }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const e2 = await failure(
      collect(
        model(bad.fetch)
          .bindTools([weather])
          .stream([new HumanMessage("x")]),
      ),
    );
    expect(e2.code).toBe("MODEL_FAILED");
    expect(e2.message).toContain(
      'called tool "weather" (id c1) with arguments that is not valid JSON',
    );
  });

  it("R12.1 a refused streaming request is mapped like a whole one (429 → retryable, key never shown)", async () => {
    const server = sseFetch(JSON.stringify({ error: { message: `slow down ${KEY}` } }), {
      status: 429,
    });
    const e = await failure(collect(model(server.fetch).stream([new HumanMessage("hi")])), KEY);
    expect(e.details).toMatchObject({ reason: "rate_limited", retryable: true, status: 429 });
  });

  it("R12.1 invoke() (message/send) still asks for a whole answer", async () => {
    const bodies: Record<string, unknown>[] = [];
    const m = new OpenAICompatibleChatModel({
      model: "gpt-test",
      fetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        return Response.json({
          choices: [
            { index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" },
          ],
        });
      },
    });
    expect((await m.invoke([new HumanMessage("hi")])).content).toBe("whole");
    expect(bodies[0]?.stream).toBeUndefined();
  });
});
