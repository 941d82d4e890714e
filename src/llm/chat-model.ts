/**
 * The LangChain side every provider adapter shares (OpenAI-compatible, Anthropic, Workers
 * AI): `bindTools` that converts the tools once and binds them as call options, the
 * `_generate` wrapper that turns the adapter's one reply into a `ChatResult`, and
 * `_streamResponseChunks`, which hands LangChain (`model.stream()`, LangGraph's streaming,
 * callbacks' `handleLLMNewToken`) the adapter's answer as it arrives. An adapter supplies
 * only the provider part: {@link LlamonChatModel._reply} sends the request and parses the
 * whole answer into an AIMessage, {@link LlamonChatModel._replyChunks} asks for a streamed
 * answer and yields its chunks (text, tool-call chunks, usage last); both throw LlamonErrors.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { AIMessage, AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { bindableTools, type LlamonChatCallOptions } from "./common.ts";

export abstract class LlamonChatModel extends BaseChatModel<LlamonChatCallOptions> {
  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<LlamonChatCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, LlamonChatCallOptions> {
    return this.withConfig({ ...kwargs, tools: bindableTools(tools) });
  }

  /** One call to the provider: its answer to `messages`, as an AIMessage. */
  protected abstract _reply(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<AIMessage>;

  /** One streaming call to the provider: its answer to `messages` as it arrives. */
  protected abstract _replyChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): AsyncGenerator<AIMessageChunk>;

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    const message = await this._reply(messages, options);
    return {
      generations: [{ message, text: typeof message.content === "string" ? message.content : "" }],
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    for await (const message of this._replyChunks(messages, options)) {
      const text = typeof message.content === "string" ? message.content : "";
      const chunk = new ChatGenerationChunk({ message, text });
      yield chunk;
      if (text !== "") {
        await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, {
          chunk,
        });
      }
    }
  }
}
