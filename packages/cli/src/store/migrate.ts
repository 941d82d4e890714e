/**
 * Applies the SQL files in `migrations/` to a Postgres database (Node-side: CLI, dev, tests).
 *
 * Everything runs in ONE transaction on ONE connection, serialised by a transaction-scoped
 * advisory lock: two processes starting together both succeed (the second waits, then finds
 * everything applied), a failing file leaves nothing behind, and no session state outlives
 * the transaction, so it is safe behind PgBouncer / Neon's pooler in transaction mode (R10.1).
 * Budget: one connection for the duration of the run.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { LlamonError } from "llamon/errors";
import {
  CREATE_MIGRATIONS_TABLE,
  INSERT_MIGRATION,
  MIGRATION_LOCK,
  redactDsn,
  SELECT_APPLIED_MIGRATIONS,
} from "llamon/node";
import pg from "pg";

export interface MigrationFile {
  /** File name, e.g. "0001_langgraph_checkpoints.sql". */
  name: string;
  sql: string;
  /** sha256 hex of `sql`. */
  checksum: string;
}

export interface MigrateResult {
  /** Files applied by this run, in order. */
  applied: string[];
  /** Files that were already applied before this run. */
  alreadyApplied: string[];
}

export interface MigrateOptions {
  connectionString: string;
  /** Folder of *.sql files; default: the package's `migrations/`. */
  dir?: string;
  /** Receives one line per applied migration. */
  log?: (line: string) => void;
}

const NAME = /^\d{4}_[a-z0-9_]+\.sql$/;
const LOCK_KEY = advisoryLockKey("llamon:migrate");
const CONNECT_TIMEOUT_MS = 10_000;

/** llamon's `migrations/` folder: the SQL ships with the runtime package the CLI imports. */
export function defaultMigrationsDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve("llamon/package.json")), "migrations");
}

/** The *.sql files of `dir`, sorted by name. Bad or duplicate-numbered names → CONFIG_INVALID. */
export async function loadMigrations(dir = defaultMigrationsDir()): Promise<MigrationFile[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (cause) {
    throw new LlamonError("CONFIG_INVALID", `cannot read the migrations folder ${dir}`, {
      cause,
      details: { dir },
    });
  }
  const names = entries.filter((n) => n.endsWith(".sql")).sort();
  const seen = new Map<string, string>();
  for (const name of names) {
    if (!NAME.test(name)) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `migration file name "${name}" in ${dir} is invalid: use 4 digits, an underscore and lower-case words, e.g. 0003_add_index.sql`,
        { details: { file: name, dir } },
      );
    }
    const prefix = name.slice(0, 4);
    const other = seen.get(prefix);
    if (other !== undefined) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `migration files "${other}" and "${name}" share the number ${prefix}: renumber the newer one`,
        { details: { file: name, dir } },
      );
    }
    seen.set(prefix, name);
  }
  return Promise.all(
    names.map(async (name) => {
      // CRLF checkouts and BOMs must not change the checksum of an applied file.
      const sql = (await readFile(join(dir, name), "utf8"))
        .replace(/^\uFEFF/, "")
        .replace(/\r\n/g, "\n");
      return { name, sql, checksum: sha256(sql) };
    }),
  );
}

/** Apply every migration not yet recorded in `llamon_migrations`, atomically. */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const files = await loadMigrations(options.dir);
  const log = options.log ?? (() => {});
  const client = new pg.Client({
    connectionString: options.connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A dropped connection also surfaces through the pending query; don't crash the process.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (cause) {
    await client.end().catch(() => {});
    throw new LlamonError(
      "DB_UNAVAILABLE",
      `cannot connect to ${redactDsn(options.connectionString)} to run migrations: ${errorMessage(cause)}`,
      { cause, details: { sqlstate: sqlstateOf(cause) } },
    );
  }
  let current: string | undefined;
  try {
    // READ COMMITTED explicitly: each statement must see what a lock holder before us committed,
    // even when the server's default isolation is stricter.
    await client.query("BEGIN ISOLATION LEVEL READ COMMITTED");
    await client.query(MIGRATION_LOCK, [LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const rows = await client.query<{ name: string; checksum: string }>(SELECT_APPLIED_MIGRATIONS);
    const applied = new Map(rows.rows.map((r) => [r.name, r.checksum]));
    checkUnchanged(files, applied);
    for (const name of applied.keys()) {
      if (!files.some((f) => f.name === name)) {
        log(`migrate: ${name} is applied but not in the migrations folder (newer llamon?)`);
      }
    }
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const file of files) {
      if (applied.has(file.name)) {
        result.alreadyApplied.push(file.name);
        continue;
      }
      current = file.name;
      await client.query(file.sql);
      await client.query(INSERT_MIGRATION, [file.name, file.checksum]);
      result.applied.push(file.name);
    }
    current = undefined;
    await client.query("COMMIT");
    for (const name of result.applied) log(`migrate: applied ${name}`);
    return result;
  } catch (cause) {
    await client.query("ROLLBACK").catch(() => {});
    throw toMigrationError(cause, current, options.connectionString);
  } finally {
    await client.end().catch(() => {});
  }
}

function checkUnchanged(files: MigrationFile[], applied: Map<string, string>): void {
  for (const file of files) {
    const checksum = applied.get(file.name);
    if (checksum !== undefined && checksum !== file.checksum) {
      throw new LlamonError(
        "MIGRATION_FAILED",
        `migration ${file.name} was changed after it was applied (checksum ${file.checksum} on disk, ${checksum} in llamon_migrations). Applied migrations must never be edited: restore the file and add a new migration file instead.`,
        { details: { file: file.name } },
      );
    }
  }
}

function toMigrationError(cause: unknown, file: string | undefined, dsn: string): LlamonError {
  if (cause instanceof LlamonError) return cause;
  const sqlstate = sqlstateOf(cause);
  if (sqlstate === undefined) {
    // No SQLSTATE: the connection broke, not the SQL.
    return new LlamonError(
      "DB_UNAVAILABLE",
      `lost the connection to ${redactDsn(dsn)} while migrating${file ? ` (${file})` : ""}: ${errorMessage(cause)}. Nothing was applied.`,
      { cause, details: { file } },
    );
  }
  const what = file === undefined ? "migration bookkeeping" : `migration ${file}`;
  return new LlamonError(
    "MIGRATION_FAILED",
    `${what} failed: ${errorMessage(cause)}. Nothing was applied.`,
    { cause, details: { file, sqlstate } },
  );
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A fixed signed 64-bit key: the first 8 bytes of sha256(label). */
function advisoryLockKey(label: string): string {
  return BigInt.asIntN(64, BigInt(`0x${sha256(label).slice(0, 16)}`)).toString();
}

function sqlstateOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = error.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function errorMessage(error: unknown): string {
  // Node reports a refused "localhost" (::1 and 127.0.0.1) as an AggregateError with no message.
  if (error instanceof AggregateError && error.message === "") {
    return error.errors.map(errorMessage).join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}
