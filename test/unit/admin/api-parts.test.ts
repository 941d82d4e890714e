import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { requireAdmin, secretsEqual } from "../../../src/admin/auth.ts";
import { validatePatch } from "../../../src/admin/config-routes.ts";
import { decodeCursor, encodeCursor } from "../../../src/admin/threads.ts";
import { isLlamonError, LlamonError } from "../../../src/errors.ts";
import { createLogger, silentSink } from "../../../src/log.ts";
import { mapError } from "../../../src/runtime/errors.ts";
import { type AppEnv, httpErrorHandler } from "../../../src/runtime/http.ts";
import { runtimeConfigTtlMs } from "../../../src/runtime/runtime-layer.ts";

/** requireAdmin in front of one route, with the Worker's error answers. */
async function statusWith(authorization: string | undefined, token = "abc"): Promise<number> {
  const app = new Hono<AppEnv>();
  app.use("*", requireAdmin());
  app.get("/", (c) => c.text("ok"));
  app.onError(httpErrorHandler(createLogger({ sink: silentSink })));
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  const res = await app.fetch(new Request("http://x/", { headers }), { LLAMON_ADMIN_TOKEN: token });
  return res.status;
}

describe("management API parts", () => {
  it("R10.2 compares admin tokens by content only, whatever their lengths", async () => {
    expect(await secretsEqual("s3cret-token", "s3cret-token")).toBe(true);
    expect(await secretsEqual("s3cret-token", "s3cret-tokeN")).toBe(false);
    expect(await secretsEqual("s3cret", "s3cret-token")).toBe(false);
    expect(await secretsEqual("", "x")).toBe(false);
    expect(await secretsEqual("토큰", "토큰")).toBe(true);
  });

  it("reads only `Bearer <token>` from the Authorization header", async () => {
    expect(await statusWith("Bearer abc")).toBe(200);
    expect(await statusWith("bearer   abc  ")).toBe(200);
    expect(await statusWith("Basic abc")).toBe(401);
    expect(await statusWith("Bearer")).toBe(401);
    expect(await statusWith("Bearer a b")).toBe(401);
    expect(await statusWith(undefined)).toBe(401);
  });

  it("a configured admin token that is not a bearer token is a clear 500", async () => {
    expect(await statusWith("Bearer a!b", "a!b")).toBe(500);
  });

  it("R10.2 a PATCH body is validated as a whole: every problem at once, deploy-time keys refused", () => {
    expect(validatePatch({ window_size: 8, max_history_tokens: null })).toEqual({
      window_size: 8,
      max_history_tokens: null,
    });
    try {
      validatePatch({ window_size: 0, backend: "off", postgres_dsn: "x", windowsize: 3 });
      throw new Error("expected a 400");
    } catch (error) {
      expect(error).toBeInstanceOf(LlamonError);
      const e = error as LlamonError;
      expect(mapError(e).status).toBe(400);
      const fields = (e.details as { fieldErrors: Record<string, string[]> }).fieldErrors;
      expect(Object.keys(fields).sort()).toEqual([
        "backend",
        "postgres_dsn",
        "window_size",
        "windowsize",
      ]);
      expect(fields.backend?.[0]).toContain("MEMORY_BACKEND");
      expect(fields.windowsize?.[0]).toContain('did you mean "window_size"');
    }
  });

  it("reads the cache bound from LLAMON_RUNTIME_CONFIG_TTL_SECONDS (default 5 s)", () => {
    expect(runtimeConfigTtlMs({})).toBe(5000);
    expect(runtimeConfigTtlMs({ LLAMON_RUNTIME_CONFIG_TTL_SECONDS: "0" })).toBe(0);
    expect(runtimeConfigTtlMs({ LLAMON_RUNTIME_CONFIG_TTL_SECONDS: 2.5 })).toBe(2500);
    for (const bad of ["-1", "soon", "3601"]) {
      let caught: unknown;
      try {
        runtimeConfigTtlMs({ LLAMON_RUNTIME_CONFIG_TTL_SECONDS: bad });
      } catch (error) {
        caught = error;
      }
      expect(isLlamonError(caught, "CONFIG_INVALID"), bad).toBe(true);
    }
  });

  it("page cursors round-trip and foreign ones are refused", () => {
    const key = { at: "2026-12-01T10:00:00.123456Z", id: "사용자-세션:1" };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
    expect(encodeCursor(key)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor("nope")).toBeUndefined();
    expect(decodeCursor(btoa(JSON.stringify(["yesterday", "x"])))).toBeUndefined();
  });
});
