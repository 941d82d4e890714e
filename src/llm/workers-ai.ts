/**
 * A chat model over the Workers AI binding: `env.AI.run(model, { messages, tools })`.
 * The binding is typed structurally ({@link WorkersAIBinding}) so tests pass a fake.
 *
 * Wire format (as Cloudflare's own AI SDK provider sends it): string message contents;
 * tools as `{type:"function", function:{name, description, parameters}}`; an assistant
 * turn that called tools as `{role:"assistant", content, tool_calls:[…]}` whose content,
 * when the model wrote no text, is the calls as JSON (`{name, parameters}`) — models
 * with prompt-template tool calling read that; tool results as
 * `{role:"tool", tool_call_id, name, content}`.
 * Answers: `{response, tool_calls:[{name, arguments}], usage}` (arguments an object or a
 * JSON string; missing ids are generated), or an OpenAI-style `{choices:[…]}` that some
 * newer models return.
 * Workers AI caps replies at 256 tokens unless `max_tokens` is sent; we send 1024 by default.
 * Streams with `stream: true` (workers-ai-stream.ts).
 *
 * Why not `@langchain/cloudflare`: its `ChatCloudflareWorkersAI` calls the REST API with an
 * account id and an API token, not the `env.AI` binding this adapter uses (no token to keep,
 * AI Gateway through the binding's options), and it has no tool calling (`bindTools`).
 */
import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  type ToolCall,
  ToolMessage,
} from "@langchain/core/messages";
import { isLlamonError, LlamonError } from "../errors.ts";
import { LlamonChatModel } from "./chat-model.ts";
import {
  type LlamonChatCallOptions,
  newToolCallId,
  openAIUsage,
  parseToolArguments,
  toolSpecs,
} from "./common.ts";
import { clip, DEFAULT_TIMEOUT_MS, modelError } from "./http.ts";
import { parseOpenAIChatCompletion, toOpenAIMessages, toOpenAITool } from "./openai-compatible.ts";
import { sseEvents } from "./sse.ts";
import { wholeAnswerChunks, workersAIStreamChunks } from "./workers-ai-stream.ts";

/** The part of the Workers AI binding (`env.AI`) this adapter uses. */
export interface WorkersAIBinding {
  run(model: string, input: unknown, options?: unknown): Promise<unknown>;
}

export const WORKERS_AI_DEFAULT_MAX_TOKENS = 1024;

export interface WorkersAIChatModelFields extends BaseChatModelParams {
  /** `env.AI` */
  binding: WorkersAIBinding;
  /** e.g. `@cf/meta/llama-3.3-70b-instruct-fp8-fast`. */
  model: string;
  temperature?: number | undefined;
  /** Default 1024 (Workers AI's own default is 256). */
  maxTokens?: number | undefined;
  /** Per request; default 120 000 ms. */
  timeoutMs?: number | undefined;
  /** Third argument of `run` (e.g. `{ gateway: { id } }` for AI Gateway). */
  runOptions?: Record<string, unknown> | undefined;
}

const PROVIDER = "workers-ai";

export class WorkersAIChatModel extends LlamonChatModel {
  readonly model: string;
  readonly temperature: number | undefined;
  readonly maxTokens: number;
  readonly timeoutMs: number;
  readonly #binding: WorkersAIBinding;
  readonly #runOptions: Record<string, unknown>;

  constructor(fields: WorkersAIChatModelFields) {
    const { binding, model, temperature, maxTokens, timeoutMs, runOptions, ...base } = fields;
    super(base);
    if (!binding || typeof binding.run !== "function") {
      throw new LlamonError(
        "CONFIG_INVALID",
        'WorkersAIChatModel: the Workers AI binding is missing — add `[ai] binding = "AI"` to wrangler.toml',
      );
    }
    if (!model)
      throw new LlamonError("CONFIG_INVALID", "WorkersAIChatModel: model is required (LLM_MODEL)");
    this.#binding = binding;
    this.model = model;
    this.temperature = temperature;
    this.maxTokens = maxTokens ?? WORKERS_AI_DEFAULT_MAX_TOKENS;
    this.timeoutMs = timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#runOptions = runOptions ?? {};
  }

  _llmType(): string {
    return PROVIDER;
  }

  /** The input object this model passes to `AI.run`. */
  requestBody(
    messages: readonly BaseMessage[],
    options: Partial<LlamonChatCallOptions> = {},
  ): Record<string, unknown> {
    const input: Record<string, unknown> = { messages: toWorkersAIMessages(messages) };
    const tools = toolSpecs(options.tools);
    if (tools.length > 0) input.tools = tools.map(toOpenAITool);
    input.max_tokens = this.maxTokens;
    if (this.temperature !== undefined) input.temperature = this.temperature;
    return input;
  }

  protected async _reply(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<AIMessage> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let output: unknown;
    try {
      output = await raceAbort(
        this.#binding.run(this.model, this.requestBody(messages, options), {
          ...this.#runOptions,
          signal,
        }),
        signal,
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw workersAIError(error, this.model, timeout.aborted ? this.timeoutMs : undefined);
    }
    return parseWorkersAIOutput(output);
  }

  /** `stream: true` (workers-ai-stream.ts); the binding's errors mapped as for `_reply`. */
  protected async *_replyChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<AIMessageChunk> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const fail = (error: unknown) => {
      if (options.signal?.aborted || isLlamonError(error)) return error;
      return workersAIError(error, this.model, timeout.aborted ? this.timeoutMs : undefined);
    };
    let output: unknown;
    try {
      output = await raceAbort(
        this.#binding.run(
          this.model,
          { ...this.requestBody(messages, options), stream: true },
          { ...this.#runOptions, signal },
        ),
        signal,
      );
    } catch (error) {
      throw fail(error);
    }
    if (!(output instanceof ReadableStream)) {
      yield* wholeAnswerChunks(parseWorkersAIOutput(output));
      return;
    }
    // The signal also stops reading a stream the binding does not stop itself.
    const body = (output as ReadableStream<Uint8Array>).pipeThrough(new TransformStream(), {
      signal,
    });
    try {
      yield* workersAIStreamChunks(sseEvents(body));
    } catch (error) {
      throw fail(error);
    }
  }
}

/** LangChain messages → Workers AI chat messages. */
export function toWorkersAIMessages(messages: readonly BaseMessage[]): Record<string, unknown>[] {
  const wire = toOpenAIMessages(messages, PROVIDER) as Record<string, unknown>[];
  return wire.map((w, i) => {
    const m = messages[i] as BaseMessage;
    if (w.role === "assistant" && Array.isArray(w.tool_calls) && w.content === "") {
      const calls = ((m as AIMessage).tool_calls ?? []).map((c) => ({
        name: c.name,
        parameters: c.args,
      }));
      return { ...w, content: JSON.stringify(calls.length === 1 ? calls[0] : calls) };
    }
    if (ToolMessage.isInstance(m) && m.name) return { ...w, name: m.name };
    return w;
  });
}

/** A Workers AI text-generation answer → AIMessage. */
export function parseWorkersAIOutput(output: unknown): AIMessage {
  if (typeof output === "string")
    return new AIMessage({ content: output, response_metadata: { model_provider: PROVIDER } });
  const o = (output ?? {}) as Record<string, unknown>;
  if (Array.isArray(o.choices)) return parseOpenAIChatCompletion(output, PROVIDER);
  if (!("response" in o) && !("tool_calls" in o)) {
    throw modelError(
      { provider: PROVIDER },
      "bad_response",
      `${PROVIDER}: the answer has neither response nor tool_calls: ${JSON.stringify(output).slice(0, 300)} — is LLM_MODEL a text-generation model?`,
    );
  }
  const toolCalls = (Array.isArray(o.tool_calls) ? o.tool_calls : []).map(
    (raw: unknown): ToolCall => {
      const c = (raw ?? {}) as Record<string, unknown>;
      const fn = (c.function ?? c) as Record<string, unknown>;
      const name = typeof fn.name === "string" ? fn.name : "";
      const id =
        typeof c.id === "string" && c.id !== "" && c.id !== "null" ? c.id : newToolCallId();
      return {
        id,
        name,
        args: parseToolArguments(fn.arguments, { provider: PROVIDER, name, id }),
        type: "tool_call",
      };
    },
  );
  const response = o.response;
  const content =
    typeof response === "string"
      ? response
      : response === undefined || response === null
        ? ""
        : JSON.stringify(response);
  const usage = openAIUsage(o.usage);
  return new AIMessage({
    content,
    tool_calls: toolCalls,
    response_metadata: { model_provider: PROVIDER },
    ...(usage ? { usage_metadata: usage } : {}),
  });
}

function workersAIError(
  error: unknown,
  model: string,
  timedOutAfter: number | undefined,
): LlamonError {
  const text = clip(error instanceof Error ? error.message : String(error));
  const extra = { cause: error, providerMessage: text };
  if (timedOutAfter !== undefined) {
    return modelError(
      { provider: PROVIDER },
      "timeout",
      `${PROVIDER}: no answer from ${model} within ${timedOutAfter} ms; try again, or raise LLM_TIMEOUT_MS`,
      extra,
    );
  }
  if (/no such model|5007|model not found/i.test(text)) {
    return new LlamonError(
      "CONFIG_INVALID",
      `${PROVIDER}: model "${model}" was not found: check LLM_MODEL — provider said: ${text}`,
      {
        cause: error,
        details: {
          provider: PROVIDER,
          reason: "not_found",
          retryable: false,
          providerMessage: text,
        },
      },
    );
  }
  if (/capacity|rate limit|too many|3040|3036|neurons/i.test(text)) {
    return modelError(
      { provider: PROVIDER },
      "rate_limited",
      `${PROVIDER}: the provider is busy or the account's limit was reached; try again shortly — provider said: ${text}`,
      extra,
    );
  }
  return modelError(
    { provider: PROVIDER },
    /internal|unavailable|timeout|3043|5xx/i.test(text) ? "unavailable" : "bad_request",
    `${PROVIDER}: ${model} failed — provider said: ${text}`,
    extra,
  );
}

/** Reject as soon as `signal` aborts, even if the binding ignores the signal. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
