import { type AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { describe, expect, it } from "vitest";
import { type WorkersAIBinding, WorkersAIChatModel } from "../../../src/llm/workers-ai.ts";
import { failure, weather } from "./fixtures.ts";
import { pieces, sseText, streamOf } from "./sse-fixtures.ts";

const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** A fake `env.AI` whose streaming answer is `text` as SSE bytes (or `whole` as an object). */
function fakeAI(answer: string | object) {
  const inputs: Record<string, unknown>[] = [];
  const binding: WorkersAIBinding = {
    async run(_model, input) {
      inputs.push(input as Record<string, unknown>);
      return typeof answer === "string" ? streamOf(pieces(answer, 6)) : answer;
    },
  };
  return { binding, inputs };
}

async function collect(stream: Promise<AsyncIterable<AIMessageChunk>>) {
  const chunks: AIMessageChunk[] = [];
  for await (const c of await stream) chunks.push(c);
  return { chunks, whole: chunks.reduce((a, b) => concat(a, b)) };
}

describe("WorkersAIChatModel streaming", () => {
  it("R12.1 streams `response` pieces from the binding's event stream, usage at the end", async () => {
    const ai = fakeAI(
      sseText([
        { response: "Hi", p: "abc" },
        { response: " there" },
        { response: "", usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
        "[DONE]",
      ]),
    );
    const m = new WorkersAIChatModel({ binding: ai.binding, model: MODEL });
    const { chunks, whole } = await collect(m.stream([new HumanMessage("hi")]));
    expect(chunks.map((c) => c.content).filter((t) => t !== "")).toEqual(["Hi", " there"]);
    expect(whole.content).toBe("Hi there");
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 5, output_tokens: 2 });
    expect(ai.inputs[0]).toMatchObject({ stream: true, max_tokens: 1024 });
  });

  it("R12.1 tool calls: whole (legacy, object arguments) and in OpenAI-style pieces (newer models)", async () => {
    const legacy = fakeAI(
      sseText([
        { response: "", tool_calls: [{ name: "weather", arguments: { city: "Paris" } }] },
        "[DONE]",
      ]),
    );
    const a = await collect(
      new WorkersAIChatModel({ binding: legacy.binding, model: MODEL })
        .bindTools([weather])
        .stream([new HumanMessage("weather?")]),
    );
    expect(a.whole.tool_calls).toMatchObject([
      { name: "weather", args: { city: "Paris" }, type: "tool_call" },
    ]);
    expect(a.whole.tool_calls?.[0]?.id).toMatch(/^call_/);

    const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
    const newer = fakeAI(
      sseText([
        delta({
          tool_calls: [{ index: 0, id: "c9", function: { name: "weather", arguments: '{"ci' } }],
        }),
        delta({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }),
        delta({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const b = await collect(
      new WorkersAIChatModel({ binding: newer.binding, model: MODEL })
        .bindTools([weather])
        .stream([new HumanMessage("weather?")]),
    );
    expect(b.whole.tool_calls).toEqual([
      { id: "c9", name: "weather", args: { city: "Oslo" }, type: "tool_call" },
    ]);
  });

  it("R12.1 an error event mid-stream, and a stream without [DONE], are clear errors", async () => {
    const broken = fakeAI(
      sseText([{ response: "Hi" }, { errors: [{ message: "3040: capacity" }] }]),
    );
    const e = await failure(
      collect(
        new WorkersAIChatModel({ binding: broken.binding, model: MODEL }).stream([
          new HumanMessage("hi"),
        ]),
      ),
    );
    expect(e.code).toBe("MODEL_FAILED");
    expect(e.message).toContain("3040: capacity");

    const cut = fakeAI(sseText([{ response: "Hi" }]));
    const e2 = await failure(
      collect(
        new WorkersAIChatModel({ binding: cut.binding, model: MODEL }).stream([
          new HumanMessage("hi"),
        ]),
      ),
    );
    expect(e2.message).toContain("ended before the model finished");
  });

  it("R12.1 a model that answers a streaming call with a whole answer is read as one", async () => {
    const ai = fakeAI({ response: "all at once" });
    const { whole } = await collect(
      new WorkersAIChatModel({ binding: ai.binding, model: MODEL }).stream([
        new HumanMessage("hi"),
      ]),
    );
    expect(whole.content).toBe("all at once");
  });
});
