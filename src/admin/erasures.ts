/**
 * Erasing the A2A task records of conversations that `llamon memory prune` deleted.
 *
 * The task records (each holds a user message and its reply) live in this Worker's Durable
 * Objects: in the owner's task list, and for records of earlier releases also in objects of
 * their own, indexed in the conversation's object (task-erasure.ts). A prune run from a shell
 * reaches Postgres only, so its delete queues each deleted conversation in
 * `llamon_task_erasures` in the same transaction (migration 0010), and the Worker drains that
 * queue here:
 *
 * - the cron trigger (`[triggers] crons` in wrangler.toml → the Worker's `scheduled`), and
 * - `POST /api/v1/memory/erasures/drain` (what `llamon memory prune --apply --url` and
 *   `llamon memory drain` call right away).
 *
 * For each queued conversation: erase the task records written before it was queued (a
 * conversation begun again under the same contextId keeps its new tasks), then delete the
 * queue row — only the row as read, so a prune that queued it again meanwhile is kept. A
 * failure leaves the row queued for the next drain: nothing is ever dropped silently.
 */
import { dbErrorFields, LlamonError } from "../errors.ts";
import type { RequestContext } from "../runtime/context.ts";
import type { SqlParam } from "../store/db.ts";
import { COUNT_TASK_ERASURES, DELETE_TASK_ERASURE, SELECT_TASK_ERASURES } from "../store/sql.ts";
import { notAvailable } from "./errors.ts";
import { eraseConversationTasks } from "./task-erasure.ts";

/** Conversations per drain call: each costs two Durable Object calls and one statement. */
export const DRAIN_BATCH = 100;
/** Conversations erased at once within a batch. */
const PARALLEL = 8;

export interface DrainResult {
  /** Conversations whose task records were erased (their queue rows are gone). */
  readonly conversations: number;
  readonly tasksErased: number;
  /** Conversations still queued (more than one batch, or queued meanwhile). */
  readonly pending: number;
}

interface QueuedRow {
  thread_id: string;
  queued_ms: number | string;
  queued_at: string;
  /** The conversation generations the prune retired (migration 0016). */
  generations: string[] | null;
}

const NO_TABLE =
  "this database has no llamon_task_erasures table (migration 0010): run `npx llamon migrate --dsn …` against it";

async function query<R>(ctx: RequestContext, text: string, params: readonly SqlParam[]) {
  try {
    return await ctx.db().query<R>(text, params);
  } catch (error) {
    if (dbErrorFields(error)?.sqlstate === "42P01") {
      throw new LlamonError("CONFIG_INVALID", NO_TABLE, { cause: error });
    }
    throw error;
  }
}

/** Whether this deployment has a queue to drain (postgres backend with the THREADS binding). */
export function drainsErasures(ctx: RequestContext): boolean {
  return ctx.deployConfig.backend === "postgres" && ctx.env.THREADS !== undefined;
}

/** Erase the task records of up to `limit` queued conversations of this agent. */
export async function drainTaskErasures(
  ctx: RequestContext,
  limit = DRAIN_BATCH,
): Promise<DrainResult> {
  if (ctx.deployConfig.backend !== "postgres") {
    throw notAvailable(
      `MEMORY_BACKEND=${ctx.deployConfig.backend}: only the postgres backend queues task-record erasures (\`llamon memory prune\` prunes Postgres)`,
    );
  }
  if (ctx.env.THREADS === undefined) {
    throw notAvailable("the THREADS Durable Object binding is missing in wrangler.toml");
  }
  const { agentId, env } = ctx;
  const { rows } = await query<QueuedRow>(ctx, SELECT_TASK_ERASURES, [agentId, limit]);
  let conversations = 0;
  let tasksErased = 0;
  let failure: unknown;
  for (let i = 0; i < rows.length; i += PARALLEL) {
    const outcomes = await Promise.allSettled(
      rows.slice(i, i + PARALLEL).map(async (row) => {
        const erased = await eraseConversationTasks(
          env,
          agentId,
          row.thread_id,
          "erasing pruned task records",
          Number(row.queued_ms),
          row.generations ?? [],
        );
        await query(ctx, DELETE_TASK_ERASURE, [agentId, row.thread_id, row.queued_at]);
        return erased;
      }),
    );
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") {
        conversations += 1;
        tasksErased += outcome.value;
      } else {
        failure ??= outcome.reason;
      }
    }
  }
  if (failure !== undefined) {
    ctx.log.error("task-record erasure failed; the conversation stays queued", {
      error: failure instanceof Error ? failure.message : String(failure),
      erased_conversations: conversations,
    });
    throw failure;
  }
  const counted = await query<{ pending: number | string }>(ctx, COUNT_TASK_ERASURES, [agentId]);
  return { conversations, tasksErased, pending: Number(counted.rows[0]?.pending ?? 0) };
}
