/** `llamon/store`: the SQL interface, the Neon HTTP transport, the checkpointer and memory store. */
export type {
  BatchOptions,
  Db,
  IsolationLevel,
  QueryResult,
  SqlParam,
  SqlStatement,
} from "./db.ts";
export { createNeonDb, type NeonDbOptions } from "./db-neon.ts";
export { NeonSaver, type NeonSaverOptions } from "./neon-saver.ts";
export {
  createPostgresMemory,
  type JsonValue,
  type MemoryRows,
  type PersistentMemory,
} from "./persistent-memory.ts";
export { storageThreadId } from "./thread-key.ts";
