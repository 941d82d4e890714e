/**
 * The Worker's HTTP surface (Hono), built once per isolate (createWorker):
 *
 * - every request gets its request context (runtime/context.ts), made on first use;
 * - `/health`, `/api/v1` (management API), `/studio`, and the A2A app mounted at `/`
 *   (`POST /` JSON-RPC, `GET /.well-known/agent-card.json`);
 * - errors: plain JSON `{ code, message, fieldErrors? }` with the status of the error table
 *   (runtime/errors.ts); anything unexpected is a 500 without internals.
 */
import { Hono } from "hono";
import { createAdminApp } from "../admin/app.ts";
import type { AgentDefinition } from "../agent/define.ts";
import { agentRequestContext } from "../agent/registry.ts";
import { dbErrorFields, LlamonError } from "../errors.ts";
import { createLogger } from "../log.ts";
import { effectiveBackend } from "../memory/config.ts";
import type { RequestContext } from "../runtime/context.ts";
import { type AppEnv, httpErrorHandler, notFoundJson, requestContextOf } from "../runtime/http.ts";
import { COUNT_APPLIED_MIGRATIONS } from "../store/sql.ts";
import { createStudioApp } from "../studio/app.ts";
import { createWorkerA2AApp } from "./a2a.ts";

export function createApp(agent: AgentDefinition): Hono<AppEnv> {
  const log = createLogger();
  const app = new Hono<AppEnv>();

  app.use("*", async (c, next) => {
    let ctx: RequestContext | undefined;
    c.set("requestContext", () => {
      ctx ??= agentRequestContext({
        env: c.env,
        log,
        signal: c.req.raw.signal,
        waitUntil: waitUntilOf(() => c.executionCtx),
      });
      return ctx;
    });
    await next();
  });

  app.get("/health", async (c) => {
    const ctx = requestContextOf(c);
    const deploy = ctx.deployConfig;
    let database: { transport: string; migrations_applied: number } | undefined;
    if (deploy.enabled && deploy.backend === "postgres") {
      // First the tables (the clearest error when they are missing), then the config,
      // whose run-time layer lives in them.
      const db = ctx.db();
      const result = await db
        .query<{ applied: string }>(COUNT_APPLIED_MIGRATIONS)
        .catch((error: unknown) => {
          if (dbErrorFields(error)?.sqlstate !== "42P01") throw error;
          throw new LlamonError(
            "DB_UNAVAILABLE",
            "the database has no llamon tables yet: run `npx llamon migrate --dsn <POSTGRES_MEMORY_DSN>`",
            { cause: error },
          );
        });
      database = {
        transport: db.transport,
        migrations_applied: Number(result.rows[0]?.applied ?? 0),
      };
    }
    const config = await ctx.config();
    // Backend `off` and `enabled: false` are the same thing: nothing is kept.
    const backend = effectiveBackend(config);
    return c.json({
      status: "ok",
      agent_id: ctx.agentId,
      memory: { enabled: backend !== "off", backend, window_size: config.window_size },
      ...(database === undefined ? {} : { database }),
    });
  });

  // Management API and Studio (LLAMON_ADMIN_TOKEN; off when unset) — docs/admin.md.
  app.route("/api/v1", createAdminApp(log));
  app.route("/studio", createStudioApp(agent));
  // A2A JSON-RPC (POST /) and the agent card (GET /.well-known/agent-card.json).
  app.route("/", createWorkerA2AApp(agent, log));

  app.notFound(notFoundJson);
  app.onError(httpErrorHandler(log));
  return app;
}

/** The request's `ctx.waitUntil` in workerd; undefined where there is none (Node tests). */
function waitUntilOf(get: () => { waitUntil(promise: Promise<unknown>): void }) {
  try {
    const ctx = get();
    return (promise: Promise<unknown>) => ctx.waitUntil(promise);
  } catch {
    return undefined;
  }
}
