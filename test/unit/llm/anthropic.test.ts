import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { AnthropicChatModel, toAnthropicMessages } from "../../../src/llm/anthropic.ts";
import { failure as failed, runWeatherLoop, WEATHER_PARAMETERS, weather } from "./fixtures.ts";
import { useStub } from "./stub-server.ts";

const KEY = "sk-ant-test-SECRET-987654321";

function answer(content: unknown[], usage: Record<string, number> = {}) {
  return {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content,
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 4, ...usage },
  };
}

const stub = useStub();

function model(fields: Partial<ConstructorParameters<typeof AnthropicChatModel>[0]> = {}) {
  return new AnthropicChatModel({
    model: "claude-test",
    apiKey: KEY,
    baseURL: stub.url,
    ...fields,
  });
}

const failure = (promise: Promise<unknown>) => failed(promise, KEY);

describe("AnthropicChatModel wire format", () => {
  it("posts /v1/messages with x-api-key, version, system blocks with cache_control, max_tokens", async () => {
    stub.reply({ body: answer([{ type: "text", text: "Hello!" }]) });
    const reply = await model({ temperature: 0.5 }).invoke([
      new SystemMessage("You are terse."),
      new HumanMessage("hi"),
    ]);
    const req = stub.last;
    expect(req?.path).toBe("/v1/messages");
    expect(req?.headers["x-api-key"]).toBe(KEY);
    expect(req?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req?.headers.authorization).toBeUndefined();
    expect(req?.body).toEqual({
      model: "claude-test",
      max_tokens: 1024,
      system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      temperature: 0.5,
    });
    expect(reply.content).toBe("Hello!");
    expect(reply.response_metadata).toMatchObject({
      model_provider: "anthropic",
      model_name: "claude-test",
      id: "msg_01",
      stop_reason: "end_turn",
    });
    expect(reply.id).toBeUndefined();
  });

  it("marks only the last system block; cacheSystemPrompt=false marks none; base URL may end in /v1", async () => {
    stub.reply({ body: answer([{ type: "text", text: "ok" }]) });
    const system = new SystemMessage({
      content: [
        { type: "text", text: "Operator rules." },
        { type: "text", text: "History note." },
      ],
    });
    await model({ baseURL: `${stub.url}/v1/` }).invoke([system, new HumanMessage("x")]);
    expect(stub.last?.path).toBe("/v1/messages");
    expect(stub.body<{ system: unknown }>().system).toEqual([
      { type: "text", text: "Operator rules." },
      { type: "text", text: "History note.", cache_control: { type: "ephemeral" } },
    ]);
    await model({ cacheSystemPrompt: false, maxTokens: 50 }).invoke([
      system,
      new HumanMessage("x"),
    ]);
    const body = stub.last?.body as { system: unknown; max_tokens: number };
    expect(body.system).toEqual([
      { type: "text", text: "Operator rules." },
      { type: "text", text: "History note." },
    ]);
    expect(body.max_tokens).toBe(50);
  });

  it("maps a full tool round trip: tool_use, merged parallel tool_results, is_error", async () => {
    stub.reply({ body: answer([{ type: "text", text: "done" }]) });
    await model()
      .bindTools([weather])
      .invoke([
        new SystemMessage("You report weather."),
        new HumanMessage("Weather in Paris and Rome?"),
        new AIMessage({
          content: "Checking both.",
          tool_calls: [
            { id: "toolu_p", name: "weather", args: { city: "Paris" }, type: "tool_call" },
            { id: "toolu_r", name: "weather", args: { city: "Rome" }, type: "tool_call" },
          ],
        }),
        new ToolMessage({ tool_call_id: "toolu_p", content: "sunny in Paris" }),
        new ToolMessage({ tool_call_id: "toolu_r", content: "service down", status: "error" }),
      ]);
    expect(stub.last?.body).toEqual({
      model: "claude-test",
      max_tokens: 1024,
      system: [{ type: "text", text: "You report weather.", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking both." },
            { type: "tool_use", id: "toolu_p", name: "weather", input: { city: "Paris" } },
            { type: "tool_use", id: "toolu_r", name: "weather", input: { city: "Rome" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_p", content: "sunny in Paris" },
            {
              type: "tool_result",
              tool_use_id: "toolu_r",
              content: "service down",
              is_error: true,
            },
          ],
        },
      ],
      tools: [
        {
          name: "weather",
          description: "Current weather of a city",
          input_schema: WEATHER_PARAMETERS,
        },
      ],
    });
  });

  it("merges consecutive same-role messages (stable_tail runtime context), tool_results first", () => {
    const { system, messages } = toAnthropicMessages([
      new HumanMessage("first"),
      new HumanMessage("[runtime context] facts"),
      new AIMessage({
        content: "",
        tool_calls: [{ id: "t1", name: "weather", args: {}, type: "tool_call" }],
      }),
      new ToolMessage({ tool_call_id: "t1", content: "" }),
      new HumanMessage("and tomorrow?"),
      new AIMessage(""),
      new AIMessage("answer"),
    ]);
    expect(system).toEqual([]);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "[runtime context] facts" },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1" },
          { type: "text", text: "and tomorrow?" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "answer" }] },
    ]);
  });

  it("parses text + tool_use into content and tool_calls, usage with cache tokens", async () => {
    stub.reply({
      body: answer(
        [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "weather", input: { city: "Rome" } },
        ],
        {
          input_tokens: 20,
          cache_read_input_tokens: 1500,
          cache_creation_input_tokens: 300,
          output_tokens: 40,
        },
      ),
    });
    const reply = await model().bindTools([weather], { tool_choice: "any" }).invoke("weather?");
    expect(stub.body<{ tool_choice: unknown }>().tool_choice).toEqual({ type: "any" });
    expect(reply.content).toBe("Let me check.");
    expect(reply.tool_calls).toEqual([
      { id: "toolu_1", name: "weather", args: { city: "Paris" }, type: "tool_call" },
      { id: "toolu_2", name: "weather", args: { city: "Rome" }, type: "tool_call" },
    ]);
    expect(reply.usage_metadata).toEqual({
      input_tokens: 1820,
      output_tokens: 40,
      total_tokens: 1860,
      input_token_details: { cache_read: 1500, cache_creation: 300 },
    });
  });

  it("runs a LangGraph tool loop end to end (bindTools + ToolNode)", async () => {
    stub.reply(
      {
        body: answer([
          { type: "tool_use", id: "toolu_a", name: "weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_b", name: "weather", input: { city: "Rome" } },
        ]),
      },
      { body: answer([{ type: "text", text: "Both sunny." }]) },
    );
    const messages = await runWeatherLoop(
      model().bindTools([weather]),
      "Paris and Rome?",
      new SystemMessage("sys"),
    );
    expect(messages.at(-1)?.content).toBe("Both sunny.");
    const second = stub.body<{ messages: unknown[] }>(1);
    expect(second.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_a", content: "sunny in Paris" },
        { type: "tool_result", tool_use_id: "toolu_b", content: "sunny in Rome" },
      ],
    });
  });
});

describe("AnthropicChatModel errors", () => {
  const anthropicError = (type: string, message: string) => ({
    type: "error",
    error: { type, message },
  });

  it("401 names the key variable and never the key", async () => {
    stub.reply({
      status: 401,
      body: anthropicError("authentication_error", `invalid x-api-key ${KEY}`),
    });
    const e = await failure(model({ apiKeyEnvVar: "ANTHROPIC_API_KEY" }).invoke("hi"));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain("ANTHROPIC_API_KEY");
    expect(e.message).toContain("invalid x-api-key ***");
  });

  it("404 names the model", async () => {
    stub.reply({ status: 404, body: anthropicError("not_found_error", "model: claude-nope") });
    const e = await failure(model({ model: "claude-nope" }).invoke("hi"));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain('model "claude-nope"');
    expect(e.message).toContain("model: claude-nope");
  });

  it("429 and 529 (overloaded) say the provider is busy", async () => {
    stub.reply({ status: 429, body: anthropicError("rate_limit_error", "slow down") });
    expect((await failure(model().invoke("hi"))).details).toMatchObject({
      reason: "rate_limited",
      retryable: true,
    });
    stub.reply({ status: 529, body: anthropicError("overloaded_error", "Overloaded") });
    const e = await failure(model().invoke("hi"));
    expect(e.message).toContain("busy");
    expect(e.message).toContain("Overloaded");
    expect(e.details).toMatchObject({ reason: "unavailable", status: 529 });
  });

  it("an answer without content blocks is a bad response", async () => {
    stub.reply({ body: { type: "message" } });
    expect((await failure(model().invoke("hi"))).details.reason).toBe("bad_response");
  });
});
