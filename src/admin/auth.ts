/**
 * The admin token of the management API and Studio (`LLAMON_ADMIN_TOKEN`).
 *
 * - Not set (or empty): the API and Studio are OFF — every route answers 403
 *   `ADMIN_DISABLED`, never an open API.
 * - Set: requests must carry `Authorization: Bearer <token>` (Hono's bearer-auth reads the
 *   header); a missing or wrong token is 401 `UNAUTHORIZED`. The comparison is
 *   constant-time (../runtime/secrets.ts).
 * - The token must be a bearer token (RFC 6750: letters, digits, `-._~+/`, `=` at the end);
 *   any other configured value answers 500 CONFIG_INVALID saying so.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { LlamonError } from "../errors.ts";
import { secretsEqual } from "../runtime/secrets.ts";

export { secretsEqual };

export const ADMIN_TOKEN_VAR = "LLAMON_ADMIN_TOKEN";

const BEARER_TOKEN_RE = /^[A-Za-z0-9._~+/-]+=*$/;
const NO_STORE = { "cache-control": "no-store" };
const CHALLENGE = 'Bearer realm="llamon"';

/** The configured admin token, or undefined when the admin surface is off. */
export function adminToken(env: Readonly<Record<string, unknown>>): string | undefined {
  const value = env[ADMIN_TOKEN_VAR];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export const DISABLED_MESSAGE =
  "the management API and Studio are off: set LLAMON_ADMIN_TOKEN to a long random secret " +
  "(`wrangler secret put LLAMON_ADMIN_TOKEN`; locally in .dev.vars) to turn them on";

const MISSING_MESSAGE = "send the admin token as `Authorization: Bearer <LLAMON_ADMIN_TOKEN>`";

export function disabledResponse(c: Context): Response {
  return c.json({ code: "ADMIN_DISABLED", message: DISABLED_MESSAGE }, 403, NO_STORE);
}

function unauthorized(message: string): Response {
  return Response.json(
    { code: "UNAUTHORIZED", message },
    { status: 401, headers: { ...NO_STORE, "www-authenticate": CHALLENGE } },
  );
}

const checkBearer = bearerAuth({
  realm: "llamon",
  verifyToken: async (token, c) => {
    const expected = adminToken(c.env as Record<string, unknown>);
    return expected !== undefined && (await secretsEqual(token, expected));
  },
  noAuthenticationHeader: { message: () => unauthorized(MISSING_MESSAGE) },
  invalidAuthenticationHeader: { message: () => unauthorized(MISSING_MESSAGE) },
  invalidToken: { message: () => unauthorized("the admin token is wrong") },
});

/** Hono middleware: 403 when off, 401 without the right bearer token. */
export function requireAdmin(): MiddlewareHandler {
  return async (c, next) => {
    const expected = adminToken(c.env as Record<string, unknown>);
    if (expected === undefined) return disabledResponse(c);
    if (!BEARER_TOKEN_RE.test(expected)) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `${ADMIN_TOKEN_VAR} must be a bearer token: letters, digits and - . _ ~ + / only (= allowed at the end); generate one with \`openssl rand -hex 32\``,
      );
    }
    return checkBearer(c, async () => {
      c.header("cache-control", "no-store");
      await next();
    });
  };
}
