/**
 * The Worker's HTTP surface (Hono). Errors are mapped once, here: a LlamonError becomes a
 * problem+json answer with its code; anything else is a 500 without internals.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { createAdminApp } from "../admin/app.ts";
import type { AgentDefinition } from "../agent/define.ts";
import { dbErrorFields, type ErrorCode, isLlamonError, LlamonError } from "../errors.ts";
import { resolveMemoryConfig } from "../memory/config.ts";
import { COUNT_APPLIED_MIGRATIONS } from "../store/sql.ts";
import { createStudioApp } from "../studio/app.ts";
import { a2aAppFor } from "./a2a.ts";
import { workerDb } from "./db.ts";
import { type Env, parseWorkerVars } from "./env.ts";

const STATUS_BY_CODE: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  CONFIG_INVALID: 500,
  INPUT_INVALID: 400,
  DB_UNAVAILABLE: 503,
  DB_QUERY_FAILED: 503,
  DB_PAYLOAD_TOO_LARGE: 413,
};

export function createApp(agent: AgentDefinition): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();

  app.get("/health", async (c) => {
    const vars = parseWorkerVars(c.env);
    const { config } = resolveMemoryConfig({ code: agent.memory, env: c.env });
    const body: Record<string, unknown> = {
      status: "ok",
      agent_id: vars.AGENT_ID,
      memory: { enabled: config.enabled, backend: config.backend, window_size: config.window_size },
    };
    if (config.enabled && config.backend === "postgres") {
      const db = workerDb(c.env);
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
      body.database = {
        transport: db.transport,
        migrations_applied: Number(result.rows[0]?.applied ?? 0),
      };
    }
    return c.json(body);
  });

  // Management API and Studio (LLAMON_ADMIN_TOKEN; off when unset) — docs/admin.md.
  app.route("/api/v1", createAdminApp());
  app.route("/studio", createStudioApp(agent));

  // A2A JSON-RPC (POST /) and the agent card (GET /.well-known/agent-card.json).
  app.all("*", async (c, next) => {
    const isA2A =
      (c.req.method === "POST" && c.req.path === "/") ||
      c.req.path.startsWith("/.well-known/agent");
    if (!isA2A) return next();
    return a2aAppFor(agent, c.env).fetch(c.req.raw, c.env, c.executionCtx);
  });

  app.notFound((c) =>
    c.json({ code: "NOT_FOUND", message: `no route for ${c.req.method} ${c.req.path}` }, 404),
  );

  app.onError((error, c) => {
    if (isLlamonError(error)) {
      const status = STATUS_BY_CODE[error.code] ?? 500;
      return c.json({ code: error.code, message: error.message }, status, {
        "content-type": "application/problem+json",
      });
    }
    console.error("unhandled error", error instanceof Error ? error.message : String(error));
    return c.json({ code: "INTERNAL", message: "internal error" }, 500);
  });

  return app;
}
