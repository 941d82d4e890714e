/**
 * The run-time layer of MemoryConfig (R7.6, R10.2): what `PATCH /api/v1/memory/config`
 * stores, per agent, and how every isolate picks it up.
 *
 * Where it is stored — decided by the deploy-time layers (code, env, registry), never by
 * the run-time layer itself:
 * - backend `postgres` (with POSTGRES_MEMORY_DSN): persistent_memory, agent-level row
 *   (agent_id, thread_id '', key `settings`), value `{"memory": {…}, "updated_at": "…"}`;
 *   patches are merged in one SQL statement, so concurrent PATCHes never lose a key;
 * - other backends: the agent's settings Durable Object `settings:<AGENT_ID>` (THREADS
 *   binding), storage key `settings`, same value; a PATCH or DELETE is one RPC that reads,
 *   changes and writes the value in one storage transaction inside the object
 *   (durable/settings-slot.ts), so concurrent PATCHes of different keys never lose a key;
 * - neither available: no run-time layer (PATCH answers 501).
 *
 * Propagation bound: each isolate caches the layer for LLAMON_RUNTIME_CONFIG_TTL_SECONDS
 * (default 5; 0 = read on every use). The isolate that served the PATCH uses the new value
 * at once; every other isolate within that many seconds (plus the time of one read).
 * Concurrent cache misses in one isolate share one read. On postgres a turn does better
 * than the bound without paying for it: its read batch (checkpoint + persistent_memory
 * rows, which include this agent-level `settings` row) already returns the layer, so the
 * turn uses that value and hands it to this cache ({@link adoptRuntimeSettings}); no turn
 * reads the layer on its own.
 *
 * `backend` and `postgres_dsn` cannot be changed at run time: they decide where
 * conversations (and this layer) live. Change them in code, env or the registry and deploy.
 */
import { LlamonError } from "../errors.ts";
import {
  type MemoryConfigKey,
  type MemoryConfigPatch,
  parseMemoryConfigPatch,
} from "../memory/config.ts";
import { createPostgresMemory } from "../store/persistent-memory.ts";
import { MERGE_RUNTIME_CONFIG, RESET_RUNTIME_CONFIG } from "../store/sql.ts";
import type { ConfigScope } from "./config.ts";
import type { Env } from "./env.ts";
import { settingsObjectName, threadsObject } from "./objects.ts";

export const RUNTIME_SETTINGS_KEY = "settings";
export const RUNTIME_CONFIG_TTL_VAR = "LLAMON_RUNTIME_CONFIG_TTL_SECONDS";
export const DEFAULT_RUNTIME_CONFIG_TTL_SECONDS = 5;
/** Keys a PATCH may not change (see the file header). */
export const DEPLOY_TIME_KEYS: readonly MemoryConfigKey[] = ["backend", "postgres_dsn"];

export type RuntimeStoreKind = "postgres" | "durable_object";

/** The stored run-time layer of one agent. */
export interface RuntimeSettings {
  /** The layer as stored (validated when read into a config). */
  readonly memory: Record<string, unknown>;
  readonly updated_at: string | undefined;
}

interface RuntimeStore {
  readonly kind: RuntimeStoreKind;
  read(): Promise<RuntimeSettings>;
  merge(patch: MemoryConfigPatch, now: string): Promise<RuntimeSettings>;
  /** Remove these keys (all when empty). */
  reset(keys: readonly string[], now: string): Promise<RuntimeSettings>;
}

const EMPTY: RuntimeSettings = { memory: {}, updated_at: undefined };

/**
 * One change of the stored layer: keys to set (a `null` value is kept: it unsets an optional
 * key at run time), then keys to remove (`"all"`: the whole layer).
 */
export interface SettingsChange {
  readonly set: Readonly<Record<string, unknown>>;
  readonly remove: readonly string[] | "all";
  /** The new `updated_at` (ISO time). */
  readonly now: string;
}

/** The settings after a change (pure; the settings object applies it in one transaction). */
export function applySettingsChange(
  current: RuntimeSettings,
  change: SettingsChange,
): RuntimeSettings {
  const merged: Record<string, unknown> =
    change.remove === "all" ? { ...change.set } : { ...current.memory, ...change.set };
  if (change.remove !== "all") for (const key of change.remove) delete merged[key];
  return { memory: merged, updated_at: change.now };
}

/**
 * The settings role of a THREADS object (durable/settings-slot.ts): the stored value, and
 * one change applied inside the object (read, change and write in one step), answering the
 * new settings.
 */
export interface SettingsHost {
  kvGet(key: string): Promise<unknown>;
  changeSettings(change: SettingsChange): Promise<RuntimeSettings>;
}

/** The stored value (a persistent_memory `settings` row, or the object's slot) as settings. */
export function toSettings(value: unknown): RuntimeSettings {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return EMPTY;
  const v = value as { memory?: unknown; updated_at?: unknown };
  const memory =
    typeof v.memory === "object" && v.memory !== null && !Array.isArray(v.memory)
      ? (v.memory as Record<string, unknown>)
      : {};
  return { memory, updated_at: typeof v.updated_at === "string" ? v.updated_at : undefined };
}

/** Where this deployment keeps its run-time layer, or undefined when nowhere. */
export function runtimeStoreFor(scope: ConfigScope): RuntimeStore | undefined {
  const { env, agentId } = scope;
  if (runtimeStoreKind(scope) === "postgres") {
    const db = scope.db();
    return {
      kind: "postgres",
      read: async () => toSettings(await createPostgresMemory(db, agentId).get(null, "settings")),
      merge: async (patch, now) => {
        const { rows } = await db.query<{ value: unknown }>(MERGE_RUNTIME_CONFIG, [
          agentId,
          JSON.stringify(patch),
          now,
        ]);
        return toSettings(rows[0]?.value);
      },
      reset: async (keys, now) => {
        const { rows } = await db.query<{ value: unknown }>(RESET_RUNTIME_CONFIG, [
          agentId,
          [...keys],
          now,
        ]);
        return toSettings(rows[0]?.value);
      },
    };
  }
  if (env.THREADS === undefined) return undefined;
  const object = () =>
    threadsObject<SettingsHost>(env, settingsObjectName(agentId), "the run-time settings");
  // Never read here and write back: two PATCHes would interleave and the later write would
  // drop the earlier one's keys. The object applies each change in one step.
  return {
    kind: "durable_object",
    read: async () => toSettings(await object().kvGet(RUNTIME_SETTINGS_KEY)),
    merge: (patch, now) => object().changeSettings({ set: patch, remove: [], now }),
    reset: (keys, now) =>
      object().changeSettings({ set: {}, remove: keys.length === 0 ? "all" : [...keys], now }),
  };
}

/** Where the layer lives (see the file header); undefined when nowhere. */
export function runtimeStoreKind(scope: ConfigScope): RuntimeStoreKind | undefined {
  const dsn = scope.env.POSTGRES_MEMORY_DSN;
  if (scope.deployConfig.backend === "postgres" && typeof dsn === "string" && dsn !== "") {
    return "postgres";
  }
  return scope.env.THREADS === undefined ? undefined : "durable_object";
}

// ---- the per-isolate cache -----------------------------------------------------------------

interface IsolateCache {
  /** Last value read or written, per agent id, and until when it is fresh. */
  readonly entries: Map<string, { settings: RuntimeSettings; expires: number }>;
  /** Reads in flight, per agent id: concurrent misses share one. */
  readonly reads: Map<string, Promise<RuntimeSettings>>;
}

/** Per Worker env object (one per isolate). */
const caches = new WeakMap<object, IsolateCache>();

export function runtimeConfigTtlMs(env: Env): number {
  const raw = env[RUNTIME_CONFIG_TTL_VAR];
  if (raw === undefined || raw === null || raw === "") {
    return DEFAULT_RUNTIME_CONFIG_TTL_SECONDS * 1000;
  }
  const seconds = typeof raw === "number" ? raw : Number(String(raw).trim());
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `${RUNTIME_CONFIG_TTL_VAR} must be a number of seconds from 0 to 3600, got ${JSON.stringify(raw)}`,
    );
  }
  return seconds * 1000;
}

function cacheOf(env: Env): IsolateCache {
  let cache = caches.get(env);
  if (cache === undefined) {
    cache = { entries: new Map(), reads: new Map() };
    caches.set(env, cache);
  }
  return cache;
}

/** Put a value just read or written into this isolate's cache. */
function remember(scope: ConfigScope, settings: RuntimeSettings): RuntimeSettings {
  const expires = Date.now() + runtimeConfigTtlMs(scope.env);
  cacheOf(scope.env).entries.set(scope.agentId, { settings, expires });
  return settings;
}

/**
 * A value of the layer read elsewhere (the `settings` row of a postgres turn's read batch):
 * the turn uses it, and this isolate's cache takes it unless it already holds a newer one
 * (a PATCH served here while the read was under way). Returns the settings.
 */
export function adoptRuntimeSettings(scope: ConfigScope, stored: unknown): RuntimeSettings {
  const settings = toSettings(stored);
  const entry = cacheOf(scope.env).entries.get(scope.agentId);
  const known = entry?.settings.updated_at;
  if (known === undefined || (settings.updated_at !== undefined && settings.updated_at >= known)) {
    remember(scope, settings);
  }
  return settings;
}

/**
 * The stored run-time settings of this agent, from this isolate's cache while fresh
 * (`fresh: true` always reads, and refreshes the cache). EMPTY when there is no store.
 * A failed cached read falls back to the last value this isolate saw, if any (and retries
 * on the next use); a failed fresh read throws.
 */
export async function loadRuntimeSettings(
  scope: ConfigScope,
  options: { fresh?: boolean } = {},
): Promise<RuntimeSettings> {
  const { entries, reads } = cacheOf(scope.env);
  const { agentId } = scope;
  const entry = entries.get(agentId);
  if (!options.fresh) {
    if (entry !== undefined && entry.expires > Date.now()) return entry.settings;
    const inflight = reads.get(agentId);
    if (inflight !== undefined) return inflight;
  }
  const store = runtimeStoreFor(scope);
  if (store === undefined) return remember(scope, EMPTY);
  const read: Promise<RuntimeSettings> = store
    .read()
    .then(
      (settings) => remember(scope, settings),
      (error: unknown) => {
        if (!options.fresh && entry !== undefined) return entry.settings;
        throw error;
      },
    )
    .finally(() => {
      if (reads.get(agentId) === read) reads.delete(agentId);
    });
  if (!options.fresh) reads.set(agentId, read);
  return read;
}

/**
 * The run-time MemoryConfig layer for this isolate's next turn (cached, see the file
 * header). Pass it as `runtime` to resolveAgentConfig (runtime/config.ts). An invalid
 * stored layer is a CONFIG_INVALID error naming the source "runtime".
 */
export async function loadRuntimeLayer(scope: ConfigScope): Promise<MemoryConfigPatch> {
  return runtimeLayerOf(await loadRuntimeSettings(scope));
}

/** The stored layer validated as a patch (CONFIG_INVALID naming the source "runtime"). */
export function runtimeLayerOf(settings: RuntimeSettings): MemoryConfigPatch {
  return parseMemoryConfigPatch(settings.memory, "runtime");
}

/** Merge a validated patch into the stored layer; this isolate sees it at once. */
export async function mergeRuntimeLayer(
  scope: ConfigScope,
  patch: MemoryConfigPatch,
): Promise<RuntimeSettings> {
  const store = requireStore(scope);
  return remember(scope, await store.merge(patch, new Date().toISOString()));
}

/** Remove keys from the stored layer (all when `keys` is empty); this isolate sees it at once. */
export async function resetRuntimeLayer(
  scope: ConfigScope,
  keys: readonly string[],
): Promise<RuntimeSettings> {
  const store = requireStore(scope);
  return remember(scope, await store.reset(keys, new Date().toISOString()));
}

function requireStore(scope: ConfigScope): RuntimeStore {
  const store = runtimeStoreFor(scope);
  if (store === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "nowhere to keep run-time settings: use the postgres backend (with POSTGRES_MEMORY_DSN) or bind the THREADS Durable Object in wrangler.toml",
    );
  }
  return store;
}
