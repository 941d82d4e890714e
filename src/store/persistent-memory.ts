/**
 * persistent_memory: JSON values per (agent, thread, key), one row per key (upserts never
 * accumulate). `threadId: null` addresses the agent-level keys (stored with thread_id '').
 * The same interface is implemented over Postgres (here) and over a Durable Object.
 */
import { LlamonError } from "../errors.ts";
import type { Db } from "./db.ts";
import { DELETE_MEMORY_KEYS, SELECT_MEMORY_KEY, SELECT_MEMORY_ROWS, UPSERT_MEMORY } from "./sql.ts";
import { assertAgentId, assertThreadId } from "./thread-key.ts";

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

export interface MemoryRows {
  /** Keys of the thread. */
  readonly thread: Record<string, JsonValue>;
  /** Agent-level keys (settings shared by every thread of the agent). */
  readonly agent: Record<string, JsonValue>;
}

export interface PersistentMemory {
  get(threadId: string | null, key: string): Promise<JsonValue | undefined>;
  set(threadId: string | null, key: string, value: JsonValue): Promise<void>;
  delete(threadId: string | null, key: string): Promise<void>;
  /** The thread's keys and the agent-level keys, in one read. */
  load(threadId: string): Promise<MemoryRows>;
}

export const MAX_KEY_LENGTH = 128;

export function assertMemoryKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new LlamonError(
      "INPUT_INVALID",
      `a memory key must be a string of 1–${MAX_KEY_LENGTH} characters`,
    );
  }
}

/** '' is the stored thread_id of agent-level keys. */
export function memoryThreadColumn(threadId: string | null): string {
  if (threadId === null) return "";
  assertThreadId(threadId);
  return threadId;
}

/** Split rows of SELECT_MEMORY_ROWS into thread and agent keys. */
export function toMemoryRows(
  rows: readonly { thread_id: string; key: string; value: unknown }[],
): MemoryRows {
  const thread: Record<string, JsonValue> = {};
  const agent: Record<string, JsonValue> = {};
  for (const row of rows) (row.thread_id === "" ? agent : thread)[row.key] = row.value as JsonValue;
  return { thread, agent };
}

export function createPostgresMemory(db: Db, agentId: string): PersistentMemory {
  assertAgentId(agentId);
  return {
    async get(threadId, key) {
      assertMemoryKey(key);
      const { rows } = await db.query<{ value: JsonValue }>(SELECT_MEMORY_KEY, [
        agentId,
        memoryThreadColumn(threadId),
        key,
      ]);
      return rows[0]?.value;
    },
    async set(threadId, key, value) {
      assertMemoryKey(key);
      const row = { thread_id: memoryThreadColumn(threadId), key, value };
      await db.query(UPSERT_MEMORY, [agentId, JSON.stringify([row])]);
    },
    async delete(threadId, key) {
      assertMemoryKey(key);
      await db.query(DELETE_MEMORY_KEYS, [agentId, memoryThreadColumn(threadId), [key]]);
    },
    async load(threadId) {
      assertThreadId(threadId);
      const { rows } = await db.query<{ thread_id: string; key: string; value: unknown }>(
        SELECT_MEMORY_ROWS,
        [agentId, threadId],
      );
      return toMemoryRows(rows);
    },
  };
}
