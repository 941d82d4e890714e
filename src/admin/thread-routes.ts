/**
 * `/api/v1/memory/threads`: this agent's conversations (R2.3: never another agent's). A
 * conversation belongs to a principal (the A2A caller) and a contextId; every entry shows both.
 *
 * - GET `?limit=20&cursor=…&principal=…`: a page, newest activity first, of every principal's
 *   conversations or (with `principal`) one's; `next_cursor` is null on the last page
 *   (postgres: llamon_threads; the Durable Object backends: the agent's index object).
 * - GET `/:contextId?principal=…&before=…&limit=…`: the stored thread as the window sees it
 *   (inspect.ts), with one page of its messages: the `limit` (default 100, at most 500) before
 *   position `before` (default: the end, i.e. the newest page); `page.older` is the `before` of
 *   the next older page, null on the first.
 * - DELETE `/:contextId?principal=…`: erase everything of that conversation (right to be
 *   forgotten); the same contextId of another principal is untouched.
 *   `principal` defaults to `anonymous` (A2A_AUTH=none, and conversations stored before).
 * - GET / DELETE `/api/v1/memory/thread?context_id=…&principal=…`: the same two for any
 *   contextId, including `.` and `..`, which a URL path cannot carry (dot segments resolve).
 * - POST `/api/v1/memory/erasures/drain`: erase the A2A task records of conversations that
 *   `llamon memory prune` deleted from Postgres (erasures.ts); `pending` says what is left.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { currentSkills } from "../agent/define.ts";
import { registeredAgent } from "../agent/registry.ts";
import type { RequestContext } from "../runtime/context.ts";
import { type AppEnv, requestContextOf } from "../runtime/http.ts";
import {
  ANONYMOUS_PRINCIPAL,
  MAX_CONTEXT_ID_CHARS,
  principalProblem,
  threadKey,
} from "../runtime/thread-keys.ts";
import { drainTaskErasures } from "./erasures.ts";
import { badRequest, notFound } from "./errors.ts";
import { flowView } from "./flow-view.ts";
import { inspectThread } from "./inspect.ts";
import {
  DEFAULT_MESSAGE_PAGE,
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  eraseThread,
  listThreads,
  MAX_MESSAGE_PAGE,
  MAX_PAGE_SIZE,
  type MessagePage,
  readThread,
} from "./threads.ts";

const wholeNumber = (what: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, { error: `must be ${what}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .max(max, { error: `must be ${what}` }),
    );

/** `?before=&limit=` of a conversation's message page. */
const messagePageQuery = z.object({
  before: wholeNumber(
    "a message position (a whole number ≥ 0)",
    Number.MAX_SAFE_INTEGER,
  ).optional(),
  limit: wholeNumber(`a whole number from 1 to ${MAX_MESSAGE_PAGE}`, MAX_MESSAGE_PAGE)
    .pipe(z.number().min(1, { error: `must be a whole number from 1 to ${MAX_MESSAGE_PAGE}` }))
    .optional(),
});

function messagePageParam(c: { req: { query(name: string): string | undefined } }): MessagePage {
  const parsed = messagePageQuery.safeParse({
    before: c.req.query("before"),
    limit: c.req.query("limit"),
  });
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "query");
      fields[key] = [...(fields[key] ?? []), issue.message];
    }
    throw badRequest("invalid query", fields);
  }
  return { before: parsed.data.before, limit: parsed.data.limit ?? DEFAULT_MESSAGE_PAGE };
}

/** Where this deployment stores conversations (deploy-time layers; runtime cannot move them). */
function storageBackend(ctx: RequestContext) {
  return ctx.deployConfig.backend;
}

function contextIdParam(raw: string): string {
  if (raw.length === 0 || raw.length > MAX_CONTEXT_ID_CHARS) {
    throw badRequest(`contextId must be 1–${MAX_CONTEXT_ID_CHARS} characters`, {
      contextId: ["bad length"],
    });
  }
  return raw;
}

/** `?principal=`: undefined when absent; 400 when not a principal. */
function principalParam(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const problem = principalProblem(raw);
  if (problem !== undefined) {
    throw badRequest(`principal ${problem}`, { principal: [problem] });
  }
  return raw;
}

/** The conversation a route addresses: (principal, contextId), principal default anonymous. */
function addressed(c: {
  req: { param(name: string): string | undefined; query(name: string): string | undefined };
}) {
  // `/threads/:contextId`, or `/thread?context_id=` for any contextId: the dot segments `.`
  // and `..` never reach a route as a path segment (URLs resolve them, %2E%2E included).
  const contextId = contextIdParam(c.req.param("contextId") ?? c.req.query("context_id") ?? "");
  const principal = principalParam(c.req.query("principal")) ?? ANONYMOUS_PRINCIPAL;
  return { principal, contextId, threadId: threadKey(principal, contextId) };
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
    const principal = principalParam(c.req.query("principal"));
    const ctx = requestContextOf(c);
    const page = await listThreads(ctx, storageBackend(ctx), { limit, cursor, principal });
    return c.json({ agent_id: ctx.agentId, ...page });
  });

  app.get("/memory/threads/:contextId", (c) => showThread(c));
  app.get("/memory/thread", (c) => showThread(c));
  app.delete("/memory/threads/:contextId", (c) => deleteThread(c));
  app.delete("/memory/thread", (c) => deleteThread(c));
  // Task records of conversations `llamon memory prune` deleted from Postgres (erasures.ts).
  app.post("/memory/erasures/drain", async (c) => {
    const ctx = requestContextOf(c);
    const drained = await drainTaskErasures(ctx);
    return c.json({
      agent_id: ctx.agentId,
      conversations: drained.conversations,
      tasks_erased: drained.tasksErased,
      pending: drained.pending,
    });
  });
}

async function showThread(c: Context<AppEnv>) {
  {
    const { principal, contextId, threadId } = addressed(c);
    const page = messagePageParam(c);
    const ctx = requestContextOf(c);
    const { agentId } = ctx;
    const backend = storageBackend(ctx);
    // The config this isolate resolves for a request (same cache as the turn path); an
    // in_memory object cuts the head it sends by its window_size.
    const configured = ctx.config();
    const [stored, config] = await Promise.all([
      readThread(ctx, backend, threadId, page, async () => (await configured).window_size),
      configured,
    ]);
    if (stored === undefined) {
      throw notFound(
        `agent "${agentId}" has no stored conversation "${contextId}" of principal "${principal}"`,
      );
    }
    const { agent } = registeredAgent();
    const view = inspectThread({
      contextId,
      messages: stored.messages,
      from: stored.from,
      older: stored.older,
      head: stored.head,
      archived: stored.archived,
      memory: stored.memory,
      config,
      systemText: agent.system,
      skills: currentSkills(agent),
    });
    return c.json({
      agent_id: agentId,
      principal,
      backend,
      checkpoint_id: stored.checkpoint_id,
      registry: stored.registry,
      ...view,
      // A flow's position (name, step, pending question), from its checkpointed state.
      flow: flowView(agent, stored.flow),
    });
  }
}

async function deleteThread(c: Context<AppEnv>) {
  {
    const { principal, contextId, threadId } = addressed(c);
    const ctx = requestContextOf(c);
    const { tasksErased } = await eraseThread(ctx, storageBackend(ctx), threadId);
    return c.json({
      agent_id: ctx.agentId,
      principal,
      context_id: contextId,
      erased: true,
      tasks_erased: tasksErased,
    });
  }
}
