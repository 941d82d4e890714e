/**
 * A chat model over any OpenAI-compatible `POST {baseURL}/chat/completions`: OpenAI,
 * vLLM, Ollama (`http://localhost:11434/v1`), Workers AI's OpenAI endpoint
 * (`https://api.cloudflare.com/client/v4/accounts/<id>/ai/v1`). Plain `fetch`, so it
 * runs in Workers; no SDK.
 *
 * Wire format: system/user/assistant/tool messages with string content (text parts
 * joined, as LangChain's `.text` does — every compatible server accepts strings);
 * assistant tool calls as `tool_calls[{id, type:"function", function:{name, arguments}}]`
 * with JSON-string arguments; tool results as `{role:"tool", tool_call_id, content}`.
 * The reply's AIMessage carries no provider id (LangGraph assigns one; some compatible
 * servers repeat ids, which would make the messages reducer replace an older reply);
 * the provider's id is in `response_metadata.id`.
 */
import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  type ChatMessage,
  type ToolCall,
} from "@langchain/core/messages";
import { LlamonError } from "../errors.ts";
import { LlamonChatModel } from "./chat-model.ts";
import {
  type LlamonChatCallOptions,
  messageText,
  newToolCallId,
  openAIUsage,
  parseToolArguments,
  type ToolSpec,
  toolSpecs,
  trimSlash,
} from "./common.ts";
import {
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  modelError,
  type PostJsonInput,
  postJson,
  postSse,
} from "./http.ts";
import { openAIStreamChunks } from "./openai-stream.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAICompatibleChatModelFields extends BaseChatModelParams {
  /** Model name as the server knows it, e.g. `gpt-4o-mini`, `llama3.1`. */
  model: string;
  /** Up to and including `/v1`; default {@link OPENAI_DEFAULT_BASE_URL}. */
  baseURL?: string | undefined;
  /** Sent as `Authorization: Bearer <key>` when given. */
  apiKey?: string | undefined;
  /** The variable the key comes from, named in error messages (default `LLM_API_KEY`). */
  apiKeyEnvVar?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** Per request; default 120 000 ms. */
  timeoutMs?: number | undefined;
  /** Extra request headers (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string> | undefined;
  /** Replaces the global fetch (tests, service bindings). */
  fetch?: FetchLike | undefined;
  /** Provider name used in messages and `response_metadata` (default `openai-compatible`). */
  providerName?: string | undefined;
}

export class OpenAICompatibleChatModel extends LlamonChatModel {
  readonly model: string;
  readonly baseURL: string;
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
  readonly timeoutMs: number;
  readonly provider: string;
  readonly #apiKey: string | undefined;
  readonly #apiKeyEnvVar: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: FetchLike | undefined;

  constructor(fields: OpenAICompatibleChatModelFields) {
    // the key and the fetch function stay out of lc_kwargs (serialised by LangChain)
    const {
      model,
      baseURL,
      apiKey,
      apiKeyEnvVar,
      temperature,
      maxTokens,
      timeoutMs,
      headers,
      fetch,
      providerName,
      ...base
    } = fields;
    super(base);
    if (!model)
      throw new LlamonError(
        "CONFIG_INVALID",
        "OpenAICompatibleChatModel: model is required (LLM_MODEL)",
      );
    this.model = model;
    this.baseURL = trimSlash(baseURL || OPENAI_DEFAULT_BASE_URL);
    this.temperature = temperature;
    this.maxTokens = maxTokens;
    this.timeoutMs = timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.provider = providerName ?? "openai-compatible";
    this.#apiKey = apiKey || undefined;
    this.#apiKeyEnvVar = apiKeyEnvVar ?? "LLM_API_KEY";
    this.#headers = headers ?? {};
    this.#fetch = fetch;
  }

  _llmType(): string {
    return "openai-compatible";
  }

  /** The JSON body this model sends for `messages` (exported for tests and debugging). */
  requestBody(
    messages: readonly BaseMessage[],
    options: Partial<LlamonChatCallOptions> = {},
  ): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.model,
      messages: toOpenAIMessages(messages, this.provider),
    };
    if (this.temperature !== undefined) body.temperature = this.temperature;
    if (this.maxTokens !== undefined) body.max_tokens = this.maxTokens;
    if (options.stop?.length) body.stop = options.stop;
    const tools = toolSpecs(options.tools);
    if (tools.length > 0) {
      body.tools = tools.map(toOpenAITool);
      const choice = openAIToolChoice(options.tool_choice);
      if (choice !== undefined) body.tool_choice = choice;
    }
    return body;
  }

  protected async _reply(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<AIMessage> {
    const data = await postJson(this.#post(this.requestBody(messages, options), options));
    return parseOpenAIChatCompletion(data, this.provider);
  }

  /** `stream: true`, with usage in the last chunk (openai-stream.ts). */
  protected async *_replyChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<AIMessageChunk> {
    const body = {
      ...this.requestBody(messages, options),
      stream: true,
      stream_options: { include_usage: true },
    };
    yield* openAIStreamChunks(postSse(this.#post(body, options)), this.provider);
  }

  #post(body: Record<string, unknown>, options: this["ParsedCallOptions"]): PostJsonInput {
    const headers: Record<string, string> = { ...this.#headers };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    return {
      provider: this.provider,
      url: `${this.baseURL}/chat/completions`,
      headers,
      body,
      apiKey: this.#apiKey,
      apiKeyEnvVar: this.#apiKeyEnvVar,
      baseUrlEnvVar: "LLM_BASE_URL (for OpenAI-compatible servers it ends in /v1)",
      model: this.model,
      timeoutMs: this.timeoutMs,
      signal: options.signal,
      fetch: this.#fetch,
    };
  }
}

export interface OpenAIWireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type OpenAIWireMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; tool_calls?: OpenAIWireToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string }
  | { role: string; content: string };

/** LangChain messages → OpenAI chat messages. */
export function toOpenAIMessages(
  messages: readonly BaseMessage[],
  provider = "openai-compatible",
): OpenAIWireMessage[] {
  return messages.map((m): OpenAIWireMessage => {
    const content = messageText(m, provider);
    switch (m.getType()) {
      case "system":
        return { role: "system", content };
      case "human":
        return { role: "user", content };
      case "ai": {
        const calls = (m as AIMessage).tool_calls ?? [];
        if (calls.length === 0) return { role: "assistant", content };
        return { role: "assistant", content, tool_calls: calls.map(toOpenAIToolCall) };
      }
      case "tool":
        return {
          role: "tool",
          tool_call_id: (m as unknown as { tool_call_id: string }).tool_call_id,
          content,
        };
      case "generic":
        return { role: (m as ChatMessage).role, content };
      default:
        throw new LlamonError(
          "INPUT_INVALID",
          `${provider}: messages of type "${m.getType()}" are not supported`,
        );
    }
  });
}

function toOpenAIToolCall(call: ToolCall, index: number): OpenAIWireToolCall {
  return {
    id: call.id ?? `call_${index}`,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  };
}

export function toOpenAITool(spec: ToolSpec) {
  return {
    type: "function" as const,
    function: { name: spec.name, description: spec.description, parameters: spec.parameters },
  };
}

function openAIToolChoice(choice: LlamonChatCallOptions["tool_choice"]): unknown {
  if (choice === undefined) return undefined;
  if (choice === "any") return "required";
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (typeof choice === "string") return { type: "function", function: { name: choice } };
  return choice;
}

/** A `/chat/completions` answer → AIMessage (text, tool calls, usage, metadata). */
export function parseOpenAIChatCompletion(
  data: unknown,
  provider = "openai-compatible",
): AIMessage {
  const d = (data ?? {}) as Record<string, unknown>;
  const choice = Array.isArray(d.choices) ? (d.choices[0] as Record<string, unknown>) : undefined;
  const msg = choice?.message as Record<string, unknown> | undefined;
  if (!msg || typeof msg !== "object") {
    throw modelError(
      { provider },
      "bad_response",
      `${provider}: the answer has no choices[0].message: ${JSON.stringify(data).slice(0, 300)}`,
    );
  }
  const toolCalls = (Array.isArray(msg.tool_calls) ? msg.tool_calls : []).map(
    (raw: unknown): ToolCall => {
      const c = (raw ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const name = typeof c.function?.name === "string" ? c.function.name : "";
      const id = typeof c.id === "string" && c.id !== "" ? c.id : newToolCallId();
      return {
        id,
        name,
        args: parseToolArguments(c.function?.arguments, { provider, name, id }),
        type: "tool_call",
      };
    },
  );
  const metadata: Record<string, unknown> = { model_provider: provider };
  if (typeof d.model === "string") metadata.model_name = d.model;
  if (typeof d.id === "string") metadata.id = d.id;
  if (choice?.finish_reason !== undefined) metadata.finish_reason = choice.finish_reason;
  const additional: Record<string, unknown> = {};
  for (const key of ["reasoning_content", "reasoning", "refusal"]) {
    if (typeof msg[key] === "string" && msg[key] !== "") additional[key] = msg[key];
  }
  const usage = openAIUsage(d.usage);
  return new AIMessage({
    content: contentText(msg.content),
    tool_calls: toolCalls,
    response_metadata: metadata,
    additional_kwargs: additional,
    ...(usage ? { usage_metadata: usage } : {}),
  });
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === "object" && typeof p.text === "string" ? p.text : ""))
      .join("");
  }
  return "";
}
