/**
 * A streamed Workers AI answer: `AI.run(model, { …, stream: true })` resolves to a
 * ReadableStream of server-sent events, `data: {"response":"…"}` pieces, tool calls as
 * `{"tool_calls":[{name, arguments}]}` (arguments an object or JSON text, possibly in pieces by
 * index), `usage` near the end, then `data: [DONE]`; newer models stream OpenAI-style
 * `choices[0].delta` chunks instead (handled as in openai-stream.ts). A model that answers a
 * streaming call with a whole answer (an object) is read as one.
 */
import type { AIMessageChunk } from "@langchain/core/messages";
import { AIMessageChunk as Chunk } from "@langchain/core/messages";
import { endChunk, ToolCallChunks, textChunk } from "./chunks.ts";
import { num, openAIUsage } from "./common.ts";
import { choiceChunks, cutShort, eventJson, streamFailure } from "./openai-stream.ts";
import type { SseEvent } from "./sse.ts";

const PROVIDER = "workers-ai";

export async function* workersAIStreamChunks(
  events: AsyncIterable<SseEvent>,
): AsyncGenerator<AIMessageChunk> {
  const tools = new ToolCallChunks(PROVIDER);
  const metadata: Record<string, unknown> = { model_provider: PROVIDER };
  let usage: ReturnType<typeof openAIUsage>;
  let finished = false;
  for await (const event of events) {
    if (event.data.trim() === "[DONE]") {
      finished = true;
      break;
    }
    const data = eventJson(event, PROVIDER);
    if (event.event === "error" || data.error !== undefined || data.errors !== undefined) {
      throw streamFailure(PROVIDER, data);
    }
    usage = openAIUsage(data.usage) ?? usage;
    if (Array.isArray(data.choices)) {
      if (yield* choiceChunks(data.choices, tools, metadata)) finished = true;
      continue;
    }
    if (typeof data.response === "string" && data.response !== "") {
      yield textChunk(data.response);
    }
    const calls = Array.isArray(data.tool_calls) ? data.tool_calls : [];
    for (const [position, raw] of calls.entries()) {
      const call = (raw ?? {}) as Record<string, unknown>;
      const fn = (call.function ?? call) as Record<string, unknown>;
      const id = call.id === "null" ? undefined : call.id;
      yield tools.add(num(call.index) ?? position, {
        id,
        name: fn.name,
        args: fn.arguments ?? fn.parameters,
      });
    }
  }
  if (!finished) throw cutShort(PROVIDER);
  tools.check();
  yield endChunk(metadata, usage);
}

/** A whole answer given to a streaming call, as chunks (one message's worth). */
export function wholeAnswerChunks(message: {
  content: unknown;
  tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[];
  usage_metadata?: AIMessageChunk["usage_metadata"];
  response_metadata: Record<string, unknown>;
}): AIMessageChunk[] {
  const text = typeof message.content === "string" ? message.content : "";
  const out: AIMessageChunk[] = [];
  if (text !== "") out.push(textChunk(text));
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    out.push(
      new Chunk({
        content: "",
        tool_call_chunks: [
          {
            type: "tool_call_chunk",
            index,
            name: call.name,
            args: JSON.stringify(call.args),
            ...(call.id === undefined ? {} : { id: call.id }),
          },
        ],
      }),
    );
  }
  out.push(endChunk(message.response_metadata, message.usage_metadata));
  return out;
}
