/**
 * `/api/v1/memory/config`: the effective MemoryConfig of this agent and the run-time layer.
 *
 * - GET: `{ agent_id, config, sources, runtime, deploy_time_keys, propagation }` — the
 *   effective config (postgres_dsn with its password masked), which layer set each key
 *   (default, code, env, registry, runtime), and the stored run-time layer. Reads the
 *   store (not this isolate's cache) and refreshes the cache.
 * - PATCH: a JSON object of MemoryConfig keys, merged into the run-time layer. `null` for
 *   an optional key (max_history_tokens, persist_trim_keep_groups) unsets it at run time.
 *   Unknown keys, bad values and deploy-time keys (backend, postgres_dsn) → 400 with
 *   `fieldErrors`, and nothing is stored.
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
  parseMemoryConfigPatch,
} from "../memory/config.ts";
import { resolveAgentConfig } from "../runtime/config.ts";
import type { RequestContext } from "../runtime/context.ts";
import { type AppEnv, requestContextOf } from "../runtime/http.ts";
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
    return parseMemoryConfigPatch(settings.memory, "runtime");
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

async function readPatchBody(c: AdminContext): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest("the body must be a JSON object of MemoryConfig keys", {
      "(root)": ["not JSON"],
    });
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("the body must be a JSON object of MemoryConfig keys", {
      "(root)": ["must be an object of memory settings"],
    });
  }
  return body as Record<string, unknown>;
}

/** Validates a PATCH body; all problems at once, as field errors. */
export function validatePatch(body: Record<string, unknown>): MemoryConfigPatch {
  const fieldErrors: Record<string, string[]> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((DEPLOY_TIME_KEYS as readonly string[]).includes(key)) {
      fieldErrors[key] = [
        `cannot be changed at run time: it decides where conversations are stored; set it in code, env (${key === "backend" ? "MEMORY_BACKEND" : "POSTGRES_MEMORY_DSN"}) or the registry and deploy`,
      ];
    } else {
      rest[key] = value;
    }
  }
  let patch: MemoryConfigPatch = {};
  try {
    patch = parseMemoryConfigPatch(rest, "PATCH /api/v1/memory/config");
  } catch (error) {
    const more = fieldErrorsOf(error);
    if (more === undefined) throw error;
    for (const [field, lines] of Object.entries(more)) {
      fieldErrors[field] = [...(fieldErrors[field] ?? []), ...lines];
    }
  }
  if (Object.keys(fieldErrors).length > 0) {
    throw badRequest("invalid memory config; nothing was stored", fieldErrors);
  }
  return patch;
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
      resolveWithRuntime(ctx, parseMemoryConfigPatch(merged, "runtime"));
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
