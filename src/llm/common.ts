/**
 * What the model adapters share: the call options (bound tools), tool definitions in one
 * neutral shape, the text of a message, and tool-call argument parsing.
 */
import { isOpenAITool } from "@langchain/core/language_models/base";
import type {
  BaseChatModelCallOptions,
  BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import { convertToOpenAITool, isLangChainTool } from "@langchain/core/utils/function_calling";
import { LlamonError } from "../errors.ts";
import { modelError } from "./http.ts";

/** Call options of the llamon adapters: `bindTools` puts the tools here. */
export interface LlamonChatCallOptions extends BaseChatModelCallOptions {
  tools?: BindToolsInput[];
}

/** A tool definition in the neutral shape every provider format is made from. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

/**
 * LangChain tools → OpenAI tool format, done once in `bindTools` (so a zod schema is
 * turned into JSON Schema once, not on every call). Provider-format objects pass through.
 */
export function bindableTools(tools: readonly BindToolsInput[]): BindToolsInput[] {
  return tools.map((t) => (isLangChainTool(t) ? convertToOpenAITool(t) : t));
}

/** Any accepted tool definition → {@link ToolSpec}. */
export function toolSpecs(tools: readonly BindToolsInput[] | undefined): ToolSpec[] {
  return (tools ?? []).map(toolSpec);
}

function toolSpec(tool: BindToolsInput): ToolSpec {
  const def = isLangChainTool(tool) ? convertToOpenAITool(tool) : tool;
  if (isOpenAITool(def)) {
    const f = def.function;
    return spec(f.name, f.description, f.parameters);
  }
  const d = def as Record<string, unknown>;
  if (typeof d.name === "string") {
    // Anthropic {name, description, input_schema} or legacy {name, description, parameters}
    const schema = d.input_schema ?? d.parameters;
    if (schema === undefined || (schema !== null && typeof schema === "object")) {
      return spec(d.name, d.description, schema);
    }
  }
  throw new LlamonError(
    "CONFIG_INVALID",
    `unsupported tool definition ${JSON.stringify(d.name ?? Object.keys(d))}: pass a LangChain tool (tool() from @langchain/core/tools) or an OpenAI-format {type:"function", function:{name, description, parameters}}`,
  );
}

function spec(name: string, description: unknown, parameters: unknown): ToolSpec {
  const params: Record<string, unknown> =
    parameters && typeof parameters === "object"
      ? { ...(parameters as Record<string, unknown>) }
      : { type: "object", properties: {} };
  // `$schema` is noise to every provider and costs tokens on each call
  delete params.$schema;
  return {
    name,
    description: typeof description === "string" ? description : "",
    parameters: params,
  };
}

/**
 * The text parts of a message, in order. System, user and tool messages must be text
 * only (these adapters send text); an AI message's other parts (tool_use, reasoning) are
 * skipped because its tool calls travel in `tool_calls`.
 */
export function textParts(message: BaseMessage, provider: string): string[] {
  const content = message.content;
  if (typeof content === "string") return content === "" ? [] : [content];
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") {
      if (part !== "") parts.push(part);
      continue;
    }
    const p = part as { type?: unknown; text?: unknown };
    if ((p.type === "text" || p.type === undefined) && typeof p.text === "string") {
      if (p.text !== "") parts.push(p.text);
    } else if (!AIMessage.isInstance(message)) {
      throw new LlamonError(
        "INPUT_INVALID",
        `${provider}: a ${message.type} message has a content part of type "${String(p.type)}"; only text is supported`,
      );
    }
  }
  return parts;
}

/** The text of a message, parts joined without a separator (like LangChain's `.text`). */
export function messageText(message: BaseMessage, provider: string): string {
  return textParts(message, provider).join("");
}

/**
 * Parse a tool call's arguments: a JSON object string (OpenAI) or an object already
 * (Workers AI legacy). Empty → {}. Anything else is a clear error naming the tool.
 */
export function parseToolArguments(
  raw: unknown,
  call: { provider: string; name: string; id?: string | undefined },
): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === "") return {};
  if (typeof raw === "object" && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw === "string") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw badArguments(call, raw, "is not valid JSON", error);
    }
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
    throw badArguments(call, raw, "is not a JSON object");
  }
  throw badArguments(call, JSON.stringify(raw), "is not a JSON object");
}

function badArguments(
  call: { provider: string; name: string; id?: string | undefined },
  raw: string,
  problem: string,
  cause?: unknown,
) {
  const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
  return modelError(
    call,
    "bad_response",
    `${call.provider}: the model called tool "${call.name}"${call.id ? ` (id ${call.id})` : ""} with arguments that ${problem}: ${shown}; retry, or use a model with reliable tool calling`,
    cause === undefined ? {} : { cause },
  );
}

/** OpenAI-style usage (`prompt_tokens`, …) → LangChain usage metadata. */
export function openAIUsage(usage: unknown): UsageMetadata | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  const u = usage as Record<string, unknown>;
  const input = num(u.prompt_tokens);
  const output = num(u.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  const result: UsageMetadata = {
    input_tokens: input ?? 0,
    output_tokens: output ?? 0,
    total_tokens: num(u.total_tokens) ?? (input ?? 0) + (output ?? 0),
  };
  const cached = num(
    (u.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens,
  );
  if (cached !== undefined) result.input_token_details = { cache_read: cached };
  const reasoning = num(
    (u.completion_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens,
  );
  if (reasoning !== undefined) result.output_token_details = { reasoning };
  return result;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** An id for a tool call the provider sent without one (unique, so results pair up). */
export function newToolCallId(): string {
  return `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

/** Base URL without trailing slashes. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
