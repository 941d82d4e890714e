/**
 * The task list of one (agent, principal), kept in the object `tasks:<agent>:<principal>`
 * (runtime/objects.ts): a copy of each of the principal's A2A task records in the object's
 * SQLite storage, so ListTasks is one round trip to one object whatever the memory backend,
 * and a principal's list never holds another principal's tasks.
 *
 * The records themselves stay in their `task:<key>` objects (GetTask reads them there); a
 * save writes both, in parallel. Erasing a conversation (its task index, task-index.ts)
 * deletes its rows here too.
 *
 * Order: newest status first (`ts` = the status timestamp, ISO 8601 UTC), then task id
 * descending — the order of the SDK's in-memory store, with a keyset cursor (ts, key).
 */
import type { TaskListPage, TaskListQuery, TaskListRow } from "../a2a/task-list-query.ts";

/** What the Worker's task store asks of a task list object. */
export interface TaskListHost {
  upsertTaskRow(row: TaskListRow): Promise<void>;
  /** The stored record of task `key` in this list, or undefined. */
  getTaskRecord(key: string): Promise<string | undefined>;
  queryTasks(query: TaskListQuery): Promise<TaskListPage>;
  deleteTaskRows(keys: string[]): Promise<void>;
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
];

export class TaskList implements TaskListHost {
  private ready = false;

  constructor(private readonly storage: DurableObjectStorage) {}

  private sql(): SqlStorage {
    const sql = this.storage.sql;
    if (!this.ready) {
      for (const statement of SCHEMA) sql.exec(statement);
      this.ready = true;
    }
    return sql;
  }

  async upsertTaskRow(row: TaskListRow): Promise<void> {
    this.sql().exec(
      `INSERT INTO a2a_task_list (key, context_id, state, ts, record) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
         ts = excluded.ts, record = excluded.record`,
      row.key,
      row.contextId,
      row.state,
      row.timestamp,
      row.record,
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

  async deleteTaskRows(keys: string[]): Promise<void> {
    const sql = this.sql();
    for (const key of keys) sql.exec("DELETE FROM a2a_task_list WHERE key = ?", key);
  }
}
