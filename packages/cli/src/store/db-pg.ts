/**
 * Transport B: node-postgres — what Node-side tools (CLI migrate/prune, the dev proxy,
 * tests) use. Never imported by the Worker bundle.
 *
 * Pooler safety (R10.1): statements use the extended protocol unnamed by default, so
 * nothing outlives a transaction and PgBouncer in transaction mode works. Named prepared
 * statements are used only when `statementCacheSize` (MEMORY_PG_STATEMENT_CACHE_SIZE) > 0.
 */
import { LlamonError } from "llamon/errors";
import {
  type BatchOptions,
  beginStatement,
  type Db,
  type QueryResult,
  type SqlParam,
  type SqlStatement,
  toDbError,
  toQueryResult,
} from "llamon/node";
import pg from "pg";

export interface PgDbOptions {
  readonly connectionString: string;
  /** Pool size; Node tools need very few connections. Default 2. */
  readonly max?: number;
  /**
   * How many distinct statements may be prepared by name per connection. 0 (the default)
   * prepares nothing by name: required behind a transaction-mode pooler.
   */
  readonly statementCacheSize?: number;
  /** Idle connections close after this many ms (default 10 s), so idle tools hold none. */
  readonly idleTimeoutMillis?: number;
}

/** Read MEMORY_PG_STATEMENT_CACHE_SIZE (a non-negative integer; default 0). */
export function statementCacheSizeFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.MEMORY_PG_STATEMENT_CACHE_SIZE;
  if (raw === undefined || raw.trim() === "") return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `MEMORY_PG_STATEMENT_CACHE_SIZE must be a whole number ≥ 0 (0 disables named prepared statements for transaction pooling), got "${raw}"`,
    );
  }
  return n;
}

export function createPgDb(options: PgDbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 2,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 10_000,
    allowExitOnIdle: true,
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on("error", () => {});
  const cacheSize = options.statementCacheSize ?? 0;
  const named = new Map<string, string>();

  function config(text: string, params: readonly SqlParam[] = []): pg.QueryConfig {
    let name: string | undefined;
    if (cacheSize > 0) {
      name = named.get(text);
      if (name === undefined && named.size < cacheSize) {
        name = `llamon_${named.size}`;
        named.set(text, name);
      }
    }
    return {
      text,
      values: params as unknown[],
      // Extended protocol even without params: one statement per query, like Neon.
      queryMode: "extended",
      ...(name === undefined ? {} : { name }),
    } as pg.QueryConfig;
  }

  return {
    transport: "node-postgres",
    async query<R>(text: string, params?: readonly SqlParam[]): Promise<QueryResult<R>> {
      try {
        return toQueryResult<R>(await pool.query(config(text, params)));
      } catch (error) {
        throw toDbError(error, "node-postgres");
      }
    },
    async batch(
      statements: readonly SqlStatement[],
      options: BatchOptions = {},
    ): Promise<QueryResult[]> {
      if (statements.length === 0) return [];
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw toDbError(error, "node-postgres");
      }
      // A checked-out client has no 'error' listener of the pool's: a dropped connection
      // (restart, pg_terminate_backend) would be an uncaught exception. Note it instead;
      // the statement in flight fails on its own, and the client is discarded.
      let broken = false;
      const onLost = () => {
        broken = true;
      };
      client.on("error", onLost);
      try {
        await client.query(beginStatement(options));
        const results: QueryResult[] = [];
        for (const s of statements) {
          results.push(toQueryResult(await client.query(config(s.text, s.params))));
        }
        await client.query("COMMIT");
        return results;
      } catch (error) {
        try {
          if (!broken) await client.query("ROLLBACK");
        } catch {
          broken = true;
        }
        throw toDbError(error, "node-postgres");
      } finally {
        client.release(broken);
        // A discarded client may still report its socket closing: keep the listener then.
        if (!broken) client.off("error", onLost);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
