/**
 * The memory inspector's view of one conversation (GET /api/v1/memory/threads/:contextId),
 * computed from the stored thread, its persistent_memory rows and the effective config.
 * Pure: no storage, HTTP or Workers here.
 *
 * - `messages`: a page of the stored thread (positions `page.from` … `page.to`, the newest by
 *   default), in order; `conversation: false` marks stored messages the model never gets
 *   (system-role claims, stale runtime context; prompt-thread.ts).
 * - `groups`: the page's conversation split as the window sees it (groups.ts), each marked
 *   `in_window` when the window chosen now (current config) keeps it.
 * - the window, the signals and the summary's reach are computed from the head checkpoint's
 *   messages and the count of those before them (a live tail), so a page never needs the rest.
 * - `signals`: the R3.4 numbers for the stored thread as it is now (assemblePrompt with the
 *   current config); `last_turn`: what the last turn recorded about its model call, when
 *   the runtime records it (persistent_memory key `last_turn`).
 * - `hints`: the product document's debugging table, for the rows that apply — judged on
 *   the last turn's signals when recorded, else on the signals now.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { z } from "zod";
import type { MemoryConfig } from "../memory/config.ts";
import { factLines } from "../memory/facts/lines.ts";
import {
  MODEL_FACTS_MEMORY_KEY,
  type ModelFactState,
  parseModelFactState,
} from "../memory/facts/model-state.ts";
import { servedFacts } from "../memory/facts/served.ts";
import { parseFactState } from "../memory/facts/storage.ts";
import { groupMessages, type MessageGroupKind } from "../memory/groups.ts";
import { type ArchivedPrefix, EMPTY_PREFIX } from "../memory/live-tail.ts";
import { assemblePrompt, HISTORY_NOTE, type MultiturnSignals } from "../memory/prompt.ts";
import { conversationMessages } from "../memory/prompt-thread.ts";
import { effectiveCovers, parseSummaryCache } from "../memory/summary.ts";
import { messageText } from "../memory/summary-input.ts";
import { storedPrefix } from "../store/transcript.ts";
import { type Hint, hintsFor } from "./hints.ts";

/** persistent_memory key the runtime may record the last model call under. */
export const LAST_TURN_KEY = "last_turn";

export interface MessageView {
  index: number;
  id: string | null;
  type: string;
  text: string;
  conversation: boolean;
  tool_calls?: { id: string | null; name: string; args: unknown }[];
  tool_call_id?: string;
  name?: string;
}

export interface GroupView {
  kind: MessageGroupKind;
  /** Stored-thread indexes of the group's messages. */
  indexes: number[];
  message_ids: (string | null)[];
  in_window: boolean;
}

export interface LastTurnView {
  at: string | null;
  signals: MultiturnSignals;
  sent_ids: string[];
  config?: { window_size?: number; max_history_tokens?: number | null } | undefined;
}

export interface PageView {
  /** Position of the page's first message in the whole stored thread. */
  from: number;
  /** Position just after the page's last message. */
  to: number;
  /**
   * The position after the newest message. Above `stored` by what partial trims deleted
   * (they remove the transcript's oldest rows; positions do not change).
   */
  total: number;
  /** Messages stored now in the whole thread. */
  stored: number;
  /** `before` for the next older page; null when this page starts the stored thread. */
  older: number | null;
}

export interface ThreadView {
  context_id: string;
  messages: MessageView[];
  page: PageView;
  groups: GroupView[];
  window: {
    window_size: number;
    max_history_tokens: number | null;
    kept_ids: (string | null)[];
    dropped_groups: number;
    malformed_groups: number;
  };
  signals: MultiturnSignals;
  system_prompt: string | null;
  history_note: boolean;
  summary: {
    text: string;
    covers: number;
    covers_id: string | null;
    effective_covers: number;
    /**
     * Messages of the group at `effective_covers` already in the summary: a tool exchange
     * longer than one summary job, part-way through (queue/summarize.ts). Absent otherwise.
     */
    partial?: number;
    updated_at: string | null;
  } | null;
  facts: Record<string, unknown>[] | null;
  /**
   * Facts no longer current (replaced or taken back), oldest first, each with `retiredAt`
   * and `retiredBy` (the messageId that retired it); never sent as current (R8.3).
   */
  retired_facts: Record<string, unknown>[];
  last_turn: LastTurnView | null;
  hints: Hint[];
  hints_basis: "last_turn" | "now";
}

export interface InspectInput {
  contextId: string;
  /** The page of the stored thread shown (the whole thread by default). */
  messages: readonly BaseMessage[];
  /** Position of `messages[0]` in the whole thread. Default 0. */
  from?: number | undefined;
  /** The head checkpoint's messages (the window is chosen from them). Default `messages`. */
  head?: readonly BaseMessage[] | undefined;
  /** The stored messages before `head` (a live tail's transcript). Default none. */
  archived?: ArchivedPrefix | undefined;
  /** Whether stored messages come before the page. Default: `from > 0`. */
  older?: boolean | undefined;
  /** The thread's persistent_memory keys (summary, facts, last_turn, …). */
  memory: Readonly<Record<string, unknown>>;
  config: MemoryConfig;
  systemText?: string | undefined;
  skills?: readonly string[] | undefined;
}

const signalsSchema = z.object({
  thread_msgs: z.number().int().nonnegative(),
  window: z.number().int().nonnegative(),
  sent_to_llm: z.number().int().nonnegative(),
  has_prior: z.boolean(),
});

const lastTurnSchema = z.object({
  at: z.string().optional(),
  signals: signalsSchema,
  sent_ids: z.array(z.string()).default([]),
  config: z
    .object({
      window_size: z.number().optional(),
      max_history_tokens: z.number().nullable().optional(),
    })
    .optional(),
});

function messageView(message: BaseMessage, index: number, conversation: boolean): MessageView {
  const view: MessageView = {
    index,
    id: message.id ?? null,
    type: message.getType(),
    text: messageText(message),
    conversation,
  };
  if (AIMessage.isInstance(message) && (message.tool_calls?.length ?? 0) > 0) {
    view.tool_calls = (message.tool_calls ?? []).map((call) => ({
      id: call.id ?? null,
      name: call.name,
      args: call.args,
    }));
  }
  if (ToolMessage.isInstance(message)) view.tool_call_id = message.tool_call_id;
  if (typeof message.name === "string" && message.name !== "") view.name = message.name;
  return view;
}

/** Fact rows in any stored shape (`[…]` or `{ facts: […] }`), as plain objects. */
export function factsView(value: unknown): Record<string, unknown>[] | null {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === "object" && Array.isArray((value as { facts?: unknown }).facts)
      ? (value as { facts: unknown[] }).facts
      : undefined;
  if (list === undefined) return null;
  return list.flatMap((item) => {
    if (typeof item === "string") return [{ text: item }];
    if (item && typeof item === "object" && typeof (item as { text?: unknown }).text === "string")
      return [item as Record<string, unknown>];
    return [];
  });
}

/** The retired facts of a stored facts value (version 2), as plain objects; [] otherwise. */
export function retiredFactsView(value: unknown): Record<string, unknown>[] {
  const list =
    value && typeof value === "object" && Array.isArray((value as { retired?: unknown }).retired)
      ? (value as { retired: unknown[] }).retired
      : [];
  return list.filter(
    (item): item is Record<string, unknown> =>
      item !== null &&
      typeof item === "object" &&
      typeof (item as { text?: unknown }).text === "string",
  );
}

/**
 * The facts lines of the prompt preview: as the model gets them (with dates and earlier
 * values, facts/lines.ts) when the row reads as facts, else the rows' texts. In `llm` mode
 * the facts jobs' state (`modelState`, key facts_llm) is served with the heuristic's facts of
 * unapplied messages over it, as a turn does (memory/facts/served.ts).
 */
function previewFacts(
  value: unknown,
  rows: readonly Record<string, unknown>[] | null,
  modelState: ModelFactState | undefined,
): string[] | undefined {
  const state = servedFacts(parseFactState(value), modelState);
  if (state.facts.length > 0) return factLines(state.facts, state.retired);
  return rows?.map((f) => String(f.text));
}

export function lastTurnView(value: unknown): LastTurnView | null {
  const parsed = lastTurnSchema.safeParse(value);
  if (!parsed.success) return null;
  return {
    at: parsed.data.at ?? null,
    signals: parsed.data.signals,
    sent_ids: parsed.data.sent_ids,
    config: parsed.data.config,
  };
}

export function inspectThread(input: InspectInput): ThreadView {
  const { messages, config } = input;
  const from = input.from ?? 0;
  const head = input.head ?? messages;
  const archived = input.archived ?? EMPTY_PREFIX;
  // What is stored now: partial trims deleted some of the transcript (positions stay).
  const stored = storedPrefix(archived, input.memory);
  const conversation = conversationMessages(messages);
  const inConversation = new Set<BaseMessage>(conversation);
  const storedIndex = new Map<BaseMessage, number>(messages.map((m, i) => [m, from + i]));
  const summaryCache = parseSummaryCache(input.memory.summary);
  const modelFacts =
    config.facts_mode === "llm"
      ? parseModelFactState(input.memory[MODEL_FACTS_MEMORY_KEY])
      : undefined;
  // In llm mode the facts a turn serves are the jobs' state with the heuristic's facts of
  // unapplied messages over it; the view shows those, not the heuristic's row alone.
  const served =
    modelFacts === undefined
      ? undefined
      : servedFacts(parseFactState(input.memory.facts), modelFacts);
  const facts =
    served === undefined ? factsView(input.memory.facts) : served.facts.map((f) => ({ ...f }));

  const prompt = assemblePrompt({
    systemText: input.systemText,
    skills: input.skills,
    summary: summaryCache?.text,
    facts: previewFacts(input.memory.facts, facts, modelFacts),
    thread: [...head],
    config,
    archived: stored,
  });
  const kept = new Set<BaseMessage>(prompt.window.messages);
  const groups: GroupView[] = groupMessages(conversation).map((group) => ({
    kind: group.kind,
    indexes: group.messages.map((m) => storedIndex.get(m) ?? -1),
    message_ids: group.messages.map((m) => m.id ?? null),
    in_window: group.messages.some((m) => kept.has(m)),
  }));
  const total = archived.messages + head.length;

  const lastTurn = lastTurnView(input.memory[LAST_TURN_KEY]);
  const basis = lastTurn?.signals ?? prompt.signals;
  const hasSystemText = (input.systemText?.trim() ?? "") !== "";
  return {
    context_id: input.contextId,
    messages: messages.map((m, i) => messageView(m, from + i, inConversation.has(m))),
    page: {
      from,
      to: from + messages.length,
      total: Math.max(total, from + messages.length),
      stored: Math.max(stored.messages + head.length, messages.length),
      older: (input.older ?? from > 0) ? from : null,
    },
    groups,
    window: {
      window_size: config.window_size,
      max_history_tokens: config.max_history_tokens ?? null,
      kept_ids: prompt.window.messages.map((m) => m.id ?? null),
      dropped_groups: prompt.window.dropped.length,
      malformed_groups: prompt.window.malformed.length,
    },
    signals: prompt.signals,
    system_prompt: prompt.system ?? null,
    history_note: prompt.system?.includes(HISTORY_NOTE) ?? false,
    summary:
      summaryCache === undefined
        ? null
        : {
            text: summaryCache.text,
            covers: summaryCache.covers,
            covers_id: summaryCache.covers_id ?? null,
            effective_covers: effectiveCovers(head, summaryCache, archived),
            ...(summaryCache.partial === undefined ? {} : { partial: summaryCache.partial }),
            updated_at: summaryCache.updated_at === "" ? null : summaryCache.updated_at,
          },
    facts,
    retired_facts:
      served === undefined
        ? retiredFactsView(input.memory.facts)
        : served.retired.map((f) => ({ ...f })),
    last_turn: lastTurn,
    hints: hintsFor(basis, {
      historyAware: config.history_aware,
      hasSystemText,
      windowSize: config.window_size,
      maxHistoryTokens: config.max_history_tokens,
      droppedGroups: prompt.window.dropped.length,
      malformedGroups: prompt.window.malformed.length,
    }),
    hints_basis: lastTurn === null ? "now" : "last_turn",
  };
}
