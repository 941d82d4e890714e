/**
 * The agent this Worker script serves. `createWorker(agent)` registers it when the script
 * loads; the ThreadDO (same script, same module scope) runs its turns with it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { LlamonError } from "../errors.ts";
import type { MemoryConfigPatch } from "../memory/config.ts";
import type { AgentLayers } from "../runtime/config.ts";
import {
  createRequestContext,
  type RequestContext,
  type RequestContextOptions,
} from "../runtime/context.ts";
import type { AgentDefinition } from "./define.ts";

export interface RegisteredAgent {
  readonly agent: AgentDefinition;
  /** Build the model from the Worker's env; default: the provider configured in env. */
  readonly model?: ((env: Record<string, unknown>) => BaseChatModel) | undefined;
  /** The registry layer of MemoryConfig for an AGENT_ID (`createWorker(agent, { registry })`). */
  readonly registryLayer?: ((agentId: string) => MemoryConfigPatch) | undefined;
}

let registered: RegisteredAgent | undefined;

export function registerAgent(entry: RegisteredAgent): void {
  registered = entry;
}

/** The registered agent, or undefined before createWorker ran. */
export function findRegisteredAgent(): RegisteredAgent | undefined {
  return registered;
}

export function registeredAgent(): RegisteredAgent {
  if (registered === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "no agent is registered: the Worker entry must call createWorker(agent) (see the README)",
    );
  }
  return registered;
}

/** The registered agent's MemoryConfig layers (code, registry); none before createWorker ran. */
export function registeredLayers(): AgentLayers {
  const entry = registered;
  return { code: entry?.agent.memory, registry: entry?.registryLayer };
}

/** A request context of the agent this script serves (runtime/context.ts). */
export function agentRequestContext(
  options: Omit<RequestContextOptions, "layers">,
): RequestContext {
  return createRequestContext({ ...options, layers: registeredLayers() });
}
