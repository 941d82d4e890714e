/**
 * createWorker(agent): the Worker of an llamon agent — A2A JSON-RPC, the agent card,
 * health, the summary queue consumer, and the cron trigger that erases pruned
 * conversations' task records. The script must also export the ThreadDO class:
 *
 *   import { createWorker, ThreadDO } from "llamon/worker";
 *   export default createWorker(agent);
 *   export { ThreadDO };
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { drainsErasures, drainTaskErasures } from "../admin/erasures.ts";
import { loadRegistry, registryLayerFor } from "../admin/registry.ts";
import type { AgentDefinition } from "../agent/define.ts";
import { agentRequestContext, registerAgent } from "../agent/registry.ts";
import { createLogger } from "../log.ts";
import { handleQueueBatch } from "../queue/consumer.ts";
import type { Env } from "../runtime/env.ts";
import { createApp } from "./app.ts";

export interface WorkerOptions {
  /** Build the model yourself instead of from LLM_* variables. */
  readonly model?: (env: Record<string, unknown>) => BaseChatModel;
  /**
   * A registry file (parsed JSON, e.g. `import registry from "./llamon.registry.json" with
   * { type: "json" }`): its Memory entity's config is the `registry` layer of MemoryConfig
   * (docs/admin.md). Validated here, so a bad file fails the Worker at startup.
   */
  readonly registry?: unknown;
}

export function createWorker(
  agent: AgentDefinition,
  options: WorkerOptions = {},
): ExportedHandler<Env> {
  const registry =
    options.registry === undefined
      ? undefined
      : loadRegistry(options.registry, "createWorker registry");
  registerAgent({
    agent,
    model: options.model,
    registryLayer: registry && ((agentId: string) => registryLayerFor(registry, agentId)),
  });
  const app = createApp(agent);
  return { fetch: app.fetch, queue: handleQueueBatch, scheduled: drainOnSchedule };
}

/**
 * The cron trigger (`[triggers] crons` in wrangler.toml): erase the A2A task records of
 * conversations `llamon memory prune` deleted from Postgres (admin/erasures.ts). Other
 * backends queue nothing; a failure is logged and the queue keeps the rest for the next run.
 */
async function drainOnSchedule(
  _controller: ScheduledController,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const log = createLogger();
  let request: ReturnType<typeof agentRequestContext>;
  try {
    request = agentRequestContext({ env, log, waitUntil: (p) => ctx.waitUntil(p) });
  } catch (error) {
    log.error("scheduled: the Worker's configuration is invalid", { error: messageOf(error) });
    return;
  }
  if (!drainsErasures(request)) return;
  try {
    const drained = await drainTaskErasures(request);
    if (drained.conversations > 0 || drained.pending > 0) {
      request.log.info("scheduled: erased task records of pruned conversations", {
        conversations: drained.conversations,
        tasks_erased: drained.tasksErased,
        pending: drained.pending,
      });
    }
  } catch (error) {
    request.log.error("scheduled: erasing task records of pruned conversations failed", {
      error: messageOf(error),
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
