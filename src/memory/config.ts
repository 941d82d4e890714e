/**
 * MemoryConfig — the memory settings of one agent, with the seed's snake_case keys
 * (`window_size`, `summarize_threshold`, …) so code, registry files, docs and the
 * management API use one spelling.
 *
 * Precedence, per key, later wins:
 *
 *   1. `default`  — the schema defaults ({@link MEMORY_CONFIG_DEFAULTS})
 *   2. `code`     — the MemoryConfig given in code (`defineAgent({ memory })`)
 *   3. `env`      — Worker vars / `.dev.vars` ({@link MEMORY_ENV_VARS})
 *   4. `registry` — the registry's Memory entity config (same keys, R7.6)
 *   5. `runtime`  — a run-time change, `PATCH /api/v1/memory/config` (R10.2); only the
 *                   run-time keys (never `backend` or `postgres_dsn`)
 *
 * A layer that leaves a key out does not touch it; in a layer, `null` for an optional key
 * (`postgres_dsn`, `max_history_tokens`, `persist_trim_keep_groups`) unsets it. Every layer
 * is validated on its own (the error names the layer as `details.source`) and the merged
 * result is validated again. {@link resolveMemoryConfig} also reports which layer set
 * each effective value.
 */
import { memoryConfigFromEnv } from "./config-env.ts";
import {
  MEMORY_CONFIG_KEYS,
  type MemoryBackend,
  type MemoryConfig,
  type MemoryConfigKey,
  type MemoryConfigPatch,
  parseMemoryConfig,
  parseMemoryConfigPatch,
  parseRuntimeConfigPatch,
} from "./config-schema.ts";

export { memoryConfigFromEnv } from "./config-env.ts";
export type { MemoryConfigErrorDetails } from "./config-issues.ts";
export {
  DEPLOY_TIME_CONFIG_KEYS,
  EMBEDDING_PROVIDERS,
  type EmbeddingProviderName,
  FACTS_MODES,
  type FactsMode,
  MEMORY_BACKENDS,
  MEMORY_CONFIG_DEFAULTS,
  MEMORY_CONFIG_KEYS,
  MEMORY_CONFIG_MAX,
  MEMORY_ENV_VARS,
  type MemoryBackend,
  type MemoryConfig,
  type MemoryConfigInput,
  type MemoryConfigKey,
  type MemoryConfigPatch,
  type MemoryConfigRuntimeKey,
  type MemoryConfigRuntimePatch,
  type MemoryEnvVar,
  memoryConfigPatchSchema,
  memoryConfigRuntimeSchema,
  memoryConfigSchema,
  PROMPT_CONTEXT_MODES,
  type PromptContextMode,
  parseMemoryConfig,
  parseMemoryConfigPatch,
  parseRuntimeConfigPatch,
  RUNTIME_CONFIG_KEYS,
} from "./config-schema.ts";

/** The layer that set a key's effective value. */
export type MemoryConfigSource = "default" | "code" | "env" | "registry" | "runtime";

/** Inputs of {@link resolveMemoryConfig}; every layer is optional. */
export interface MemoryConfigLayers {
  /** The MemoryConfig written in code (a partial object; validated strictly). */
  code?: unknown;
  /** The raw environment (Worker `env`, `.dev.vars`); only MEMORY_ENV_VARS are read. */
  env?: Readonly<Record<string, unknown>>;
  /** The registry's Memory entity config (same keys). */
  registry?: unknown;
  /** The run-time change (the stored result of PATCH /api/v1/memory/config). */
  runtime?: unknown;
}

export interface ResolvedMemoryConfig {
  config: MemoryConfig;
  sources: Record<MemoryConfigKey, MemoryConfigSource>;
}

/** Merges defaults → code → env → registry → runtime (later wins); see the file header. */
export function resolveMemoryConfig(layers: MemoryConfigLayers = {}): ResolvedMemoryConfig {
  const ordered: [Exclude<MemoryConfigSource, "default">, MemoryConfigPatch][] = [
    ["code", parseMemoryConfigPatch(layers.code, "code")],
    ["env", memoryConfigFromEnv(layers.env ?? {})],
    ["registry", parseMemoryConfigPatch(layers.registry, "registry")],
    ["runtime", parseRuntimeConfigPatch(layers.runtime, "runtime")],
  ];
  const merged: Record<string, unknown> = {};
  const sources = Object.fromEntries(MEMORY_CONFIG_KEYS.map((key) => [key, "default"])) as Record<
    MemoryConfigKey,
    MemoryConfigSource
  >;
  for (const [source, patch] of ordered) {
    for (const key of MEMORY_CONFIG_KEYS) {
      const value = patch[key];
      if (value === undefined) continue;
      sources[key] = source;
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
  }
  return { config: parseMemoryConfig(merged, "merged memory config"), sources };
}

/**
 * The R7.1 re-summary period: after the first summary (at `summarize_threshold` messages),
 * a new one each time this many more messages have left the window. It is
 * `summarize_threshold - window_size`, or `window_size` when the threshold is not above
 * the window (so a bad setting never means "summarize on every call").
 */
export function summaryPeriod(
  config: Pick<MemoryConfig, "summarize_threshold" | "window_size">,
): number {
  const { summarize_threshold: threshold, window_size: window } = config;
  return threshold <= window ? window : threshold - window;
}

/**
 * Where a turn with this config keeps its conversation: `off` when memory is disabled
 * (`enabled: false` is the same as backend `off`), else the backend.
 */
export function effectiveBackend(config: Pick<MemoryConfig, "enabled" | "backend">): MemoryBackend {
  return config.enabled ? config.backend : "off";
}
