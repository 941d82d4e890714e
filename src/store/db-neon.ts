/**
 * Transport A: Neon's serverless driver over HTTP — what the Worker uses. Every `query`
 * and every `batch` is exactly one HTTP request; nothing is held between requests, so it
 * is safe behind Neon's pooler (R10.1).
 */
import { neon, neonConfig } from "@neondatabase/serverless";
import { LlamonError } from "../errors.ts";
import {
  type BatchOptions,
  type Db,
  type QueryResult,
  type SqlParam,
  type SqlStatement,
  toDbError,
  toQueryResult,
} from "./db.ts";

export interface NeonDbOptions {
  /** postgresql://user:password@host/db — use a host name, not an IP (Neon rejects IPs). */
  readonly connectionString: string;
  /**
   * Where to send queries instead of Neon's endpoint, e.g. the local Neon-protocol proxy
   * `http://127.0.0.1:4444/sql`. Global to the driver (one per isolate).
   */
  readonly fetchEndpoint?: string | undefined;
}

/**
 * The driver's fetchEndpoint is global. Endpoints are kept per database host, so several
 * databases (one local, one real) can be used in one isolate; other hosts go to Neon.
 */
const endpointsByHost = new Map<string, string>();
const neonDefaultEndpoint = neonConfig.fetchEndpoint;

function routeToEndpoint(connectionString: string, endpoint: string): void {
  let host: string;
  try {
    host = new URL(connectionString).hostname;
  } catch {
    throw new LlamonError(
      "CONFIG_INVALID",
      "POSTGRES_MEMORY_DSN is not a valid postgresql:// URL (check for unescaped characters in the password)",
    );
  }
  endpointsByHost.set(host, endpoint);
  neonConfig.fetchEndpoint = (h, port, opts) => {
    const local = endpointsByHost.get(h);
    if (local !== undefined) return local;
    return typeof neonDefaultEndpoint === "function"
      ? neonDefaultEndpoint(h, port, opts)
      : neonDefaultEndpoint;
  };
}

export function createNeonDb(options: NeonDbOptions): Db {
  if (options.fetchEndpoint !== undefined && options.fetchEndpoint !== "") {
    routeToEndpoint(options.connectionString, options.fetchEndpoint);
  }
  const sql = neon(options.connectionString, { fullResults: true });
  const run = (text: string, params: readonly SqlParam[] = []) =>
    sql.query(text, params as unknown[]);

  return {
    transport: "neon-http",
    async query<R>(text: string, params?: readonly SqlParam[]): Promise<QueryResult<R>> {
      try {
        return toQueryResult<R>(await run(text, params));
      } catch (error) {
        throw toDbError(error, "neon-http");
      }
    },
    async batch(
      statements: readonly SqlStatement[],
      options: BatchOptions = {},
    ): Promise<QueryResult[]> {
      if (statements.length === 0) return [];
      try {
        const results = await sql.transaction(
          statements.map((s) => run(s.text, s.params)),
          {
            ...(options.isolationLevel === undefined
              ? {}
              : { isolationLevel: options.isolationLevel }),
            ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
            ...(options.deferrable === undefined ? {} : { deferrable: options.deferrable }),
          },
        );
        return results.map((r) => toQueryResult(r));
      } catch (error) {
        throw toDbError(error, "neon-http");
      }
    },
    async close() {},
  };
}
