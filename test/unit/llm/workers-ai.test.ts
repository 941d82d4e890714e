import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { type WorkersAIBinding, WorkersAIChatModel } from "../../../src/llm/workers-ai.ts";
import { failure, runWeatherLoop, WEATHER_WIRE, weather } from "./fixtures.ts";

const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

interface RunCall {
  model: string;
  input: Record<string, unknown>;
  options: Record<string, unknown>;
}

/** A fake `env.AI` that records calls and answers from a queue (the last answer repeats). */
function fakeAI(...answers: (unknown | (() => Promise<unknown>))[]) {
  const calls: RunCall[] = [];
  const binding: WorkersAIBinding = {
    run(model, input, options) {
      calls.push({
        model,
        input: input as Record<string, unknown>,
        options: options as Record<string, unknown>,
      });
      const next = answers.length > 1 ? answers.shift() : answers[0];
      return typeof next === "function"
        ? (next as () => Promise<unknown>)()
        : Promise.resolve(next);
    },
  };
  return { binding, calls };
}

describe("WorkersAIChatModel", () => {
  it("runs the model with messages, max_tokens default 1024 and temperature", async () => {
    const ai = fakeAI({
      response: "hello",
      usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
    });
    const reply = await new WorkersAIChatModel({
      binding: ai.binding,
      model: MODEL,
      temperature: 0.3,
    }).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage({
        content: [
          { type: "text", text: "hi " },
          { type: "text", text: "there" },
        ],
      }),
    ]);
    expect(ai.calls[0]?.model).toBe(MODEL);
    expect(ai.calls[0]?.input).toEqual({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi there" },
      ],
      max_tokens: 1024,
      temperature: 0.3,
    });
    expect(ai.calls[0]?.options.signal).toBeInstanceOf(AbortSignal);
    expect(reply.content).toBe("hello");
    expect(reply.usage_metadata).toEqual({ input_tokens: 9, output_tokens: 2, total_tokens: 11 });
  });

  it("sends tools in function format and maps a tool round trip", async () => {
    const ai = fakeAI({ response: "Paris sunny, Rome rainy." });
    const model = new WorkersAIChatModel({
      binding: ai.binding,
      model: MODEL,
      maxTokens: 200,
      runOptions: { gateway: { id: "gw" } },
    });
    await model.bindTools([weather]).invoke([
      new HumanMessage("Paris and Rome?"),
      new AIMessage({
        content: "",
        tool_calls: [
          { id: "c1", name: "weather", args: { city: "Paris" }, type: "tool_call" },
          { id: "c2", name: "weather", args: { city: "Rome" }, type: "tool_call" },
        ],
      }),
      new ToolMessage({ tool_call_id: "c1", name: "weather", content: "sunny in Paris" }),
      new ToolMessage({ tool_call_id: "c2", name: "weather", content: "rain in Rome" }),
    ]);
    const call = ai.calls[0] as RunCall;
    expect(call.options.gateway).toEqual({ id: "gw" });
    expect(call.input).toEqual({
      messages: [
        { role: "user", content: "Paris and Rome?" },
        {
          role: "assistant",
          content:
            '[{"name":"weather","parameters":{"city":"Paris"}},{"name":"weather","parameters":{"city":"Rome"}}]',
          tool_calls: [
            {
              id: "c1",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Paris"}' },
            },
            {
              id: "c2",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "c1", name: "weather", content: "sunny in Paris" },
        { role: "tool", tool_call_id: "c2", name: "weather", content: "rain in Rome" },
      ],
      tools: [WEATHER_WIRE],
      max_tokens: 200,
    });
  });

  it("parses legacy tool_calls (object arguments, no ids) with fresh unique ids", async () => {
    const ai = fakeAI({
      response: null,
      tool_calls: [
        { name: "weather", arguments: { city: "Paris" } },
        { name: "weather", arguments: '{"city":"Rome"}' },
      ],
    });
    const reply = await new WorkersAIChatModel({ binding: ai.binding, model: MODEL })
      .bindTools([weather])
      .invoke("hi");
    expect(reply.content).toBe("");
    expect(reply.tool_calls?.map((c) => [c.name, c.args])).toEqual([
      ["weather", { city: "Paris" }],
      ["weather", { city: "Rome" }],
    ]);
    const ids = reply.tool_calls?.map((c) => c.id) ?? [];
    expect(ids[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it("parses OpenAI-style answers (choices) of newer models", async () => {
    const ai = fakeAI({
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "chatcmpl-tool-1",
                type: "function",
                function: { name: "weather", arguments: '{"city":"Oslo"}' },
              },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
    });
    const reply = await new WorkersAIChatModel({ binding: ai.binding, model: MODEL }).invoke("hi");
    expect(reply.tool_calls).toEqual([
      { id: "chatcmpl-tool-1", name: "weather", args: { city: "Oslo" }, type: "tool_call" },
    ]);
  });

  it("runs a LangGraph tool loop end to end", async () => {
    const ai = fakeAI(
      { response: "", tool_calls: [{ name: "weather", arguments: { city: "Paris" } }] },
      { response: "It is sunny in Paris." },
    );
    const messages = await runWeatherLoop(
      new WorkersAIChatModel({ binding: ai.binding, model: MODEL }).bindTools([weather]),
      "Paris?",
    );
    expect(messages.at(-1)?.content).toBe("It is sunny in Paris.");
    const second = ai.calls[1]?.input.messages as Record<string, unknown>[];
    const callId = (messages[1] as AIMessage).tool_calls?.[0]?.id;
    expect(second.at(-1)).toEqual({
      role: "tool",
      tool_call_id: callId,
      name: "weather",
      content: "sunny in Paris",
    });
  });

  it("maps binding errors: unknown model → CONFIG_INVALID, capacity → busy, other → provider message", async () => {
    const fail = (message: string) => fakeAI(() => Promise.reject(new Error(message))).binding;
    const notFound = await failure(
      new WorkersAIChatModel({
        binding: fail("5007: No such model @cf/nope or task"),
        model: "@cf/nope",
      }).invoke("hi"),
    );
    expect(notFound.code).toBe("CONFIG_INVALID");
    expect(notFound.message).toContain("LLM_MODEL");

    const busy = await failure(
      new WorkersAIChatModel({
        binding: fail("3040: Capacity temporarily exceeded, please try again."),
        model: MODEL,
      }).invoke("hi"),
    );
    expect(busy.details).toMatchObject({ reason: "rate_limited", retryable: true });
    expect(busy.message).toContain("Capacity temporarily exceeded");

    const other = await failure(
      new WorkersAIChatModel({
        binding: fail("5006: required properties at '/' are 'messages'"),
        model: MODEL,
      }).invoke("hi"),
    );
    expect(other.message).toContain("required properties");
  });

  it("times out even when the binding ignores the signal", async () => {
    const ai = fakeAI(() => new Promise(() => {}));
    const e = await failure(
      new WorkersAIChatModel({ binding: ai.binding, model: MODEL, timeoutMs: 30 }).invoke("hi"),
    );
    expect(e.details.reason).toBe("timeout");
  });

  it("invalid tool-call JSON and a non-text answer are clear errors", async () => {
    const bad = fakeAI({ response: "", tool_calls: [{ name: "weather", arguments: "{oops" }] });
    const e = await failure(
      new WorkersAIChatModel({ binding: bad.binding, model: MODEL }).invoke("hi"),
    );
    expect(e.message).toContain('tool "weather"');
    expect(e.message).toContain("not valid JSON");
    const odd = fakeAI({ data: [[0.1, 0.2]] });
    expect(
      (await failure(new WorkersAIChatModel({ binding: odd.binding, model: MODEL }).invoke("hi")))
        .message,
    ).toContain("text-generation model");
  });

  it("requires a binding", () => {
    expect(
      () =>
        new WorkersAIChatModel({ binding: undefined as unknown as WorkersAIBinding, model: MODEL }),
    ).toThrow(/\[ai\] binding = "AI"/);
  });
});
