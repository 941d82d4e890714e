/**
 * Transport A: Neon's serverless driver over HTTP — what the Worker uses. Every `query`
 * and every `batch` is exactly one HTTP request; nothing is held between requests, so it
 * is safe behind Neon's pooler (R10.1).
 *
 * Deadline: the driver sets none, so each request carries its own deadline signal (aborted
 * after timeoutMs, its timer cleared when the request settles) through the driver's
 * per-request `fetchOptions` (merged into the `fetch` init by `sql.query(text, params, opts)`
 * and `sql.transaction(qs, opts)`).
 * A `query` gets one deadline; a `batch` — one HTTP request — gets one for the whole
 * request. When it fires the caller gets DB_UNAVAILABLE, never a held request.
 *
 * The driver sends with the platform's `fetch` (workerd's in Workers, undici's in Node), or
 * with the application's own `neonConfig.fetchFunction` when it set one.
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
import { compactSql } from "./sql-compact.ts";

export interface NeonDbOptions {
  /** postgresql://user:password@host/db — use a host name, not an IP (Neon rejects IPs). */
  readonly connectionString: string;
  /**
   * Where to send queries instead of Neon's endpoint, e.g. the local Neon-protocol proxy
   * `http://127.0.0.1:4444/sql`. Global to the driver (one per isolate).
   */
  readonly fetchEndpoint?: string | undefined;
  /**
   * Deadline of each request (one `query`, or one whole `batch`) in milliseconds: a whole
   * number from 1 to 600000. Default 10000. In the Worker: MEMORY_DB_TIMEOUT_MS.
   */
  readonly timeoutMs?: number | undefined;
}

export const DEFAULT_DB_TIMEOUT_MS = 10_000;
export const MAX_DB_TIMEOUT_MS = 600_000;

/**
 * Why `value` is not a valid deadline (undefined when it is): a whole number of
 * milliseconds from 1 to MAX_DB_TIMEOUT_MS. `name` is what the user set (option or
 * variable); `raw` is what they wrote, shown in the message (default: `value`).
 */
export function dbTimeoutProblem(
  value: unknown,
  name: string,
  raw: unknown = value,
): string | undefined {
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MAX_DB_TIMEOUT_MS
  ) {
    return undefined;
  }
  const shown = typeof raw === "string" ? JSON.stringify(raw) : String(raw);
  return `${name} must be a whole number of milliseconds from 1 to ${MAX_DB_TIMEOUT_MS} (the deadline of each database request; default ${DEFAULT_DB_TIMEOUT_MS}), got ${shown}`;
}

/**
 * One request's deadline: a signal that aborts after `ms`, and `clear()` once the request
 * settled. (`AbortSignal.timeout` would leave a timer pending for the whole deadline after
 * every request, ten seconds by default, and costs more to make.)
 */
function startDeadline(ms: number): { readonly signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("The operation timed out.", "TimeoutError")),
    ms,
  );
  // In Node, a pending deadline does not keep the process alive (workerd has no unref).
  (timer as { unref?: () => void }).unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * The driver's fetchEndpoint is global. Endpoints are kept per database host, so several
 * databases (one local, one real) can be used in one isolate; other hosts go to Neon.
 */
const endpointsByHost = new Map<string, string>();
const neonDefaultEndpoint = neonConfig.fetchEndpoint;
/**
 * The last connection string routed, where to, and the router installed then: a Db per
 * request routes the same one again, which changes nothing while that router is in place.
 */
let lastRouted:
  | { readonly connectionString: string; readonly endpoint: string; readonly router: unknown }
  | undefined;

function routeToEndpoint(connectionString: string, endpoint: string): void {
  if (
    lastRouted?.connectionString === connectionString &&
    lastRouted.endpoint === endpoint &&
    neonConfig.fetchEndpoint === lastRouted.router
  ) {
    return;
  }
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
  lastRouted = { connectionString, endpoint, router: neonConfig.fetchEndpoint };
}

export function createNeonDb(options: NeonDbOptions): Db {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS;
  const problem = dbTimeoutProblem(timeoutMs, "timeoutMs");
  if (problem !== undefined) throw new LlamonError("CONFIG_INVALID", problem);
  if (options.fetchEndpoint !== undefined && options.fetchEndpoint !== "") {
    routeToEndpoint(options.connectionString, options.fetchEndpoint);
  }
  const sql = neon(options.connectionString, { fullResults: true });
  /** Statements of a batch carry no options: the driver ignores per-statement fetchOptions. */
  const statement = (text: string, params: readonly SqlParam[] = []) =>
    sql.query(compactSql(text), params as unknown[]);

  /** The request's own deadline; a failure after it fired is reported as the deadline. */
  function failure(error: unknown, deadline: AbortSignal): LlamonError {
    if (deadline.aborted && !(error instanceof LlamonError)) {
      return new LlamonError(
        "DB_UNAVAILABLE",
        `the database did not answer within ${timeoutMs} ms (timeoutMs; MEMORY_DB_TIMEOUT_MS in the Worker); nothing was confirmed — a write may or may not have committed. Check that the database (or the local Neon proxy) is reachable, or raise the deadline.`,
        { cause: error, details: { timeoutMs, timedOut: true } },
      );
    }
    return toDbError(error, "neon-http");
  }

  return {
    transport: "neon-http",
    async query<R>(text: string, params: readonly SqlParam[] = []): Promise<QueryResult<R>> {
      const deadline = startDeadline(timeoutMs);
      try {
        return toQueryResult<R>(
          await sql.query(compactSql(text), params as unknown[], {
            fetchOptions: { signal: deadline.signal },
          }),
        );
      } catch (error) {
        throw failure(error, deadline.signal);
      } finally {
        deadline.clear();
      }
    },
    async batch(
      statements: readonly SqlStatement[],
      options: BatchOptions = {},
    ): Promise<QueryResult[]> {
      if (statements.length === 0) return [];
      const deadline = startDeadline(timeoutMs);
      try {
        const results = await sql.transaction(
          statements.map((s) => statement(s.text, s.params)),
          {
            fetchOptions: { signal: deadline.signal },
            ...(options.isolationLevel === undefined
              ? {}
              : { isolationLevel: options.isolationLevel }),
            ...(options.readOnly === undefined ? {} : { readOnly: options.readOnly }),
            ...(options.deferrable === undefined ? {} : { deferrable: options.deferrable }),
          },
        );
        return results.map((r) => toQueryResult(r));
      } catch (error) {
        throw failure(error, deadline.signal);
      } finally {
        deadline.clear();
      }
    },
    async close() {},
  };
}
