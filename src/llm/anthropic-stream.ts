/**
 * A streamed Messages API answer (`stream: true`): `message_start` (id, model, input usage),
 * per content block `content_block_start` / `content_block_delta` / `content_block_stop`
 * (text in `text_delta`s; a `tool_use` block's id and name at its start and its input's JSON
 * in `input_json_delta` pieces), `message_delta` (stop reason, output usage), `message_stop`;
 * `ping`s in between. An `error` event (e.g. `overloaded_error`), or a stream that ends before
 * `message_stop`, fails the call with a LlamonError.
 */
import type { AIMessageChunk, UsageMetadata } from "@langchain/core/messages";
import { endChunk, ToolCallChunks, textChunk } from "./chunks.ts";
import { num } from "./common.ts";
import { cutShort, eventJson, streamFailure } from "./openai-stream.ts";
import type { SseEvent } from "./sse.ts";

const PROVIDER = "anthropic";

export async function* anthropicStreamChunks(
  events: AsyncIterable<SseEvent>,
): AsyncGenerator<AIMessageChunk> {
  const tools = new ToolCallChunks(PROVIDER);
  const metadata: Record<string, unknown> = { model_provider: PROVIDER };
  let usage: Record<string, unknown> = {};
  let stopped = false;
  for await (const event of events) {
    const data = eventJson(event, PROVIDER);
    const type = typeof data.type === "string" ? data.type : event.event;
    if (type === "error" || event.event === "error") throw streamFailure(PROVIDER, data);
    if (type === "message_start") {
      const message = (data.message ?? {}) as Record<string, unknown>;
      if (typeof message.id === "string") metadata.id = message.id;
      if (typeof message.model === "string") metadata.model_name = message.model;
      usage = { ...usage, ...(message.usage as Record<string, unknown> | undefined) };
    } else if (type === "content_block_start") {
      const block = (data.content_block ?? {}) as Record<string, unknown>;
      const index = num(data.index) ?? 0;
      if (block.type === "tool_use") {
        yield tools.add(index, { id: block.id, name: block.name, args: "" });
      } else if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
        yield textChunk(block.text);
      }
    } else if (type === "content_block_delta") {
      const delta = (data.delta ?? {}) as Record<string, unknown>;
      const index = num(data.index) ?? 0;
      if (delta.type === "text_delta" && typeof delta.text === "string" && delta.text !== "") {
        yield textChunk(delta.text);
      } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
        yield tools.add(index, { args: delta.partial_json });
      }
    } else if (type === "message_delta") {
      const delta = (data.delta ?? {}) as Record<string, unknown>;
      if (delta.stop_reason !== undefined) metadata.stop_reason = delta.stop_reason;
      if (delta.stop_sequence !== undefined && delta.stop_sequence !== null) {
        metadata.stop_sequence = delta.stop_sequence;
      }
      usage = { ...usage, ...(data.usage as Record<string, unknown> | undefined) };
    } else if (type === "message_stop") {
      stopped = true;
      break;
    }
  }
  if (!stopped) throw cutShort(PROVIDER);
  tools.check();
  yield endChunk(metadata, Object.keys(usage).length > 0 ? anthropicUsage(usage) : undefined);
}

/**
 * Anthropic usage → LangChain usage. Anthropic's `input_tokens` counts only the uncached
 * part; LangChain's `input_tokens` is all input, so cache reads and writes are added.
 */
export function anthropicUsage(usage: unknown): UsageMetadata | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  const u = usage as Record<string, unknown>;
  const uncached = num(u.input_tokens) ?? 0;
  const read = num(u.cache_read_input_tokens) ?? 0;
  const created = num(u.cache_creation_input_tokens) ?? 0;
  const output = num(u.output_tokens) ?? 0;
  const input = uncached + read + created;
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_token_details: { cache_read: read, cache_creation: created },
  };
}
