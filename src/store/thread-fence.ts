/**
 * The fence of a conversation's writes off the request path (R11.1): a job (the
 * rolling summary) reads the thread's generation before anything of the thread, and its write
 * lands only while the generation is unchanged. Erase and prune move it (on Postgres they
 * delete the registry row, whose generation is random per row: migration 0014; in a Durable
 * Object, {@link Generations} counts erasures). So a job that read a conversation before it was
 * erased is dropped instead of writing what it read back.
 */
import type { Db } from "./db.ts";
import { assertMemoryKey, type JsonValue, type PersistentMemory } from "./persistent-memory.ts";
import {
  SELECT_THREAD_GENERATION,
  SWAP_MEMORY_FENCED,
  UPSERT_MEMORY_FENCED,
} from "./thread-head-sql.ts";
import { assertAgentId, assertThreadId } from "./thread-key.ts";

export interface ThreadFence {
  /** The thread's generation now; undefined when the thread is not stored. */
  generation(threadId: string): Promise<string | undefined>;
  /** Set a key of the thread if its generation is still `generation`; false when refused. */
  setIfCurrent(
    threadId: string,
    generation: string,
    key: string,
    value: JsonValue,
  ): Promise<boolean>;
  /**
   * Set a key of the thread if its generation is still `generation` and the key still holds
   * `expected` (undefined: the key is not set); false when refused. For writers that read the
   * key and may run side by side (the facts jobs of one thread).
   */
  swapIfCurrent(
    threadId: string,
    generation: string,
    key: string,
    expected: JsonValue | undefined,
    value: JsonValue,
  ): Promise<boolean>;
}

/** The Postgres fence: the registry row's generation (read, and locked by the write). */
export function postgresFence(db: Db, agentId: string): ThreadFence {
  assertAgentId(agentId);
  return {
    async generation(threadId) {
      assertThreadId(threadId);
      const { rows } = await db.query<{ generation: string }>(SELECT_THREAD_GENERATION, [
        agentId,
        threadId,
      ]);
      return rows[0]?.generation;
    },
    async setIfCurrent(threadId, generation, key, value) {
      assertThreadId(threadId);
      assertMemoryKey(key);
      const { rows } = await db.query(UPSERT_MEMORY_FENCED, [
        agentId,
        threadId,
        key,
        JSON.stringify(value),
        generation,
      ]);
      return rows.length === 1;
    },
    async swapIfCurrent(threadId, generation, key, expected, value) {
      assertThreadId(threadId);
      assertMemoryKey(key);
      const { rows } = await db.query(SWAP_MEMORY_FENCED, [
        agentId,
        threadId,
        key,
        JSON.stringify(value),
        generation,
        expected === undefined ? null : JSON.stringify(expected),
      ]);
      return rows.length === 1;
    },
  };
}

/**
 * Generations of the threads one Durable Object keeps (in_memory, sqlite): random values kept
 * in the object's memory, which is enough — a job that reads the thread runs inside the same
 * object instance, and an evicted object ends its jobs with it; a new instance makes new
 * values, so one never comes back after an erase retired it (task records remember retired
 * ones: durable/task-list.ts).
 */
export class Generations {
  private readonly current_ = new Map<string, string>();
  /** Compare-and-set writes run one after another (their read and write are two awaits). */
  private swaps: Promise<unknown> = Promise.resolve();

  current(threadId: string): string {
    let generation = this.current_.get(threadId);
    if (generation === undefined) {
      generation = crypto.randomUUID();
      this.current_.set(threadId, generation);
    }
    return generation;
  }

  /** Erase moved the thread on: every job that read it before is fenced off. Returns the old one. */
  move(threadId: string): string {
    const retired = this.current(threadId);
    this.current_.set(threadId, crypto.randomUUID());
    return retired;
  }

  /** A fence over the object's own persistent_memory. */
  fence(memory: PersistentMemory): ThreadFence {
    return {
      generation: async (threadId) => this.current(threadId),
      setIfCurrent: async (threadId, generation, key, value) => {
        if (this.current(threadId) !== generation) return false;
        // No await between the check and the write's start: the object runs one at a time.
        await memory.set(threadId, key, value);
        return true;
      },
      swapIfCurrent: (threadId, generation, key, expected, value) => {
        const swap = this.swaps.then(async () => {
          if (this.current(threadId) !== generation) return false;
          const now = await memory.get(threadId, key);
          if (JSON.stringify(now) !== JSON.stringify(expected)) return false;
          if (this.current(threadId) !== generation) return false;
          await memory.set(threadId, key, value);
          return true;
        });
        this.swaps = swap.catch(() => undefined);
        return swap;
      },
    };
  }
}
