/**
 * The A2A task records of pruned conversations, from the CLI's side. They live in the
 * Worker's Durable Objects, which this process cannot reach: `llamon memory prune --apply`
 * queues them in Postgres (llamon_task_erasures, same transaction as the delete) and then
 * either asks the Worker to erase them now (`--url`: POST /api/v1/memory/erasures/drain with
 * the admin token), or says plainly that they are pending until the Worker's cron trigger.
 */

import { LlamonError } from "llamon/errors";
import { z } from "zod";
import { nonEmpty } from "./config.ts";
import { info } from "./output.ts";

const drainSchema = z.object({
  agent_id: z.string(),
  conversations: z.number().int().nonnegative(),
  tasks_erased: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
});

export interface WorkerDrain {
  readonly agentId: string;
  readonly conversations: number;
  readonly tasksErased: number;
  readonly pending: number;
}

/** The Worker's base URL from `--url`: http(s) only, no trailing slash. */
export function workerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LlamonError(
      "CONFIG_INVALID",
      `--url "${raw}" is not a URL (e.g. https://my-agent.example.workers.dev)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new LlamonError("CONFIG_INVALID", `--url must be an http(s) URL, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, "");
}

/** `--token`, else LLAMON_ADMIN_TOKEN (environment, then the project's .dev.vars). */
export function adminTokenOf(flag: string | undefined, vars: Record<string, string>): string {
  const token =
    nonEmpty(flag) ?? nonEmpty(process.env.LLAMON_ADMIN_TOKEN) ?? nonEmpty(vars.LLAMON_ADMIN_TOKEN);
  if (token === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "--url needs the Worker's admin token: pass --token <LLAMON_ADMIN_TOKEN> or set LLAMON_ADMIN_TOKEN",
    );
  }
  return token;
}

async function drainOnce(url: string, token: string): Promise<WorkerDrain> {
  const endpoint = `${url}/api/v1/memory/erasures/drain`;
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    });
  } catch (error) {
    throw new LlamonError(
      "NOT_AVAILABLE",
      `cannot reach the Worker at ${url}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const message =
      typeof body === "object" && body !== null && "message" in body
        ? String((body as { message: unknown }).message)
        : `HTTP ${res.status}`;
    throw new LlamonError(
      res.status === 401 || res.status === 403 ? "UNAUTHORIZED" : "NOT_AVAILABLE",
      `the Worker at ${url} did not erase the task records (${res.status}): ${message}`,
    );
  }
  const parsed = drainSchema.safeParse(body);
  if (!parsed.success) {
    throw new LlamonError(
      "NOT_AVAILABLE",
      `${endpoint} answered something else than llamon's drain result: is --url an llamon Worker of this version?`,
    );
  }
  const d = parsed.data;
  return {
    agentId: d.agent_id,
    conversations: d.conversations,
    tasksErased: d.tasks_erased,
    pending: d.pending,
  };
}

/**
 * Ask the Worker to erase every queued conversation's task records, batch after batch, until
 * none is pending (or a batch makes no progress). Checks the Worker serves `agentId`.
 */
export async function drainViaWorker(
  url: string,
  token: string,
  agentId: string | undefined,
): Promise<WorkerDrain> {
  let conversations = 0;
  let tasksErased = 0;
  for (;;) {
    const step = await drainOnce(url, token);
    if (agentId !== undefined && step.agentId !== agentId) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `the Worker at ${url} serves agent "${step.agentId}", not "${agentId}": check --url and --agent-id`,
      );
    }
    conversations += step.conversations;
    tasksErased += step.tasksErased;
    if (step.pending === 0 || step.conversations === 0) {
      return { agentId: step.agentId, conversations, tasksErased, pending: step.pending };
    }
  }
}

export function printDrain(drain: WorkerDrain): void {
  info(
    `erased the A2A task records of ${drain.conversations} conversation(s) in the Worker: ${drain.tasksErased} task(s)`,
  );
  if (drain.pending > 0) info(`still queued: ${drain.pending} conversation(s)`);
}

/** What a prune without `--url` says about the task records it could not reach. */
export function printPending(pending: number, agentId: string): void {
  if (pending === 0) return;
  info(
    `pending: the A2A task records of ${pending} pruned conversation(s) of agent ${agentId} are still in the Worker's Durable Objects (tasks/get still answers them).`,
  );
  info(
    "  The Worker erases them on its next cron run ([triggers] crons in wrangler.toml), or now with:",
  );
  info("  npx llamon memory drain --url https://<your-worker> --token <LLAMON_ADMIN_TOKEN>");
}

export function drainJson(drain: WorkerDrain) {
  return {
    conversations: drain.conversations,
    tasks_erased: drain.tasksErased,
    pending: drain.pending,
  };
}
