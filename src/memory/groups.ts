/**
 * Message groups: the units the window (R3.2, R3.3) and the persist trim (R4.2) keep or
 * drop, so a turn boundary is never cut in the middle of a tool exchange.
 *
 * A stored thread (system messages excluded) splits into contiguous groups:
 *
 * - `tool_group`: an AIMessage with non-empty `tool_calls` followed by one ToolMessage for
 *   each call, in any order (parallel calls answered b, a, c are fine). System messages in
 *   between are skipped, as everywhere.
 * - `user` (HumanMessage), `ai` (AIMessage without tool calls), `other` (any other
 *   non-system message): one message each.
 *
 * Malformed histories (a crash between the model's tool call and the tool's answer, a
 * hand-edited or externally seeded thread, a trim done by another tool) are isolated in
 * groups of their own, because providers reject both halves of a broken exchange: OpenAI
 * and Anthropic refuse a tool call that has no result and a tool result that has no call.
 *
 * - `orphan_tool`: a ToolMessage whose `tool_call_id` is not a still-unanswered call of
 *   the tool group right before it (no call at all, a call of an earlier group, a second
 *   answer to the same call, or a call id it shares with nothing).
 * - `unanswered_tool_calls`: an AIMessage whose tool calls were not all answered before
 *   the next non-tool message or the end of the thread — with the answers it did get. A
 *   group whose calls lack ids or repeat an id also ends here: it cannot be matched.
 *
 * Malformed groups are never sent to a model: the window leaves them out whole (they
 * are not counted as kept groups either), wherever they are, including in the latest user
 * turn. An unanswered tail is dropped too: at model-call time every tool call of the
 * thread must already have its result, and the graph's tool loop adds results before it
 * calls the model again. Nothing is repaired or invented (no synthetic tool results);
 * the stored thread is never changed by grouping.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";

export type WellFormedGroupKind = "user" | "ai" | "tool_group" | "other";
export type MalformedGroupKind = "orphan_tool" | "unanswered_tool_calls";
export type MessageGroupKind = WellFormedGroupKind | MalformedGroupKind;

export interface MessageGroup {
  readonly kind: MessageGroupKind;
  /** The group's messages, in thread order (never a system message). */
  readonly messages: readonly BaseMessage[];
  /** Index in the input of the group's first message. */
  readonly start: number;
  /** Index in the input just after the group's last message (exclusive). */
  readonly end: number;
}

/** True for groups that may be sent to a model. */
export function isWellFormed(group: MessageGroup): boolean {
  return group.kind !== "orphan_tool" && group.kind !== "unanswered_tool_calls";
}

/** System messages are not part of the conversation groups (the prompt is rebuilt). */
export function isSystemMessage(message: BaseMessage): boolean {
  return message.getType() === "system";
}

interface OpenToolGroup {
  readonly messages: BaseMessage[];
  readonly start: number;
  end: number;
  readonly pending: Set<string>;
  /** False when the calls lack ids or repeat one: such a group cannot be answered. */
  readonly matchable: boolean;
}

function openToolGroup(message: AIMessage, index: number): OpenToolGroup | undefined {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return undefined;
  const ids = calls.map((call) => call.id);
  const pending = new Set(ids.filter((id): id is string => typeof id === "string" && id !== ""));
  return {
    messages: [message],
    start: index,
    end: index + 1,
    pending,
    matchable: pending.size === calls.length,
  };
}

function singleKind(message: BaseMessage): WellFormedGroupKind {
  const type = message.getType();
  if (type === "human") return "user";
  if (type === "ai") return "ai";
  return "other";
}

/**
 * A place where grouping can start without looking further back: the largest index ≤ `at`
 * that holds neither a system message nor a ToolMessage (0 when there is none). Grouping
 * closes any open tool group at such a message, so the groups from there on are the same
 * whatever came before — the window (window.ts) groups from the end this way.
 */
export function groupingRestart(messages: readonly BaseMessage[], at: number): number {
  for (let i = Math.min(at, messages.length - 1); i > 0; i--) {
    const message = messages[i] as BaseMessage;
    if (!isSystemMessage(message) && !ToolMessage.isInstance(message)) return i;
  }
  return 0;
}

/**
 * Splits a stored thread into contiguous groups (see the file header). System messages
 * are skipped. The input array and its messages are not modified. With `from` (a
 * {@link groupingRestart} index), only the groups from there on, with indices into the
 * whole input.
 */
export function groupMessages(messages: readonly BaseMessage[], from = 0): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let open: OpenToolGroup | undefined;
  const close = (): void => {
    if (open === undefined) return;
    const complete = open.matchable && open.pending.size === 0;
    groups.push({
      kind: complete ? "tool_group" : "unanswered_tool_calls",
      messages: open.messages,
      start: open.start,
      end: open.end,
    });
    open = undefined;
  };
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as BaseMessage;
    if (isSystemMessage(message)) continue;
    if (ToolMessage.isInstance(message)) {
      if (open?.pending.delete(message.tool_call_id)) {
        open.messages.push(message);
        open.end = index + 1;
        if (open.pending.size === 0) close();
        continue;
      }
      close();
      groups.push({ kind: "orphan_tool", messages: [message], start: index, end: index + 1 });
      continue;
    }
    close();
    open = AIMessage.isInstance(message) ? openToolGroup(message, index) : undefined;
    if (open === undefined) {
      groups.push({ kind: singleKind(message), messages: [message], start: index, end: index + 1 });
    }
  }
  close();
  return groups;
}

export interface TrimResult {
  /** The messages that stay stored, in thread order. */
  kept: BaseMessage[];
  /** The messages to delete permanently, in thread order. */
  removed: BaseMessage[];
}

/**
 * R4.2 (`MEMORY_PERSIST_TRIM_KEEP_GROUPS=N`), the selection only: which stored messages
 * remain when only the last N groups are kept. N counts well-formed groups (turn units);
 * the cut falls at the start of the N-th last one, so a tool group is never cut, and any
 * malformed group after the cut stays (the window skips it anyway), any before it goes.
 * System messages are not turns and are always kept. N ≤ 0 removes every non-system
 * message; N ≥ the number of well-formed groups removes nothing.
 */
export function trimToLastGroups(messages: readonly BaseMessage[], keepGroups: number): TrimResult {
  const wellFormed = groupMessages(messages).filter(isWellFormed);
  const keep = Math.floor(keepGroups);
  let cut = 0;
  if (keep <= 0) cut = messages.length;
  else if (keep < wellFormed.length) cut = wellFormed[wellFormed.length - keep]?.start ?? 0;
  const kept: BaseMessage[] = [];
  const removed: BaseMessage[] = [];
  messages.forEach((message, index) => {
    (index >= cut || isSystemMessage(message) ? kept : removed).push(message);
  });
  return { kept, removed };
}
