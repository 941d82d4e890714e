/**
 * Commit, the turn's last step: what the graph staged (memory rows, transcript), its
 * checkpoint, and the user message's id and place (R11.2) go to the store in one atomic
 * write, refused with THREAD_CONFLICT when the head or the thread's generation moved since the
 * load (store/thread-store.ts). Resolves to the thread's memory rows as the store knows them
 * after the write.
 */
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { ArchivedPrefix } from "../../memory/live-tail.ts";
import type { MessageIdEntry } from "../../store/message-ids.ts";
import type { MemoryRows } from "../../store/persistent-memory.ts";
import type { ThreadStore, TurnSnapshot } from "../../store/thread-store.ts";
import { storedPrefix } from "../../store/transcript.ts";

export async function commitTurn(
  store: ThreadStore,
  snapshot: TurnSnapshot,
  turn: {
    /** The live tail as the turn ends. */
    readonly messages: readonly BaseMessage[];
    /** The transcript before it. */
    readonly archived: ArchivedPrefix;
    /** The turn's user message, when this run appended it (a new messageId). */
    readonly user: HumanMessage | undefined;
  },
): Promise<MemoryRows | undefined> {
  return store.commit(snapshot.threadId, {
    messageId: turn.user && messageIdEntry(turn.user, turn.messages, turn.archived),
    messageCount: storedCount(snapshot.memory, turn.archived, turn.messages),
    messages: turn.messages,
  });
}

/**
 * Messages stored after the turn: the transcript less what earlier partial trims deleted, plus
 * the live tail (this turn's own trim is counted by the store, e.g. in llamon_threads).
 */
export function storedCount(
  memory: MemoryRows | undefined,
  archived: ArchivedPrefix,
  messages: readonly BaseMessage[],
): number {
  return storedPrefix(archived, memory?.thread).messages + messages.length;
}

/**
 * Where the turn of user message `userId` lies in `messages`: from that message up to the next
 * user message (exclusive), or undefined when the message is not there.
 */
export function turnSpan(
  messages: readonly BaseMessage[],
  userId: string,
): { readonly start: number; readonly end: number } | undefined {
  const start = messages.findIndex((m) => m.id === userId);
  if (start < 0) return undefined;
  const next = messages.findIndex((m, i) => i > start && HumanMessage.isInstance(m));
  return { start, end: next < 0 ? messages.length : next };
}

/** The user message's position in the whole thread and the end of its turn (exclusive). */
function messageIdEntry(
  user: HumanMessage,
  messages: readonly BaseMessage[],
  before: ArchivedPrefix,
): MessageIdEntry | undefined {
  if (user.id === undefined) return undefined;
  const span = turnSpan(messages, user.id);
  if (span === undefined) return undefined;
  return { id: user.id, seq: before.messages + span.start, end: before.messages + span.end };
}
