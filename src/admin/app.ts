/**
 * The management API (Hono sub-app, mounted at `/api/v1`): memory config and conversations
 * of this Worker's AGENT_ID, behind the admin bearer token (auth.ts). Errors are answered
 * as JSON `{ code, message, fieldErrors? }` (runtime/http.ts); nothing internal leaks.
 */
import { Hono } from "hono";
import { createLogger, type Logger } from "../log.ts";
import { type AppEnv, httpErrorHandler, notFoundJson } from "../runtime/http.ts";
import { requireAdmin } from "./auth.ts";
import { registerConfigRoutes } from "./config-routes.ts";
import { registerThreadRoutes } from "./thread-routes.ts";

/** `log`: for errors before a request context exists (a bad env); default the console. */
export function createAdminApp(log: Logger = createLogger()): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", requireAdmin());
  registerConfigRoutes(app);
  registerThreadRoutes(app);
  app.notFound(notFoundJson);
  app.onError(httpErrorHandler(log));
  return app;
}
