/**
 * The per-isolate cache of the run-time MemoryConfig layer, on the Durable Object store
 * (a stand-in THREADS namespace: only getByName(name).kvGet/changeSettings are used).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { isLlamonError } from "../../../src/errors.ts";
import { type ConfigScope, configScope } from "../../../src/runtime/config.ts";
import type { Env } from "../../../src/runtime/env.ts";
import { settingsObjectName } from "../../../src/runtime/objects.ts";
import {
  adoptRuntimeSettings,
  applySettingsChange,
  loadRuntimeLayer,
  loadRuntimeSettings,
  mergeRuntimeLayer,
  resetRuntimeLayer,
  type SettingsChange,
  toSettings,
} from "../../../src/runtime/runtime-layer.ts";
import { referenceAgent } from "../../../src/worker/reference-agent.ts";

function fakeThreads() {
  const storage = new Map<string, unknown>();
  const calls = { get: 0, change: 0, names: new Set<string>() };
  let failing = false;
  return {
    storage,
    calls,
    fail(on: boolean) {
      failing = on;
    },
    binding: {
      getByName(name: string) {
        calls.names.add(name);
        return {
          async kvGet(key: string) {
            calls.get += 1;
            if (failing) throw new Error("object unreachable");
            return structuredClone(storage.get(`${name}/${key}`));
          },
          async changeSettings(change: SettingsChange) {
            calls.change += 1;
            const slot = `${name}/settings`;
            const next = applySettingsChange(toSettings(storage.get(slot)), change);
            storage.set(slot, structuredClone(next));
            return structuredClone(next);
          },
        };
      },
    },
  };
}

/** One isolate's view (its env object) of the agent's config, as a request context has it. */
function envWith(
  threads: ReturnType<typeof fakeThreads>,
  vars: Record<string, unknown> = {},
): ConfigScope {
  const env = {
    AGENT_ID: "cache-agent",
    MEMORY_BACKEND: "sqlite",
    THREADS: threads.binding,
    ...vars,
  };
  return configScope(env as unknown as Env, { code: referenceAgent.memory });
}

afterEach(() => vi.useRealTimers());

describe("run-time config cache (R10.2)", () => {
  it("R10.2 reads once per TTL per isolate; concurrent misses share one read", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const threads = fakeThreads();
    const writer = envWith(threads);
    await mergeRuntimeLayer(writer, { window_size: 4 });
    expect([...threads.calls.names]).toEqual([settingsObjectName("cache-agent")]);

    const reader = envWith(threads); // another isolate
    const [a, b] = await Promise.all([loadRuntimeLayer(reader), loadRuntimeLayer(reader)]);
    expect(a).toEqual({ window_size: 4 });
    expect(b).toEqual({ window_size: 4 });
    const reads = threads.calls.get;
    await mergeRuntimeLayer(writer, { window_size: 9 });
    expect(await loadRuntimeLayer(writer)).toEqual({ window_size: 9 }); // the writer: at once
    expect(await loadRuntimeLayer(reader)).toEqual({ window_size: 4 }); // cached
    vi.setSystemTime(start + 5_001);
    expect(await loadRuntimeLayer(reader)).toEqual({ window_size: 9 }); // after the bound
    expect(threads.calls.get).toBe(reads + 1); // one refresh (a merge is one change, no read)
  });

  it("keeps the last value when a read fails, and fails loudly when it has none", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const threads = fakeThreads();
    const env = envWith(threads, { LLAMON_RUNTIME_CONFIG_TTL_SECONDS: "1" });
    await mergeRuntimeLayer(env, { summarize: true });
    threads.fail(true);
    vi.setSystemTime(start + 2_000);
    expect(await loadRuntimeLayer(env)).toEqual({ summarize: true });
    await expect(loadRuntimeSettings(env, { fresh: true })).rejects.toThrow("object unreachable");
    await expect(loadRuntimeLayer(envWith(threads))).rejects.toThrow("object unreachable");
    threads.fail(false);
    expect(await loadRuntimeLayer(env)).toEqual({ summarize: true });
  });

  it("reset drops keys; an invalid stored layer is a CONFIG_INVALID error naming runtime", async () => {
    const threads = fakeThreads();
    const env = envWith(threads);
    await mergeRuntimeLayer(env, { window_size: 3, summarize: true, max_history_tokens: null });
    expect(await loadRuntimeLayer(env)).toEqual({
      window_size: 3,
      summarize: true,
      max_history_tokens: null,
    });
    await resetRuntimeLayer(env, ["window_size"]);
    expect(await loadRuntimeLayer(env)).toEqual({ summarize: true, max_history_tokens: null });
    await resetRuntimeLayer(env, []);
    expect(await loadRuntimeLayer(env)).toEqual({});

    threads.storage.set(`${settingsObjectName("cache-agent")}/settings`, {
      memory: { window_size: 0 },
    });
    const fresh = envWith(threads);
    let caught: unknown;
    try {
      await loadRuntimeLayer(fresh);
    } catch (error) {
      caught = error;
    }
    expect(isLlamonError(caught, "CONFIG_INVALID")).toBe(true);
    expect((caught as Error).message).toContain("from runtime");
  });
});

describe("the run-time layer read with a postgres turn's batch", () => {
  it("is adopted by the isolate's cache unless the cache holds a newer value", async () => {
    const threads = fakeThreads();
    const scope = envWith(threads);
    await mergeRuntimeLayer(scope, { window_size: 7 });
    const reads = threads.calls.get;
    // An older row (read before the PATCH above landed) does not replace the newer value.
    adoptRuntimeSettings(scope, { memory: { window_size: 3 }, updated_at: "2000-01-01T00:00:00Z" });
    expect(await loadRuntimeLayer(scope)).toEqual({ window_size: 7 });
    // A newer row does, and no read is made for it.
    adoptRuntimeSettings(scope, { memory: { window_size: 9 }, updated_at: "2999-01-01T00:00:00Z" });
    expect(await loadRuntimeLayer(scope)).toEqual({ window_size: 9 });
    expect(threads.calls.get).toBe(reads);
  });
});
