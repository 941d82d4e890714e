/**
 * The transcript (memory/live-tail.ts): a conversation's messages older than the
 * live tail, append-only, by position in the whole thread. On Postgres the table
 * `llamon_messages` (migration 0006); a saver that keeps one implements
 * {@link TranscriptReader}, and the turn's thread store moves the messages that leave the tail
 * into it in the same atomic write as the checkpoint that no longer holds them.
 *
 * Messages are stored in LangChain's serialised form (the checkpoint serializer's JSON), so a
 * transcript row revives to the same message the checkpoint held.
 */
import { Buffer } from "node:buffer";
import type { BaseMessage } from "@langchain/core/messages";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { LlamonError } from "../errors.ts";

/** A saver that keeps a transcript: its rows are read by position (admin, summary, delta.ts). */
export interface TranscriptReader {
  /** Transcript messages at positions [from, to) (to: the end when omitted), in order. */
  readTranscript(threadId: string, from: number, to?: number): Promise<BaseMessage[]>;
  /**
   * Deliver a root checkpoint's `messages` as a plain list, even one stored as deltas (a
   * thread written before the live tail): the `tail` graph's channel is a plain list.
   */
  plainMessages: boolean;
}

/**
 * What a trimmed turn deletes of the transcript (memory/trim.ts):
 * - `all`: every row of the thread; the turn's checkpoint holds what is kept and its
 *   `archived` count starts again from 0;
 * - `before`: the rows at positions below `before` that are also older than the newest
 *   `keepGroups` message groups of the transcript's first `archived` positions (0 = no group
 *   of the transcript is kept). A group starts at each row that is neither a tool result nor a
 *   system message. Positions of the rows kept do not change.
 */
export type TranscriptTrim =
  | { readonly all: true }
  | {
      readonly all: false;
      readonly before: number;
      readonly keepGroups: number;
      readonly archived: number;
    };

/**
 * The recall index entries of staged messages (TranscriptStage.stage): `terms[i]` is the
 * recall index terms of `messages[i]` joined by spaces, or null when it is not indexed
 * (memory/recall/memory-source.ts `indexTermsOf`), made by terms version `version`.
 */
export interface TranscriptIndex {
  readonly version: number;
  readonly terms: readonly (string | null)[];
  /**
   * Whether each message is conversation (memory/summary.ts `isConversationMessage`), stored
   * with the row so a trim in the database counts what it deleted (migration 0011).
   */
  readonly conversation?: readonly boolean[] | undefined;
}

/**
 * What a thread store holds of a turn for the transcript until its commit: the rows appended
 * (messages leaving the live tail, at positions `from`, `from + 1`, …) and a trim's deletion,
 * taken together by the commit or forgotten when the turn fails or the thread is erased.
 * Shared by the Postgres and SQLite stores.
 */
export class TranscriptStage {
  readonly #rows = new Map<string, Promise<TranscriptRow[]>[]>();
  readonly #trim = new Map<string, TranscriptTrim>();

  constructor(private readonly serde: SerializerProtocol) {}

  stage(threadId: string, from: number, messages: readonly BaseMessage[], index?: TranscriptIndex) {
    if (messages.length === 0) return;
    const list = this.#rows.get(threadId) ?? [];
    list.push(toTranscriptRows(this.serde, from, messages, index));
    this.#rows.set(threadId, list);
  }

  stageTrim(threadId: string, trim: TranscriptTrim): void {
    this.#trim.set(threadId, trim);
  }

  /** The thread's staged rows (in order) and trim, taken off the stage. */
  async take(threadId: string): Promise<{ rows: TranscriptRow[]; trim?: TranscriptTrim }> {
    const staged = this.#rows.get(threadId);
    const trim = this.#trim.get(threadId);
    this.forget(threadId);
    const rows = staged === undefined ? [] : (await Promise.all(staged)).flat();
    return trim === undefined ? { rows } : { rows, trim };
  }

  forget(threadId: string): void {
    this.#rows.delete(threadId);
    this.#trim.delete(threadId);
  }
}

/** The one key of a row whose message JSON holds U+0000 (jsonb cannot): base64 bytes. */
const BASE64_KEY = "llamon_json_base64";

export function hasTranscript(saver: unknown): saver is TranscriptReader {
  return (
    typeof saver === "object" &&
    saver !== null &&
    typeof (saver as Partial<TranscriptReader>).readTranscript === "function" &&
    typeof (saver as Partial<TranscriptReader>).plainMessages === "boolean"
  );
}

/** What the turn knows of the transcript (the messages before the tail). */
export interface ArchivedPrefix {
  /** Messages in the transcript: the tail's first message is at this position. */
  readonly messages: number;
  /** Of them, conversation messages (what `thread_msgs` counts). */
  readonly conversation: number;
  /** An AIMessage is among them (an earlier turn was answered). */
  readonly ai: boolean;
}

export const EMPTY_PREFIX: ArchivedPrefix = { messages: 0, conversation: 0, ai: false };

/** A stored value of the `archived` channel, tolerating absence (threads stored before the transcript existed). */
export function archivedPrefixOf(value: unknown): ArchivedPrefix {
  if (typeof value !== "object" || value === null) return EMPTY_PREFIX;
  const v = value as Partial<Record<keyof ArchivedPrefix, unknown>>;
  const whole = (n: unknown) => (typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : 0);
  return { messages: whole(v.messages), conversation: whole(v.conversation), ai: v.ai === true };
}

/**
 * persistent_memory thread key of what partial trims deleted from the transcript (they keep
 * its newest rows: positions do not change, so `archived` stays the tail's offset). Written
 * by the trim itself, in the database (sql.ts TRIM_TRANSCRIPT, sqlite-saver.ts), and removed
 * when a trim deletes the whole transcript (then `archived` starts again from 0).
 */
export const TRIMMED_KEY = "trimmed";

/** What partial trims deleted: messages, and conversation messages among them. */
export interface TrimmedCount {
  readonly messages: number;
  readonly conversation: number;
}

/** A stored `trimmed` value, tolerating absence and anything malformed (counts as 0). */
export function trimmedCountOf(value: unknown): TrimmedCount {
  if (typeof value !== "object" || value === null) return { messages: 0, conversation: 0 };
  const v = value as Partial<Record<keyof TrimmedCount, unknown>>;
  const whole = (n: unknown) =>
    typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  return { messages: whole(v.messages), conversation: whole(v.conversation) };
}

/**
 * The transcript's counts as stored now: `archived` less what partial trims deleted, as the
 * thread's memory keys (`thread`, with its TRIMMED_KEY) record it. For counting only
 * (thread_msgs, the message count): positions stay `archived.messages`.
 */
export function storedPrefix(
  archived: ArchivedPrefix,
  thread: Readonly<Record<string, unknown>> | undefined,
): ArchivedPrefix {
  if (archived.messages === 0) return archived;
  const trimmed = trimmedCountOf(thread?.[TRIMMED_KEY]);
  return {
    messages: Math.max(0, archived.messages - trimmed.messages),
    conversation: Math.max(0, archived.conversation - trimmed.conversation),
    ai: archived.ai,
  };
}

/** One stored transcript row: its position and the message as JSON. */
export interface TranscriptRow {
  readonly seq: number;
  readonly message: unknown;
  /** Recall index terms joined by spaces, or null (not indexed), and their version. */
  readonly terms: string | null;
  readonly version: number | null;
  /** Whether the message is conversation; null when the stager did not say. */
  readonly conversation: boolean | null;
}

/** Messages as transcript rows from position `from` on. */
export async function toTranscriptRows(
  serde: SerializerProtocol,
  from: number,
  messages: readonly BaseMessage[],
  index?: TranscriptIndex,
): Promise<TranscriptRow[]> {
  const decoder = new TextDecoder();
  return Promise.all(
    messages.map(async (message, i) => {
      const [type, bytes] = await serde.dumpsTyped(message);
      if (type !== "json") {
        throw new LlamonError("INTERNAL", `a message serialised as "${type}", not JSON`);
      }
      const text = decoder.decode(bytes);
      const terms = index?.terms[i] ?? null;
      const version = terms === null ? null : (index?.version ?? null);
      const conversation = index?.conversation?.[i] ?? null;
      // Postgres jsonb refuses U+0000 anywhere; such a message is kept as base64 bytes.
      if (text.includes("\\u0000")) {
        const message = { [BASE64_KEY]: Buffer.from(bytes).toString("base64") };
        return { seq: from + i, message, terms: null, version: null, conversation };
      }
      return { seq: from + i, message: JSON.parse(text), terms, version, conversation };
    }),
  );
}

/** Revive stored transcript rows (already in order) into messages. */
export async function fromTranscriptRows(
  serde: SerializerProtocol,
  rows: readonly { message: unknown }[],
): Promise<BaseMessage[]> {
  const encoder = new TextEncoder();
  return Promise.all(
    rows.map(async (row) => {
      const wrapped = (row.message as Record<string, unknown> | null)?.[BASE64_KEY];
      const bytes =
        typeof wrapped === "string"
          ? new Uint8Array(Buffer.from(wrapped, "base64"))
          : encoder.encode(JSON.stringify(row.message));
      return (await serde.loadsTyped("json", bytes)) as BaseMessage;
    }),
  );
}
