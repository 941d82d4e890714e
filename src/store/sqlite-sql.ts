/**
 * SQLite storage of the Durable Object backends (`sqlite`, R1): the schema and every
 * statement, over a minimal synchronous interface that a Durable Object's `ctx.storage.sql`
 * (plus `ctx.storage.transactionSync`) and Node's `node:sqlite` both satisfy.
 *
 * Same logical tables as migrations/0001–0005 (thread ids stored as `<agent_id>:<thread_id>`,
 * `task_path` on writes, `persistent_memory` per agent + thread), with blobs as BLOB and JSON
 * as TEXT, plus the transcript of the live tail with its FTS5 index (v3). The schema is
 * versioned in a tiny `llamon_schema` table and applied idempotently.
 */
import { LlamonError } from "../errors.ts";
import { SCHEMA_V5 } from "./sqlite-message-ids-sql.ts";
import { SCHEMA_V3, SCHEMA_V4 } from "./sqlite-transcript-sql.ts";

export type SqliteValue = string | number | null | Uint8Array;

/** The shape of `SqlStorage.exec` plus a synchronous transaction. */
export interface SqliteExec {
  exec(sql: string, ...params: SqliteValue[]): { toArray(): Record<string, unknown>[] };
  /** Runs fn atomically: everything it wrote is rolled back if it throws. May nest. */
  transaction<T>(fn: () => T): T;
}

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** Schema versions; version n is SCHEMA[n - 1]. Append, never edit an applied version. */
const SCHEMA: readonly (readonly string[])[] = [
  [
    `CREATE TABLE IF NOT EXISTS checkpoints (
      thread_id TEXT NOT NULL,
      checkpoint_ns TEXT NOT NULL DEFAULT '',
      checkpoint_id TEXT NOT NULL,
      parent_checkpoint_id TEXT,
      type TEXT,
      checkpoint TEXT NOT NULL,
      metadata TEXT NOT NULL DEFAULT '{}',
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id))`,
    `CREATE TABLE IF NOT EXISTS checkpoint_blobs (
      thread_id TEXT NOT NULL,
      checkpoint_ns TEXT NOT NULL DEFAULT '',
      channel TEXT NOT NULL,
      version TEXT NOT NULL,
      type TEXT NOT NULL,
      blob BLOB,
      PRIMARY KEY (thread_id, checkpoint_ns, channel, version))`,
    `CREATE TABLE IF NOT EXISTS checkpoint_writes (
      thread_id TEXT NOT NULL,
      checkpoint_ns TEXT NOT NULL DEFAULT '',
      checkpoint_id TEXT NOT NULL,
      task_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      channel TEXT NOT NULL,
      type TEXT,
      blob BLOB NOT NULL,
      task_path TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx))`,
    `CREATE TABLE IF NOT EXISTS persistent_memory (
      agent_id TEXT NOT NULL CHECK (agent_id <> '' AND instr(agent_id, ':') = 0),
      thread_id TEXT NOT NULL CHECK (length(thread_id) <= 256),
      key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 128),
      value TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      updated_at TEXT NOT NULL DEFAULT ${NOW},
      PRIMARY KEY (agent_id, thread_id, key))`,
  ],
  // v2: thread ids are thread keys (principal + contextId, at most 512 characters); SQLite
  // cannot alter a CHECK, so the table is rebuilt with the new limit. Threads stored under a
  // contextId starting with U+001F (allowed before, refused now) would read as another
  // principal's key: they are renamed out of the key space, as migrations/0005 does.
  [
    `CREATE TABLE persistent_memory_v2 (
      agent_id TEXT NOT NULL CHECK (agent_id <> '' AND instr(agent_id, ':') = 0),
      thread_id TEXT NOT NULL CHECK (length(thread_id) <= 512),
      key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 128),
      value TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      updated_at TEXT NOT NULL DEFAULT ${NOW},
      PRIMARY KEY (agent_id, thread_id, key))`,
    `INSERT INTO persistent_memory_v2 (agent_id, thread_id, key, value, created_at, updated_at)
      SELECT agent_id, thread_id, key, value, created_at, updated_at FROM persistent_memory`,
    "DROP TABLE persistent_memory",
    "ALTER TABLE persistent_memory_v2 RENAME TO persistent_memory",
    `UPDATE persistent_memory SET thread_id = 'legacy-u001f:' || substr(thread_id, 2)
      WHERE substr(thread_id, 1, 1) = char(31)`,
    ...["checkpoint_writes", "checkpoint_blobs", "checkpoints"].map(
      (table) => `UPDATE ${table}
      SET thread_id = substr(thread_id, 1, instr(thread_id, ':')) || 'legacy-u001f:' ||
                      substr(thread_id, instr(thread_id, ':') + 2)
      WHERE substr(thread_id, instr(thread_id, ':') + 1, 1) = char(31)`,
    ),
  ],
  // v3: the transcript (messages older than the live tail) and its FTS5 recall index
  // (sqlite-transcript-sql.ts). Threads stored before keep their whole delta chain; their
  // old messages move out over their next turns.
  SCHEMA_V3,
  // v4: the transcript rows' conversation flag, for counting what a partial trim deleted.
  SCHEMA_V4,
  // v5: message ids, exactly once per messageId for the life of a thread (R11.2).
  SCHEMA_V5,
];

export const SQLITE_SCHEMA_VERSION = SCHEMA.length;

const ensured = new WeakSet<SqliteExec>();

/** Creates or upgrades the tables (once per SqliteExec object; cheap when up to date). */
export function ensureSqliteSchema(db: SqliteExec): void {
  if (ensured.has(db)) return;
  db.exec(
    "CREATE TABLE IF NOT EXISTS llamon_schema (v INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
  );
  const current = Number(
    db.exec("SELECT coalesce(max(v), 0) AS v FROM llamon_schema").toArray()[0]?.v ?? 0,
  );
  if (current < SCHEMA.length) {
    db.transaction(() => {
      for (let v = current + 1; v <= SCHEMA.length; v++) {
        for (const statement of SCHEMA[v - 1] ?? []) db.exec(statement);
        db.exec(`INSERT INTO llamon_schema (v, applied_at) VALUES (?, ${NOW})`, v);
      }
    });
  }
  ensured.add(db);
}

/** Runs a statement and returns its rows (always drained, so writes happen now). */
export function rows<T extends object = Record<string, unknown>>(
  db: SqliteExec,
  sql: string,
  ...params: SqliteValue[]
): T[] {
  return db.exec(sql, ...params).toArray() as T[];
}

/** BLOB values come back as ArrayBuffer (Durable Objects) or Uint8Array (node:sqlite). */
export function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  throw new LlamonError("INTERNAL", `expected a BLOB from SQLite, got ${typeof value}`);
}

const CHECKPOINT_COLUMNS =
  "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata";

/** ?1 storage thread id, ?2 checkpoint_ns, ?3 checkpoint_id or NULL for the latest. */
export const SQ_SELECT_CHECKPOINT = `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints
 WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND (?3 IS NULL OR checkpoint_id = ?3)
 ORDER BY checkpoint_id DESC LIMIT 1`;

/**
 * list(): ?1 storage thread id or NULL, ?2 agent prefix ("<agent>:") used when ?1 is NULL,
 * ?3 checkpoint_ns or NULL, ?4 checkpoint_id or NULL, ?5 "before" checkpoint_id or NULL,
 * ?6 limit (-1 = none; the metadata filter is applied by the caller).
 */
export const SQ_LIST_CHECKPOINTS = `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints
 WHERE (CASE WHEN ?1 IS NULL THEN substr(thread_id, 1, length(?2)) = ?2 ELSE thread_id = ?1 END)
   AND (?3 IS NULL OR checkpoint_ns = ?3)
   AND (?4 IS NULL OR checkpoint_id = ?4)
   AND (?5 IS NULL OR checkpoint_id < ?5)
 ORDER BY checkpoint_id DESC LIMIT ?6`;

/** ?1 storage id, ?2 ns, ?3 JSON object {channel: version-as-text} of the checkpoint. */
export const SQ_SELECT_BLOBS = `SELECT bl.channel, bl.type, bl.blob
  FROM json_each(?3) AS v
  JOIN checkpoint_blobs AS bl
    ON bl.thread_id = ?1 AND bl.checkpoint_ns = ?2 AND bl.channel = v.key AND bl.version = v.value`;

/** ?1 storage id, ?2 ns, ?3 checkpoint_id: pending writes in writesSortKey order. */
export const SQ_SELECT_WRITES = `SELECT task_id, channel, type, blob FROM checkpoint_writes
 WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id = ?3
 ORDER BY task_path, task_id, idx`;

/** ?1 storage id, ?2 ns, ?3 parent checkpoint_id, ?4 the TASKS channel: pre-v4 pending sends. */
export const SQ_SELECT_SENDS = `SELECT type, blob FROM checkpoint_writes
 WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id = ?3 AND channel = ?4
 ORDER BY task_path, task_id, idx`;

/** ?1 storage id: the root-namespace head (compare-and-set in put). */
export const SQ_SELECT_HEAD = `SELECT checkpoint_id FROM checkpoints
 WHERE thread_id = ?1 AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1`;

/** ?1 storage id, ?2 ns, ?3 channel, ?4 version, ?5 type, ?6 blob or NULL. */
export const SQ_INSERT_BLOB = `INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING`;

/** ?1 storage id, ?2 ns, ?3 id, ?4 parent id, ?5 checkpoint JSON, ?6 metadata JSON. */
export const SQ_UPSERT_CHECKPOINT = `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
VALUES (?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
DO UPDATE SET checkpoint = excluded.checkpoint, metadata = excluded.metadata`;

const WRITE_INSERT = `INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, blob)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)`;

/** Special writes (errors, interrupts, …) replace; ?1…?9 as the column list. */
export const SQ_UPSERT_WRITE = `${WRITE_INSERT}
DO UPDATE SET channel = excluded.channel, type = excluded.type, blob = excluded.blob, task_path = excluded.task_path`;

/** Ordinary writes are kept as first written (at-least-once safe). */
export const SQ_INSERT_WRITE = `${WRITE_INSERT} DO NOTHING`;

/** ?1 storage id. */
export const SQ_DELETE_THREAD = [
  "DELETE FROM checkpoint_writes WHERE thread_id = ?1",
  "DELETE FROM checkpoint_blobs WHERE thread_id = ?1",
  "DELETE FROM checkpoints WHERE thread_id = ?1",
] as const;

/** ?1 agent, ?2 thread_id: the thread's and the agent's memory rows. */
export const SQ_SELECT_MEMORY_ROWS = `SELECT thread_id, key, value FROM persistent_memory
 WHERE agent_id = ?1 AND thread_id IN (?2, '')`;

/** ?1 agent, ?2 thread_id ('' = agent level), ?3 key. */
export const SQ_SELECT_MEMORY_KEY = `SELECT value FROM persistent_memory
 WHERE agent_id = ?1 AND thread_id = ?2 AND key = ?3`;

/** ?1 agent, ?2 thread_id, ?3 key, ?4 value JSON — one row per key, never accumulating. */
export const SQ_UPSERT_MEMORY = `INSERT INTO persistent_memory (agent_id, thread_id, key, value)
VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (agent_id, thread_id, key) DO UPDATE SET value = excluded.value, updated_at = ${NOW}`;

/** ?1 agent, ?2 thread_id, ?3 key. */
export const SQ_DELETE_MEMORY_KEY =
  "DELETE FROM persistent_memory WHERE agent_id = ?1 AND thread_id = ?2 AND key = ?3";

/** ?1 agent, ?2 thread_id. */
export const SQ_DELETE_THREAD_MEMORY =
  "DELETE FROM persistent_memory WHERE agent_id = ?1 AND thread_id = ?2";

/** Keep only the newest checkpoint of a thread namespace (trim, R4.2): ?1 storage id, ?2 ns, ?3 kept id. */
export const SQ_PRUNE_OLDER = [
  "DELETE FROM checkpoint_writes WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id <> ?3",
  "DELETE FROM checkpoints WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id <> ?3",
] as const;
/** Blobs the kept checkpoint does not reference: ?1 storage id, ?2 ns, ?3 its channel_versions (JSON). */
export const SQ_PRUNE_UNREFERENCED_BLOBS = `DELETE FROM checkpoint_blobs
 WHERE thread_id = ?1 AND checkpoint_ns = ?2
   AND NOT EXISTS (SELECT 1 FROM json_each(?3) AS v WHERE v.key = checkpoint_blobs.channel AND CAST(v.value AS TEXT) = checkpoint_blobs.version)`;

/** The version (as stored in checkpoint_blobs) of channel `ch` at chain row `link`. */
const VERSION_AT = (link: string, ch: string) =>
  `(SELECT CAST(v.value AS TEXT) FROM json_each(${link}.versions) AS v WHERE v.key = ${ch})`;

/** Blob row `b` holds the value of channel `ch` stored at chain row `link` (not 'empty'). */
const STORED_AT = (b: string, link: string, ch: string) =>
  `${b}.thread_id = ?1 AND ${b}.checkpoint_ns = ?2 AND ${b}.channel = ${ch}
   AND ${b}.version = ${VERSION_AT(link, ch)} AND ${b}.type <> 'empty' AND ${b}.blob IS NOT NULL`;

/**
 * The ancestor walk that rebuilds LangGraph `DeltaChannel`s (`getDeltaChannelHistory`; the
 * thread's messages are one) in one statement: from the PARENT of the target checkpoint up
 * to, for every channel asked for, the nearest ancestor that stores the channel's value (a
 * blob other than 'empty' at that checkpoint's version of the channel: a snapshot, or a full
 * value written before the channel became a delta channel). `needed` (JSON array) is what is
 * still walked at a link; the step that finds the last one ends the walk.
 *
 * ?1 storage thread id, ?2 checkpoint_ns, ?3 target checkpoint_id or NULL for the latest,
 * ?4 channel names (JSON array of strings).
 *
 * Rows ordered by `depth` (1 = the target's parent) then `kind`: per link one kind 0 row (its
 * checkpoint_id), kind 1 rows for the channels first found stored there (channel, type, blob),
 * kind 2 rows for its pending writes of the channels still walked there (task_id, channel,
 * type, blob) in LangGraph's replay order (task_path, task_id, idx; BINARY = code point).
 */
export const SQ_SELECT_DELTA_HISTORY = `WITH RECURSIVE chain(depth, checkpoint_id, parent_checkpoint_id, versions, needed) AS (
  SELECT 1, p.checkpoint_id, p.parent_checkpoint_id,
         json_extract(p.checkpoint, '$.channel_versions'),
         (SELECT json_group_array(DISTINCT value) FROM json_each(?4))
    FROM (SELECT parent_checkpoint_id FROM checkpoints
           WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND (?3 IS NULL OR checkpoint_id = ?3)
           ORDER BY checkpoint_id DESC LIMIT 1) AS t
    JOIN checkpoints AS p
      ON p.thread_id = ?1 AND p.checkpoint_ns = ?2 AND p.checkpoint_id = t.parent_checkpoint_id
  UNION ALL
  SELECT c.depth + 1, p.checkpoint_id, p.parent_checkpoint_id,
         json_extract(p.checkpoint, '$.channel_versions'),
         (SELECT json_group_array(n.value) FROM json_each(c.needed) AS n
           WHERE NOT EXISTS (SELECT 1 FROM checkpoint_blobs AS b WHERE ${STORED_AT("b", "c", "n.value")}))
    FROM chain AS c
    JOIN checkpoints AS p
      ON p.thread_id = ?1 AND p.checkpoint_ns = ?2 AND p.checkpoint_id = c.parent_checkpoint_id
   WHERE c.needed <> '[]'
), links AS MATERIALIZED (
  SELECT depth, checkpoint_id, versions, needed FROM chain WHERE needed <> '[]'
)
SELECT l.depth, 0 AS kind, l.checkpoint_id, NULL AS task_path, NULL AS task_id, NULL AS idx,
       NULL AS channel, NULL AS type, NULL AS blob
  FROM links AS l
UNION ALL
SELECT l.depth, 1, l.checkpoint_id, NULL, NULL, NULL, s.channel, s.type, s.blob
  FROM links AS l
 CROSS JOIN json_each(l.needed) AS n
 CROSS JOIN checkpoint_blobs AS s
 WHERE ${STORED_AT("s", "l", "n.value")}
UNION ALL
SELECT l.depth, 2, l.checkpoint_id, w.task_path, w.task_id, w.idx, w.channel, w.type, w.blob
  FROM links AS l
 CROSS JOIN checkpoint_writes AS w
 WHERE w.thread_id = ?1 AND w.checkpoint_ns = ?2 AND w.checkpoint_id = l.checkpoint_id
   AND w.channel IN (SELECT value FROM json_each(l.needed))
ORDER BY depth, kind, task_path, task_id, idx`;
