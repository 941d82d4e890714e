/**
 * The texts of prompt assembly (R3.5, R6, R7.4, R8.2; the recall block is in
 * prompt-recall.ts): the history note, the block
 * headers, the runtime-context marker, and the builders that turn PromptParts into text.
 *
 * Formatting rules, the same in both prompt-context modes so a block reads identically
 * in the system prompt (legacy_system) and in the runtime-context message (stable_tail):
 *
 * - every text is trimmed; empty or whitespace-only texts produce nothing;
 * - blocks are separated by one blank line (`\n\n`);
 * - a list block is its header line, then one `- ` bullet per item; the continuation
 *   lines of a multi-line item are indented by two spaces so they stay in that bullet;
 * - the summary block is the header `[이전 대화 요약]` on its own line, then the summary.
 *
 * Output is a pure function of the inputs (no clock, ids or randomness; the dates in fact
 * lines are stored with the facts), so the same
 * parts always give byte-identical text — what provider prompt caches need (R6.2).
 */

/**
 * Appended at the end of the system prompt from the 2nd turn on (R3.5): earlier turns of
 * this conversation follow; use them; the latest user message is the current request.
 * Korean first (the product document's language), English after, one paragraph.
 */
export const HISTORY_NOTE =
  "이 대화의 이전 turn들이 아래 메시지로 이어집니다. 답변할 때 이전 대화 내용을 참고하고, " +
  "마지막 사용자 메시지를 현재 요청으로 처리하세요. " +
  "(Earlier turns of this conversation follow as messages. Use them when answering; " +
  "the latest user message is the current request.)";

/** Header of the rolling summary block (R7.4), exactly as in the product document. */
export const SUMMARY_HEADER = "[이전 대화 요약]";
/** Header of the knowledge snippets block. */
export const KNOWLEDGE_HEADER = "[참고 지식]";
/** Header of the recalled facts block (R8.2). */
export const FACTS_HEADER = "[기억된 사실]";

/**
 * First line of the stable_tail runtime-context message (R6.2), then a line saying what it
 * is, so the model does not take it for something the user wrote or asked.
 */
export const RUNTIME_CONTEXT_MARKER = "[runtime context — not from the user]";
export const RUNTIME_CONTEXT_NOTE =
  "이번 호출을 위해 시스템이 덧붙인 참고 자료이며 사용자의 발화나 요청이 아닙니다. " +
  "(Reference material added by the system for this call; not a user message or request.)";

/** `additional_kwargs` flag of the runtime-context message. */
export const RUNTIME_CONTEXT_FLAG = "llamon_runtime_context";
/** Id prefix of the runtime-context message. */
export const RUNTIME_CONTEXT_ID_PREFIX = "llamon-runtime-";

/** The trimmed, non-empty texts, in order. */
export function cleanTexts(texts: readonly (string | undefined)[] | undefined): string[] {
  if (texts === undefined) return [];
  const out: string[] = [];
  for (const text of texts) {
    const trimmed = typeof text === "string" ? text.trim() : "";
    if (trimmed !== "") out.push(trimmed);
  }
  return out;
}

function bullet(item: string): string {
  return `- ${item.replace(/\r\n?/g, "\n").replaceAll("\n", "\n  ")}`;
}

/** A header line and one bullet per non-empty item; undefined when there is none. */
export function listBlock(
  header: string,
  items: readonly string[] | undefined,
): string | undefined {
  const texts = cleanTexts(items);
  if (texts.length === 0) return undefined;
  return [header, ...texts.map(bullet)].join("\n");
}

/** The `[이전 대화 요약]` block; undefined for an empty summary. */
export function summaryBlock(summary: string | undefined): string | undefined {
  const text = summary?.trim() ?? "";
  return text === "" ? undefined : `${SUMMARY_HEADER}\n${text}`;
}

/**
 * The per-call context blocks, in order: knowledge, facts, summary, recalled messages
 * (prompt-recall.ts, already rendered); empty ones left out.
 */
export function contextBlocks(parts: {
  knowledge?: readonly string[] | undefined;
  facts?: readonly string[] | undefined;
  summary?: string | undefined;
  recall?: string | undefined;
}): string[] {
  return [
    listBlock(KNOWLEDGE_HEADER, parts.knowledge),
    listBlock(FACTS_HEADER, parts.facts),
    summaryBlock(parts.summary),
    parts.recall,
  ].filter((block): block is string => block !== undefined);
}

/** Joins blocks with one blank line; undefined when there is no block. */
export function joinBlocks(blocks: readonly string[]): string | undefined {
  return blocks.length === 0 ? undefined : blocks.join("\n\n");
}
