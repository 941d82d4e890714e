/**
 * ThreadDO — one Durable Object per (AGENT_ID, contextId). It is where the turns of one
 * conversation are serialised, and where the in_memory (object memory) and sqlite (object
 * SQLite storage) backends keep their threads.
 *
 * Status: declared and exported so the Worker's bindings and the SQLite-backed migration
 * are in place; the conversation state and the per-turn lock land with the memory core
 * (issue 3). `describe()` reports what the object has, for health checks and tests.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../worker/env.ts";

export class ThreadDO extends DurableObject<Env> {
  describe(): { sqlite: boolean } {
    return { sqlite: typeof this.ctx.storage.sql?.exec === "function" };
  }
}
