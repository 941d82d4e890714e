/**
 * The `sqlite` backend's message ids (sqlite-message-ids-sql.ts; store/message-ids.ts), for
 * SqliteSaver: the lookup its read makes for a turn's incoming messageId, in the same
 * synchronous read as the checkpoint, and the writes of its put's transaction.
 */
import { LlamonError } from "../errors.ts";
import { type MessageIdEntry, userMessageIdOf } from "./message-ids.ts";
import { MAX_TURN_ROWS } from "./message-ids-sql.ts";
import {
  SQ_INSERT_MESSAGE_ID,
  SQ_NEXT_USER_SEQ,
  SQ_RECORD_TRANSCRIPT_ID,
  SQ_SELECT_MESSAGE_ID,
  SQ_SELECT_TRANSCRIPT_ROWS,
} from "./sqlite-message-ids-sql.ts";
import { rows, type SqliteExec } from "./sqlite-sql.ts";
import type { TranscriptRow } from "./transcript.ts";

/**
 * The stored row of `messageId` in the shape message-ids.ts `storedTurnOf` reads (as Postgres'
 * SELECT_MESSAGE_TURN): its position, the end of its turn (the transcript's next user message
 * when the row does not know it) and its turn's transcript rows. Undefined: not stored.
 */
export function findSqliteTurn(
  db: SqliteExec,
  agentId: string,
  threadId: string,
  messageId: string,
): { seq: number; seq_end: number | null; rows: [number, unknown][] } | undefined {
  const [row] = rows<{ seq: number; seq_end: number | null }>(
    db,
    SQ_SELECT_MESSAGE_ID,
    agentId,
    threadId,
    messageId,
  );
  if (row === undefined) return undefined;
  const seq = Number(row.seq);
  const cap = seq + MAX_TURN_ROWS;
  const [next] =
    row.seq_end === null
      ? rows<{ seq: number }>(db, SQ_NEXT_USER_SEQ, agentId, threadId, seq, cap)
      : [];
  const end =
    row.seq_end === null ? (next === undefined ? null : Number(next.seq)) : Number(row.seq_end);
  const found = rows<{ seq: number; message: string }>(
    db,
    SQ_SELECT_TRANSCRIPT_ROWS,
    agentId,
    threadId,
    seq,
    Math.min(end ?? cap, cap),
  );
  return {
    seq,
    seq_end: end,
    rows: found.map((r) => [Number(r.seq), JSON.parse(r.message) as unknown]),
  };
}

/**
 * Record a turn's user message (inside the put's transaction). An id the thread already
 * stored is THREAD_CONFLICT: the transaction rolls back, the turn runs again and finds it.
 */
export function insertSqliteMessageId(
  db: SqliteExec,
  agentId: string,
  threadId: string,
  entry: MessageIdEntry,
): void {
  const added = rows(db, SQ_INSERT_MESSAGE_ID, agentId, threadId, entry.id, entry.seq, entry.end);
  if (added.length === 0) {
    throw new LlamonError(
      "THREAD_CONFLICT",
      `message "${entry.id}" is already stored in conversation "${threadId}"; nothing of this turn was written`,
      { details: { threadId } },
    );
  }
}

/** The user messages among transcript rows that have no id row yet (inside the transaction). */
export function recordSqliteTranscriptIds(
  db: SqliteExec,
  agentId: string,
  threadId: string,
  transcript: readonly TranscriptRow[],
): void {
  for (const row of transcript) {
    const id = userMessageIdOf(row.message);
    if (id !== undefined) rows(db, SQ_RECORD_TRANSCRIPT_ID, agentId, threadId, id, row.seq);
  }
}
