/**
 * The agent's MemoryConfig from its layers, resolved in one place for every user: turns
 * (Worker and Durable Object), /health, the management API and the summary queue consumer.
 *
 *   code (`defineAgent({ memory })`) → env → registry (`createWorker(agent, { registry })`)
 *   → runtime (PATCH /api/v1/memory/config)
 *
 * The first three are the deploy-time layers: they alone decide where conversations and
 * the run-time layer are stored (`backend`, `postgres_dsn` cannot change at run time). The
 * run-time layer is read by runtime-layer.ts (per-isolate cache) or, on postgres turns, from
 * the turn's own read batch (no extra round trip; worker/turns.ts).
 */
import {
  type MemoryConfig,
  type MemoryConfigLayers,
  type MemoryConfigPatch,
  type ResolvedMemoryConfig,
  resolveMemoryConfig,
} from "../memory/config.ts";
import type { Db } from "../store/db.ts";
import { workerDb } from "./db.ts";
import { type Env, parseWorkerVars } from "./env.ts";
import { memoizeOnEnv } from "./env-memo.ts";

/** The deploy-time layers the agent brings (env is read from the Worker's env). */
export interface AgentLayers {
  /** The MemoryConfig written in code. */
  readonly code?: MemoryConfigPatch | undefined;
  /** The registry layer for an AGENT_ID. */
  readonly registry?: ((agentId: string) => MemoryConfigPatch | undefined) | undefined;
}

export function agentIdOf(env: Readonly<Record<string, unknown>>): string {
  return parseWorkerVars(env).AGENT_ID;
}

/** Every layer but the run-time one. */
export function deployLayers(env: Env, agent: AgentLayers, agentId = agentIdOf(env)) {
  return {
    code: agent.code,
    env,
    registry: agent.registry?.(agentId),
  } satisfies MemoryConfigLayers;
}

/** The agent's effective config with the given run-time layer, and the source of each key. */
export function resolveAgentConfig(
  env: Env,
  agent: AgentLayers,
  runtime?: MemoryConfigPatch,
  agentId = agentIdOf(env),
): ResolvedMemoryConfig {
  return resolveMemoryConfig({ ...deployLayers(env, agent, agentId), runtime });
}

/** What reading or resolving the agent's config needs (a request context is one). */
export interface ConfigScope {
  readonly env: Env;
  readonly agentId: string;
  readonly layers: AgentLayers;
  /** The deploy-time config: where conversations and the run-time layer live. */
  readonly deployConfig: MemoryConfig;
  /** The request's database handle (postgres); created on first use. */
  db(): Db;
}

/**
 * The effective config of a request: {@link resolveAgentConfig} with the run-time layer,
 * remembered per isolate while the env, the agent's layers and the run-time layer (by its
 * JSON) are unchanged — most requests of an isolate resolve the same layers. Frozen, with its
 * `config` and `sources`.
 */
export function resolveRequestConfig(
  env: Env,
  layers: AgentLayers,
  runtime: MemoryConfigPatch | undefined,
  agentId: string,
): ResolvedMemoryConfig {
  return requestConfigOf(
    env,
    layers.code,
    layers.registry,
    agentId,
    runtime === undefined ? "" : JSON.stringify(runtime),
  );
}

const requestConfigOf = memoizeOnEnv(
  (
    env,
    code: AgentLayers["code"],
    registry: AgentLayers["registry"],
    agentId: string,
    runtimeJson: string,
  ) => {
    const runtime = runtimeJson === "" ? undefined : (JSON.parse(runtimeJson) as MemoryConfigPatch);
    const resolved = resolveAgentConfig(env as Env, { code, registry }, runtime, agentId);
    Object.freeze(resolved.config);
    Object.freeze(resolved.sources);
    return resolved;
  },
);

/** A ConfigScope for `env` (validates AGENT_ID and the deploy-time layers). */
export function configScope(env: Env, layers: AgentLayers): ConfigScope {
  const agentId = agentIdOf(env);
  // The request's config without a run-time layer: the same memo, so a request that has none
  // reuses it instead of resolving the deploy-time layers a second time.
  const deployConfig = resolveRequestConfig(env, layers, undefined, agentId).config;
  let db: Db | undefined;
  return {
    env,
    agentId,
    layers,
    deployConfig,
    db: () => {
      db ??= workerDb(env);
      return db;
    },
  };
}
