/**
 * The offline model: the default when no provider is configured, and the model tests use.
 * Deterministic, no network, clearly labelled. Its reply's first line is exactly
 *
 *   offline-model: received=<non-system messages it was sent> has_prior=<true|false>
 *
 * followed by a short echo of what it can see (the previous user message, and the user's
 * recalled earlier messages when the prompt has a `[이전 대화 발췌]` block), so memory can be
 * checked with curl. It records every call so tests can assert windows and prompts.
 *
 * Tools: when tools are bound and the latest user message is `/tool <name> <json args>`,
 * it answers with that tool call (one per `/tool` line, so parallel calls work); after the
 * tool results arrive it replies with them. This exercises tool groups without a provider.
 *
 * Streaming (`model.stream()`, LangGraph's streaming): the same reply, one word (with the
 * spaces after it) per chunk, so tests see a reply arrive in pieces; a tool-call answer is one
 * chunk with its calls.
 */

import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { StructuredToolInterface } from "@langchain/core/tools";

export interface OfflineCall {
  /** Exactly the messages the model was sent, in order. */
  readonly messages: readonly BaseMessage[];
  /** Names of the tools bound for this call. */
  readonly tools: readonly string[];
}

export const OFFLINE_MODEL_LABEL = "offline-model";

/** Calls shared by a model and the copies `bindTools` makes of it. */
class CallLog {
  readonly calls: OfflineCall[] = [];
}

export class OfflineChatModel extends BaseChatModel {
  private readonly log: CallLog;
  private readonly boundTools: readonly string[];

  constructor(fields: BaseChatModelParams & { log?: CallLog; tools?: readonly string[] } = {}) {
    super(fields);
    this.log = fields.log ?? new CallLog();
    this.boundTools = fields.tools ?? [];
  }

  /** Every call made to this model (and to its tool-bound copies). */
  get calls(): readonly OfflineCall[] {
    return this.log.calls;
  }

  get lastCall(): OfflineCall | undefined {
    return this.log.calls.at(-1);
  }

  _llmType(): string {
    return OFFLINE_MODEL_LABEL;
  }

  override bindTools(tools: (StructuredToolInterface | { name: string })[]): OfflineChatModel {
    return new OfflineChatModel({ log: this.log, tools: tools.map((t) => t.name) });
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.log.calls.push({ messages: [...messages], tools: this.boundTools });
    const message = offlineReply(messages, this.boundTools);
    return {
      generations: [{ message, text: typeof message.content === "string" ? message.content : "" }],
    };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    this.log.calls.push({ messages: [...messages], tools: this.boundTools });
    const reply = offlineReply(messages, this.boundTools);
    if ((reply.tool_calls?.length ?? 0) > 0) {
      const tool_call_chunks = (reply.tool_calls ?? []).map((call, index) => ({
        type: "tool_call_chunk" as const,
        index,
        id: call.id,
        name: call.name,
        args: JSON.stringify(call.args),
      }));
      const message = new AIMessageChunk({ content: "", tool_call_chunks });
      yield new ChatGenerationChunk({ message, text: "" });
      return;
    }
    for (const word of offlineWords(textOf(reply))) {
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk(word), text: word });
      yield chunk;
      await runManager?.handleLLMNewToken(word, undefined, undefined, undefined, undefined, {
        chunk,
      });
    }
  }
}

/** A reply in the pieces the offline model streams: each word with the spaces after it. */
export function offlineWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/** The deterministic reply for a model input. */
export function offlineReply(
  messages: readonly BaseMessage[],
  tools: readonly string[] = [],
): AIMessage {
  const visible = messages.filter((m) => !SystemMessage.isInstance(m));
  const lastHumanIndex = findLastIndex(
    visible,
    (m) => HumanMessage.isInstance(m) && !isRuntimeContext(m),
  );
  const hasPrior = visible
    .slice(0, Math.max(lastHumanIndex, 0))
    .some((m) => AIMessage.isInstance(m));
  const header = `${OFFLINE_MODEL_LABEL}: received=${visible.length} has_prior=${hasPrior}`;
  const current = lastHumanIndex >= 0 ? textOf(visible[lastHumanIndex] as BaseMessage) : "";
  const after = visible.slice(lastHumanIndex + 1);

  const toolResults = after.filter((m) => ToolMessage.isInstance(m));
  if (toolResults.length === 0 && tools.length > 0) {
    const calls = parseToolCommands(current, tools);
    if (calls.length > 0) return new AIMessage({ content: "", tool_calls: calls });
  }

  const lines = [header];
  if (toolResults.length > 0) {
    lines.push(`tool results: ${toolResults.map((m) => textOf(m)).join(" | ")}`);
  }
  const previous = findLastIndex(visible.slice(0, Math.max(lastHumanIndex, 0)), (m) =>
    HumanMessage.isInstance(m),
  );
  lines.push(
    previous >= 0
      ? `previous user message: ${clip(textOf(visible[previous] as BaseMessage))}`
      : "previous user message: (none — this is the start of the conversation as I see it)",
  );
  lines.push(`you said: ${clip(current)}`);
  const recalled = recalledLines(messages);
  // Short (the user's items only): a reply is stored, and a long echo would grow every thread.
  if (recalled.length > 0) lines.push(`recalled: ${clip(recalled.join(" | "), 120)}`);
  return new AIMessage({ content: lines.join("\n") });
}

function parseToolCommands(text: string, tools: readonly string[]) {
  const calls: { id: string; name: string; args: Record<string, unknown>; type: "tool_call" }[] =
    [];
  for (const line of text.split("\n")) {
    const match = /^\/tool\s+(\S+)\s*(.*)$/.exec(line.trim());
    if (!match || !tools.includes(match[1] as string)) continue;
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(match[2] || "{}");
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        args = parsed as Record<string, unknown>;
    } catch {
      args = { input: match[2] };
    }
    calls.push({
      // Unique per call (not per answer): LangGraph's ToolNode skips ids that have a result.
      id: `offline-call-${crypto.randomUUID().slice(0, 8)}`,
      name: match[1] as string,
      args,
      type: "tool_call",
    });
  }
  return calls;
}

/** The header of the recalled-messages block (memory/prompt-recall.ts RECALL_HEADER). */
const RECALL_BLOCK = "[이전 대화 발췌]";

/** The bullets of the recalled-messages block, wherever the prompt put it. */
function recalledLines(messages: readonly BaseMessage[]): string[] {
  for (const m of messages) {
    const text = textOf(m);
    const at = text.indexOf(`${RECALL_BLOCK}\n`);
    if (at < 0) continue;
    const out: string[] = [];
    for (const line of text.slice(at).split("\n").slice(1)) {
      if (line.startsWith("- user: ")) out.push(line.slice(2));
      else if (line.startsWith("- ")) continue;
      else if (out.length > 0 || line.trim() === "") break;
    }
    return out;
  }
  return [];
}

function isRuntimeContext(m: BaseMessage): boolean {
  return m.additional_kwargs?.llamon_runtime_context === true;
}

export function textOf(m: BaseMessage): string {
  if (typeof m.content === "string") return m.content;
  return m.content
    .map((part) =>
      typeof part === "object" && part !== null && "text" in part ? String(part.text) : "",
    )
    .join("");
}

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i] as T)) return i;
  return -1;
}
