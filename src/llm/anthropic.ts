/**
 * A chat model over Anthropic's Messages API (`POST {baseURL}/v1/messages`) with plain
 * `fetch`, so it runs in Workers; no SDK. Streams with `stream: true` (anthropic-stream.ts).
 *
 * Why not `@langchain/anthropic`: `ChatAnthropic` (with @anthropic-ai/sdk) runs in workerd and
 * streams, but it grows the reference Worker's bundle by about a fifth (`wrangler deploy
 * --dry-run`) for what this file and anthropic-stream.ts do in about 400 lines, with the
 * project's error contract (LlamonError codes, the fix named, the key never shown) and the
 * prompt-cache mark below.
 *
 * Wire format: the system prompt goes top-level as text blocks, the last one marked
 * `cache_control: {type: "ephemeral"}` (`cacheSystemPrompt`, default true) so the stable
 * prefix — tools + system prompt — is cached by the provider (R6.2; Anthropic
 * ignores the mark below its minimum cacheable length). Messages become content blocks:
 * text, `tool_use` (assistant) and `tool_result` (user). Consecutive messages of the same
 * role are merged, since Anthropic requires alternating roles — so parallel tool results
 * travel in one user message and the stable_tail runtime-context message joins the user
 * message before it; within a merged user message `tool_result` blocks come first.
 * System messages anywhere in the input are hoisted into `system`, in order.
 */
import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  type ChatMessage,
  type ToolCall,
  ToolMessage,
} from "@langchain/core/messages";
import { LlamonError } from "../errors.ts";
import { anthropicStreamChunks, anthropicUsage } from "./anthropic-stream.ts";
import { LlamonChatModel } from "./chat-model.ts";
import {
  type LlamonChatCallOptions,
  messageText,
  newToolCallId,
  parseToolArguments,
  textParts,
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

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

export interface AnthropicChatModelFields extends BaseChatModelParams {
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  apiKey: string;
  /** The variable the key comes from, named in error messages (default `LLM_API_KEY`). */
  apiKeyEnvVar?: string | undefined;
  /** Default {@link ANTHROPIC_DEFAULT_BASE_URL}; a trailing `/v1` is accepted. */
  baseURL?: string | undefined;
  temperature?: number | undefined;
  /** Required by Anthropic; default 1024. */
  maxTokens?: number | undefined;
  /** Per request; default 120 000 ms. */
  timeoutMs?: number | undefined;
  /** Mark the last system block for prompt caching (default true). */
  cacheSystemPrompt?: boolean | undefined;
  headers?: Record<string, string> | undefined;
  fetch?: FetchLike | undefined;
}

type TextBlock = { type: "text"; text: string; cache_control?: { type: "ephemeral" } };
type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content?: string;
  is_error?: boolean;
};
export type AnthropicBlock = TextBlock | ToolUseBlock | ToolResultBlock;
export interface AnthropicWireMessage {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

const PROVIDER = "anthropic";

export class AnthropicChatModel extends LlamonChatModel {
  readonly model: string;
  readonly baseURL: string;
  readonly temperature: number | undefined;
  readonly maxTokens: number;
  readonly timeoutMs: number;
  readonly cacheSystemPrompt: boolean;
  readonly #apiKey: string;
  readonly #apiKeyEnvVar: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: FetchLike | undefined;

  constructor(fields: AnthropicChatModelFields) {
    const {
      model,
      apiKey,
      apiKeyEnvVar,
      baseURL,
      temperature,
      maxTokens,
      timeoutMs,
      cacheSystemPrompt,
      headers,
      fetch,
      ...base
    } = fields;
    super(base);
    if (!model)
      throw new LlamonError("CONFIG_INVALID", "AnthropicChatModel: model is required (LLM_MODEL)");
    this.model = model;
    this.baseURL = trimSlash(baseURL || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/v1$/, "");
    this.temperature = temperature;
    this.maxTokens = maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
    this.timeoutMs = timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.cacheSystemPrompt = cacheSystemPrompt ?? true;
    this.#apiKey = apiKey;
    this.#apiKeyEnvVar = apiKeyEnvVar ?? "LLM_API_KEY";
    this.#headers = headers ?? {};
    this.#fetch = fetch;
  }

  _llmType(): string {
    return PROVIDER;
  }

  /** The JSON body this model sends for `messages`. */
  requestBody(
    messages: readonly BaseMessage[],
    options: Partial<LlamonChatCallOptions> = {},
  ): Record<string, unknown> {
    const { system, messages: wire } = toAnthropicMessages(messages, {
      cacheSystemPrompt: this.cacheSystemPrompt,
    });
    const body: Record<string, unknown> = { model: this.model, max_tokens: this.maxTokens };
    if (system.length > 0) body.system = system;
    body.messages = wire;
    if (this.temperature !== undefined) body.temperature = this.temperature;
    if (options.stop?.length) body.stop_sequences = options.stop;
    const tools = toolSpecs(options.tools);
    if (tools.length > 0) {
      body.tools = tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.parameters,
      }));
      const choice = anthropicToolChoice(options.tool_choice);
      if (choice !== undefined) body.tool_choice = choice;
    }
    return body;
  }

  protected async _reply(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<AIMessage> {
    return parseAnthropicMessage(
      await postJson(this.#post(this.requestBody(messages, options), options)),
    );
  }

  /** `stream: true` (anthropic-stream.ts). */
  protected async *_replyChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<AIMessageChunk> {
    const body = { ...this.requestBody(messages, options), stream: true };
    yield* anthropicStreamChunks(postSse(this.#post(body, options)));
  }

  #post(body: Record<string, unknown>, options: this["ParsedCallOptions"]): PostJsonInput {
    return {
      provider: PROVIDER,
      url: `${this.baseURL}/v1/messages`,
      headers: {
        ...this.#headers,
        "x-api-key": this.#apiKey,
        "anthropic-version": ANTHROPIC_VERSION,
      },
      body,
      apiKey: this.#apiKey,
      apiKeyEnvVar: this.#apiKeyEnvVar,
      baseUrlEnvVar: "LLM_BASE_URL",
      model: this.model,
      timeoutMs: this.timeoutMs,
      signal: options.signal,
      fetch: this.#fetch,
    };
  }
}

/** LangChain messages → Anthropic `system` blocks + alternating `messages`. */
export function toAnthropicMessages(
  messages: readonly BaseMessage[],
  opts: { cacheSystemPrompt?: boolean } = {},
): { system: TextBlock[]; messages: AnthropicWireMessage[] } {
  const system: TextBlock[] = [];
  const out: AnthropicWireMessage[] = [];
  for (const m of messages) {
    const type = m.getType();
    const role = type === "generic" ? (m as ChatMessage).role : undefined;
    if (type === "system" || role === "system") {
      for (const text of textParts(m, PROVIDER)) system.push({ type: "text", text });
    } else if (type === "human" || role === "user") {
      push(out, "user", textBlocks(m));
    } else if (type === "ai" || role === "assistant") {
      const calls = (m as AIMessage).tool_calls ?? [];
      push(out, "assistant", [...textBlocks(m), ...calls.map(toToolUse)]);
    } else if (ToolMessage.isInstance(m)) {
      const block: ToolResultBlock = { type: "tool_result", tool_use_id: m.tool_call_id };
      const text = messageText(m, PROVIDER);
      if (text !== "") block.content = text;
      if (m.status === "error") block.is_error = true;
      push(out, "user", [block]);
    } else {
      throw new LlamonError(
        "INPUT_INVALID",
        `${PROVIDER}: messages of type "${role ?? type}" are not supported`,
      );
    }
  }
  const last = system.at(-1);
  if (last && (opts.cacheSystemPrompt ?? true)) last.cache_control = { type: "ephemeral" };
  for (const m of out) {
    if (m.role === "user") {
      // tool results must open the user message that answers a tool_use turn
      m.content.sort((a, b) => rank(a) - rank(b));
    }
  }
  return { system, messages: out };
}

function rank(block: AnthropicBlock): number {
  return block.type === "tool_result" ? 0 : 1;
}

function push(out: AnthropicWireMessage[], role: "user" | "assistant", blocks: AnthropicBlock[]) {
  if (blocks.length === 0) return; // Anthropic rejects empty content
  const prev = out.at(-1);
  if (prev && prev.role === role) prev.content.push(...blocks);
  else out.push({ role, content: blocks });
}

function textBlocks(m: BaseMessage): TextBlock[] {
  return textParts(m, PROVIDER).map((text) => ({ type: "text", text }));
}

function toToolUse(call: ToolCall, index: number): ToolUseBlock {
  return {
    type: "tool_use",
    id: call.id ?? `toolu_${index}`,
    name: call.name,
    input: call.args ?? {},
  };
}

function anthropicToolChoice(choice: LlamonChatCallOptions["tool_choice"]): unknown {
  if (choice === undefined) return undefined;
  if (choice === "auto") return { type: "auto" };
  if (choice === "any" || choice === "required") return { type: "any" };
  if (choice === "none") return { type: "none" };
  if (typeof choice === "string") return { type: "tool", name: choice };
  return choice;
}

/** A Messages API answer → AIMessage (text, tool calls, usage incl. cache tokens). */
export function parseAnthropicMessage(data: unknown): AIMessage {
  const d = (data ?? {}) as Record<string, unknown>;
  if (!Array.isArray(d.content)) {
    throw modelError(
      { provider: PROVIDER },
      "bad_response",
      `${PROVIDER}: the answer has no content blocks: ${JSON.stringify(data).slice(0, 300)}`,
    );
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const raw of d.content as unknown[]) {
    const b = (raw ?? {}) as Record<string, unknown>;
    if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
    else if (b.type === "tool_use") {
      const name = typeof b.name === "string" ? b.name : "";
      const id = typeof b.id === "string" && b.id !== "" ? b.id : newToolCallId();
      toolCalls.push({
        id,
        name,
        args: parseToolArguments(b.input, { provider: PROVIDER, name, id }),
        type: "tool_call",
      });
    }
  }
  const metadata: Record<string, unknown> = { model_provider: PROVIDER };
  if (typeof d.model === "string") metadata.model_name = d.model;
  if (typeof d.id === "string") metadata.id = d.id;
  if (d.stop_reason !== undefined) metadata.stop_reason = d.stop_reason;
  if (d.stop_sequence !== undefined && d.stop_sequence !== null)
    metadata.stop_sequence = d.stop_sequence;
  const usage = anthropicUsage(d.usage);
  return new AIMessage({
    content: texts.join(""),
    tool_calls: toolCalls,
    response_metadata: metadata,
    ...(usage ? { usage_metadata: usage } : {}),
  });
}

export { anthropicUsage };
