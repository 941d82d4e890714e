/**
 * The LangChain side every provider adapter shares (OpenAI-compatible, Anthropic, Workers
 * AI): `bindTools` that converts the tools once and binds them as call options, and the
 * `_generate` wrapper that turns the adapter's one reply into a `ChatResult`. An adapter
 * supplies only the provider part: {@link LlamonChatModel._reply} sends the request and
 * parses the answer into an AIMessage (or throws a LlamonError).
 */
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { AIMessage, AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
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

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    const message = await this._reply(messages, options);
    return {
      generations: [{ message, text: typeof message.content === "string" ? message.content : "" }],
    };
  }
}
