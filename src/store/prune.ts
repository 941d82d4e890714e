/**
 * Pruning old conversations of ONE agent (R4.3, `llamon memory prune`).
 *
 * - {@link planPrune} lists what would go: the agent's threads that match the filter, with
 *   the rows and bytes each holds in checkpoints, checkpoint_blobs, checkpoint_writes,
 *   persistent_memory, llamon_threads, llamon_messages (the transcript) and llamon_message_ids.
 *   It changes nothing.
 * - {@link applyPrune} deletes exactly the threads of a plan, in batches of threads, one
 *   transaction per batch. Each batch first locks the threads' registry rows, then deletes
 *   across the seven tables in one statement that re-checks the age cut-off, so a thread
 *   that became active after the plan was made is skipped, not deleted. The same statement
 *   queues the erasure of each deleted conversation's A2A task records, which live in the
 *   Worker's Durable Objects out of this process's reach (llamon_task_erasures, migration
 *   0010); the Worker erases them (admin/erasures.ts), so a prune never leaves them silently.
 *
 * Ownership (R2.3): the agent's threads are found by `agent_id` (registry, persistent_memory)
 * and by the storage id `<agent_id>:<thread_id>` (checkpoint tables). Agent ids contain no
 * ':', so no other agent's thread can ever match.
 *
 * Which threads exist: the registry (llamon_threads) is the authority for last activity.
 * Threads that have rows but no registry row (written by another checkpointer, or left
 * over) are found too; their last activity is the newest checkpoint `ts` or memory
 * `updated_at`. Finding those needs a scan of the agent's checkpoint rows by prefix, which
 * is a sequential scan of `checkpoints` unless thread ids are given; prune is maintenance.
 *
 * Pooler safety (R10.1): every statement is parameterised and runs through the `Db`
 * interface (node-postgres with unnamed statements unless MEMORY_PG_STATEMENT_CACHE_SIZE
 * > 0, or Neon HTTP); nothing outlives a transaction. Bytes are `pg_column_size` of the
 * rows (their stored size, compressed values as stored; indexes not counted).
 */
import { dbErrorFields, LlamonError } from "../errors.ts";
import type { Db, QueryResult, SqlParam } from "./db.ts";
import { COUNT_TASK_ERASURES, PRUNE_DELETE_BATCH, PRUNE_LOCK_BATCH, PRUNE_PLAN } from "./sql.ts";
import { assertAgentId, assertThreadId, type KeyScope } from "./thread-key.ts";

export const PRUNE_TABLES = [
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "persistent_memory",
  "llamon_threads",
  "llamon_messages",
  "llamon_message_ids",
] as const;
export type PruneTable = (typeof PRUNE_TABLES)[number];

export interface RowsAndBytes {
  rows: number;
  bytes: number;
}
export type TableCounts = Record<PruneTable, RowsAndBytes>;

export interface PruneFilter {
  readonly agentId: string;
  /** Only threads whose last activity is more than this many days ago (0 = before now). */
  readonly olderThanDays?: number | undefined;
  /** Only these threads (thread keys: the CLI makes them from principal + contextId). */
  readonly threadIds?: readonly string[] | undefined;
  /** Only the threads in this key scope (one principal's conversations). */
  readonly keyScope?: KeyScope | undefined;
}

export interface PruneThread {
  readonly threadId: string;
  /** Last activity: the registry's, or the newest row's for unregistered threads. */
  readonly lastActivityAt: Date | null;
  /** Has a row in llamon_threads. */
  readonly registered: boolean;
  readonly tables: TableCounts;
  readonly rows: number;
  readonly bytes: number;
}

export interface PrunePlan {
  readonly agentId: string;
  /** Threads with last activity before this instant match (null: no age filter). */
  readonly cutoff: Date | null;
  readonly threadIds: readonly string[] | undefined;
  /** Matching threads, least recently active first. */
  readonly threads: readonly PruneThread[];
  /** Requested thread ids (threadIds filter) that this agent does not have or that are too recent. */
  readonly notMatched: readonly string[];
  readonly totals: TableCounts;
}

export interface PruneResult {
  readonly agentId: string;
  /** Threads deleted, in plan order. */
  readonly deleted: readonly string[];
  /** Threads of the plan left alone because they were active again (or already gone). */
  readonly skipped: readonly string[];
  readonly tables: TableCounts;
  readonly batches: number;
  /**
   * Deleted conversations whose A2A task records were queued for erasure by the Worker
   * (llamon_task_erasures, written in the delete's transaction; admin/erasures.ts drains it).
   */
  readonly erasuresQueued: number;
}

export interface ApplyOptions {
  /** Threads per transaction (default 100). */
  readonly batchSize?: number;
  /** Called after each committed batch. */
  readonly onBatch?: (progress: { batch: number; batches: number; deleted: number }) => void;
}

export const DEFAULT_PRUNE_BATCH_SIZE = 100;
const DAY_MS = 86_400_000;

type CountColumns = Record<
  `${"cp" | "bl" | "wr" | "pm" | "rg" | "ms" | "mi"}_${"rows" | "bytes"}`,
  string | number
>;

interface PlanRow extends CountColumns {
  thread_id: string;
  registered: boolean;
  last_activity_at: Date | string | null;
}

interface DeleteRow extends CountColumns {
  deleted: string[];
  erasures_queued: string | number;
}

const PREFIX_OF: Record<PruneTable, "cp" | "bl" | "wr" | "pm" | "rg" | "ms" | "mi"> = {
  checkpoints: "cp",
  checkpoint_blobs: "bl",
  checkpoint_writes: "wr",
  persistent_memory: "pm",
  llamon_threads: "rg",
  llamon_messages: "ms",
  llamon_message_ids: "mi",
};

export function emptyCounts(): TableCounts {
  const counts = {} as TableCounts;
  for (const table of PRUNE_TABLES) counts[table] = { rows: 0, bytes: 0 };
  return counts;
}

function countsOf(row: CountColumns): TableCounts {
  const counts = emptyCounts();
  for (const table of PRUNE_TABLES) {
    const p = PREFIX_OF[table];
    counts[table] = { rows: Number(row[`${p}_rows`]), bytes: Number(row[`${p}_bytes`]) };
  }
  return counts;
}

function addCounts(into: TableCounts, more: TableCounts): void {
  for (const table of PRUNE_TABLES) {
    into[table].rows += more[table].rows;
    into[table].bytes += more[table].bytes;
  }
}

/** Sum of rows and bytes over the tables. */
export function sumCounts(counts: TableCounts): RowsAndBytes {
  let rows = 0;
  let bytes = 0;
  for (const table of PRUNE_TABLES) {
    rows += counts[table].rows;
    bytes += counts[table].bytes;
  }
  return { rows, bytes };
}

function checkFilter(filter: PruneFilter): void {
  assertAgentId(filter.agentId);
  const days = filter.olderThanDays;
  if (days !== undefined && (!Number.isInteger(days) || days < 0)) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `older-than-days must be a whole number ≥ 0, got ${String(days)}`,
    );
  }
  for (const id of filter.threadIds ?? []) assertThreadId(id);
}

/** Run a prune statement; a database without llamon's tables gets a message that says what to do. */
async function run<R>(db: Db, text: string, params: readonly SqlParam[]): Promise<QueryResult<R>> {
  try {
    return await db.query<R>(text, params);
  } catch (error) {
    throw missingTables(error);
  }
}

function missingTables(error: unknown): unknown {
  if (dbErrorFields(error)?.sqlstate !== "42P01") return error;
  return new LlamonError(
    "CONFIG_INVALID",
    "this database has no llamon tables: check the DSN, or create them with `npx llamon migrate --dsn …`",
    { cause: error },
  );
}

function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

/** What a prune with this filter would delete. Reads only. */
export async function planPrune(db: Db, filter: PruneFilter): Promise<PrunePlan> {
  checkFilter(filter);
  const prefix = `${filter.agentId}:`;
  let cutoff: Date | null = null;
  if (filter.olderThanDays !== undefined) {
    const now = await run<{ now: Date | string }>(db, "SELECT now() AS now", []);
    const dbNow = toDate(now.rows[0]?.now ?? null) ?? new Date();
    cutoff = new Date(dbNow.getTime() - filter.olderThanDays * DAY_MS);
  }
  const threadIds =
    filter.threadIds === undefined ? undefined : [...new Set(filter.threadIds)].sort();
  const { rows } = await run<PlanRow>(db, PRUNE_PLAN, [
    filter.agentId,
    prefix,
    threadIds ?? null,
    cutoff,
    filter.keyScope?.prefix ?? null,
    filter.keyScope?.notPrefix ?? null,
  ]);
  const totals = emptyCounts();
  const threads = rows.map((row): PruneThread => {
    const tables = countsOf(row);
    addCounts(totals, tables);
    const sum = sumCounts(tables);
    return {
      threadId: row.thread_id,
      lastActivityAt: toDate(row.last_activity_at),
      registered: row.registered,
      tables,
      rows: sum.rows,
      bytes: sum.bytes,
    };
  });
  const found = new Set(threads.map((t) => t.threadId));
  return {
    agentId: filter.agentId,
    cutoff,
    threadIds,
    threads,
    notMatched: (threadIds ?? []).filter((id) => !found.has(id)),
    totals,
  };
}

/** Delete the threads of `plan`, batch by batch (one transaction each). */
export async function applyPrune(
  db: Db,
  plan: PrunePlan,
  options: ApplyOptions = {},
): Promise<PruneResult> {
  assertAgentId(plan.agentId);
  const batchSize = options.batchSize ?? DEFAULT_PRUNE_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `batch size must be a whole number ≥ 1, got ${batchSize}`,
    );
  }
  const ids = plan.threads.map((t) => t.threadId);
  const batches = Math.ceil(ids.length / batchSize);
  const tables = emptyCounts();
  const deleted: string[] = [];
  const skipped: string[] = [];
  let erasuresQueued = 0;
  for (let i = 0; i < batches; i++) {
    const batch = ids.slice(i * batchSize, (i + 1) * batchSize);
    let results: QueryResult[];
    try {
      results = await db.batch(
        [
          { text: PRUNE_LOCK_BATCH, params: [plan.agentId, batch] },
          {
            text: PRUNE_DELETE_BATCH,
            params: [plan.agentId, batch, `${plan.agentId}:`, plan.cutoff],
          },
        ],
        { isolationLevel: "ReadCommitted" },
      );
    } catch (error) {
      throw missingTables(error);
    }
    const row = results[1]?.rows[0] as DeleteRow | undefined;
    if (row === undefined) {
      throw new LlamonError("INTERNAL", "the prune statement returned no result row");
    }
    addCounts(tables, countsOf(row));
    erasuresQueued += Number(row.erasures_queued);
    const gone = new Set(row.deleted);
    for (const id of batch) (gone.has(id) ? deleted : skipped).push(id);
    options.onBatch?.({ batch: i + 1, batches, deleted: deleted.length });
  }
  return { agentId: plan.agentId, deleted, skipped, tables, batches, erasuresQueued };
}

/**
 * How many pruned conversations of the agent still have A2A task records in the Worker's
 * Durable Objects (queued, not yet erased by the Worker).
 */
export async function pendingTaskErasures(db: Db, agentId: string): Promise<number> {
  assertAgentId(agentId);
  const { rows } = await run<{ pending: number | string }>(db, COUNT_TASK_ERASURES, [agentId]);
  return Number(rows[0]?.pending ?? 0);
}
