/**
 * `llamon/node`: what llamon's command line and local dev servers (the `llamon-cli` package)
 * build on from the runtime — the SQL interface's pieces a transport is made of, the migration
 * and doctor statements, prune, reindex, and the configuration checks `llamon doctor` runs.
 * Runs in Node; imports nothing Node-only (node-postgres and migrations live in llamon-cli), so
 * llamon's dependencies stay what a Worker needs.
 */

export { createModelFromEnv } from "./llm/select.ts";
export {
  effectiveBackend,
  type MemoryBackend,
  type MemoryConfig,
  resolveMemoryConfig,
} from "./memory/config.ts";
export {
  countUnindexed,
  DEFAULT_REINDEX_BATCH_SIZE,
  MAX_REINDEX_BATCH_SIZE,
  reindexTranscript,
} from "./memory/reindex.ts";
// Also public from `llamon`, `llamon/memory` and `llamon/store`; here so the CLI's start-up
// loads neither the Worker's routes nor the whole memory layer.
export { resolveA2AAuth } from "./runtime/auth-config.ts";
export { parseWorkerVars } from "./runtime/env.ts";
export { AUTH_INVALID_RPC_CODE, AUTH_REQUIRED_RPC_CODE } from "./runtime/errors.ts";
export {
  ANONYMOUS_PRINCIPAL,
  contextIdProblem,
  decodeThreadKey,
  principalKeyScope,
  principalProblem,
  threadKey,
} from "./runtime/thread-keys.ts";
export { adoptThreads } from "./store/adopt.ts";
export type { Db, IsolationLevel } from "./store/db.ts";
export {
  type BatchOptions,
  beginStatement,
  ISOLATION_LEVELS,
  type QueryResult,
  type SqlParam,
  type SqlStatement,
  toDbError,
  toQueryResult,
} from "./store/db.ts";
export { redactDsn, redactSecrets } from "./store/dsn.ts";
export {
  applyPrune,
  DEFAULT_PRUNE_BATCH_SIZE,
  PRUNE_TABLES,
  type PrunePlan,
  type PruneResult,
  pendingTaskErasures,
  planPrune,
  sumCounts,
  type TableCounts,
} from "./store/prune.ts";
export {
  CREATE_MIGRATIONS_TABLE,
  DOCTOR_COUNT_AGENT_THREADS,
  DOCTOR_EXISTING_TABLES,
  INSERT_MIGRATION,
  MIGRATION_LOCK,
  SELECT_APPLIED_MIGRATIONS,
} from "./store/sql.ts";
export { assertAgentId } from "./store/thread-key.ts";
export { NO_PGVECTOR_FIX, vectorsReady } from "./store/vectors.ts";
export { zodIssueLines } from "./zod-issues.ts";
