/**
 * A local server that speaks Neon's SQL-over-HTTP protocol (what `@neondatabase/serverless`
 * `neon()` sends) in front of an ordinary Postgres (or the embedded PGlite), so the exact
 * Worker code path that talks to Neon in production runs here in dev and tests.
 *
 * Dev and tests only: the Worker bundle never imports this file.
 *
 * It follows Neon's own proxy (neondatabase/neon proxy/src/serverless/sql_over_http.rs and
 * mod.rs; cited where the behaviour is not obvious): POST /sql with `{query, params}` or
 * `{queries:[…]}`; the Neon-* headers; one statement per query (extended protocol); raw text
 * or typed JSON output; a batch is one transaction with the requested isolation / read-only /
 * deferrable, rolled back on the first error; every failure is Neon's 17-key error body
 * (SQL errors and lost connections HTTP 400 with the SQLSTATE); request bodies over the limit
 * are 413, answers whose JSON outgrows the limit 507; a client that goes away cancels its
 * statement and its batch never commits; no session state survives a request (DISCARD ALL).
 * The user and password of Neon-Connection-String are authenticated and the statements run
 * as that role (./neon-roles.ts); an Authorization header is refused, as on Neon's password
 * path. The differences that remain are listed in docs/architecture.md ("The local Neon").
 *
 * Not in Neon: `GET /stats` answers the requests (round trips), statements and request bytes
 * served since start, in total, per user of the connection string (`by_user`) and per its
 * `application_name` parameter (`by_application`, for callers that share a role), so tests
 * and the bench can count a Worker's round trips from outside it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { beginStatement, ISOLATION_LEVELS, type IsolationLevel } from "llamon/node";
import pg from "pg";
import { JsonAnswer, JsonConversionError, writeResult } from "./neon-answer.ts";
import {
  neonErrorBody,
  neonRequestError,
  neonRequestStatus,
  type Payload,
  parsePayload,
  type QueryData,
} from "./neon-protocol.ts";
import { createUpstream, pgliteStatementPlace } from "./neon-roles.ts";
import { ArrayTypes, cancelRunningStatement, isCancellable } from "./neon-upstream.ts";

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
  /** The client went away before its answer: the statement was cancelled, a batch rolled back. */
  readonly clientGone: boolean;
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
  rawOutput: boolean;
  isolationLevel: IsolationLevel | undefined;
  readOnly: boolean;
  deferrable: boolean;
}

/** Every column comes back as the text Postgres sent; the answer is written from that text. */
const RAW_TEXT_TYPES = { getTypeParser: () => (value: string) => value };

/** Neon's answer to a request whose client went away (sql_over_http.rs ~136–153). */
const CANCELLED = { message: "Query cancelled, connection was terminated", code: "08P01" };

/** How long a cancelled statement may take to end before its connection is dropped (Neon: 100 ms, ~703). */
const CANCEL_GRACE_MS = 100;

/** Neon answers any other path or method with this JSON string (mod.rs ~521–528). */
const NOT_SUPPORTED = "query is not supported";

type Outcome = { status: number; body: string | object };

export async function startNeonProxy(options: NeonProxyOptions): Promise<NeonProxy> {
  const maxRequest = options.maxRequestBytes ?? NEON_MAX_REQUEST_BYTES;
  const maxResponse = options.maxResponseBytes ?? NEON_MAX_RESPONSE_BYTES;
  const upstream = createUpstream({
    upstreamDsn: options.upstreamDsn,
    poolSize: options.poolSize ?? 5,
    onNotice: options.onNotice,
  });
  const arrayTypes = new ArrayTypes();
  /** Whether the upstream's statements can be cancelled (a server, not PGlite); learnt once. */
  let cancellable: Promise<boolean> | undefined;
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
    // Every answer carries a request id (mod.rs ~370–374). Neon's cloud proxy makes its own;
    // only its local_proxy takes the client's Neon-Request-Id, so this one does not.
    res.setHeader("Neon-Request-Id", randomUUID());
    handle(req, res).catch((error: unknown) => {
      send(res, 500, neonErrorBody(`local neon proxy failure: ${String(error)}`));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/stats" && req.method === "GET") {
      return send(
        res,
        200,
        {
          ...stats,
          by_user: Object.fromEntries(byUser),
          by_application: Object.fromEntries(byApplication),
        },
        {},
        false,
      );
    }
    if (path === "/sql" && req.method === "OPTIONS") {
      // mod.rs ~479–490.
      res.writeHead(200, {
        Allow: "OPTIONS, POST",
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers":
          "Authorization, Neon-Connection-String, Neon-Raw-Text-Output, Neon-Array-Mode, Neon-Pool-Opt-In, Neon-Batch-Read-Only, Neon-Batch-Isolation-Level",
        "Access-Control-Max-Age": "86400",
      });
      res.end();
      return;
    }
    if (path !== "/sql" || req.method !== "POST") {
      req.resume();
      return send(res, 400, JSON.stringify(NOT_SUPPORTED), {}, false);
    }

    // The client going away cancels the request (mod.rs ~318–345): its statement is
    // cancelled and an open batch never commits.
    const gone = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) gone.abort();
    });

    let headers: Headers;
    let payload: Payload;
    let body: Buffer;
    try {
      headers = parseHeaders(req);
      body = await readBody(req, maxRequest);
      payload = parsePayload(body);
    } catch (error) {
      const status = neonRequestStatus(error);
      if (status !== undefined) return send(res, status, neonErrorBody((error as Error).message));
      throw error;
    }

    const statements = payload.kind === "single" ? 1 : payload.queries.length;
    const began = performance.now();
    const { status, body: answer } = await execute(payload, headers, gone.signal);
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
    const sent = send(res, status, answer, extra);
    stats.responseBytes += sent;
    for (const counters of mine) counters.responseBytes += sent;
    options.onRequest?.({
      batch: payload.kind === "batch",
      statements,
      requestBytes: body.length,
      responseBytes: sent,
      status,
      databaseMs,
      clientGone: gone.signal.aborted,
    });
  }

  async function execute(payload: Payload, headers: Headers, gone: AbortSignal): Promise<Outcome> {
    let client: pg.PoolClient;
    let setLocalRole: string | undefined;
    let check: (() => Promise<void>) | undefined;
    try {
      ({ client, setLocalRole, check } = await upstream.open(headers.user, headers.password));
    } catch (error) {
      const status = neonRequestStatus(error);
      if (status !== undefined) return { status, body: neonErrorBody((error as Error).message) };
      // Postgres refused the session (no LOGIN, no CONNECT, no such database): a database that
      // does not exist is the user's mistake (400), anything else the compute's (500)
      // (backend.rs HttpConnError::get_error_kind ~459–470).
      if (isDbError(error)) {
        return { status: error.code === "3D000" ? 400 : 500, body: neonErrorBody("", error) };
      }
      return {
        status: 500,
        body: neonErrorBody(`Couldn't connect to compute node: ${String(error)}`),
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
    const session: Session = { client, destroy: false, gone, cancellable: false };
    try {
      cancellable ??= isCancellable(client).catch(() => {
        cancellable = undefined;
        return true;
      });
      session.cancellable = await cancellable;
      if (gone.aborted) return { status: 400, body: CANCELLED };
      try {
        await check?.();
      } catch (error) {
        // A refused login on PGlite answers as a server's refused connection does (above).
        if (!isDbError(error) || lost !== undefined) throw error;
        return { status: error.code === "3D000" ? 400 : 500, body: neonErrorBody("", error) };
      }
      const answer = new JsonAnswer();
      const asRole = setLocalRole === undefined ? undefined : pg.escapeIdentifier(setLocalRole);
      if (payload.kind === "single") {
        const place = asRole === undefined ? "plain" : pgliteStatementPlace(payload.query.query);
        if (place !== "transaction") {
          // DISCARD ALL below ends a session-level SET ROLE.
          if (place === "session-role") await run(session, `SET ROLE ${asRole}`);
          await runOne(session, payload.query, headers, answer);
          return { status: 200, body: answer.text() };
        }
      }
      // A batch, or on PGlite a single statement: one transaction, as the role from its start
      // (one simple-query message: BEGIN and the role together).
      const queries = payload.kind === "batch" ? payload.queries : [payload.query];
      try {
        // Inside the try: a client gone while BEGIN ran still gets its ROLLBACK.
        const begin = payload.kind === "batch" ? beginStatement(headers) : "BEGIN";
        await run(session, asRole === undefined ? begin : `${begin}; SET LOCAL ROLE ${asRole}`);
        if (payload.kind === "batch") answer.push('{"results":[');
        for (const [i, q] of queries.entries()) {
          if (i > 0) answer.push(",");
          await runOne(session, q, headers, answer);
        }
        if (payload.kind === "batch") answer.push("]}");
        // Neon commits once the last statement has ended (sql_over_http.rs ~787–798); a
        // client gone before that never sees its batch commit. (A single statement that ended
        // has committed on Neon: its PGlite wrapper commits too.)
        if (payload.kind === "batch" && gone.aborted) throw new ClientGone();
        await run(session, "COMMIT");
        return { status: 200, body: answer.text() };
      } catch (error) {
        if (!session.destroy) {
          await client.query("ROLLBACK").catch(() => {
            session.destroy = true;
          });
        }
        throw error;
      }
    } catch (error) {
      if (error instanceof ClientGone) return { status: 400, body: CANCELLED };
      if (error instanceof JsonConversionError) {
        session.destroy = true;
        return { status: 500, body: neonErrorBody("could not parse postgres response") };
      }
      const status = neonRequestStatus(error);
      if (status !== undefined) {
        return { status, body: neonErrorBody((error as Error).message) };
      }
      // Any failure of a statement — an SQL error, a terminated backend (57P01), a protocol
      // violation (08P01), a closed connection — is the client's query failing: HTTP 400 with
      // the SQLSTATE if Postgres sent one (sql_over_http.rs ~333, SqlOverHttpError::Postgres).
      if (lost !== undefined || !isDbError(error)) session.destroy = true;
      const db = isDbError(error) ? error : isDbError(lost) ? lost : undefined;
      const failure = lost ?? error;
      const message = failure instanceof Error ? failure.message : String(failure);
      return { status: 400, body: neonErrorBody(message, db) };
    } finally {
      // No session state may leak into the next request (SET, temp tables, prepared
      // statements, an open transaction): reset, or drop the connection if that fails.
      if (!session.destroy && lost === undefined) {
        await client.query("DISCARD ALL").catch(() => {
          session.destroy = true;
        });
      }
      const broken = session.destroy || lost !== undefined;
      client.release(broken);
      // A dropped client may still report its socket closing: keep the listener on it then.
      if (!broken) client.off("error", onLost);
    }
  }

  async function runOne(
    session: Session,
    q: QueryData,
    headers: Headers,
    answer: JsonAnswer,
  ): Promise<void> {
    const result = await run(session, {
      text: q.query,
      values: q.params,
      rowMode: "array",
      // Extended protocol even without parameters: a string with two statements is an
      // error ("cannot insert multiple commands into a prepared statement"), as on Neon.
      queryMode: "extended",
      types: RAW_TEXT_TYPES,
    } as pg.QueryArrayConfig);
    if (!headers.rawOutput) {
      await arrayTypes.learn(
        session.client,
        result.fields.map((f) => f.dataTypeID),
      );
    }
    writeResult(
      answer,
      {
        fields: result.fields,
        rows: result.rows as (string | null)[][],
        command: result.command ?? null,
        rowCount: result.rowCount ?? null,
      },
      {
        arrayMode: q.arrayMode ?? headers.arrayMode,
        rawOutput: headers.rawOutput,
        maxResponseBytes: maxResponse,
        arrayElement: (oid) => arrayTypes.element(oid),
      },
    );
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

interface Session {
  readonly client: pg.PoolClient;
  /** Drop the connection instead of returning it to the pool. */
  destroy: boolean;
  readonly gone: AbortSignal;
  cancellable: boolean;
}

class ClientGone extends Error {}

/**
 * Runs one statement; if the client goes away meanwhile, cancels it (Neon: cancel_query,
 * then 100 ms for it to end, else the connection is dropped — sql_over_http.rs ~697–727,
 * ~800–808) and throws ClientGone once it has ended.
 */
async function run(
  session: Session,
  query: string | pg.QueryArrayConfig,
): Promise<pg.QueryArrayResult<unknown[]>> {
  if (session.gone.aborted) throw new ClientGone();
  const running = session.client.query(query as pg.QueryArrayConfig);
  const settled = running.then(
    () => true,
    () => true,
  );
  let onGone: (() => void) | undefined;
  const gone = new Promise<"gone">((resolve) => {
    onGone = () => resolve("gone");
    session.gone.addEventListener("abort", onGone, { once: true });
  });
  try {
    const first = await Promise.race([settled, gone]);
    if (first === "gone") {
      if (session.cancellable) {
        await cancelRunningStatement(session.client);
        const ended = await Promise.race([
          settled,
          new Promise<false>((r) => setTimeout(() => r(false), CANCEL_GRACE_MS)),
        ]);
        if (!ended) session.destroy = true;
      } else {
        // PGlite: the statement cannot be interrupted; let it end, then roll back.
        await settled;
      }
      throw new ClientGone();
    }
    return await running;
  } finally {
    if (onGone !== undefined) session.gone.removeEventListener("abort", onGone);
  }
}

function parseHeaders(req: IncomingMessage): Headers {
  const conn = req.headers["neon-connection-string"];
  if (typeof conn !== "string" || conn === "") {
    throw neonRequestError(400, "invalid header: neon-connection-string");
  }
  const { user, password, application } = checkConnectionString(conn, req.headers.authorization);
  const iso = req.headers["neon-batch-isolation-level"];
  let isolationLevel: IsolationLevel | undefined;
  if (iso !== undefined) {
    if (!(ISOLATION_LEVELS as readonly string[]).includes(String(iso))) {
      throw neonRequestError(400, "invalid isolation level");
    }
    isolationLevel = iso as IsolationLevel;
  }
  // Anything but exactly "true" is false (sql_over_http.rs ~368–392). Without raw text
  // output Neon answers typed JSON (json.rs pg_text_to_json).
  return {
    user,
    password,
    application,
    arrayMode: req.headers["neon-array-mode"] === "true",
    rawOutput: req.headers["neon-raw-text-output"] === "true",
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

function isDbError(error: unknown): error is pg.DatabaseError {
  return error instanceof pg.DatabaseError;
}

/**
 * Answers the request; returns the bytes of the body sent. A string body is JSON text
 * already written; an object is serialised. Answers of /sql carry Access-Control-Allow-Origin: *
 * (sql_over_http.rs ~245–247).
 */
function send(
  res: ServerResponse,
  status: number,
  body: string | object,
  extraHeaders: Record<string, string> = {},
  cors = true,
): number {
  if (res.headersSent || res.destroyed) return 0;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    ...(cors ? { "access-control-allow-origin": "*" } : {}),
    ...extraHeaders,
  });
  res.end(text);
  return Buffer.byteLength(text);
}
