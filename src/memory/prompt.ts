/**
 * Prompt assembly: exactly what goes to the model on one call (R3.4, R3.5, R6, and the
 * slots that R7.4 summaries and R8.2 recalled facts fill).
 *
 *   model input = [SystemMessage?] + window (+ one runtime-context message in stable_tail)
 *
 * - The system prompt is rebuilt on every call from {@link PromptParts} only (operator
 *   text, skills/guardrails, per-call slots). Stored history never becomes part of it:
 *   SystemMessages and system-role claims in the thread are dropped (R5.2,
 *   prompt-thread.ts), the rest goes through the group-aware window (R3.1–R3.3).
 * - History note (R3.5): {@link HISTORY_NOTE} is the last block of the system prompt when
 *   (1) the agent's own `systemText` is non-empty after trimming — skills, guardrails or
 *   slot blocks alone do not count, because the product document ties the note to the
 *   agent's system text (an agent with no instructions of its own gets no note); (2)
 *   `has_prior` (an AIMessage before the latest HumanMessage in the stored thread, not
 *   just in the window, so the note does not flicker when the window cuts); and (3)
 *   `history_aware` is true.
 * - `legacy_system` (R6.1, default): system prompt = systemText, skills…, knowledge,
 *   facts, `[이전 대화 요약]` summary, `[이전 대화 발췌]` recalled messages
 *   (prompt-recall.ts), history note — blocks separated by a blank line.
 * - `stable_tail` (R6.2): system prompt = systemText, skills…, history note only, so it
 *   changes once (turn 1 → 2, when the note appears) and then stays byte-identical while
 *   systemText and skills do. Knowledge, facts, summary and recalled messages go into ONE
 *   HumanMessage right after the latest real user message of the window (or at the end of
 *   the window when it has no HumanMessage), marked by its first line
 *   {@link RUNTIME_CONTEXT_MARKER}, its `additional_kwargs.llamon_runtime_context === true`
 *   and its id prefix `llamon-runtime-`. No slot content → no such message.
 * - Recalled messages are counted against `max_history_tokens`: the block has
 *   its own budget (prompt-recall.ts `recallBudget`), and when it is placed under a cap the
 *   window is selected again with the cap less the block's tokens (the window only gets
 *   shorter, so the recalled messages stay outside it).
 *
 * Nothing is mutated: the stored thread and its messages stay as they are; the runtime
 * context message exists only in the returned model input and is never to be stored.
 */
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { MemoryConfig } from "./config-schema.ts";
import {
  cleanTexts,
  contextBlocks,
  HISTORY_NOTE,
  joinBlocks,
  RUNTIME_CONTEXT_FLAG,
  RUNTIME_CONTEXT_ID_PREFIX,
  RUNTIME_CONTEXT_MARKER,
  RUNTIME_CONTEXT_NOTE,
} from "./prompt-blocks.ts";
import { buildRecallBlock, type RecalledItem, recallBudget } from "./prompt-recall.ts";
import { conversationMessages, hasPriorTurn, lastHumanIndex } from "./prompt-thread.ts";
import { estimateTokens } from "./tokens.ts";
import { selectWindow } from "./window.ts";

export {
  FACTS_HEADER,
  HISTORY_NOTE,
  KNOWLEDGE_HEADER,
  RUNTIME_CONTEXT_FLAG,
  RUNTIME_CONTEXT_ID_PREFIX,
  RUNTIME_CONTEXT_MARKER,
  RUNTIME_CONTEXT_NOTE,
  SUMMARY_HEADER,
} from "./prompt-blocks.ts";
export { RECALL_HEADER, RECALL_NOTE, type RecalledItem } from "./prompt-recall.ts";
export { isRuntimeContextMessage } from "./prompt-thread.ts";

export interface PromptParts {
  /** The agent's own system text (operator). May be empty/undefined: then no system message unless other system parts exist. */
  systemText?: string | undefined;
  /** Skill / guardrail texts, appended in order after systemText (hooks; current values each call). */
  skills?: readonly string[] | undefined;
  /** Knowledge snippets for this call (slot). */
  knowledge?: readonly string[] | undefined;
  /** Recalled facts for this call (slot; R8.2). Plain strings. */
  facts?: readonly string[] | undefined;
  /** The rolling summary of out-of-window history (slot; R7.4). */
  summary?: string | undefined;
  /**
   * Recalled earlier messages (slot), best first, none of them in the window
   * (the caller excluded what {@link promptWindow} selects).
   */
  recalled?: readonly RecalledItem[] | undefined;
}

export interface AssembleInput extends PromptParts {
  /** The stored thread at the moment of the model call (may contain SystemMessages from history — they are never sent: the system prompt is rebuilt each call). */
  thread: readonly BaseMessage[];
  config: Pick<
    MemoryConfig,
    "window_size" | "max_history_tokens" | "history_aware" | "prompt_context_mode"
  >;
  /** Token counter for the `max_history_tokens` cap; defaults to estimateTokens. */
  countTokens?: ((m: BaseMessage) => number) | undefined;
  /**
   * The stored thread's messages before `thread` (a live tail; memory/live-tail.ts): they
   * count in `thread_msgs` and `has_prior`, and are never sent.
   */
  archived?: { readonly conversation: number; readonly ai: boolean } | undefined;
}

/**
 * The numbers of the R3.4 `multiturn:` log line.
 *
 * - `thread_msgs`: conversation messages in the stored thread — every stored message
 *   except SystemMessages, system/developer-role claims and stale runtime-context copies
 *   (prompt-thread.ts). Malformed tool exchanges count (they are stored).
 * - `window`: the configured `window_size`.
 * - `sent_to_llm`: conversation messages actually sent — the window; neither the system
 *   message nor the stable_tail runtime-context message counts.
 * - `has_prior`: the stored thread has an AIMessage before its latest HumanMessage (an
 *   earlier turn was answered); false without any HumanMessage.
 *
 * So `thread_msgs > sent_to_llm` exactly when stored messages were left out: older groups
 * cut by the window (`window_size` / `max_history_tokens`) or malformed groups skipped.
 */
export interface MultiturnSignals {
  thread_msgs: number;
  window: number;
  sent_to_llm: number;
  has_prior: boolean;
}

export interface AssembledPrompt {
  /** Exactly what goes to the model: [SystemMessage?] + window (+ runtime context in stable_tail). */
  messages: BaseMessage[];
  /** The system text that was built (undefined when none). */
  system: string | undefined;
  /** The selectWindow result used (over the conversation messages of the thread). */
  window: ReturnType<typeof selectWindow>;
  signals: MultiturnSignals;
  /** The recalled messages placed (conversation order) and the block's estimated tokens. */
  recall: { items: RecalledItem[]; tokens: number };
}

/** The R3.4 INFO line, e.g. `multiturn: thread_msgs=4 window=20 sent_to_llm=4 has_prior=true`. */
export function multiturnLogLine(s: MultiturnSignals): string {
  return `multiturn: thread_msgs=${s.thread_msgs} window=${s.window} sent_to_llm=${s.sent_to_llm} has_prior=${s.has_prior}`;
}

/** The system text: operator text, skills, [slot blocks], history note (see file header). */
function buildSystem(
  input: AssembleInput,
  slotBlocks: readonly string[],
  hasPrior: boolean,
): string | undefined {
  const own = input.systemText?.trim() ?? "";
  const blocks = [...cleanTexts([own]), ...cleanTexts(input.skills), ...slotBlocks];
  if (own !== "" && hasPrior && input.config.history_aware) blocks.push(HISTORY_NOTE);
  return joinBlocks(blocks);
}

function runtimeContextMessage(blocks: readonly string[], anchor: string): HumanMessage {
  return new HumanMessage({
    content: [`${RUNTIME_CONTEXT_MARKER}\n${RUNTIME_CONTEXT_NOTE}`, ...blocks].join("\n\n"),
    id: `${RUNTIME_CONTEXT_ID_PREFIX}${anchor}`,
    additional_kwargs: { [RUNTIME_CONTEXT_FLAG]: true },
  });
}

/** Window messages with the runtime-context message placed after the latest HumanMessage. */
function withRuntimeContext(window: readonly BaseMessage[], blocks: readonly string[]) {
  const at = lastHumanIndex(window);
  const anchorMessage = at >= 0 ? window[at] : undefined;
  const anchor = anchorMessage?.id ?? (at >= 0 ? `at-${at}` : "tail");
  const message = runtimeContextMessage(blocks, anchor);
  const cut = at >= 0 ? at + 1 : window.length;
  return [...window.slice(0, cut), message, ...window.slice(cut)];
}

type WindowInput = Pick<AssembleInput, "thread" | "config" | "countTokens">;

function windowFor(conversation: readonly BaseMessage[], input: WindowInput, cap?: number) {
  return selectWindow(conversation, {
    window_size: input.config.window_size,
    max_history_tokens: cap ?? input.config.max_history_tokens,
    countTokens: input.countTokens,
  });
}

/** The window {@link assemblePrompt} starts from: what a recall must exclude. */
export function promptWindow(input: WindowInput): ReturnType<typeof selectWindow> {
  return windowFor(conversationMessages(input.thread), input);
}

/** Builds the model input of one call (see the file header). Inputs are not modified. */
export function assemblePrompt(input: AssembleInput): AssembledPrompt {
  const { config } = input;
  const conversation = conversationMessages(input.thread);
  const cap = config.max_history_tokens ?? undefined;
  const recall = buildRecallBlock(
    input.recalled ?? [],
    recallBudget(cap),
    input.countTokens ?? estimateTokens,
  );
  const window =
    cap !== undefined && recall.tokens > 0
      ? windowFor(conversation, input, Math.max(1, cap - recall.tokens))
      : windowFor(conversation, input);
  const hasPrior = (input.archived?.ai ?? false) || hasPriorTurn(conversation);
  const slots = contextBlocks({ ...input, recall: recall.text });
  const stableTail = config.prompt_context_mode === "stable_tail";

  const system = buildSystem(input, stableTail ? [] : slots, hasPrior);
  const sent =
    stableTail && slots.length > 0 ? withRuntimeContext(window.messages, slots) : window.messages;
  const messages = system === undefined ? [...sent] : [new SystemMessage(system), ...sent];

  return {
    messages,
    system,
    window,
    signals: {
      thread_msgs: (input.archived?.conversation ?? 0) + conversation.length,
      window: config.window_size,
      sent_to_llm: window.messages.length,
      has_prior: hasPrior,
    },
    recall: { items: recall.items, tokens: recall.tokens },
  };
}
