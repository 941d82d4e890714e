/**
 * A local server that speaks Neon's SQL-over-HTTP protocol (what `@neondatabase/serverless`
 * `neon()` sends) in front of an ordinary Postgres (or the embedded PGlite), so the exact
 * Worker code path that talks to Neon in production runs here in dev and tests.
 *
 * Dev and tests only: the Worker bundle never imports this file.
 *
 * What it reproduces (DESIGN.md): POST /sql with `{query, params}` or `{queries:[…]}`;
 * the Neon-* headers; one statement per query (extended protocol); text output for every
 * type; a batch is one transaction with the requested isolation / read-only / deferrable
 * and rolls back on the first error; SQL errors are HTTP 400 with Neon's error body
 * (SQLSTATE `code`, `detail`, `constraint`, …); request bodies over the limit are 413,
 * responses over the limit 507; no session state survives a request (DISCARD ALL).
 * The user and password of Neon-Connection-String are authenticated and the statements run
 * as that role (./neon-roles.ts); an Authorization header is refused, as on Neon's password
 * path. Known difference: the host and database are the ones this proxy was started with —
 * inside Neon-Connection-String they are checked for shape but not used.
 *
 * Not in Neon: `GET /stats` answers the requests (round trips), statements and request bytes
 * served since start, in total, per user of the connection string (`by_user`) and per its
 * `application_name` parameter (`by_application`, for callers that share a role), so tests
 * and the bench can count a Worker's round trips from outside it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { beginStatement, ISOLATION_LEVELS, type IsolationLevel } from "../store/db.ts";
import {
  type JsonValue,
  neonRequestError,
  neonRequestStatus,
  parsePayload,
  type QueryData,
} from "./neon-protocol.ts";
import { createUpstream, pgliteStatementPlace, RAW_TEXT_TYPES } from "./neon-roles.ts";

export const NEON_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
export const NEON_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface NeonProxyOptions {
  /**
   * The Postgres the proxy forwards to, as a user that may read pg_authid (a superuser): the
   * proxy checks the connection string's password against it and connects as that role.
   */
  readonly upstreamDsn: string;
  /** 0 (default) picks a free port. Always binds 127.0.0.1. */
  readonly port?: number;
  /**
   * Upstream connections per role of the connection strings it serves (and up to 2 more to check
   * passwords); 1 for the embedded PGlite (single session). Default 5.
   */
  readonly poolSize?: number;
  readonly maxRequestBytes?: number;
  readonly maxResponseBytes?: number;
  /** Told once when the proxy cannot check passwords itself (see ./neon-roles.ts). */
  readonly onNotice?: (line: string) => void;
  /** Called once per HTTP request that reached the SQL stage (for round-trip counting). */
  readonly onRequest?: (info: ProxyRequestInfo) => void;
}

export interface ProxyRequestInfo {
  readonly batch: boolean;
  readonly statements: number;
  readonly requestBytes: number;
  /** Bytes of the answer's body (what the client received). */
  readonly responseBytes: number;
  readonly status: number;
  /**
   * Milliseconds from the parsed request to the database's answer: a pooled connection, the
   * statements (BEGIN to COMMIT for a batch).
   */
  readonly databaseMs: number;
}

export interface NeonProxy {
  /** e.g. http://127.0.0.1:4444/sql — give it to `neonConfig.fetchEndpoint`. */
  readonly url: string;
  readonly port: number;
  /** Requests served since start (or since `resetStats`). */
  readonly stats: {
    requests: number;
    statements: number;
    requestBytes: number;
    /** Bytes of the SQL answers (what the clients received from the database). */
    responseBytes: number;
  };
  resetStats(): void;
  close(): Promise<void>;
}

interface Headers {
  /** The user of the connection string (counted apart in `GET /stats`). */
  user: string;
  /** Its password: the role's, checked before anything runs. */
  password: string;
  /** Its `application_name` parameter, if any (counted apart in `GET /stats`). */
  application: string | undefined;
  arrayMode: boolean;
  isolationLevel: IsolationLevel | undefined;
  readOnly: boolean;
  deferrable: boolean;
}

export async function startNeonProxy(options: NeonProxyOptions): Promise<NeonProxy> {
  const maxRequest = options.maxRequestBytes ?? NEON_MAX_REQUEST_BYTES;
  const maxResponse = options.maxResponseBytes ?? NEON_MAX_RESPONSE_BYTES;
  const upstream = createUpstream({
    upstreamDsn: options.upstreamDsn,
    poolSize: options.poolSize ?? 5,
    onNotice: options.onNotice,
  });
  const stats = { requests: 0, statements: 0, requestBytes: 0, responseBytes: 0 };
  type Counters = typeof stats;
  /** The same counters per user of the connection string, and per its application_name. */
  const byUser = new Map<string, Counters>();
  const byApplication = new Map<string, Counters>();
  const countersOf = (map: Map<string, Counters>, key: string): Counters => {
    let counters = map.get(key);
    if (counters === undefined) {
      counters = { requests: 0, statements: 0, requestBytes: 0, responseBytes: 0 };
      map.set(key, counters);
    }
    return counters;
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, { message: `local neon proxy failure: ${String(error)}` });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "OPTIONS") return send(res, 204, undefined);
    if (path === "/stats" && req.method === "GET") {
      return send(res, 200, {
        ...stats,
        by_user: Object.fromEntries(byUser),
        by_application: Object.fromEntries(byApplication),
      });
    }
    if (path !== "/sql") return send(res, 404, { message: "not found: the endpoint is POST /sql" });
    if (req.method !== "POST") return send(res, 405, { message: "method not allowed: use POST" });

    let headers: Headers;
    let payload: ReturnType<typeof parsePayload>;
    let body: Buffer;
    try {
      headers = parseHeaders(req);
      body = await readBody(req, maxRequest);
      payload = parsePayload(body);
    } catch (error) {
      const status = neonRequestStatus(error);
      if (status !== undefined) return send(res, status, { message: (error as Error).message });
      throw error;
    }

    const statements = payload.kind === "single" ? 1 : payload.queries.length;
    const began = performance.now();
    const { status, result } = await execute(payload, headers);
    const databaseMs = performance.now() - began;
    stats.requests += 1;
    stats.statements += statements;
    stats.requestBytes += body.length;
    const mine = [countersOf(byUser, headers.user)];
    if (headers.application !== undefined)
      mine.push(countersOf(byApplication, headers.application));
    for (const counters of mine) {
      counters.requests += 1;
      counters.statements += statements;
      counters.requestBytes += body.length;
    }
    const extra: Record<string, string> = {};
    if (payload.kind === "batch" && status === 200) {
      if (headers.readOnly) extra["Neon-Batch-Read-Only"] = "true";
      if (headers.deferrable) extra["Neon-Batch-Deferrable"] = "true";
      if (headers.isolationLevel) extra["Neon-Batch-Isolation-Level"] = headers.isolationLevel;
    }
    const sent = send(res, status, result, extra);
    stats.responseBytes += sent;
    for (const counters of mine) counters.responseBytes += sent;
    options.onRequest?.({
      batch: payload.kind === "batch",
      statements,
      requestBytes: body.length,
      responseBytes: sent,
      status,
      databaseMs,
    });
  }

  async function execute(
    payload: ReturnType<typeof parsePayload>,
    headers: Headers,
  ): Promise<{ status: number; result: unknown }> {
    let client: pg.PoolClient;
    let setLocalRole: string | undefined;
    try {
      ({ client, setLocalRole } = await upstream.open(headers.user, headers.password));
    } catch (error) {
      const status = neonRequestStatus(error);
      if (status !== undefined) return { status, result: { message: (error as Error).message } };
      // Postgres refused the session (no LOGIN, no CONNECT, no such database): Neon answers
      // with the server's error, 400 for a wrong database name and 500 otherwise
      // (serverless/backend.rs ~459–468, sql_over_http.rs ~323–330).
      if (isDbError(error)) {
        return { status: error.code === "3D000" ? 400 : 500, result: errorBody(error) };
      }
      return {
        status: 500,
        result: { message: `Couldn't connect to compute node: ${String(error)}` },
      };
    }
    // A checked-out client has no 'error' listener of the pool's: when Postgres drops the
    // connection (restart, pg_terminate_backend) it would be an uncaught exception that
    // takes the whole process down. Record it, fail this request, drop the client.
    let lost: unknown;
    const onLost = (error: unknown) => {
      lost ??= error;
    };
    client.on("error", onLost);
    let destroy = false;
    const budget = { left: maxResponse, limit: maxResponse };
    try {
      const asRole = setLocalRole === undefined ? undefined : pg.escapeIdentifier(setLocalRole);
      if (payload.kind === "single") {
        const place = asRole === undefined ? "plain" : pgliteStatementPlace(payload.query.query);
        if (place !== "transaction") {
          // DISCARD ALL below ends a session-level SET ROLE.
          if (place === "session-role") await client.query(`SET ROLE ${asRole}`);
          return { status: 200, result: await runOne(client, payload.query, headers, budget) };
        }
      }
      // A batch, or on PGlite a single statement: one transaction, as the role from its start
      // (one simple-query message: BEGIN and the role together).
      const begin = payload.kind === "batch" ? beginStatement(headers) : "BEGIN";
      await client.query(asRole === undefined ? begin : `${begin}; SET LOCAL ROLE ${asRole}`);
      try {
        const queries = payload.kind === "batch" ? payload.queries : [payload.query];
        const results = [];
        for (const q of queries) results.push(await runOne(client, q, headers, budget));
        await client.query("COMMIT");
        return { status: 200, result: payload.kind === "batch" ? { results } : results[0] };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          destroy = true;
        });
        throw error;
      }
    } catch (error) {
      const status = neonRequestStatus(error);
      if (status !== undefined) {
        return { status, result: { message: (error as Error).message } };
      }
      if (lost !== undefined || isConnectionLoss(error)) {
        destroy = true;
        return {
          status: 500,
          result: { message: `connection to the database was lost: ${String(lost ?? error)}` },
        };
      }
      if (isDbError(error)) return { status: 400, result: errorBody(error) };
      destroy = true;
      return { status: 500, result: { message: String(error) } };
    } finally {
      // No session state may leak into the next request (SET, temp tables, prepared
      // statements, an open transaction): reset, or drop the connection if that fails.
      if (!destroy && lost === undefined) {
        await client.query("DISCARD ALL").catch(() => {
          destroy = true;
        });
      }
      const broken = destroy || lost !== undefined;
      client.release(broken);
      // A dropped client may still report its socket closing: keep the listener on it then.
      if (!broken) client.off("error", onLost);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/sql`,
    port,
    stats,
    resetStats() {
      stats.requests = 0;
      stats.statements = 0;
      stats.requestBytes = 0;
      stats.responseBytes = 0;
      byUser.clear();
      byApplication.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.end();
    },
  };
}

async function runOne(
  client: pg.PoolClient,
  q: QueryData,
  headers: Headers,
  budget: { left: number; readonly limit: number },
): Promise<unknown> {
  const result = await client.query({
    text: q.query,
    values: q.params,
    rowMode: "array",
    // Extended protocol even without parameters: a string with two statements is an
    // error ("cannot insert multiple commands into a prepared statement"), as on Neon.
    queryMode: "extended",
    types: RAW_TEXT_TYPES,
  } as pg.QueryArrayConfig);
  const rows = result.rows as (string | null)[][];
  for (const row of rows) {
    for (const cell of row) if (cell !== null) budget.left -= Buffer.byteLength(cell);
    if (budget.left < 0)
      throw neonRequestError(507, `response is too large (max is ${budget.limit} bytes)`);
  }
  const arrayMode = q.arrayMode ?? headers.arrayMode;
  const names = result.fields.map((f) => f.name);
  return {
    command: result.command,
    rowCount: result.rowCount,
    rows: arrayMode
      ? rows
      : rows.map((row) => Object.fromEntries(row.map((v, i) => [names[i], v]))),
    fields: result.fields.map((f) => ({
      name: f.name,
      dataTypeID: f.dataTypeID,
      tableID: f.tableID,
      columnID: f.columnID,
      dataTypeSize: f.dataTypeSize,
      dataTypeModifier: f.dataTypeModifier,
      format: "text",
    })),
    rowAsArray: arrayMode,
  };
}

function parseHeaders(req: IncomingMessage): Headers {
  const conn = req.headers["neon-connection-string"];
  if (typeof conn !== "string" || conn === "") {
    throw neonRequestError(400, "invalid header: neon-connection-string");
  }
  const { user, password, application } = checkConnectionString(conn, req.headers.authorization);
  if (req.headers["neon-raw-text-output"] !== "true") {
    throw neonRequestError(
      400,
      "this local Neon proxy serves only raw text output (header Neon-Raw-Text-Output: true, which @neondatabase/serverless always sends)",
    );
  }
  const iso = req.headers["neon-batch-isolation-level"];
  let isolationLevel: IsolationLevel | undefined;
  if (iso !== undefined) {
    if (!(ISOLATION_LEVELS as readonly string[]).includes(String(iso))) {
      throw neonRequestError(400, "invalid isolation level");
    }
    isolationLevel = iso as IsolationLevel;
  }
  return {
    user,
    password,
    application,
    arrayMode: req.headers["neon-array-mode"] === "true",
    isolationLevel,
    readOnly: req.headers["neon-batch-read-only"] === "true",
    deferrable: req.headers["neon-batch-deferrable"] === "true",
  };
}

/**
 * Neon's checks on the connection string, in Neon's order (serverless/http_util.rs
 * `get_conn_info`, ~142–215): shape, user, credentials, then a host *name* (not an IP).
 */
function checkConnectionString(
  conn: string,
  authorization: string | undefined,
): { user: string; password: string; application: string | undefined } {
  let url: URL;
  try {
    url = new URL(conn);
  } catch {
    throw neonRequestError(400, "invalid connection string: relative URL without a base");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw neonRequestError(400, "incorrect scheme");
  }
  if (url.username === "") throw neonRequestError(400, "missing username");
  let user: string;
  try {
    user = decodeURIComponent(url.username);
  } catch {
    throw neonRequestError(400, "invalid username: not UTF-8 once percent-decoded");
  }
  // The password path: Neon's SQL-over-HTTP endpoint accepts no JWTs, so an Authorization
  // header fails like a missing password, even when the string has one (http_util.rs ~179–181,
  // ~202–205; error.rs `Credentials::Password`).
  if (authorization !== undefined || url.password === "") {
    throw neonRequestError(400, "missing authentication credentials: required password");
  }
  const host = url.hostname;
  if (host === "" || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[")) {
    throw neonRequestError(
      400,
      "missing hostname (Neon needs a host name, not an IP address: use localhost instead of 127.0.0.1)",
    );
  }
  return {
    user,
    // Never an error here (Neon decodes it to bytes): a malformed one is compared as written.
    password: decodeOr(url.password),
    application: url.searchParams.get("application_name") ?? undefined,
  };
}

function decodeOr(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Bodies beyond this are not even drained: the connection is dropped. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () => neonRequestError(413, `request is too large (max is ${limit} bytes)`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Keep reading (and discarding) an oversize body so the client gets the 413 instead of
    // a reset connection, up to a hard limit.
    if (size > DRAIN_LIMIT) {
      req.destroy();
      throw tooLarge();
    }
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  if (size > limit) throw tooLarge();
  return Buffer.concat(chunks);
}

const DB_ERROR_FIELDS = [
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "severity",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

/** SQLSTATEs of a server that ended the session: admin shutdown, crash, cannot connect now. */
const CONNECTION_LOSS = /^(08|57P0[1-3])/;

function isConnectionLoss(error: unknown): boolean {
  return isDbError(error) && CONNECTION_LOSS.test(error.code ?? "");
}

function isDbError(error: unknown): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError;
}

function errorBody(error: pg.DatabaseError): Record<string, JsonValue> {
  const body: Record<string, JsonValue> = { message: error.message };
  for (const key of DB_ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[key];
    body[key] = typeof value === "string" ? value : null;
  }
  return body;
}

/** Answers the request; returns the bytes of the body sent. */
function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): number {
  if (res.headersSent) return 0;
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "*",
    ...extraHeaders,
  });
  res.end(text);
  return Buffer.byteLength(text);
}
