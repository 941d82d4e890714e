/**
 * The messages of recently saved threads, kept in the isolate between requests (NeonSaver's
 * `cache` option; the Worker keeps one per isolate).
 *
 * Reading a long thread is mostly reviving every stored message into LangChain objects. A
 * conversation's next turn usually lands on the isolate that saved its previous one; then the
 * thread's head in Postgres is the checkpoint this isolate just wrote, whose messages it
 * still holds. The read batch names that checkpoint, Postgres skips the history walk when the
 * head is still it, and the messages come from here: no transfer, no revival. Any other head
 * (another isolate saved since, the thread was erased or trimmed elsewhere) is read from
 * Postgres as usual — the database stays the only authority, and a checkpoint's messages
 * never change, so an entry is either exactly right or not used.
 *
 * Bounded by the number of messages held (least recently used threads go first); a thread
 * longer than a quarter of the bound is not kept.
 */
import type { BaseMessage } from "@langchain/core/messages";

export const DEFAULT_CACHED_MESSAGES = 20_000;

interface Entry {
  readonly checkpointId: string;
  readonly messages: readonly BaseMessage[];
}

export class ThreadMessagesCache {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(readonly maxMessages = DEFAULT_CACHED_MESSAGES) {}

  /** The messages at `checkpointId` of a thread (storage id + namespace), if held. */
  get(thread: string, checkpointId?: string): Entry | undefined {
    const entry = this.entries.get(thread);
    if (entry === undefined || (checkpointId !== undefined && entry.checkpointId !== checkpointId))
      return undefined;
    // Most recently used last.
    this.entries.delete(thread);
    this.entries.set(thread, entry);
    return entry;
  }

  /** Hold the thread's messages at the checkpoint just saved (replaces what was held). */
  set(thread: string, checkpointId: string, messages: readonly BaseMessage[]): void {
    this.forget(thread);
    if (messages.length > this.maxMessages / 4) return;
    this.entries.set(thread, { checkpointId, messages: [...messages] });
    this.held += messages.length;
    for (const [key, entry] of this.entries) {
      if (this.held <= this.maxMessages) break;
      this.entries.delete(key);
      this.held -= entry.messages.length;
    }
  }

  forget(thread: string): void {
    const entry = this.entries.get(thread);
    if (entry === undefined) return;
    this.entries.delete(thread);
    this.held -= entry.messages.length;
  }

  get size(): number {
    return this.entries.size;
  }
}
