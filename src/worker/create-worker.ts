/**
 * createWorker(agent): the Worker of an llamon agent — A2A JSON-RPC, the agent card,
 * health, and the summary queue consumer. The script must also export the ThreadDO class:
 *
 *   import { createWorker, ThreadDO } from "llamon/worker";
 *   export default createWorker(agent);
 *   export { ThreadDO };
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { loadRegistry, registryLayerFor } from "../admin/registry.ts";
import type { AgentDefinition } from "../agent/define.ts";
import { registerAgent } from "../agent/registry.ts";
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
  return { fetch: app.fetch, queue: handleQueueBatch };
}
