/**
 * The Durable Object's memory thread store (the `in_memory` backend; store/thread-store.ts),
 * with an InMemorySaver: `load` reads the head, the thread's and the agent's memory rows and
 * the incoming messageId's stored turn (R11.2) from the object's maps; `commit` applies the
 * turn's held writes, refusing a messageId the thread stored already (THREAD_CONFLICT, nothing
 * written) before its root checkpoint and recording it and the turn's memory rows after it.
 * Conversation recall runs over the thread the turn holds (durable/object-recall.ts): the whole
 * thread is the checkpoint's, nothing leaves it for a transcript.
 */
import { readMapMemory, writeMapMemory } from "./do-memory.ts";
import { LocalThreadStore } from "./local-thread-store.ts";
import type { InMemorySaver } from "./memory-saver.ts";
import type { MemoryRows } from "./persistent-memory.ts";
import { ROOT_NS } from "./saver-target.ts";
import type { TurnCommit, TurnQuery, TurnSnapshot } from "./thread-store.ts";

class MemoryThreadStore extends LocalThreadStore<InMemorySaver> {
  readonly keepsTranscript = false;
  readonly recallInLoad = false;

  constructor(
    saver: InMemorySaver,
    private readonly generations: (threadId: string) => string | undefined,
  ) {
    super(saver);
  }

  async load(query: TurnQuery): Promise<TurnSnapshot> {
    const { threadId } = query;
    this.startLoad(threadId);
    const tuple = await this.saver.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: ROOT_NS },
    });
    // The maps are read after the head with no await between: nothing runs in between.
    const memory = readMapMemory(this.saver.memoryRows, this.saver.agentId, threadId);
    const stored = this.saver.messageIdOf(threadId, query.messageId);
    this.loaded.set(threadId, memory);
    this.prime(threadId, tuple);
    return {
      threadId,
      memory,
      recall: undefined,
      storedTurn:
        stored === undefined ? undefined : { seq: stored.seq, end: stored.end, transcript: [] },
    };
  }

  async commit(threadId: string, commit: TurnCommit): Promise<MemoryRows | undefined> {
    const staged = await this.takeStaged(threadId, commit);
    const { messageId } = staged;
    await this.saver.flushTurn(threadId, {
      check: () => {
        if (messageId !== undefined) this.saver.assertNewMessageId(threadId, messageId.id);
      },
      apply: () => {
        if (messageId !== undefined) this.saver.recordMessageId(threadId, messageId);
        for (const [key, value] of staged.memory) {
          writeMapMemory(
            this.saver.memoryRows,
            this.saver.agentId,
            threadId,
            key,
            value === null ? undefined : value,
          );
        }
      },
    });
    return this.takeLoaded(threadId);
  }

  generation(threadId: string): string | undefined {
    return this.generations(threadId);
  }
}

/** The Durable Object's memory (in_memory): its recall runs over the object's threads. */
export function memoryThreadStore(
  saver: InMemorySaver,
  generation: (threadId: string) => string | undefined = () => undefined,
): MemoryThreadStore {
  return new MemoryThreadStore(saver, generation);
}
