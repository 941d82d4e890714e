/**
 * The admin token of the management API and Studio (`LLAMON_ADMIN_TOKEN`).
 *
 * - Not set (or empty): the API and Studio are OFF — every route answers 403
 *   `ADMIN_DISABLED`, never an open API.
 * - Set: requests must carry `Authorization: Bearer <token>`; a missing or wrong token is 401.
 *   The comparison is constant-time: both sides are hashed with SHA-256 first (so the
 *   lengths match and nothing about the token's length leaks), then the digests are
 *   compared byte by byte without an early exit.
 */
import type { Context, MiddlewareHandler } from "hono";

export const ADMIN_TOKEN_VAR = "LLAMON_ADMIN_TOKEN";

/** The configured admin token, or undefined when the admin surface is off. */
export function adminToken(env: Readonly<Record<string, unknown>>): string | undefined {
  const value = env[ADMIN_TOKEN_VAR];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Constant-time equality of two secrets (see the file header). */
export async function secretsEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The bearer token of a request, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

export const DISABLED_MESSAGE =
  "the management API and Studio are off: set LLAMON_ADMIN_TOKEN to a long random secret " +
  "(`wrangler secret put LLAMON_ADMIN_TOKEN`; locally in .dev.vars) to turn them on";

export function disabledResponse(c: Context): Response {
  return c.json({ code: "ADMIN_DISABLED", message: DISABLED_MESSAGE }, 403, {
    "cache-control": "no-store",
  });
}

/** Hono middleware: 403 when off, 401 without the right bearer token. */
export function requireAdmin(): MiddlewareHandler {
  return async (c, next) => {
    const expected = adminToken(c.env as Record<string, unknown>);
    if (expected === undefined) return disabledResponse(c);
    const given = bearerToken(c.req.header("authorization"));
    if (given === undefined || !(await secretsEqual(given, expected))) {
      return c.json(
        {
          code: "UNAUTHORIZED",
          message:
            given === undefined
              ? "send the admin token as `Authorization: Bearer <LLAMON_ADMIN_TOKEN>`"
              : "the admin token is wrong",
        },
        401,
        { "www-authenticate": 'Bearer realm="llamon"', "cache-control": "no-store" },
      );
    }
    c.header("cache-control", "no-store");
    await next();
  };
}
