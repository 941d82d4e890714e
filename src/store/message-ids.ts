/**
 * Exactly once per `messageId` (R11.2): each of llamon's thread stores keeps, for the life
 * of a thread, every user message's id with its position (Postgres `llamon_message_ids`,
 * migration 0015; the Durable Object's SQLite, schema v5; the in_memory object's map). The
 * turn's load looks its incoming id up with the head (no round trip of its own) together with
 * the turn's messages that have left the live tail, so a resend at any distance is answered
 * from storage (agent/turn/stored-answer.ts). The turn's commit records its own id in the same
 * atomic write as its messages; a second copy of an id is refused there (THREAD_CONFLICT: the
 * turn runs again and finds the first).
 *
 * Ids carry no text: a trim (R4.2) deletes a turn's messages and keeps its id, so a resend of a
 * trimmed turn is refused instead of being answered a second time. Erase deletes the ids.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { LlamonError } from "../errors.ts";
import { fromTranscriptRows } from "./transcript.ts";

/** A user message the thread stored, found by its id. */
export interface StoredTurn {
  /** Position of the user message in the whole thread (transcript ++ live tail). */
  readonly seq: number;
  /**
   * End of its turn (exclusive: the next user message's position), or null when the
   * transcript does not know it (the turn goes on in the live tail).
   */
  readonly end: number | null;
  /** The turn's messages found in the transcript, from `seq` on, in order. */
  readonly transcript: readonly { readonly seq: number; readonly message: BaseMessage }[];
}

/** What a turn records of its user message: id, position, end of its turn (exclusive). */
export interface MessageIdEntry {
  readonly id: string;
  readonly seq: number;
  readonly end: number;
}

/** An integer column (Postgres bigint arrives as text); null when absent or malformed. */
function position(value: unknown): number | null {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/**
 * A lookup's row (sql: SELECT_MESSAGE_TURN; sqlite: the same columns) as a {@link StoredTurn}:
 * `seq`, `seq_end` and `rows`, the transcript rows as [seq, message JSON] in order. Undefined
 * for no row; a malformed row is an INTERNAL error (never an answer made up).
 */
export async function storedTurnOf(
  serde: SerializerProtocol,
  row: { seq: unknown; seq_end: unknown; rows: unknown } | undefined,
): Promise<StoredTurn | undefined> {
  if (row === undefined) return undefined;
  const seq = position(row.seq);
  const rows = Array.isArray(row.rows) ? (row.rows as unknown[]) : null;
  const seqs = rows?.map((r) => (Array.isArray(r) ? position(r[0]) : null)) ?? [];
  if (seq === null || rows === null || seqs.some((s) => s === null)) {
    throw new LlamonError("INTERNAL", "a stored message id's row is malformed");
  }
  const messages = await fromTranscriptRows(
    serde,
    rows.map((r) => ({ message: (r as unknown[])[1] })),
  );
  return {
    seq,
    end: position(row.seq_end),
    transcript: messages.map((message, i) => ({ seq: seqs[i] as number, message })),
  };
}

/** The id of a serialised user message (LangChain's JSON), or undefined for any other. */
export function userMessageIdOf(message: unknown): string | undefined {
  const m = message as { id?: unknown; kwargs?: { id?: unknown } } | null;
  if (typeof m !== "object" || m === null || !Array.isArray(m.id)) return undefined;
  const kind = m.id.at(-1);
  if (kind !== "HumanMessage" && kind !== "HumanMessageChunk") return undefined;
  const id = m.kwargs?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}
