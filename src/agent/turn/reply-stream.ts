/**
 * A model call whose reply text is handed on as it arrives (A2A `message/stream`): the model
 * streams (`Runnable.stream`, the adapters' `_streamResponseChunks`; a model that cannot
 * stream answers in one piece), each text piece goes to the turn's {@link ReplyStream}, and the
 * chunks are joined into the one AIMessage the graph stores, exactly as `invoke` would return
 * it. Tool-call pieces are joined into tool calls and never handed on as text; text after the
 * first tool-call piece of a call is not handed on either. The first piece of each model call
 * says `restart`: what earlier calls of the turn handed on (the text before a tool call, or a
 * run the turn had to repeat) is replaced, not continued.
 */
import { AIMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";

export interface ReplyPiece {
  readonly text: string;
  /** The first piece of a model call: it replaces what was handed on before. */
  readonly restart: boolean;
}

/** Where the turn's reply text goes as it arrives. */
export type ReplyStream = (piece: ReplyPiece) => void;

export async function streamedReply(
  model: Runnable<BaseMessage[], AIMessage>,
  messages: BaseMessage[],
  onPiece: ReplyStream,
): Promise<AIMessage> {
  let whole: AIMessageChunk | undefined;
  let restart = true;
  let toolCalling = false;
  const chunks = (await model.stream(messages)) as AsyncIterable<AIMessageChunk>;
  for await (const chunk of chunks) {
    whole = whole === undefined ? chunk : whole.concat(chunk);
    if ((chunk.tool_call_chunks?.length ?? 0) > 0) toolCalling = true;
    const text = textOfChunk(chunk);
    if (text !== "" && !toolCalling) {
      onPiece({ text, restart });
      restart = false;
    }
  }
  if (whole === undefined) return new AIMessage({ content: "" });
  return new AIMessage({
    content: whole.content,
    tool_calls: whole.tool_calls ?? [],
    invalid_tool_calls: whole.invalid_tool_calls ?? [],
    response_metadata: whole.response_metadata,
    additional_kwargs: whole.additional_kwargs,
    ...(whole.usage_metadata ? { usage_metadata: whole.usage_metadata } : {}),
    ...(whole.id === undefined ? {} : { id: whole.id }),
  });
}

function textOfChunk(chunk: AIMessageChunk): string {
  if (typeof chunk.content === "string") return chunk.content;
  return chunk.content
    .map((part) =>
      typeof part === "object" && part !== null && part.type === "text" && "text" in part
        ? String(part.text)
        : "",
    )
    .join("");
}
