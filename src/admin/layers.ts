/**
 * The MemoryConfig layers of the agent this Worker serves, as the management API sees them:
 * code (`defineAgent({ memory })`), env, registry (`createWorker(agent, { registry })`) and
 * the run-time layer (PATCH /api/v1/memory/config). Precedence is resolveMemoryConfig's.
 */
import { findRegisteredAgent, registeredAgent } from "../agent/registry.ts";
import {
  type MemoryConfigLayers,
  type MemoryConfigPatch,
  type ResolvedMemoryConfig,
  resolveMemoryConfig,
} from "../memory/config.ts";
import { parseWorkerVars } from "../worker/env.ts";

type Env = Readonly<Record<string, unknown>>;

/**
 * The registry layer registered with the agent. `registerAgent({ …, registryLayer })` sets
 * it (see docs/admin.md, "Registry"); read structurally so this module works before and
 * after that field exists.
 */
function registryLayerOf(agentId: string): MemoryConfigPatch | undefined {
  const entry = findRegisteredAgent() as
    | { registryLayer?: ((agentId: string) => MemoryConfigPatch | undefined) | undefined }
    | undefined;
  return entry?.registryLayer?.(agentId);
}

export function agentIdOf(env: Env): string {
  return parseWorkerVars(env).AGENT_ID;
}

/** Every layer but the run-time one. */
export function deployLayers(env: Env): MemoryConfigLayers {
  const agentId = agentIdOf(env);
  return { code: registeredAgent().agent.memory, env, registry: registryLayerOf(agentId) };
}

/** The effective config with the given run-time layer, and the source of each key. */
export function resolveWithRuntime(env: Env, runtime: MemoryConfigPatch): ResolvedMemoryConfig {
  return resolveMemoryConfig({ ...deployLayers(env), runtime });
}
