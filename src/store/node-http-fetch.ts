/**
 * In Node, Neon's HTTP driver sends its requests with Node's own HTTP client instead of the
 * global `fetch`. Node's `fetch` (undici) builds WHATWG Request, Headers, Response and
 * streams for every call; for the driver's small JSON POSTs that is most of the transport's
 * CPU (in a profile of the bench's Node turn, two requests per turn, about a fifth of the
 * turn's busy time). `node:http` / `node:https` with a keep-alive agent send the same request over the
 * same kind of reused connection.
 *
 * Only what the driver uses is provided: a POST of a string body with plain headers and an
 * AbortSignal, answered by `{ ok, status, json(), text() }` once the whole body arrived.
 * Not used in Workers (workerd's `fetch` is its own, native one) nor anywhere that is not
 * Node: the modules come from `process.getBuiltinModule`, so no bundler ever sees an import.
 */
import type * as Http from "node:http";

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
 * server (the local Neon-protocol proxy), so a request does not go out on a socket the
 * server is closing (undici's default is the same 4 s). A server that announces a shorter
 * `Keep-Alive: timeout=N` is honoured too: Node's agent then closes the socket before N, or
 * does not keep it at all (as undici does); nothing is retried, since a write batch is not
 * idempotent.
 */
export const IDLE_SOCKET_MS = 4_000;

/** Node's HTTP client as a fetch function for Neon's driver, or undefined outside Node. */
export function nodeHttpFetch(host: HostRuntime = currentHost()): NeonFetch | undefined {
  if (host.userAgent === undefined || !host.userAgent.startsWith("Node.js/")) return undefined;
  if (host.getBuiltinModule === undefined) return undefined;
  const http = host.getBuiltinModule("node:http") as typeof Http | undefined;
  const https = host.getBuiltinModule("node:https") as typeof import("node:https") | undefined;
  if (http?.request === undefined || https?.request === undefined) return undefined;
  const agents = {
    "http:": new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    "https:": new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };
  return (url, init = {}) =>
    new Promise<NeonFetchResponse>((resolve, reject) => {
      const target = new URL(url);
      const protocol = target.protocol;
      if (protocol !== "http:" && protocol !== "https:") {
        reject(new TypeError(`cannot send a database request to ${protocol} (http or https only)`));
        return;
      }
      const body = init.body ?? "";
      const headers: Record<string, string | number> = { ...init.headers };
      if (init.body !== undefined) {
        // As fetch does for a string body, unless the caller named a type (any case).
        if (!Object.keys(headers).some((k) => k.toLowerCase() === "content-type")) {
          headers["content-type"] = "text/plain;charset=UTF-8";
        }
        headers["content-length"] = Buffer.byteLength(body);
      }
      const send = protocol === "https:" ? https.request : http.request;
      const request = send(
        target,
        {
          method: init.method ?? "GET",
          headers,
          agent: agents[protocol],
          ...(init.signal === undefined ? {} : { signal: init.signal }),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("close", () => {
            if (!response.complete) {
              reject(
                new Error(
                  "the connection closed before the database's whole answer arrived (nothing in it was read)",
                ),
              );
            }
          });
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            const status = response.statusCode ?? 0;
            resolve({
              ok: status >= 200 && status < 300,
              status,
              json: async () => JSON.parse(text) as unknown,
              text: async () => text,
            });
          });
        },
      );
      request.on("error", reject);
      request.end(body);
    });
}
