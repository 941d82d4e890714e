/**
 * The trust boundary of prompt assembly (R5.2): which stored messages are conversation.
 *
 * The stored thread is untrusted history (A2A seeds, earlier turns, hand-edited or
 * externally written threads). Nothing in it may reach the model with system authority:
 * the system prompt is built only from the operator's PromptParts (prompt.ts). So before
 * the window is selected, these stored messages are left out of the model input:
 *
 * - SystemMessages (type `system`; selectWindow would skip them too — groups.ts);
 * - messages that claim a privileged role without being SystemMessages: a generic
 *   ChatMessage whose role is `system` or `developer` (any case). Model adapters pass a
 *   ChatMessage's role through to the provider, so it would otherwise arrive as a system
 *   or developer message;
 * - stale copies of the stable_tail runtime-context message (flag
 *   `additional_kwargs.llamon_runtime_context === true`). That message is built per call
 *   and never stored; if one was persisted by mistake it would carry outdated context.
 *
 * Nothing is copied or modified: the result holds the same message objects.
 */
import { type BaseMessage, ChatMessage } from "@langchain/core/messages";
import { isSystemMessage } from "./groups.ts";
import { RUNTIME_CONTEXT_FLAG } from "./prompt-blocks.ts";

const PRIVILEGED_ROLES = new Set(["system", "developer"]);

/** True for a message built by assemblePrompt as stable_tail runtime context. */
export function isRuntimeContextMessage(message: BaseMessage): boolean {
  return message.additional_kwargs?.[RUNTIME_CONTEXT_FLAG] === true;
}

/** True for a SystemMessage or a message that claims the system/developer role. */
export function claimsSystemRole(message: BaseMessage): boolean {
  if (isSystemMessage(message)) return true;
  return ChatMessage.isInstance(message) && PRIVILEGED_ROLES.has(message.role.trim().toLowerCase());
}

/** The stored messages that are conversation (see the file header), in thread order. */
export function conversationMessages(thread: readonly BaseMessage[]): BaseMessage[] {
  return thread.filter(
    (message) => !claimsSystemRole(message) && !isRuntimeContextMessage(message),
  );
}

/** Index of the last HumanMessage, or -1. */
export function lastHumanIndex(messages: readonly BaseMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.getType() === "human") return i;
  }
  return -1;
}

/**
 * `has_prior` of R3.4/R3.5: an AIMessage stands before the latest HumanMessage, i.e. an
 * earlier turn of this conversation was answered. The current turn's own AIMessages
 * (tool calls during the tool loop) do not count. A thread without a HumanMessage has no
 * current request and so no prior turn: false.
 */
export function hasPriorTurn(messages: readonly BaseMessage[]): boolean {
  const latest = lastHumanIndex(messages);
  for (let i = 0; i < latest; i++) {
    if (messages[i]?.getType() === "ai") return true;
  }
  return false;
}
