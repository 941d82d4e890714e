/**
 * The Worker's env is validated once per isolate, not per request (runtime/env-memo.ts): the
 * same env gives the same frozen value, any change to it is validated again, and an invalid
 * env is refused on every call.
 */
import { describe, expect, it } from "vitest";
import { configScope, resolveRequestConfig } from "../../../src/runtime/config.ts";
import { parseWorkerVars } from "../../../src/runtime/env.ts";
import { memoizeOnEnv } from "../../../src/runtime/env-memo.ts";

describe("values derived from the env, once per isolate", () => {
  it("computes once while the env object and the other arguments are unchanged", () => {
    let runs = 0;
    const derive = memoizeOnEnv((env, suffix: string) => {
      runs++;
      return { id: `${String(env.AGENT_ID)}${suffix}` };
    });
    const env = { AGENT_ID: "a" };
    const first = derive(env, "-1");
    expect(derive(env, "-1")).toBe(first);
    expect(runs).toBe(1);
    expect(derive(env, "-2")).toEqual({ id: "a-2" }); // another argument
    expect(runs).toBe(2);
    expect(derive({ AGENT_ID: "a" }, "-2")).toEqual({ id: "a-2" }); // another env object
    expect(runs).toBe(3);
  });

  it("computes again when the env object is edited: a value changed, added or removed", () => {
    let runs = 0;
    const derive = memoizeOnEnv((env) => {
      runs++;
      return { keys: Object.keys(env).join(","), a: env.A };
    });
    const env: Record<string, unknown> = { A: "1" };
    derive(env);
    env.A = "2";
    expect(derive(env)).toEqual({ keys: "A", a: "2" });
    env.B = "x";
    expect(derive(env)).toEqual({ keys: "A,B", a: "2" });
    delete env.B;
    expect(derive(env)).toEqual({ keys: "A", a: "2" });
    expect(runs).toBe(4);
  });

  it("freezes what it keeps, so no request can change what the next one gets", () => {
    const vars = parseWorkerVars({ AGENT_ID: "frozen-agent" });
    expect(Object.isFrozen(vars)).toBe(true);
    expect(() => {
      (vars as { AGENT_ID: string }).AGENT_ID = "other";
    }).toThrow(TypeError);
    const scope = configScope({ AGENT_ID: "frozen-agent" }, {});
    expect(Object.isFrozen(scope.deployConfig)).toBe(true);
  });

  it("an invalid env is refused on every call, and a fixed one is then accepted", () => {
    const env: Record<string, unknown> = { AGENT_ID: "Not Valid" };
    for (let i = 0; i < 2; i++) {
      expect(() => parseWorkerVars(env)).toThrow(/AGENT_ID must be 1–63 characters/);
    }
    env.AGENT_ID = "fixed";
    expect(parseWorkerVars(env).AGENT_ID).toBe("fixed");
    env.MEMORY_DB_TIMEOUT_MS = "0";
    expect(() => parseWorkerVars(env)).toThrow(/MEMORY_DB_TIMEOUT_MS/);
  });

  it("R7.6 the deploy-time config follows an edited env var and the agent's code layer", () => {
    const env: Record<string, unknown> = { AGENT_ID: "layers-agent", MEMORY_WINDOW_SIZE: "8" };
    expect(configScope(env, {}).deployConfig.window_size).toBe(8);
    env.MEMORY_WINDOW_SIZE = "12";
    expect(configScope(env, {}).deployConfig.window_size).toBe(12);
    delete env.MEMORY_WINDOW_SIZE;
    expect(configScope(env, { code: { window_size: 6 } }).deployConfig.window_size).toBe(6);
  });

  it("R7.6 R10.2 a request's config follows its run-time layer, is reused while that layer is the same, and a bad layer is refused every time", () => {
    const env = { AGENT_ID: "runtime-agent" };
    const first = resolveRequestConfig(env, {}, { window_size: 7 }, "runtime-agent");
    expect(first.config.window_size).toBe(7);
    expect(first.sources.window_size).toBe("runtime");
    // The same layer read again (a new object with the same JSON): the same frozen value.
    const again = resolveRequestConfig(env, {}, { window_size: 7 }, "runtime-agent");
    expect(again).toBe(first);
    expect(Object.isFrozen(again.config)).toBe(true);
    expect(Object.isFrozen(again.sources)).toBe(true);
    expect(
      resolveRequestConfig(env, {}, { window_size: 9 }, "runtime-agent").config.window_size,
    ).toBe(9);
    expect(resolveRequestConfig(env, {}, undefined, "runtime-agent").sources.window_size).toBe(
      "default",
    );
    for (let i = 0; i < 2; i++) {
      expect(() =>
        resolveRequestConfig(env, {}, { window_size: 0 } as never, "runtime-agent"),
      ).toThrow(/window_size/);
    }
  });
});
