/**
 * `/api/v1/memory/threads`: this agent's conversations (R2.3: never another agent's).
 *
 * - GET `?limit=20&cursor=…`: a page, newest activity first; `next_cursor` is null on the
 *   last page (postgres: llamon_threads; the Durable Object backends: the agent's index object,
 *   see threads.ts).
 * - GET `/:contextId`: the stored thread as the window sees it (inspect.ts).
 * - DELETE `/:contextId`: erase everything of the conversation (right to be forgotten).
 */
import type { Hono } from "hono";
import { currentSkills } from "../agent/define.ts";
import { registeredAgent } from "../agent/registry.ts";
import type { RequestContext } from "../runtime/context.ts";
import { type AppEnv, requestContextOf } from "../runtime/http.ts";
import { MAX_THREAD_ID_LENGTH } from "../store/thread-key.ts";
import { badRequest, notFound } from "./errors.ts";
import { inspectThread } from "./inspect.ts";
import {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  eraseThread,
  listThreads,
  MAX_PAGE_SIZE,
  readThread,
} from "./threads.ts";

/** Where this deployment stores conversations (deploy-time layers; runtime cannot move them). */
function storageBackend(ctx: RequestContext) {
  return ctx.deployConfig.backend;
}

function contextIdParam(raw: string): string {
  if (raw.length === 0 || raw.length > MAX_THREAD_ID_LENGTH) {
    throw badRequest(`contextId must be 1–${MAX_THREAD_ID_LENGTH} characters`, {
      contextId: ["bad length"],
    });
  }
  return raw;
}

export function registerThreadRoutes(app: Hono<AppEnv>): void {
  app.get("/memory/threads", async (c) => {
    const rawLimit = c.req.query("limit");
    const limit = rawLimit === undefined ? DEFAULT_PAGE_SIZE : Number(rawLimit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw badRequest("invalid query", {
        limit: [`must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${rawLimit}`],
      });
    }
    const rawCursor = c.req.query("cursor");
    const cursor =
      rawCursor === undefined || rawCursor === "" ? undefined : decodeCursor(rawCursor);
    if (rawCursor !== undefined && rawCursor !== "" && cursor === undefined) {
      throw badRequest("invalid query", { cursor: ["not a cursor from this API"] });
    }
    const ctx = requestContextOf(c);
    const page = await listThreads(ctx, storageBackend(ctx), { limit, cursor });
    return c.json({ agent_id: ctx.agentId, ...page });
  });

  app.get("/memory/threads/:contextId", async (c) => {
    const contextId = contextIdParam(c.req.param("contextId"));
    const ctx = requestContextOf(c);
    const { agentId } = ctx;
    const backend = storageBackend(ctx);
    // The config this isolate resolves for a request (same cache as the turn path).
    const [stored, config] = await Promise.all([readThread(ctx, backend, contextId), ctx.config()]);
    if (stored === undefined) {
      throw notFound(`agent "${agentId}" has no stored conversation "${contextId}"`);
    }
    const { agent } = registeredAgent();
    const view = inspectThread({
      contextId,
      messages: stored.messages,
      memory: stored.memory,
      config,
      systemText: agent.system,
      skills: currentSkills(agent),
    });
    return c.json({
      agent_id: agentId,
      backend,
      checkpoint_id: stored.checkpoint_id,
      registry: stored.registry,
      ...view,
    });
  });

  app.delete("/memory/threads/:contextId", async (c) => {
    const contextId = contextIdParam(c.req.param("contextId"));
    const ctx = requestContextOf(c);
    const { tasksErased } = await eraseThread(ctx, storageBackend(ctx), contextId);
    return c.json({
      agent_id: ctx.agentId,
      context_id: contextId,
      erased: true,
      tasks_erased: tasksErased,
    });
  });
}
