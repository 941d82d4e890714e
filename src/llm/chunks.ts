/**
 * The pieces of a streamed answer, as LangChain message chunks: text as it arrives, tool calls
 * as `tool_call_chunks` (LangChain's `concat` joins them by index into tool calls), usage and
 * the provider's metadata once, at the end. {@link ToolCallChunks} follows each call's
 * arguments as they arrive, gives a call the provider sent without an id one of ours, and at
 * the end checks each call's arguments with the same rule as a whole answer (a JSON object),
 * so a streamed turn fails as clearly as one that was not streamed.
 */
import { AIMessageChunk, type UsageMetadata } from "@langchain/core/messages";
import type { ToolCallChunk } from "@langchain/core/messages/tool";
import { newToolCallId, parseToolArguments } from "./common.ts";

/** A chunk of reply text. */
export function textChunk(text: string): AIMessageChunk {
  return new AIMessageChunk({ content: text });
}

/** The last chunk of an answer: usage and metadata (finish reason, model, provider id). */
export function endChunk(
  metadata: Record<string, unknown>,
  usage: UsageMetadata | undefined,
): AIMessageChunk {
  return new AIMessageChunk({
    content: "",
    response_metadata: metadata,
    ...(usage ? { usage_metadata: usage } : {}),
  });
}

interface Assembling {
  id: string;
  name: string;
  args: string;
}

export class ToolCallChunks {
  readonly #calls = new Map<number, Assembling>();

  constructor(private readonly provider: string) {}

  /** Any tool call started. */
  get started(): boolean {
    return this.#calls.size > 0;
  }

  /**
   * A piece of the call at `index`: its id and name come with its first piece (a missing id
   * is made here), its arguments' JSON text in pieces.
   */
  add(index: number, piece: { id?: unknown; name?: unknown; args?: unknown }): AIMessageChunk {
    let call = this.#calls.get(index);
    const first = call === undefined;
    if (call === undefined) {
      const id = typeof piece.id === "string" && piece.id !== "" ? piece.id : newToolCallId();
      call = { id, name: "", args: "" };
      this.#calls.set(index, call);
    }
    const name = typeof piece.name === "string" ? piece.name : "";
    if (name !== "") call.name += name;
    const args =
      typeof piece.args === "string"
        ? piece.args
        : piece.args !== undefined && piece.args !== null
          ? JSON.stringify(piece.args)
          : "";
    call.args += args;
    const chunk: ToolCallChunk = { type: "tool_call_chunk", index, args };
    if (first) chunk.id = call.id;
    if (name !== "") chunk.name = name;
    return new AIMessageChunk({ content: "", tool_call_chunks: [chunk] });
  }

  /** At the end: every call's arguments must be a JSON object (throws a LlamonError). */
  check(): void {
    for (const call of this.#calls.values()) {
      parseToolArguments(call.args, { provider: this.provider, name: call.name, id: call.id });
    }
  }
}
