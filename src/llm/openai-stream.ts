/**
 * A streamed `/chat/completions` answer (`stream: true`): `data:` events of
 * `chat.completion.chunk` objects, then `data: [DONE]`. Text comes in `choices[0].delta.content`,
 * tool calls in `delta.tool_calls[{index, id, function:{name, arguments}}]` pieces (id and name
 * with the first piece of an index, the arguments' JSON in pieces), usage in a last chunk with
 * no choices (`stream_options.include_usage`). An `error` object instead of a chunk, or a stream
 * that ends before a finish reason or `[DONE]`, fails the call with a LlamonError. Workers AI's
 * binding streams the same shape on newer models (workers-ai-stream.ts).
 */
import type { AIMessageChunk } from "@langchain/core/messages";
import { AIMessageChunk as Chunk } from "@langchain/core/messages";
import { endChunk, ToolCallChunks, textChunk } from "./chunks.ts";
import { num, openAIUsage } from "./common.ts";
import { modelError, providerMessage } from "./http.ts";
import type { SseEvent } from "./sse.ts";

/** The chunks of a streamed OpenAI-style answer. */
export async function* openAIStreamChunks(
  events: AsyncIterable<SseEvent>,
  provider: string,
): AsyncGenerator<AIMessageChunk> {
  const tools = new ToolCallChunks(provider);
  const metadata: Record<string, unknown> = { model_provider: provider };
  let usage: ReturnType<typeof openAIUsage>;
  let finished = false;
  for await (const event of events) {
    if (event.data.trim() === "[DONE]") {
      finished = true;
      break;
    }
    const data = eventJson(event, provider);
    if (event.event === "error" || data.error !== undefined) throw streamFailure(provider, data);
    if (typeof data.model === "string") metadata.model_name = data.model;
    if (typeof data.id === "string") metadata.id = data.id;
    usage = openAIUsage(data.usage) ?? usage;
    if (yield* choiceChunks(data.choices, tools, metadata)) finished = true;
  }
  if (!finished) throw cutShort(provider);
  tools.check();
  yield endChunk(metadata, usage);
}

/**
 * The chunks of a chunk's `choices[0].delta`; returns whether the choice has finished (its
 * finish reason goes into `metadata`).
 */
export function* choiceChunks(
  choices: unknown,
  tools: ToolCallChunks,
  metadata: Record<string, unknown>,
): Generator<AIMessageChunk, boolean> {
  const choice = Array.isArray(choices)
    ? (choices[0] as Record<string, unknown> | undefined)
    : undefined;
  if (choice === undefined) return false;
  yield* deltaChunks((choice.delta ?? {}) as Record<string, unknown>, tools);
  if (typeof choice.finish_reason !== "string") return false;
  metadata.finish_reason = choice.finish_reason;
  return true;
}

/** The chunks of one `delta`: text, reasoning text, tool-call pieces. */
function* deltaChunks(
  delta: Record<string, unknown>,
  tools: ToolCallChunks,
): Generator<AIMessageChunk> {
  if (typeof delta.content === "string" && delta.content !== "") yield textChunk(delta.content);
  for (const key of ["reasoning_content", "reasoning"]) {
    const piece = delta[key];
    if (typeof piece === "string" && piece !== "") {
      yield new Chunk({ content: "", additional_kwargs: { [key]: piece } });
    }
  }
  const calls = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
  for (const [position, raw] of calls.entries()) {
    const call = (raw ?? {}) as Record<string, unknown>;
    const fn = (call.function ?? {}) as Record<string, unknown>;
    yield tools.add(num(call.index) ?? position, {
      id: call.id,
      name: fn.name,
      args: fn.arguments,
    });
  }
}

/** An event's JSON data; anything else is a malformed answer. */
export function eventJson(event: SseEvent, provider: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(event.data);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // reported below
  }
  throw modelError(
    { provider },
    "bad_response",
    `${provider}: the streamed answer has an event that is not a JSON object: ${providerMessage(event.data) ?? "(empty)"}`,
  );
}

/** The provider reported an error in the middle of its stream. */
export function streamFailure(provider: string, data: unknown) {
  const said = providerMessage(JSON.stringify(data));
  return modelError(
    { provider },
    "unavailable",
    `${provider}: the model stopped its answer with an error; try again — provider said: ${said ?? "(nothing)"}`,
    { providerMessage: said },
  );
}

/** The stream ended before the model said it had finished. */
export function cutShort(provider: string) {
  return modelError(
    { provider },
    "unavailable",
    `${provider}: the streamed answer ended before the model finished (the connection was closed); try again`,
  );
}
