import { env, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ThreadDO } from "../../src/durable/thread-do.ts";
import { instance } from "./auth-helpers.ts";

describe("the reference Worker inside workerd", () => {
  it("answers /health through Neon HTTP → proxy → Postgres with every migration applied", async () => {
    const res = await exports.default.fetch("http://worker/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: "ok",
      agent_id: "llamon-reference",
      memory: { enabled: true, backend: "postgres", window_size: 20 },
      database: { transport: "neon-http", migrations_applied: env.MIGRATION_COUNT },
    });
  });

  it("R1 /health reports memory off as not enabled: backend off, and memory turned off on postgres", async () => {
    const health = async (vars: Record<string, unknown>) => {
      const res = await instance(vars).fetch("http://worker/health");
      expect(res.status).toBe(200);
      return ((await res.json()) as { memory: Record<string, unknown> }).memory;
    };
    expect(await health({ MEMORY_BACKEND: "off" })).toEqual({
      enabled: false,
      backend: "off",
      window_size: 20,
    });
    expect(await health({ MEMORY_ENABLED: "false" })).toMatchObject({
      enabled: false,
      backend: "off",
    });
  });

  it("answers unknown routes with a JSON 404, not an HTML page or a stack trace", async () => {
    const res = await exports.default.fetch("http://worker/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "NOT_FOUND", message: "no route for GET /nope" });
  });

  it("has the ThreadDO with SQLite storage (new_sqlite_classes migration)", async () => {
    const stub = env.THREADS.getByName("llamon-reference:ctx-1");
    const sqlite = await runInDurableObject(
      stub,
      (instance: ThreadDO) => instance.describe().sqlite,
    );
    expect(sqlite).toBe(true);
  });
});
