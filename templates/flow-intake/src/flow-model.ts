/**
 * Runs the workflow where llamon calls a model: llamon loads the conversation, applies the
 * memory window, stores the reply and serves A2A; the flow decides what to say. Pass it to
 * createWorker as `model` (src/index.ts).
 */
import {
  BaseChatModel,
  type BaseChatModelParams,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { intakeFlow } from "./flow.ts";

export class IntakeFlowModel extends BaseChatModel {
  constructor(fields: BaseChatModelParams = {}) {
    super(fields);
  }

  _llmType(): string {
    return "flow-intake";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const { reply } = await intakeFlow.invoke({ conversation: messages });
    const message = new AIMessage(reply);
    return { generations: [{ message, text: reply }] };
  }
}
