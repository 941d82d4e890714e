import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { OpenAICompatibleChatModel } from "../../../src/llm/openai-compatible.ts";
import { failure as failed, runWeatherLoop, WEATHER_WIRE, weather } from "./fixtures.ts";
import { closedPort, useStub } from "./stub-server.ts";

const KEY = "sk-test-SECRET-0123456789";

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    model: "gpt-test",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
    usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    ...extra,
  };
}

const stub = useStub();

function model(fields: Partial<ConstructorParameters<typeof OpenAICompatibleChatModel>[0]> = {}) {
  return new OpenAICompatibleChatModel({
    model: "gpt-test",
    baseURL: `${stub.url}/v1/`,
    apiKey: KEY,
    ...fields,
  });
}

const failure = (promise: Promise<unknown>) => failed(promise, KEY);

describe("OpenAICompatibleChatModel wire format", () => {
  it("posts to {baseURL}/chat/completions with bearer key, model and options", async () => {
    stub.reply({ body: completion({ content: "hello" }) });
    const reply = await model({ temperature: 0.2, maxTokens: 64 }).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage("hi"),
    ]);
    const req = stub.last;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/v1/chat/completions");
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(req?.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hi" },
      ],
      temperature: 0.2,
      max_tokens: 64,
    });
    expect(reply.content).toBe("hello");
    expect(reply.tool_calls).toEqual([]);
    expect(reply.usage_metadata).toEqual({ input_tokens: 12, output_tokens: 5, total_tokens: 17 });
    expect(reply.response_metadata).toMatchObject({
      model_name: "gpt-test",
      id: "chatcmpl-1",
      finish_reason: "stop",
    });
    // no provider id on the message: LangGraph's reducer assigns one
    expect(reply.id).toBeUndefined();
  });

  it("sends no Authorization header without a key, and leaves unset options out", async () => {
    stub.reply({ body: completion({ content: "ok" }) });
    await model({ apiKey: undefined }).invoke("hi");
    expect(stub.last?.headers.authorization).toBeUndefined();
    expect(stub.last?.body).toEqual({
      model: "gpt-test",
      messages: [{ role: "user", content: "hi" }],
    });
  });

  it("joins multi-part text content into one string per message", async () => {
    stub.reply({ body: completion({ content: "ok" }) });
    await model().invoke([
      new SystemMessage({
        content: [
          { type: "text", text: "Rule one. " },
          { type: "text", text: "Rule two." },
        ],
      }),
      new HumanMessage({
        content: [
          { type: "text", text: "part A, " },
          { type: "text", text: "part B" },
        ],
      }),
    ]);
    expect(stub.body<{ messages: unknown }>().messages).toEqual([
      { role: "system", content: "Rule one. Rule two." },
      { role: "user", content: "part A, part B" },
    ]);
  });

  it("maps a full tool round trip with parallel calls", async () => {
    stub.reply({ body: completion({ content: "Paris is sunny, Rome is rainy." }) });
    const messages: BaseMessage[] = [
      new SystemMessage("You report weather."),
      new HumanMessage("Weather in Paris and Rome?"),
      new AIMessage({
        content: "Checking both.",
        tool_calls: [
          { id: "call_p", name: "weather", args: { city: "Paris" }, type: "tool_call" },
          { id: "call_r", name: "weather", args: { city: "Rome" }, type: "tool_call" },
        ],
      }),
      new ToolMessage({ tool_call_id: "call_p", content: "sunny in Paris" }),
      new ToolMessage({
        tool_call_id: "call_r",
        content: [{ type: "text", text: "rain in Rome" }],
      }),
    ];
    await model().bindTools([weather]).invoke(messages);
    expect(stub.last?.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "You report weather." },
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: "Checking both.",
          tool_calls: [
            {
              id: "call_p",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Paris"}' },
            },
            {
              id: "call_r",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_p", content: "sunny in Paris" },
        { role: "tool", tool_call_id: "call_r", content: "rain in Rome" },
      ],
      tools: [WEATHER_WIRE],
    });
  });

  it("sends tools in OpenAI function format and maps tool_choice", async () => {
    stub.reply({ body: completion({ content: "ok" }) });
    await model().bindTools([weather], { tool_choice: "any" }).invoke("hi");
    expect(stub.last?.body).toMatchObject({ tools: [WEATHER_WIRE], tool_choice: "required" });
    await model().bindTools([weather], { tool_choice: "weather" }).invoke("hi");
    expect(stub.last?.body).toMatchObject({
      tool_choice: { type: "function", function: { name: "weather" } },
    });
    // OpenAI-format definitions pass through
    await model().bindTools([WEATHER_WIRE]).invoke("hi");
    expect(stub.body<{ tools: unknown }>().tools).toEqual([WEATHER_WIRE]);
  });

  it("parses tool_calls (parallel), usage details and reasoning", async () => {
    stub.reply({
      body: completion(
        {
          content: null,
          reasoning_content: "need both cities",
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Paris"}' },
            },
            { id: "call_2", type: "function", function: { name: "weather", arguments: "" } },
          ],
        },
        {
          usage: {
            prompt_tokens: 100,
            completion_tokens: 20,
            total_tokens: 120,
            prompt_tokens_details: { cached_tokens: 64 },
            completion_tokens_details: { reasoning_tokens: 8 },
          },
        },
      ),
    });
    const reply = await model().bindTools([weather]).invoke("weather?");
    expect(reply.content).toBe("");
    expect(reply.tool_calls).toEqual([
      { id: "call_1", name: "weather", args: { city: "Paris" }, type: "tool_call" },
      { id: "call_2", name: "weather", args: {}, type: "tool_call" },
    ]);
    expect(reply.additional_kwargs.reasoning_content).toBe("need both cities");
    expect(reply.usage_metadata).toEqual({
      input_tokens: 100,
      output_tokens: 20,
      total_tokens: 120,
      input_token_details: { cache_read: 64 },
      output_token_details: { reasoning: 8 },
    });
  });

  it("runs a LangGraph tool loop end to end (bindTools + ToolNode)", async () => {
    stub.reply(
      {
        body: completion({
          content: "",
          tool_calls: [
            {
              id: "call_a",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Paris"}' },
            },
            {
              id: "call_b",
              type: "function",
              function: { name: "weather", arguments: '{"city":"Rome"}' },
            },
          ],
        }),
      },
      { body: completion({ content: "Both sunny." }) },
    );
    const messages = await runWeatherLoop(model().bindTools([weather]), "Paris and Rome?");
    expect(messages.at(-1)?.content).toBe("Both sunny.");
    expect(stub.requests).toHaveLength(2);
    const second = stub.body<{ messages: unknown[] }>(1);
    expect(second.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_a", content: "sunny in Paris" },
      { role: "tool", tool_call_id: "call_b", content: "sunny in Rome" },
    ]);
  });
});

describe("OpenAICompatibleChatModel errors", () => {
  it("401 says the key was rejected and names the variable, without the key", async () => {
    stub.reply({
      status: 401,
      body: {
        error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error" },
      },
    });
    const e = await failure(model({ apiKeyEnvVar: "OPENAI_API_KEY" }).invoke("hi"));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain("API key was rejected");
    expect(e.message).toContain("OPENAI_API_KEY");
    expect(e.message).toContain("Incorrect API key provided: ***");
    expect(e.details).toMatchObject({ reason: "auth", status: 401, retryable: false });
  });

  it("401 without a key says to set it", async () => {
    stub.reply({ status: 401, body: { error: { message: "Missing bearer" } } });
    const e = await failure(model({ apiKey: undefined }).invoke("hi"));
    expect(e.message).toContain("no API key was sent: set LLM_API_KEY");
  });

  it("403 is treated like 401", async () => {
    stub.reply({ status: 403, body: { error: "forbidden" } });
    const e = await failure(model().invoke("hi"));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.details.reason).toBe("auth");
  });

  it("404 points at the model name and base URL", async () => {
    stub.reply({
      status: 404,
      body: { error: { message: 'model "nope" not found, try pulling it first' } },
    });
    const e = await failure(model({ model: "nope" }).invoke("hi"));
    expect(e.code).toBe("CONFIG_INVALID");
    expect(e.message).toContain('model "nope"');
    expect(e.message).toContain("LLM_MODEL");
    expect(e.message).toContain("LLM_BASE_URL");
    expect(e.message).toContain("try pulling it first");
    expect(e.details).toMatchObject({ reason: "not_found", status: 404 });
  });

  it("429 and 500 say the provider is busy, with its message, retryable", async () => {
    stub.reply({ status: 429, body: { error: { message: "Rate limit reached" } } });
    const busy = await failure(model().invoke("hi"));
    expect(busy.message).toContain("busy");
    expect(busy.message).toContain("Rate limit reached");
    expect(busy.details).toMatchObject({ reason: "rate_limited", status: 429, retryable: true });

    stub.reply({ status: 500, body: `upstream crashed, key was ${KEY}` });
    const down = await failure(model().invoke("hi"));
    expect(down.message).toContain("busy or unavailable");
    expect(down.message).toContain("upstream crashed, key was ***");
    expect(down.details).toMatchObject({ reason: "unavailable", status: 500, retryable: true });
  });

  it("400 includes the provider's message (FastAPI detail shape)", async () => {
    stub.reply({ status: 400, body: { detail: [{ msg: "context too long" }] } });
    const e = await failure(model().invoke("hi"));
    expect(e.details.reason).toBe("bad_request");
    expect(e.message).toContain("context too long");
  });

  it("invalid tool-call JSON is a clear error naming the tool", async () => {
    stub.reply({
      body: completion({
        content: null,
        tool_calls: [
          {
            id: "call_x",
            type: "function",
            function: { name: "weather", arguments: '{"city": Par' },
          },
        ],
      }),
    });
    const e = await failure(model().bindTools([weather]).invoke("hi"));
    expect(e.message).toContain('tool "weather" (id call_x)');
    expect(e.message).toContain("not valid JSON");
    expect(e.details.reason).toBe("bad_response");
  });

  it("a non-JSON 200 answer and a missing choice are bad responses", async () => {
    stub.reply({ body: "<html>proxy</html>" });
    expect((await failure(model().invoke("hi"))).message).toContain("not JSON");
    stub.reply({ body: { choices: [] } });
    expect((await failure(model().invoke("hi"))).message).toContain("no choices[0].message");
  });

  it("times out with a clear message", async () => {
    stub.reply({ hang: true });
    const e = await failure(model({ timeoutMs: 50 }).invoke("hi"));
    expect(e.details.reason).toBe("timeout");
    expect(e.message).toContain("LLM_TIMEOUT_MS");
  });

  it("an unreachable server names the base URL variable", async () => {
    const url = await closedPort();
    const e = await failure(model({ baseURL: `${url}/v1` }).invoke("hi"));
    expect(e.details.reason).toBe("network");
    expect(e.message).toContain("could not reach");
    expect(e.message).toContain("LLM_BASE_URL");
  });

  it("never serialises the key", () => {
    const m = model();
    expect(JSON.stringify(m)).not.toContain(KEY);
    expect(JSON.stringify(m.lc_kwargs)).not.toContain(KEY);
  });
});
