/**
 * In Node, Neon's HTTP driver sends its requests through this small HTTP/1.1 client on
 * Node's own sockets (`node:net`, `node:tls`) instead of the global `fetch`. The driver
 * sends two small JSON POSTs per turn; Node's `fetch` (undici) builds WHATWG Request,
 * Headers, Response and streams for each, and `node:http` a ClientRequest, an
 * IncomingMessage and their streams. Measured in the bench's Node turn (docs/performance.md,
 * "The Node transport"): `node:http` cost about 0.4 ms of a 5.4 ms turn more than this
 * client. What the driver needs is one request, one whole answer, on a reused connection.
 *
 * - One request at a time per connection (no pipelining): every byte a connection delivers
 *   belongs to the one request waiting on it. A connection whose answer could not be framed
 *   exactly (./http1-response.ts), or that delivers bytes nobody asked for, is closed.
 * - Connections are kept per origin and reused (newest first); idle ones close after
 *   IDLE_SOCKET_MS, or sooner when the server's `Keep-Alive: timeout=N` says so, and never
 *   keep the process alive.
 * - https verifies the server's certificate against Node's CAs (and NODE_EXTRA_CA_CERTS),
 *   with the host name as SNI; http/1.1 is the only protocol offered.
 * - The request's AbortSignal closes its connection and rejects with the signal's reason.
 * - Nothing is retried: a write batch is not idempotent. Header values never appear in an
 *   error (the connection string is one).
 *
 * Only what the driver uses is provided: a request with a string body and plain headers,
 * answered by `{ ok, status, json(), text() }` once the whole body arrived. Not used in
 * Workers (workerd's `fetch` is its own, native one) nor anywhere that is not Node: the
 * modules come from `process.getBuiltinModule`, so no bundler ever sees an import.
 */
import type * as Net from "node:net";
import type * as Tls from "node:tls";
import {
  CUT_ANSWER,
  HTTP_TOKEN,
  type Http1Response,
  Http1ResponseReader,
} from "./http1-response.ts";

/** What Neon's driver passes to its fetch function (a subset of `RequestInit`). */
export interface NeonFetchInit {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** What Neon's driver reads of the answer. */
export interface NeonFetchResponse {
  readonly ok: boolean;
  readonly status: number;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

export type NeonFetch = (url: string, init?: NeonFetchInit) => Promise<NeonFetchResponse>;

/** The host's facts this depends on (the real ones by default; tests pass others). */
export interface HostRuntime {
  readonly userAgent: string | undefined;
  readonly getBuiltinModule: ((id: string) => unknown) | undefined;
}

/** Settings for tests and private networks; none is needed with Neon. */
export interface NodeFetchOptions {
  /** Extra trusted CA certificates (PEM) for https, besides Node's own. */
  readonly ca?: string | undefined;
  /** How long an idle connection is kept, in ms (default IDLE_SOCKET_MS). */
  readonly idleMs?: number | undefined;
}

function currentHost(): HostRuntime {
  const nav = (globalThis as { navigator?: { userAgent?: unknown } }).navigator;
  const proc = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  return {
    userAgent: typeof nav?.userAgent === "string" ? nav.userAgent : undefined,
    getBuiltinModule:
      typeof proc?.getBuiltinModule === "function"
        ? (proc.getBuiltinModule as (id: string) => unknown).bind(proc)
        : undefined,
  };
}

/**
 * Idle connections are closed after this long, below the 5 s keep-alive of Node's HTTP
 * server (the local Neon-protocol proxy), so a request does not go out on a connection the
 * server is closing (undici's default is the same 4 s). A server that announces a shorter
 * `Keep-Alive: timeout=N` is honoured too: the connection is closed a second before N, or
 * not kept at all (as Node's agent does).
 */
export const IDLE_SOCKET_MS = 4_000;
/** Idle connections kept per origin; more are closed when they come back. */
const MAX_IDLE_PER_ORIGIN = 64;
/** Parsed request targets kept (one per endpoint in practice). */
const MAX_TARGETS = 64;

/** Visible ASCII, space and tab: what a header value may hold here (no CR, LF or NUL). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

interface Target {
  readonly tls: boolean;
  readonly host: string;
  readonly port: number;
  /** `METHOD` is prefixed per request: path and Host line, ready to send. */
  readonly requestLineTail: string;
  readonly origin: string;
}

interface Connection {
  readonly socket: Net.Socket;
  readonly origin: string;
  /** The request waiting on this connection, or undefined while idle. */
  current: Pending | undefined;
  /** While idle: when it stops being reused (Date.now() ms). */
  idleUntil: number;
}

interface Pending {
  readonly reader: Http1ResponseReader;
  settle(outcome: { response: Http1Response } | { error: Error }): void;
}

function targetOf(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError("cannot send a database request to an invalid URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(
      `cannot send a database request to ${parsed.protocol} (http or https only)`,
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new TypeError("a database request URL must not carry credentials");
  }
  const tls = parsed.protocol === "https:";
  const port = parsed.port === "" ? (tls ? 443 : 80) : Number(parsed.port);
  // An IPv6 literal is [::1] in the URL and the Host line, ::1 for the socket.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  return {
    tls,
    host,
    port,
    requestLineTail: ` ${parsed.pathname}${parsed.search} HTTP/1.1\r\nHost: ${parsed.host}\r\n`,
    origin: `${parsed.protocol}//${parsed.host}`,
  };
}

function headOf(target: Target, init: NeonFetchInit, bodyBytes: number): string {
  const method = init.method ?? "GET";
  // The driver POSTs. HEAD (an answer without its body) and CONNECT would need framing
  // this client does not do, so only the two plain methods are sent.
  if (method !== "POST" && method !== "GET") {
    throw new TypeError("a database request is a POST or a GET");
  }
  let head = method + target.requestLineTail;
  let typed = false;
  for (const name in init.headers) {
    const value = init.headers[name];
    if (!HTTP_TOKEN.test(name))
      throw new TypeError("a database request header has an invalid name");
    if (typeof value !== "string" || !HEADER_VALUE.test(value)) {
      throw new TypeError(
        `the database request header ${name} holds a character a header cannot carry (its value is not shown)`,
      );
    }
    const lower = name.toLowerCase();
    // Framing is this client's: the caller's Host, length or connection headers are not sent.
    if (
      lower === "host" ||
      lower === "content-length" ||
      lower === "transfer-encoding" ||
      lower === "connection"
    ) {
      continue;
    }
    if (lower === "content-type") typed = true;
    head += `${name}: ${value}\r\n`;
  }
  if (init.body !== undefined) {
    // As fetch does for a string body, unless the caller named a type.
    if (!typed) head += "Content-Type: text/plain;charset=UTF-8\r\n";
    head += `Content-Length: ${bodyBytes}\r\n`;
  } else if (method === "POST") {
    head += "Content-Length: 0\r\n";
  }
  return `${head}\r\n`;
}

function responseOf(answer: Http1Response): NeonFetchResponse {
  const text = answer.body.toString("utf8");
  return {
    ok: answer.status >= 200 && answer.status < 300,
    status: answer.status,
    json: async () => JSON.parse(text) as unknown,
    text: async () => text,
  };
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error("the database request was aborted");
}

/** Neon's HTTP protocol over Node's sockets, as a fetch function for the driver. */
function socketFetch(
  modules: { net: typeof Net; tls: typeof Tls },
  options: NodeFetchOptions = {},
): NeonFetch {
  const idleMs = options.idleMs ?? IDLE_SOCKET_MS;
  const targets = new Map<string, Target>();
  const idle = new Map<string, Connection[]>();
  /** One timer closes expired idle connections (not one per connection and request). */
  let sweeper: ReturnType<typeof setTimeout> | undefined;

  function sweep(): void {
    sweeper = undefined;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const list of [...idle.values()]) {
      for (const conn of [...list]) {
        if (conn.idleUntil <= now) close(conn);
        else next = Math.min(next, conn.idleUntil);
      }
    }
    if (next !== Number.POSITIVE_INFINITY) schedule(next - now);
  }

  function schedule(ms: number): void {
    if (sweeper !== undefined) return;
    sweeper = setTimeout(sweep, Math.max(ms, 1));
    sweeper.unref?.();
  }

  function forget(conn: Connection): void {
    const list = idle.get(conn.origin);
    const at = list?.indexOf(conn) ?? -1;
    if (list !== undefined && at >= 0) {
      list.splice(at, 1);
      if (list.length === 0) idle.delete(conn.origin);
    }
  }

  function close(conn: Connection): void {
    forget(conn);
    conn.socket.destroy();
  }

  /** Ends the waiting request (if any) with an error; the connection is closed. */
  function fail(conn: Connection, error: Error): void {
    const pending = conn.current;
    conn.current = undefined;
    close(conn);
    pending?.settle({ error });
  }

  function release(conn: Connection, answer: Http1Response): void {
    const hinted = answer.keepAliveMs === undefined ? idleMs : answer.keepAliveMs - 1000;
    const keepFor = Math.min(idleMs, hinted);
    const list = idle.get(conn.origin) ?? [];
    if (
      !answer.reusable ||
      keepFor <= 0 ||
      conn.socket.destroyed ||
      list.length >= MAX_IDLE_PER_ORIGIN
    ) {
      close(conn);
      return;
    }
    conn.socket.unref();
    conn.idleUntil = Date.now() + keepFor;
    list.push(conn);
    idle.set(conn.origin, list);
    schedule(keepFor);
  }

  function connect(target: Target): Connection {
    const socket = target.tls
      ? modules.tls.connect({
          host: target.host,
          port: target.port,
          ALPNProtocols: ["http/1.1"],
          ...(modules.net.isIP(target.host) === 0 ? { servername: target.host } : {}),
          // `ca` replaces Node's roots; the extra one is added to them.
          ...(options.ca === undefined
            ? {}
            : { ca: [...modules.tls.rootCertificates, options.ca] }),
        })
      : modules.net.connect({ host: target.host, port: target.port });
    socket.setNoDelay(true);
    const conn: Connection = {
      socket,
      origin: target.origin,
      current: undefined,
      idleUntil: 0,
    };
    socket.on("data", (chunk: Buffer) => {
      const pending = conn.current;
      if (pending === undefined) {
        // Bytes nobody asked for: the connection cannot be trusted with the next request.
        close(conn);
        return;
      }
      let answer: Http1Response | undefined;
      try {
        answer = pending.reader.push(chunk);
      } catch (error) {
        fail(conn, error as Error);
        return;
      }
      if (answer === undefined) return;
      conn.current = undefined;
      release(conn, answer);
      pending.settle({ response: answer });
    });
    socket.on("end", () => {
      const pending = conn.current;
      if (pending === undefined) {
        close(conn);
        return;
      }
      let answer: Http1Response;
      try {
        answer = pending.reader.end();
      } catch (error) {
        fail(conn, error as Error);
        return;
      }
      conn.current = undefined;
      close(conn);
      pending.settle({ response: answer });
    });
    socket.on("error", (error) => fail(conn, error));
    socket.on("close", () => fail(conn, new Error(CUT_ANSWER)));
    return conn;
  }

  function take(target: Target): Connection {
    const list = idle.get(target.origin);
    const now = Date.now();
    for (let conn = list?.pop(); conn !== undefined; conn = list?.pop()) {
      forget(conn);
      // Past its idle time the server may be closing it: never send on it.
      if (conn.idleUntil <= now || conn.socket.destroyed || !conn.socket.writable) {
        conn.socket.destroy();
        continue;
      }
      conn.socket.ref();
      return conn;
    }
    return connect(target);
  }

  return (url, init = {}) =>
    new Promise<NeonFetchResponse>((resolve, reject) => {
      let target = targets.get(url);
      let request: string;
      try {
        if (target === undefined) {
          target = targetOf(url);
          if (targets.size >= MAX_TARGETS) targets.clear();
          targets.set(url, target);
        }
        const body = init.body ?? "";
        request = headOf(target, init, Buffer.byteLength(body)) + body;
      } catch (error) {
        reject(error);
        return;
      }
      const signal = init.signal;
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const conn = take(target);
      let onAbort: (() => void) | undefined;
      conn.current = {
        reader: new Http1ResponseReader(),
        settle(outcome) {
          if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
          if ("error" in outcome) reject(outcome.error);
          else resolve(responseOf(outcome.response));
        },
      };
      if (signal !== undefined) {
        onAbort = () => fail(conn, abortReason(signal));
        signal.addEventListener("abort", onAbort, { once: true });
      }
      conn.socket.write(request);
    });
}

/** The socket client as a fetch function for Neon's driver, or undefined outside Node. */
export function nodeHttpFetch(
  host: HostRuntime = currentHost(),
  options: NodeFetchOptions = {},
): NeonFetch | undefined {
  if (host.userAgent === undefined || !host.userAgent.startsWith("Node.js/")) return undefined;
  if (host.getBuiltinModule === undefined) return undefined;
  const net = host.getBuiltinModule("node:net") as typeof Net | undefined;
  const tls = host.getBuiltinModule("node:tls") as typeof Tls | undefined;
  if (net?.connect === undefined || tls?.connect === undefined) return undefined;
  return socketFetch({ net, tls }, options);
}
