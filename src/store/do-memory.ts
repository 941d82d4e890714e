/**
 * persistent_memory of the Durable Object backends (R1, R4.1): the same
 * {@link PersistentMemory} API as Postgres, over the object's SQLite storage (`sqlite`) or a
 * Map in the object's memory (`in_memory`, lost with the object). One row per key; rows
 * belong to (agent, thread) and `threadId: null` addresses the agent-level keys.
 * The thread stores of the two backends (sqlite-thread-store.ts, memory-thread-store.ts) read
 * and write a turn's rows with the helpers below, with the turn's checkpoint.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  assertMemoryKey,
  type JsonValue,
  type MemoryRows,
  memoryThreadColumn,
  type PersistentMemory,
  toMemoryRows,
} from "./persistent-memory.ts";
import {
  ensureSqliteSchema,
  rows,
  SQ_DELETE_MEMORY_KEY,
  SQ_SELECT_MEMORY_KEY,
  SQ_SELECT_MEMORY_ROWS,
  SQ_UPSERT_MEMORY,
  type SqliteExec,
} from "./sqlite-sql.ts";
import { assertAgentId, assertThreadId, storageThreadId } from "./thread-key.ts";

/** A checkpointer of the Durable Object backends (SqliteSaver, InMemorySaver). */
export interface ThreadSaver extends BaseCheckpointSaver {
  readonly agentId: string;
  /**
   * Keep only the newest checkpoint of a thread with each save (trim, R4.2). Settable: the
   * object applies the turn's effective configuration (run-time layer included) to it.
   */
  keepLatestOnly: boolean;
}

// ---- sqlite ----------------------------------------------------------------------------

type MemoryRow = { thread_id: string; key: string; value: string };

export function readSqliteMemory(db: SqliteExec, agentId: string, threadId: string): MemoryRows {
  const found = rows<MemoryRow>(db, SQ_SELECT_MEMORY_ROWS, agentId, threadId);
  return toMemoryRows(found.map((r) => ({ ...r, value: JSON.parse(r.value) as JsonValue })));
}

/** Upserts (or, for undefined, deletes) one row. Call inside the caller's transaction if any. */
export function writeSqliteMemory(
  db: SqliteExec,
  agentId: string,
  column: string,
  key: string,
  value: JsonValue | undefined,
): void {
  if (value === undefined) rows(db, SQ_DELETE_MEMORY_KEY, agentId, column, key);
  else rows(db, SQ_UPSERT_MEMORY, agentId, column, key, JSON.stringify(value));
}

/** persistent_memory over a Durable Object's SQLite storage (or node:sqlite in tests). */
export function createSqliteMemory(db: SqliteExec, agentId: string): PersistentMemory {
  assertAgentId(agentId);
  ensureSqliteSchema(db);
  return {
    async get(threadId, key) {
      assertMemoryKey(key);
      const [row] = rows<{ value: string }>(
        db,
        SQ_SELECT_MEMORY_KEY,
        agentId,
        memoryThreadColumn(threadId),
        key,
      );
      return row === undefined ? undefined : (JSON.parse(row.value) as JsonValue);
    },
    async set(threadId, key, value) {
      assertMemoryKey(key);
      writeSqliteMemory(db, agentId, memoryThreadColumn(threadId), key, value);
    },
    async delete(threadId, key) {
      assertMemoryKey(key);
      writeSqliteMemory(db, agentId, memoryThreadColumn(threadId), key, undefined);
    },
    async load(threadId) {
      assertThreadId(threadId);
      return readSqliteMemory(db, agentId, threadId);
    },
  };
}

// ---- in_memory ---------------------------------------------------------------------------

/**
 * Memory rows kept in a Map: `<agent_id>:<thread_id>` (agent level: `<agent_id>:`) → key →
 * value. Values are copied in and out, so callers never share objects with the store.
 */
export type MemoryMap = Map<string, Map<string, JsonValue>>;

export function readMapMemory(map: MemoryMap, agentId: string, threadId: string): MemoryRows {
  const copy = (column: string) =>
    Object.fromEntries(
      [...(map.get(storageThreadId(agentId, column)) ?? [])].map(([k, v]) => [
        k,
        structuredClone(v),
      ]),
    );
  return { thread: copy(threadId), agent: copy("") };
}

/** Sets (or, for undefined, deletes) one row. */
export function writeMapMemory(
  map: MemoryMap,
  agentId: string,
  column: string,
  key: string,
  value: JsonValue | undefined,
): void {
  const id = storageThreadId(agentId, column);
  const bucket = map.get(id) ?? new Map<string, JsonValue>();
  if (value === undefined) bucket.delete(key);
  else bucket.set(key, structuredClone(value));
  if (bucket.size === 0) map.delete(id);
  else map.set(id, bucket);
}

/** persistent_memory in a Map (the in_memory backend: gone when the object is evicted). */
export function createMapMemory(map: MemoryMap, agentId: string): PersistentMemory {
  assertAgentId(agentId);
  return {
    async get(threadId, key) {
      assertMemoryKey(key);
      const value = map.get(storageThreadId(agentId, memoryThreadColumn(threadId)))?.get(key);
      return value === undefined ? undefined : structuredClone(value);
    },
    async set(threadId, key, value) {
      assertMemoryKey(key);
      writeMapMemory(map, agentId, memoryThreadColumn(threadId), key, value);
    },
    async delete(threadId, key) {
      assertMemoryKey(key);
      writeMapMemory(map, agentId, memoryThreadColumn(threadId), key, undefined);
    },
    async load(threadId) {
      assertThreadId(threadId);
      return readMapMemory(map, agentId, threadId);
    },
  };
}
