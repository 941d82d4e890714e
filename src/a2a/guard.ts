/**
 * What every A2A call passes before its body is parsed, as Hono middleware (reusable by any
 * A2A binding mounted next to JSON-RPC), in this order:
 *
 * 1. the body must be declared as JSON (`Content-Type: application/json` or `…+json`) —
 *    else 415: a web page can send `text/plain` or form bodies to any URL without a CORS
 *    preflight, so without this check any page a user opens could write into an agent that
 *    runs on their machine;
 * 2. the body size cap (default 1 MiB) — else 413; a declared Content-Length is checked
 *    without reading, a streamed body is read at most up to the cap;
 * 3. authentication (auth/authenticate.ts) — else 401 with `WWW-Authenticate`;
 * 4. the per-principal rate limit, when the A2A_RATE_LIMITER binding is configured — else 429
 *    with `Retry-After`.
 *
 * A refusal's status and message come from the error table (runtime/errors.ts); nothing is
 * stored, no stack is shown. On the JSON-RPC binding its body is a JSON-RPC error (id null:
 * the body was not read), v1.0-shaped when the request says `A2A-Version: 1.x` (parsed as
 * version.ts does), else v0.3-shaped; on the HTTP+JSON binding (`binding: "HTTP+JSON"`) it is
 * that binding's `google.rpc.Status`-shaped `{ error: { code, status, message, details } }`.
 */
import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { isLlamonError, LlamonError } from "../errors.ts";
import { createLogger, type Logger } from "../log.ts";
import type { A2AAuthConfig } from "../runtime/auth-config.ts";
import type { RateLimiterBinding } from "../runtime/env.ts";
import { mapError } from "../runtime/errors.ts";
import { type A2ACaller, type AuthErrorDetails, authenticate } from "./auth/authenticate.ts";
import { type Dialect, errorResponse, turnErrorObject } from "./rpc-errors.ts";
import { dialectOfVersion, majorMinor } from "./version.ts";

declare module "hono" {
  /** What the guard sets: `c.get("a2aCaller")` is the authenticated caller. */
  interface ContextVariableMap {
    a2aCaller: A2ACaller;
  }
}

export interface A2AGuardOptions {
  readonly maxBodyBytes: number;
  /** The auth config of this request (may throw CONFIG_INVALID). Default: none. */
  readonly auth?: ((c: Context) => A2AAuthConfig) | undefined;
  /** The rate limiter of this request, when one is bound. */
  readonly rateLimit?:
    | ((c: Context) => { binding: RateLimiterBinding; periodSeconds: number } | undefined)
    | undefined;
  /** The logger of this request (before it is authenticated). */
  readonly log: (c: Context) => Logger;
  /** Which binding's error body a refusal carries (default JSON-RPC). */
  readonly binding?: "JSONRPC" | "HTTP+JSON" | undefined;
}

/**
 * The error dialect a request asks for, read as version negotiation reads `A2A-Version`
 * (version.ts): v0.3 when absent or not a version, else that version's dialect.
 */
function dialectOf(c: Context): Dialect {
  const version = majorMinor(c.req.header(A2A_VERSION_HEADER) ?? "");
  return version === undefined ? "v0.3" : dialectOfVersion(version);
}

/** The HTTP answer of a refused JSON-RPC call (status from the error table). */
export function refusal(c: Context, error: unknown, headers: Record<string, string> = {}) {
  const mapped = mapError(error);
  return c.json(errorResponse(null, turnErrorObject(dialectOf(c), error)), mapped.status, {
    "Cache-Control": "no-store",
    ...headers,
  });
}

/** google.rpc status names of the guard's HTTP statuses (HTTP+JSON binding). */
const RPC_STATUS: Readonly<Record<number, string>> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  413: "INVALID_ARGUMENT",
  415: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  503: "UNAVAILABLE",
};

/** The HTTP answer of a refused HTTP+JSON call: that binding's error body, same status. */
export function restRefusal(c: Context, error: unknown, headers: Record<string, string> = {}) {
  const { status } = mapError(error);
  const { message, data } = turnErrorObject("v1.0", error);
  const body = {
    error: {
      code: status,
      status: RPC_STATUS[status] ?? "INTERNAL",
      message,
      details: Array.isArray(data) ? data : [],
    },
  };
  return c.json(body, status, { "Cache-Control": "no-store", ...headers });
}

type Refuse = (c: Context, error: unknown, headers?: Record<string, string>) => Response;

function refuserOf(options: A2AGuardOptions): Refuse {
  return options.binding === "HTTP+JSON" ? restRefusal : refusal;
}

const JSON_TYPE_RE = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;.*)?$/i;

function requireJson(refuse: Refuse): MiddlewareHandler {
  return async (c, next) => {
    // GET and DELETE calls of the HTTP+JSON binding carry no body, so nothing to type (a web
    // page cannot send a DELETE across origins without a CORS preflight).
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "DELETE") return next();
    const type = c.req.header("content-type");
    if (type === undefined || !JSON_TYPE_RE.test(type.trim())) {
      const got = type === undefined ? "no Content-Type" : `Content-Type ${type.slice(0, 80)}`;
      return refuse(
        c,
        new LlamonError(
          "UNSUPPORTED_MEDIA_TYPE",
          `send the request body with \`Content-Type: application/json\` (got ${got})`,
        ),
      );
    }
    await next();
  };
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost");
}

function authenticateCall(options: A2AGuardOptions): MiddlewareHandler {
  const refuse = refuserOf(options);
  return async (c, next) => {
    let caller: A2ACaller;
    try {
      const config: A2AAuthConfig = options.auth ? options.auth(c) : { mode: "none" };
      caller = await authenticate(c.req.raw.headers, config);
    } catch (error) {
      const code = isLlamonError(error) ? error.code : "INTERNAL";
      const log = safeLog(options, c);
      if (code === "AUTH_REQUIRED" || code === "AUTH_INVALID") {
        log.info("a2a: call refused", { code, reason: (error as Error).message });
        const { challenge } = (error as LlamonError<AuthErrorDetails>).details;
        return refuse(c, error, { "WWW-Authenticate": challenge });
      }
      log.error("a2a: could not authenticate the call", {
        code,
        error: describe(error),
      });
      return refuse(c, error);
    }
    if (caller.mode === "none" && !isLocalHost(new URL(c.req.url).hostname)) {
      safeLog(options, c).warn(
        `a2a: A2A_AUTH=none on ${new URL(c.req.url).hostname}: anyone who can reach this agent can read and continue any conversation whose contextId they know; set A2A_AUTH=api_key or jwt`,
        { code: "AUTH_NONE" },
      );
    }
    c.set("a2aCaller", caller);
    await next();
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/** The request's logger; the console's when the request has none (a bad env). */
function safeLog(options: A2AGuardOptions, c: Context): Logger {
  try {
    return options.log(c);
  } catch {
    return fallbackLog;
  }
}

const fallbackLog: Logger = createLogger();

function rateLimitCall(options: A2AGuardOptions): MiddlewareHandler {
  const refuse = refuserOf(options);
  return async (c, next) => {
    const limiter = options.rateLimit?.(c);
    if (limiter !== undefined) {
      const caller = c.get("a2aCaller");
      const key = caller.authenticated
        ? `principal:${caller.principal}`
        : `ip:${c.req.header("cf-connecting-ip") ?? "unknown"}`;
      const { success } = await limiter.binding.limit({ key });
      if (!success) {
        const seconds = limiter.periodSeconds;
        return refuse(
          c,
          new LlamonError(
            "RATE_LIMITED",
            `too many requests from this caller; retry after ${seconds} seconds`,
          ),
          { "Retry-After": String(seconds) },
        );
      }
    }
    await next();
  };
}

/** The middleware chain of the file header, to put in front of an A2A route. */
export function a2aGuard(options: A2AGuardOptions): MiddlewareHandler {
  const limit = options.maxBodyBytes;
  const refuse = refuserOf(options);
  return every(
    requireJson(refuse),
    bodyLimit({
      maxSize: limit,
      onError: (c) =>
        refuse(
          c,
          new LlamonError(
            "BODY_TOO_LARGE",
            `the request body is larger than ${limit} bytes; send a shorter message`,
          ),
        ),
    }),
    authenticateCall(options),
    rateLimitCall(options),
  );
}
