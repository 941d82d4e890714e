/**
 * A cheap, deterministic token estimate for the `max_history_tokens` cap (R3.3). It needs
 * no tokenizer (no download, no WASM, well inside the Workers CPU budget) and is meant to
 * be in the right range for BPE tokenizers of current chat models, not exact. Pass your
 * own `countTokens` to the window when you need exact numbers.
 *
 * The rule, per character (UTF-16 code unit) of the text that reaches the provider:
 *
 * - ASCII: 1/4 token (≈ 4 characters per token for English and code, the common
 *   rule of thumb for GPT/Claude tokenizers);
 * - Hangul (syllables, jamo), CJK ideographs, kana: 2/3 token (≈ 1.5 characters per
 *   token: a Korean syllable is 1–2 tokens in cl100k/o200k-style vocabularies, often 1);
 * - anything else (accented Latin, Cyrillic, …): 1/2 token; an emoji (two code units)
 *   so counts 1.
 *
 * Per message: 4 tokens of framing (role and separators) + its content. Text content
 * blocks count their text; image/audio/file/video blocks count a flat 256 tokens (their
 * base64 payload is not text the model reads as tokens); tool-call blocks count 0 (they
 * are counted from `tool_calls`); other blocks count as their JSON. An AIMessage adds, per
 * tool call, 4 tokens + its name, id and JSON arguments; a ToolMessage adds its
 * `tool_call_id`. The result is rounded up, so every message costs at least 4.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";

/** Framing tokens per message (role, separators), like OpenAI's chat format (3–4). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Framing tokens per tool call. */
export const TOOL_CALL_OVERHEAD_TOKENS = 4;
/** Flat cost of one non-text content block (image, audio, file, video). */
export const MEDIA_BLOCK_TOKENS = 256;

const MEDIA_BLOCKS = new Set(["image", "image_url", "audio", "input_audio", "file", "video"]);
const TOOL_CALL_BLOCKS = new Set(["tool_use", "tool_call", "tool_call_chunk", "server_tool_call"]);

/** Weights in twelfths of a token, so the sum stays an integer until the final rounding. */
const ASCII_UNITS = 3;
const DENSE_UNITS = 8;
const OTHER_UNITS = 6;

function isDense(code: number): boolean {
  return (
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0x1100 && code <= 0x11ff) || // Hangul jamo
    (code >= 0x3130 && code <= 0x318f) || // Hangul compatibility jamo
    (code >= 0x3040 && code <= 0x30ff) || // Hiragana, Katakana
    (code >= 0x3400 && code <= 0x4dbf) || // CJK extension A
    (code >= 0x4e00 && code <= 0x9fff) || // CJK unified ideographs
    (code >= 0xf900 && code <= 0xfaff) // CJK compatibility ideographs
  );
}

/** Twelfths of a token for a piece of text. */
function textUnits(text: string): number {
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    units += code < 0x80 ? ASCII_UNITS : isDense(code) ? DENSE_UNITS : OTHER_UNITS;
  }
  return units;
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** Twelfths of a token for one content block of an array content. */
function blockUnits(block: unknown): number {
  if (typeof block === "string") return textUnits(block);
  if (typeof block !== "object" || block === null) return 0;
  const record = block as Record<string, unknown>;
  const type = typeof record.type === "string" ? record.type : "";
  if (MEDIA_BLOCKS.has(type)) return MEDIA_BLOCK_TOKENS * 12;
  if (TOOL_CALL_BLOCKS.has(type)) return 0;
  for (const field of ["text", "thinking", "reasoning"]) {
    const value = record[field];
    if (typeof value === "string") return textUnits(value);
  }
  return textUnits(stringify(block));
}

/** The estimated tokens of one message as a provider would receive it (see file header). */
export function estimateTokens(message: BaseMessage): number {
  let units = MESSAGE_OVERHEAD_TOKENS * 12;
  const content: unknown = message.content;
  if (typeof content === "string") units += textUnits(content);
  else if (Array.isArray(content)) for (const block of content) units += blockUnits(block);
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) {
      units += TOOL_CALL_OVERHEAD_TOKENS * 12;
      units += textUnits(stringify(call.name)) + textUnits(stringify(call.id));
      units += textUnits(stringify(call.args));
    }
  } else if (ToolMessage.isInstance(message)) {
    units += textUnits(stringify(message.tool_call_id));
  }
  return Math.ceil(units / 12);
}
