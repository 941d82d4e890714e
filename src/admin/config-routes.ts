/**
 * `/api/v1/memory/config`: the effective MemoryConfig of this agent and the run-time layer.
 *
 * - GET: `{ agent_id, config, sources, runtime, deploy_time_keys, propagation }` — the
 *   effective config (postgres_dsn with its password masked), which layer set each key
 *   (default, code, env, registry, runtime), and the stored run-time layer. Reads the
 *   store (not this isolate's cache) and refreshes the cache.
 * - PATCH: a JSON object of the run-time MemoryConfig keys, merged into the run-time layer.
 *   `null` for an optional key (max_history_tokens, persist_trim_keep_groups) unsets it at
 *   run time. Unknown keys (prototype names included), bad values, values over a key's
 *   bound and deploy-time keys (backend, postgres_dsn) → 400 with `fieldErrors`, and
 *   nothing is stored; so does a body that is not strict UTF-8 JSON or nests too deep.
 * - DELETE `?key=window_size&key=…`: drop those keys from the run-time layer (they fall back
 *   to registry/env/code/defaults); without `key`, drop the whole run-time layer.
 */
import type { Context, Hono } from "hono";
import { isLlamonError } from "../errors.ts";
import {
  MEMORY_CONFIG_KEYS,
  type MemoryConfig,
  type MemoryConfigErrorDetails,
  type MemoryConfigKey,
  type MemoryConfigPatch,
  type MemoryConfigRuntimePatch,
  parseRuntimeConfigPatch,
} from "../memory/config.ts";
import { resolveAgentConfig } from "../runtime/config.ts";
import type { RequestContext } from "../runtime/context.ts";
import { type AppEnv, requestContextOf } from "../runtime/http.ts";
import { MAX_JSON_DEPTH, parseJsonBody } from "../runtime/json-body.ts";
import {
  DEPLOY_TIME_KEYS,
  loadRuntimeSettings,
  mergeRuntimeLayer,
  type RuntimeSettings,
  resetRuntimeLayer,
  runtimeConfigTtlMs,
  runtimeStoreKind,
} from "../runtime/runtime-layer.ts";
import { redactDsn } from "../store/dsn.ts";
import { badRequest, notAvailable } from "./errors.ts";

type AdminContext = Context<AppEnv>;

/** The effective config with this run-time layer (the one resolver, runtime/config.ts). */
function resolveWithRuntime(ctx: RequestContext, runtime: MemoryConfigPatch) {
  return resolveAgentConfig(ctx.env, ctx.layers, runtime, ctx.agentId);
}

function publicConfig(config: MemoryConfig): Record<string, unknown> {
  return config.postgres_dsn === undefined
    ? { ...config }
    : { ...config, postgres_dsn: redactDsn(config.postgres_dsn) };
}

function fieldErrorsOf(error: unknown): Record<string, string[]> | undefined {
  if (!isLlamonError(error, "CONFIG_INVALID")) return undefined;
  return (error.details as Partial<MemoryConfigErrorDetails>).fieldErrors;
}

/** The stored layer as a patch; a broken stored layer is reported, not thrown. */
function parseStored(settings: RuntimeSettings): MemoryConfigPatch {
  try {
    return parseRuntimeConfigPatch(settings.memory, "runtime");
  } catch (error) {
    const fieldErrors = fieldErrorsOf(error);
    if (fieldErrors === undefined) throw error;
    throw badRequest(
      "the stored run-time layer is invalid; DELETE /api/v1/memory/config resets it",
      fieldErrors,
    );
  }
}

function configBody(ctx: RequestContext, settings: RuntimeSettings) {
  const { config, sources } = resolveWithRuntime(ctx, parseStored(settings));
  return {
    agent_id: ctx.agentId,
    config: publicConfig(config),
    sources,
    runtime: {
      layer: settings.memory,
      updated_at: settings.updated_at ?? null,
      store: runtimeStoreKind(ctx) ?? null,
    },
    deploy_time_keys: DEPLOY_TIME_KEYS,
    propagation: {
      cache_ttl_seconds: runtimeConfigTtlMs(ctx.env) / 1000,
      note: "other isolates use a PATCH within cache_ttl_seconds; the isolate that served it at once",
    },
  };
}

const BODY_LINES = {
  encoding: "not valid UTF-8",
  syntax: "not JSON",
  depth: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
} as const;

/** The body as JSON: strict UTF-8, no deep nesting (runtime/json-body.ts). */
async function readPatchBody(c: AdminContext): Promise<unknown> {
  const body = parseJsonBody(await c.req.arrayBuffer());
  if (!body.ok) {
    throw badRequest("the body must be a JSON object of MemoryConfig keys", {
      "(root)": [BODY_LINES[body.problem]],
    });
  }
  return body.value;
}

/**
 * Validates a PATCH body: a strict object of the run-time keys (memoryConfigRuntimeSchema),
 * every problem at once as field errors. Anything else is an unknown key — deploy-time keys
 * (with where to set them), misspellings, and `__proto__`, `constructor`, `toString` alike —
 * and nothing is stored.
 */
export function validatePatch(body: unknown): MemoryConfigRuntimePatch {
  try {
    return parseRuntimeConfigPatch(body, "PATCH /api/v1/memory/config");
  } catch (error) {
    const fieldErrors = fieldErrorsOf(error);
    if (fieldErrors === undefined) throw error;
    throw badRequest("invalid memory config; nothing was stored", fieldErrors);
  }
}

export function registerConfigRoutes(app: Hono<AppEnv>): void {
  app.get("/memory/config", async (c) => {
    const ctx = requestContextOf(c);
    return c.json(configBody(ctx, await loadRuntimeSettings(ctx, { fresh: true })));
  });

  app.patch("/memory/config", async (c) => {
    const ctx = requestContextOf(c);
    const patch = validatePatch(await readPatchBody(c));
    // The whole config must stay valid with the merged layer before anything is stored.
    const current = await loadRuntimeSettings(ctx, { fresh: true });
    const merged = { ...current.memory, ...patch };
    try {
      resolveWithRuntime(ctx, parseRuntimeConfigPatch(merged, "runtime"));
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error);
      if (fieldErrors === undefined) throw error;
      throw badRequest(
        "the config would be invalid with this change; nothing was stored",
        fieldErrors,
      );
    }
    if (runtimeStoreKind(ctx) === undefined) {
      throw notAvailable(
        "nowhere to keep run-time settings: use the postgres backend (with POSTGRES_MEMORY_DSN) or bind the THREADS Durable Object",
      );
    }
    return c.json(configBody(ctx, await mergeRuntimeLayer(ctx, patch)));
  });

  app.delete("/memory/config", async (c) => {
    const ctx = requestContextOf(c);
    const keys = c.req.queries("key") ?? [];
    const unknown = keys.filter((k) => !(MEMORY_CONFIG_KEYS as readonly string[]).includes(k));
    if (unknown.length > 0) {
      throw badRequest(
        "unknown MemoryConfig key",
        Object.fromEntries(unknown.map((k) => [k, ["unknown key"]])),
      );
    }
    if (runtimeStoreKind(ctx) === undefined) {
      return c.json(configBody(ctx, await loadRuntimeSettings(ctx, { fresh: true })));
    }
    return c.json(configBody(ctx, await resetRuntimeLayer(ctx, keys as MemoryConfigKey[])));
  });
}
