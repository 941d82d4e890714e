/**
 * The task list of one (agent, principal), kept in the object `tasks:<agent>:<principal>`
 * (runtime/objects.ts): a copy of each of the principal's A2A task records in the object's
 * SQLite storage, so ListTasks is one round trip to one object whatever the memory backend,
 * and a principal's list never holds another principal's tasks.
 *
 * A saved record lives here only: GetTask reads its row. Records written by earlier releases
 * also live in `task:<key>` objects of their own (read when a task is in no list). Erasing a
 * conversation deletes its rows here by contextId (`eraseContextTasks`: the owner is in the
 * conversation's thread key, so the list to look in is known), and the rows an earlier
 * release's conversation index names by key (task-index.ts).
 *
 * `written_ms`: when this object last wrote the row (epoch ms), so a prune's queued erasure
 * keeps a task saved again after it was queued; null for rows written before the column
 * existed (their conversation's index still knows when they were written).
 *
 * Order: newest status first (`ts` = the status timestamp, ISO 8601 UTC), then task id
 * descending — the order of the SDK's in-memory store, with a keyset cursor (ts, key).
 */
import type { TaskListPage, TaskListQuery, TaskListRow } from "../a2a/task-list-query.ts";
import { TaskFollowers } from "./task-followers.ts";

/** What the Worker's task store asks of a task list object. */
export interface TaskListHost {
  /**
   * Save a task's row. `generation`: the generation of the conversation its turn read and
   * wrote (store/thread-fence.ts); a generation an erase has retired is refused — the row is
   * deleted instead, and false comes back (R11.1: a turn that read the conversation before
   * the erase cannot bring it back as a task record).
   */
  upsertTaskRow(row: TaskListRow, generation?: string): Promise<boolean>;
  /** The stored record of task `key` in this list, or undefined. */
  getTaskRecord(key: string): Promise<string | undefined>;
  queryTasks(query: TaskListQuery): Promise<TaskListPage>;
  /**
   * Delete the rows of `keys` (the conversation index of an earlier release names them); with
   * `before` (epoch ms), a row this object wrote at or after it is kept.
   */
  deleteTaskRows(keys: string[], before?: number): Promise<void>;
  /** The saves of task record `key` from now on, one JSON line each (a subscription). */
  followTask(key: string): ReadableStream<Uint8Array>;
  /**
   * Delete the rows of conversation `contextId`; with `before` (epoch ms) only those this
   * object wrote before then (a row without `written_ms` is left to the conversation's index,
   * which knows when it was written). `generation`: the conversation's generation the erase
   * retired; a later save of a task of that generation is refused (see upsertTaskRow).
   * Returns the keys deleted.
   */
  eraseContextTasks(contextId: string, before?: number, generation?: string): Promise<string[]>;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS a2a_task_list (
     key TEXT PRIMARY KEY,
     context_id TEXT NOT NULL,
     state INTEGER NOT NULL,
     ts TEXT NOT NULL,
     record TEXT NOT NULL
   )`,
  "CREATE INDEX IF NOT EXISTS a2a_task_list_order ON a2a_task_list (ts DESC, key DESC)",
  "CREATE INDEX IF NOT EXISTS a2a_task_list_context ON a2a_task_list (context_id, ts DESC, key DESC)",
  // Conversation generations retired by an erase: a late save of a task of one is refused.
  `CREATE TABLE IF NOT EXISTS a2a_retired_generations (
     context_id TEXT NOT NULL,
     generation TEXT NOT NULL,
     retired_ms INTEGER NOT NULL,
     PRIMARY KEY (context_id, generation)
   )`,
];

/**
 * How long a retired generation is remembered: far longer than any turn between its read and
 * its task save (minutes at most), short enough that the table stays small.
 */
const RETIRED_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** The columns later releases added (a table made before has them added on first use). */
const WRITTEN_MS = "written_ms";
/** The conversation generation the task's turn saw (R11.1), or null. */
const GENERATION = "generation";

/** Epoch ms no row is written at or after: "every row" for a missing `before`. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export class TaskList implements TaskListHost {
  private ready = false;
  /** Subscriptions following a task of this list (task-followers.ts). */
  private readonly followers = new TaskFollowers();

  constructor(private readonly storage: DurableObjectStorage) {}

  private sql(): SqlStorage {
    const sql = this.storage.sql;
    if (!this.ready) {
      for (const statement of SCHEMA) sql.exec(statement);
      for (const [column, type] of [
        [WRITTEN_MS, "INTEGER"],
        [GENERATION, "TEXT"],
      ] as const) {
        const added = sql
          .exec("SELECT 1 FROM pragma_table_info('a2a_task_list') WHERE name = ?", column)
          .toArray();
        if (added.length === 0) sql.exec(`ALTER TABLE a2a_task_list ADD COLUMN ${column} ${type}`);
      }
      this.ready = true;
    }
    return sql;
  }

  async upsertTaskRow(row: TaskListRow, generation?: string): Promise<boolean> {
    const sql = this.sql();
    if (generation !== undefined && this.retired(row.contextId, generation)) {
      sql.exec("DELETE FROM a2a_task_list WHERE key = ?", row.key);
      this.followers.gone([row.key]);
      return false;
    }
    sql.exec(
      `INSERT INTO a2a_task_list (key, context_id, state, ts, record, written_ms, generation)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
         ts = excluded.ts, record = excluded.record, written_ms = excluded.written_ms,
         generation = coalesce(excluded.generation, a2a_task_list.generation)`,
      row.key,
      row.contextId,
      row.state,
      row.timestamp,
      row.record,
      Date.now(),
      generation ?? null,
    );
    this.followers.saved(row.key, row.record, row.state);
    return true;
  }

  /** The saves of task record `key` from now on, one JSON line each (task-followers.ts). */
  followTask(key: string): ReadableStream<Uint8Array> {
    return this.followers.follow(key);
  }

  private retired(contextId: string, generation: string): boolean {
    return (
      this.sql()
        .exec(
          "SELECT 1 FROM a2a_retired_generations WHERE context_id = ? AND generation = ?",
          contextId,
          generation,
        )
        .toArray().length > 0
    );
  }

  async getTaskRecord(key: string): Promise<string | undefined> {
    const row = this.sql()
      .exec<{ record: string }>("SELECT record FROM a2a_task_list WHERE key = ?", key)
      .toArray()[0];
    return row?.record;
  }

  async queryTasks(query: TaskListQuery): Promise<TaskListPage> {
    const sql = this.sql();
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.contextId !== undefined) {
      where.push("context_id = ?");
      params.push(query.contextId);
    }
    if (query.state !== undefined) {
      where.push("state = ?");
      params.push(query.state);
    }
    if (query.after !== undefined) {
      where.push("ts > ?");
      params.push(query.after);
    }
    const filter = where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`;
    const total = Number(
      sql.exec<{ n: number }>(`SELECT count(*) AS n FROM a2a_task_list ${filter}`, ...params).one()
        .n,
    );
    const page = [...where];
    const pageParams = [...params];
    if (query.cursor !== undefined) {
      page.push("(ts < ? OR (ts = ? AND key < ?))");
      pageParams.push(query.cursor.ts, query.cursor.ts, query.cursor.key);
    }
    const pageFilter = page.length === 0 ? "" : `WHERE ${page.join(" AND ")}`;
    const rows = sql
      .exec<{ record: string }>(
        `SELECT record FROM a2a_task_list ${pageFilter} ORDER BY ts DESC, key DESC LIMIT ?`,
        ...pageParams,
        query.limit + 1,
      )
      .toArray();
    const more = rows.length > query.limit;
    return { values: rows.slice(0, query.limit).map((r) => r.record), total, more };
  }

  async deleteTaskRows(keys: string[], before?: number): Promise<void> {
    const sql = this.sql();
    for (const key of keys) {
      sql.exec(
        "DELETE FROM a2a_task_list WHERE key = ? AND (written_ms IS NULL OR written_ms < ?)",
        key,
        before ?? NO_LIMIT,
      );
    }
    this.followers.gone(keys);
  }

  async eraseContextTasks(
    contextId: string,
    before?: number,
    generation?: string,
  ): Promise<string[]> {
    const sql = this.sql();
    if (generation !== undefined) {
      const now = Date.now();
      sql.exec(
        `INSERT INTO a2a_retired_generations (context_id, generation, retired_ms) VALUES (?, ?, ?)
         ON CONFLICT (context_id, generation) DO UPDATE SET retired_ms = excluded.retired_ms`,
        contextId,
        generation,
        now,
      );
      sql.exec("DELETE FROM a2a_retired_generations WHERE retired_ms < ?", now - RETIRED_KEEP_MS);
    }
    const deleted =
      before === undefined
        ? sql.exec<{ key: string }>(
            "DELETE FROM a2a_task_list WHERE context_id = ? RETURNING key",
            contextId,
          )
        : sql.exec<{ key: string }>(
            // A row of the retired generation goes whenever it was written (a late save).
            `DELETE FROM a2a_task_list
              WHERE context_id = ? AND (written_ms < ? OR generation = ?) RETURNING key`,
            contextId,
            before,
            generation ?? null,
          );
    const keys = deleted.toArray().map((row) => row.key);
    this.followers.gone(keys);
    return keys;
  }
}
