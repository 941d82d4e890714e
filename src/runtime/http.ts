/**
 * What the Worker's Hono apps share: the app type (bindings and the request context), and
 * the one error answer of every HTTP route (health, management API, Studio, 404s) — plain
 * JSON `{ code, message, fieldErrors? }` with the status of the error table (errors.ts).
 * The A2A endpoint answers JSON-RPC errors instead (a2a/rpc-errors.ts, same table).
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { type ErrorCode, LlamonError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { RequestContext } from "./context.ts";
import type { Env } from "./env.ts";
import { ERROR_TABLE, httpErrorBody, mapError } from "./errors.ts";

/** The Hono env of the Worker's apps: `c.var.requestContext()` is this request's context. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** Built on first use, once per request (the Worker's middleware sets it). */
    requestContext: () => RequestContext;
  };
}

/** The request context of a Worker request (set by the Worker's app, worker/app.ts). */
export function requestContextOf(c: Context<AppEnv>): RequestContext {
  const get = c.get("requestContext");
  if (get === undefined) {
    throw new LlamonError("INTERNAL", "the request context was not set up for this route");
  }
  return get();
}

/** An HTTPException without a response of its own: the code of its status. */
function codeOfStatus(status: number): ErrorCode {
  const found = (Object.entries(ERROR_TABLE) as [ErrorCode, { status: number }][]).find(
    ([, row]) => row.status === status,
  );
  return found?.[0] ?? "INTERNAL";
}

/** The JSON answer of any error thrown by a route; internals are logged, never sent. */
export function errorResponse(c: Context, error: unknown, log: Logger): Response {
  if (error instanceof HTTPException) {
    if (error.res !== undefined) return error.getResponse();
    const code = codeOfStatus(error.status);
    return c.json({ code, message: error.message || code }, error.status);
  }
  const mapped = mapError(error);
  if (mapped.status >= 500) {
    log.error("http: request failed", {
      code: mapped.code,
      method: c.req.method,
      path: c.req.path,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return c.json(httpErrorBody(mapped), mapped.status);
}

/** An onError handler using the request's logger when there is one. */
export function httpErrorHandler(fallbackLog: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    let log = fallbackLog;
    try {
      log = requestContextOf(c).log;
    } catch {
      // no context (bad env): the fallback logger
    }
    return errorResponse(c, error, log);
  };
}

export const notFoundJson: NotFoundHandler = (c) =>
  c.json({ code: "NOT_FOUND", message: `no route for ${c.req.method} ${c.req.path}` }, 404);
