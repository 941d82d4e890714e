/**
 * The run-time layer takes exactly the run-time keys (a strict schema; deploy-time
 * and prototype keys are errors like any unknown key), and `window_size`,
 * `max_history_tokens` and `a2a_history_max_messages` have upper bounds that every layer
 * applies alike (code, env, registry, run time, the merged config).
 */
import { describe, expect, it } from "vitest";
import { validatePatch } from "../../../src/admin/config-routes.ts";
import { loadRegistry } from "../../../src/admin/registry.ts";
import { isLlamonError, type LlamonError } from "../../../src/errors.ts";
import {
  DEPLOY_TIME_CONFIG_KEYS,
  MEMORY_CONFIG_KEYS,
  MEMORY_CONFIG_MAX,
  type MemoryConfigErrorDetails,
  memoryConfigFromEnv,
  parseMemoryConfig,
  parseMemoryConfigPatch,
  parseRuntimeConfigPatch,
  RUNTIME_CONFIG_KEYS,
  resolveMemoryConfig,
} from "../../../src/memory/config.ts";
import { mapError } from "../../../src/runtime/errors.ts";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

function fieldErrorsOf(fn: () => unknown, code = "CONFIG_INVALID"): Record<string, string[]> {
  const error = thrown(fn);
  expect(isLlamonError(error, code as "CONFIG_INVALID"), String(error)).toBe(true);
  const details = (error as LlamonError<MemoryConfigErrorDetails>).details;
  return details.fieldErrors;
}

const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

describe("the run-time layer is exactly the run-time keys", () => {
  it("lists every key but the deploy-time ones", () => {
    expect([...RUNTIME_CONFIG_KEYS, ...DEPLOY_TIME_CONFIG_KEYS].sort()).toEqual(
      [...MEMORY_CONFIG_KEYS].sort(),
    );
    expect(RUNTIME_CONFIG_KEYS).not.toContain("backend");
    expect(RUNTIME_CONFIG_KEYS).not.toContain("postgres_dsn");
  });

  it("a PATCH of prototype keys is a 400 naming each key; backend never comes through", () => {
    for (const key of PROTOTYPE_KEYS) {
      const body = JSON.parse(`{"${key}":{"backend":"sqlite","window_size":3}}`) as unknown;
      const error = thrown(() => validatePatch(body));
      expect(isLlamonError(error, "INPUT_INVALID"), `${key}: ${String(error)}`).toBe(true);
      expect(mapError(error).status).toBe(400);
      const fields = (error as LlamonError<{ fieldErrors: Record<string, string[]> }>).details
        .fieldErrors;
      expect(Object.keys(fields), key).toEqual([key]);
      expect(fields[key]?.[0], key).toContain("unknown key");
    }
    const together = thrown(() =>
      validatePatch(JSON.parse('{"toString":1,"constructor":2,"__proto__":3,"window_size":0}')),
    ) as LlamonError<{ fieldErrors: Record<string, string[]> }>;
    expect(Object.keys(together.details.fieldErrors).sort()).toEqual(
      ["__proto__", "constructor", "toString", "window_size"].sort(),
    );
  });

  it("deploy-time keys say where to set them, in the PATCH and in a stored layer", () => {
    const fields = fieldErrorsOf(() =>
      parseRuntimeConfigPatch({ backend: "sqlite", postgres_dsn: "postgresql://x@y/z" }),
    );
    expect(fields.backend?.[0]).toContain("cannot be changed at run time");
    expect(fields.backend?.[0]).toContain("MEMORY_BACKEND");
    expect(fields.postgres_dsn?.[0]).toContain("POSTGRES_MEMORY_DSN");
    // A stored layer is checked when read too: one holding a deploy-time key is not applied.
    const stored = fieldErrorsOf(() => resolveMemoryConfig({ runtime: { backend: "sqlite" } }));
    expect(stored.backend?.[0]).toContain("cannot be changed at run time");
    // The deploy-time layers still set them.
    expect(parseMemoryConfigPatch({ backend: "sqlite" })).toEqual({ backend: "sqlite" });
  });

  it("an unknown key is never suggested from Object.prototype", () => {
    for (const key of PROTOTYPE_KEYS) {
      const line = fieldErrorsOf(() => parseMemoryConfigPatch({ [key]: 1 }))[key]?.[0] ?? "";
      expect(line, key).not.toContain("function");
      expect(line, key).toContain("unknown key");
    }
  });
});

describe("upper bounds, the same in every layer", () => {
  const BOUNDED = [
    ["window_size", "MEMORY_WINDOW_SIZE", 1],
    ["max_history_tokens", "MAX_HISTORY_TOKENS", 1],
    ["a2a_history_max_messages", "A2A_HISTORY_MAX_MESSAGES", 0],
    ["recall_max_items", "MEMORY_RECALL_MAX_ITEMS", 1],
  ] as const;

  it.each(BOUNDED)("%s accepts its bound and refuses one more", (key, variable, min) => {
    const max = MEMORY_CONFIG_MAX[key];
    const line = `must be a whole number >= ${min} and <= ${max}, got ${max + 1}`;
    expect(parseMemoryConfig({ [key]: max })[key]).toBe(max);
    expect(memoryConfigFromEnv({ [variable]: String(max) })[key]).toBe(max);
    expect(parseRuntimeConfigPatch({ [key]: max })[key]).toBe(max);
    expect(fieldErrorsOf(() => parseMemoryConfig({ [key]: max + 1 }))[key]).toEqual([line]);
    expect(fieldErrorsOf(() => parseMemoryConfigPatch({ [key]: max + 1 }, "code"))[key]).toEqual([
      line,
    ]);
    expect(fieldErrorsOf(() => parseRuntimeConfigPatch({ [key]: max + 1 }))[key]).toEqual([line]);
    expect(fieldErrorsOf(() => validatePatch({ [key]: max + 1 }), "INPUT_INVALID")[key]).toEqual([
      line,
    ]);
    // env: a clear CONFIG_INVALID naming the variable, from wrangler strings and JSON numbers.
    for (const raw of [String(max + 1), max + 1, "9007199254740993"]) {
      const error = thrown(() => memoryConfigFromEnv({ [variable]: raw }));
      expect(isLlamonError(error, "CONFIG_INVALID")).toBe(true);
      expect((error as Error).message).toContain(`${variable}: must be a whole number`);
      expect((error as LlamonError<MemoryConfigErrorDetails>).details.source).toBe("env");
    }
    // registry: the entity's place is named.
    const registry = thrown(() =>
      loadRegistry({
        version: 1,
        entities: [{ kind: "Memory", name: "default", config: { [key]: max + 1 } }],
      }),
    );
    expect(isLlamonError(registry, "CONFIG_INVALID")).toBe(true);
    expect((registry as Error).message).toContain(`entities[0].config.${key}`);
  });

  it("the documented bounds", () => {
    expect(MEMORY_CONFIG_MAX).toEqual({
      window_size: 1000,
      max_history_tokens: 1_000_000,
      a2a_history_max_messages: 1000,
      recall_max_items: 20,
    });
  });
});
