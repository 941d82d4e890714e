/**
 * The stored answer of a resent messageId (R11.2): the user message and what answered it,
 * up to the next user message, rebuilt from what the turn's read found — the rows of the
 * transcript (store/message-ids.ts StoredTurn) followed by the live tail, since the turn may
 * have left the tail in part or whole. The turn then answers with it: no model call, nothing
 * written.
 *
 * A stored id whose turn is not all there (trimmed by persist_trim_keep_groups, R4.2) is
 * refused with MESSAGE_ALREADY_ANSWERED: answering it again would store the id twice.
 */
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { LlamonError } from "../../errors.ts";
import type { ArchivedPrefix } from "../../memory/live-tail.ts";
import type { StoredTurn } from "../../store/message-ids.ts";

/**
 * The turn of `messageId` (user message first): the transcript's rows of `found` below
 * `archived.messages`, then the tail from that position on, up to the turn's end (or, when the
 * end is not known, the tail's next user message). Throws MESSAGE_ALREADY_ANSWERED when any of
 * it is missing.
 */
export function storedAnswer(
  messageId: string,
  found: StoredTurn,
  archived: ArchivedPrefix,
  tail: readonly BaseMessage[],
): BaseMessage[] {
  const offset = archived.messages;
  const end = found.end ?? Number.POSITIVE_INFINITY;
  const inTranscript = found.transcript.filter((row) => row.seq < offset && row.seq < end);
  const contiguous = inTranscript.every((row, i) => row.seq === found.seq + i);
  const turn = inTranscript.map((row) => row.message);
  const next = found.seq + turn.length;
  if (!contiguous || (next < offset && next < end)) throw trimmed(messageId);
  if (end > offset) {
    const from = next - offset;
    if (found.end !== null) {
      if (found.end - offset > tail.length) throw trimmed(messageId);
      turn.push(...tail.slice(from, found.end - offset));
    } else {
      // The next user message ends the turn (the one at `from` is this turn's own when the
      // transcript had none of it).
      const start = turn.length === 0 ? from + 1 : from;
      const after = tail.findIndex((m, i) => i >= start && isUser(m));
      turn.push(...tail.slice(from, after < 0 ? undefined : after));
    }
  }
  const [first, ...rest] = turn;
  if (first?.id !== messageId || !isUser(first) || rest.some(isUser)) throw trimmed(messageId);
  return turn;
}

function isUser(message: BaseMessage): boolean {
  return HumanMessage.isInstance(message);
}

function trimmed(messageId: string): LlamonError {
  return new LlamonError(
    "MESSAGE_ALREADY_ANSWERED",
    `message "${messageId}" was already answered in this conversation, and that turn has since been deleted (persist_trim_keep_groups keeps only the latest turns): it is not answered again. Send a new messageId to ask again.`,
    { details: { messageId } },
  );
}
