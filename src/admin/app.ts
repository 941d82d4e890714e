/**
 * The management API (Hono sub-app, mounted at `/api/v1`): memory config and conversations
 * of this Worker's AGENT_ID, behind the admin bearer token (auth.ts). Errors are answered
 * here as JSON `{ code, message, fieldErrors? }`; nothing internal leaks.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorCode, isLlamonError } from "../errors.ts";
import type { Env } from "../worker/env.ts";
import { requireAdmin } from "./auth.ts";
import { registerConfigRoutes } from "./config-routes.ts";
import { AdminHttpError } from "./errors.ts";
import { registerThreadRoutes } from "./thread-routes.ts";

const STATUS_BY_CODE: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INPUT_INVALID: 400,
  CONFIG_INVALID: 500,
  DB_UNAVAILABLE: 503,
  DB_QUERY_FAILED: 503,
  DB_PAYLOAD_TOO_LARGE: 413,
};

export function createAdminApp(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.use("*", requireAdmin());
  registerConfigRoutes(app);
  registerThreadRoutes(app);

  app.notFound((c) =>
    c.json({ code: "NOT_FOUND", message: `no route for ${c.req.method} ${c.req.path}` }, 404),
  );
  app.onError((error, c) => {
    if (error instanceof AdminHttpError) {
      return c.json({ code: error.code, message: error.message, ...error.details }, error.status);
    }
    if (isLlamonError(error)) {
      const status = STATUS_BY_CODE[error.code] ?? 500;
      const fieldErrors = (error.details as { fieldErrors?: unknown }).fieldErrors;
      return c.json(
        { code: error.code, message: error.message, ...(fieldErrors ? { fieldErrors } : {}) },
        status,
      );
    }
    console.error("admin API error", error instanceof Error ? error.message : String(error));
    return c.json({ code: "INTERNAL", message: "internal error" }, 500);
  });
  return app;
}
