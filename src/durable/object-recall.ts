/**
 * Conversation recall in a Durable Object that keeps the whole thread in memory (in_memory):
 * one {@link ListRecallSource} per object, fed by each turn with the thread it loaded (with
 * delta storage the turn's thread is the whole stored conversation). The index is built
 * incrementally — a message's terms are computed once, when it first appears — and lives
 * exactly as long as the object, like the in_memory thread itself. Messages that trim or an
 * erase removed leave the index at the thread's next recall (the list is the truth).
 */
import { ListRecallSource, type RecallSource, type StoredMessage } from "../memory/recall/index.ts";

export class ObjectRecall {
  readonly #lists = new Map<string, readonly StoredMessage[]>();
  readonly #source = new ListRecallSource((threadId) => this.#lists.get(threadId));

  /** The source of one turn of `threadId` over the thread the turn holds (`conversationRecallOnThread`). */
  forTurn(threadId: string): (thread: readonly StoredMessage[]) => RecallSource {
    return (thread) => {
      this.#lists.set(threadId, thread);
      return this.#source;
    };
  }

  /** After the turn: the list is the turn's; the index stays for the next turn. */
  endTurn(threadId: string): void {
    this.#lists.delete(threadId);
  }

  /** The thread was erased: drop its index now. */
  forget(threadId: string): void {
    this.#lists.delete(threadId);
    this.#source.forget(threadId);
  }
}
