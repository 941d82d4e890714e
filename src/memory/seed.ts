/**
 * The external history seed (R5): `params.metadata.history` of an A2A request turned into
 * conversation messages for a thread that has no stored state yet. The graph's `prepare`
 * node applies the result only to an empty thread; on later calls the stored state wins
 * and the seed is ignored.
 *
 * The seed is UNTRUSTED input (R5.2). Rules:
 *
 * - `history` absent (`undefined`) → no seed. Not a list (an object, a string, `null`, …),
 *   over SEED_MAX_ITEMS items or over SEED_MAX_PARTS parts in all → INPUT_INVALID, checked
 *   before any item is ({@link seedInputProblem}; the A2A endpoint checks it before the
 *   turn). So the report stays small: at most one entry per item and per part, each reason
 *   short (the values and keys it quotes are cut to 32 characters).
 * - An item becomes a message only when it is a plain text message of the user or the
 *   agent: roles `user` → HumanMessage, `agent` → AIMessage. Accepted spellings (any case):
 *   `user`, `role_user` (A2A v1.0 JSON enum); `agent`, `role_agent`, and `assistant` as an
 *   alias of `agent` (OpenAI-style hosts). The alias grants nothing more: it is the same
 *   AIMessage an `agent` item gives. Every other role (`system`, `developer`, `tool`,
 *   `function`, unknown or missing) drops the item.
 * - Text comes from `parts` — A2A v0.3 `{kind:"text", text}` or v1.0 `{text}`, joined with
 *   "\n" — or from a plain `text` string; not from both. A part may carry only `kind`,
 *   `text`, `metadata` and `mediaType`. Non-text parts (file, data, raw, url) and parts with
 *   any other key are left out and listed in `partsDropped`; the item keeps its text parts.
 *   An item left with no text, or whose text is empty or whitespace, is dropped.
 * - An item may carry only the A2A Message fields (`role`, `parts`, `text`, `kind` =
 *   "message", `messageId`, `contextId`, `taskId`, `metadata`, `extensions`,
 *   `referenceTaskIds`); any other field (`tool_calls`, `tool_call_id`, `name`,
 *   `additional_kwargs`, …) drops the item. A `role` claimed inside `metadata`, a part or a
 *   part's `metadata` that differs from the item's own role drops the item too (a forged
 *   history, e.g. a user item that says it is a system message).
 * - Produced messages hold only string content and an id `seed-<index in history>`: never a
 *   SystemMessage or ToolMessage, never tool calls, no `additional_kwargs`, no metadata. The
 *   text is kept verbatim — it may say "ignore previous instructions"; it still is only a
 *   user or agent message, and the system prompt is rebuilt from the agent alone (prompt.ts).
 * - Caps, in this order, over the items that passed the rules above:
 *   1. per item, `maxTextChars` (default 8000) characters (UTF-16 code units, as JavaScript
 *      counts them): a longer item is DROPPED and reported, never cut mid-text;
 *   2. `maxMessages` (A2A_HISTORY_MAX_MESSAGES, default 50; 0 = no seed): the newest are
 *      kept;
 *   3. `maxTotalChars` (default 64000) over the kept messages, newest first: the first
 *      message that does not fit ends the seed, so the seed stays the contiguous newest part.
 *   Messages removed by 2 and 3 are counted in `truncated` (not listed one by one).
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { LlamonError } from "../errors.ts";
import { MEMORY_CONFIG_MAX } from "./config-schema.ts";

export interface SeedReport {
  /** Messages in the seed. */
  accepted: number;
  /** Items of `history` that were dropped, with the reason (index = position in `history`). */
  dropped: { index: number; reason: string }[];
  /** Valid messages left out from the oldest end by `maxMessages` or `maxTotalChars`. */
  truncated: number;
  /**
   * Parts left out of seeded messages (non-text parts, unexpected keys): the message was
   * kept with its text parts only. Parts of dropped or truncated items are not listed.
   */
  partsDropped: { index: number; part: number; reason: string }[];
}

export interface SeedResult {
  messages: BaseMessage[];
  report: SeedReport;
}

export interface SeedOptions {
  /** A2A_HISTORY_MAX_MESSAGES (`a2a_history_max_messages`); 0 = no seed. */
  maxMessages: number;
  /** Per-message cap in characters; default {@link SEED_MAX_TEXT_CHARS}. */
  maxTextChars?: number;
  /** Cap on all seeded text in characters; default {@link SEED_MAX_TOTAL_CHARS}. */
  maxTotalChars?: number;
}

export const SEED_MAX_TEXT_CHARS = 8000;
export const SEED_MAX_TOTAL_CHARS = 64_000;
/** Most items a `history` may have; also the largest `a2a_history_max_messages`. */
export const SEED_MAX_ITEMS: number = MEMORY_CONFIG_MAX.a2a_history_max_messages;
/** Most `parts` entries over all items of a `history`. */
export const SEED_MAX_PARTS = 1000;
/** Part problems quoted in the reason of an item dropped for having no text part. */
const MAX_PART_REASONS = 3;

type SeedRole = "user" | "agent";

/** Accepted role spellings (lower-cased). A Map, so "constructor" or "__proto__" match nothing. */
const ROLES: ReadonlyMap<string, SeedRole> = new Map([
  ["user", "user"],
  ["role_user", "user"],
  ["agent", "agent"],
  ["role_agent", "agent"],
  ["assistant", "agent"],
]);

/** The A2A Message fields an item may carry. */
const ITEM_FIELDS = new Set(
  "role parts text kind messageId contextId taskId metadata extensions referenceTaskIds".split(" "),
);
const PART_FIELDS = new Set(["kind", "text", "metadata", "mediaType"]);
const NON_TEXT_PART_FIELDS = ["file", "data", "raw", "url"] as const;

type Item = Record<string, unknown>;
type Checked =
  | { ok: true; role: SeedRole; text: string; partsDropped: SeedReport["partsDropped"] }
  | { ok: false; reason: string };

function isRecord(value: unknown): value is Item {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Control characters and lone surrogates: shown as "?" (a reason stays short as JSON). */
const UNSHOWN = /[\p{Cc}\p{Cs}]/gu;

/** A value quoted in a reason: strings cut to 32 characters, other values by their kind. */
function show(value: unknown): string {
  if (typeof value === "string") {
    const cut = value.length > 32 ? `${value.slice(0, 32)}…` : value;
    return `"${cut.replace(UNSHOWN, "?")}"`;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return typeof value === "function" || typeof value === "symbol" ? typeof value : String(value);
}

function roleOf(value: unknown): SeedRole | undefined {
  return typeof value === "string" ? ROLES.get(value.trim().toLowerCase()) : undefined;
}

/** A `role` claimed in `holder` that is not `role` itself, described; undefined if none. */
function conflictingRole(holder: unknown, role: SeedRole, where: string): string | undefined {
  if (!isRecord(holder) || !Object.hasOwn(holder, "role")) return undefined;
  if (roleOf(holder.role) === role) return undefined;
  return `conflicting role claim ${show(holder.role)} in ${where}: the item's role is "${role}"`;
}

/** The text of one part, or why it is left out. */
function partText(part: unknown): { text: string } | { reason: string } {
  if (!isRecord(part)) return { reason: `not an object (${show(part)})` };
  const kind = part.kind;
  if (kind !== undefined && kind !== "text")
    return { reason: `non-text part (kind ${show(kind)})` };
  const media = NON_TEXT_PART_FIELDS.find((key) => Object.hasOwn(part, key));
  if (media !== undefined) return { reason: `non-text part (${media})` };
  const extra = Object.keys(part).find((key) => !PART_FIELDS.has(key));
  if (extra !== undefined) return { reason: `unexpected key ${show(extra)}` };
  if (typeof part.text !== "string") return { reason: `text is ${show(part.text)}, not a string` };
  return { text: part.text };
}

type PartsDropped = SeedReport["partsDropped"];
type Texts = { texts: string[]; partsDropped: PartsDropped } | { reason: string };

/** The text parts of an item's `parts`, or why the item is dropped. */
function textsOfParts(parts: unknown, role: SeedRole, index: number): Texts {
  if (!Array.isArray(parts)) return { reason: `parts is ${show(parts)}, not a list` };
  const texts: string[] = [];
  const partsDropped: PartsDropped = [];
  for (const [part, value] of parts.entries()) {
    const claim =
      conflictingRole(value, role, `part ${part}`) ??
      (isRecord(value)
        ? conflictingRole(value.metadata, role, `part ${part} metadata`)
        : undefined);
    if (claim !== undefined) return { reason: claim };
    const result = partText(value);
    if ("text" in result) texts.push(result.text);
    else partsDropped.push({ index, part, reason: result.reason });
  }
  if (texts.length > 0) return { texts, partsDropped };
  const why = partsDropped.slice(0, MAX_PART_REASONS).map((p) => `part ${p.part}: ${p.reason}`);
  if (partsDropped.length > why.length) why.push(`and ${partsDropped.length - why.length} more`);
  return { reason: `no text part (${why.length === 0 ? "parts is empty" : why.join("; ")})` };
}

/** The texts of an item (from `parts` or `text`), or why the item is dropped. */
function textsOf(item: Item, role: SeedRole, index: number): Texts {
  if (item.parts !== undefined) {
    if (item.text !== undefined) return { reason: "both parts and text given: send one" };
    return textsOfParts(item.parts, role, index);
  }
  if (typeof item.text === "string") return { texts: [item.text], partsDropped: [] };
  return {
    reason:
      item.text === undefined
        ? 'no text: give parts [{kind: "text", text}] or text'
        : `text is ${show(item.text)}, not a string`,
  };
}

/** Checks one history item against the rules of the file header (caps 2 and 3 excluded). */
function checkItem(item: unknown, index: number, maxTextChars: number): Checked {
  if (!isRecord(item)) return { ok: false, reason: `not a message object (${show(item)})` };
  const role = roleOf(item.role);
  if (role === undefined) {
    const reason =
      item.role === undefined
        ? 'missing role: use "user" or "agent"'
        : `role ${show(item.role)} is not accepted: only "user" and "agent" text can seed a conversation`;
    return { ok: false, reason };
  }
  if (item.kind !== undefined && item.kind !== "message") {
    return { ok: false, reason: `not a message (kind ${show(item.kind)})` };
  }
  const extra = Object.keys(item).find((key) => !ITEM_FIELDS.has(key));
  if (extra !== undefined) {
    const reason = `unexpected field ${show(extra)}: only text messages are accepted`;
    return { ok: false, reason };
  }
  const claim = conflictingRole(item.metadata, role, "metadata");
  if (claim !== undefined) return { ok: false, reason: claim };

  const found = textsOf(item, role, index);
  if ("reason" in found) return { ok: false, reason: found.reason };
  const { texts, partsDropped } = found;
  const length = texts.reduce((sum, text) => sum + text.length, 0) + texts.length - 1;
  if (length > maxTextChars) {
    const reason = `text has ${length} characters; at most ${maxTextChars} are accepted per message`;
    return { ok: false, reason };
  }
  const text = texts.join("\n");
  if (text.trim() === "") return { ok: false, reason: "empty text" };
  return { ok: true, role, text, partsDropped };
}

function cap(value: number | undefined, fallback: number, name: string): number {
  const result = value ?? fallback;
  if (Number.isInteger(result) && result >= 0) return result;
  const message = `${name} must be a whole number >= 0, got ${String(value)}`;
  throw new LlamonError("CONFIG_INVALID", message);
}

/**
 * Why a whole `history` is rejected (not a list, too many items or parts), else undefined.
 * Cheap (it reads no item beyond its `parts` length), so it runs before any other work.
 */
export function seedInputProblem(history: unknown): string | undefined {
  if (!Array.isArray(history)) {
    return `params.metadata.history must be a list of {role: "user"|"agent", parts|text} messages, got ${show(history)}`;
  }
  if (history.length > SEED_MAX_ITEMS) {
    return `params.metadata.history has ${history.length} items; at most ${SEED_MAX_ITEMS} are accepted (send the newest)`;
  }
  let parts = 0;
  for (const item of history) {
    if (isRecord(item) && Array.isArray(item.parts)) parts += item.parts.length;
  }
  if (parts > SEED_MAX_PARTS) {
    return `params.metadata.history has ${parts} parts in all; at most ${SEED_MAX_PARTS} are accepted`;
  }
  return undefined;
}

/** Turns `params.metadata.history` into seed messages (see the file header). */
export function parseHistorySeed(history: unknown, options: SeedOptions): SeedResult {
  const maxMessages = cap(options.maxMessages, 50, "maxMessages (A2A_HISTORY_MAX_MESSAGES)");
  const maxTextChars = cap(options.maxTextChars, SEED_MAX_TEXT_CHARS, "maxTextChars");
  const maxTotalChars = cap(options.maxTotalChars, SEED_MAX_TOTAL_CHARS, "maxTotalChars");
  const report: SeedReport = { accepted: 0, dropped: [], truncated: 0, partsDropped: [] };
  if (history === undefined) return { messages: [], report };
  const problem = seedInputProblem(history);
  if (problem !== undefined) {
    throw new LlamonError("INPUT_INVALID", problem, {
      details: { field: "params.metadata.history" },
    });
  }
  const items = history as readonly unknown[];
  const valid: (Checked & { ok: true; index: number })[] = [];
  for (let index = 0; index < items.length; index++) {
    const checked = checkItem(items[index], index, maxTextChars);
    if (checked.ok) valid.push({ ...checked, index });
    else report.dropped.push({ index, reason: checked.reason });
  }

  const newest = valid.slice(Math.max(0, valid.length - maxMessages));
  let first = newest.length;
  let total = 0;
  while (first > 0) {
    const size = (newest[first - 1] as (typeof newest)[number]).text.length;
    if (total + size > maxTotalChars) break;
    total += size;
    first--;
  }
  const kept = newest.slice(first);
  report.partsDropped = kept.flatMap((entry) => entry.partsDropped);
  report.truncated = valid.length - kept.length;
  report.accepted = kept.length;
  const messages = kept.map(({ index, role, text }) =>
    role === "user"
      ? new HumanMessage({ content: text, id: `seed-${index}` })
      : new AIMessage({ content: text, id: `seed-${index}` }),
  );
  return { messages, report };
}
