/**
 * R7 without a queue: on the postgres backend with summarize on and no SUMMARY_QUEUE binding,
 * the turn that makes a summary due runs it in the background — handed to the request's
 * `ctx.waitUntil`, so the isolate stays alive until it is written — and the reply does not
 * wait for it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SUMMARY_KEY } from "../../src/memory/summary.ts";
import { workerDb } from "../../src/runtime/db.ts";
import type { Env } from "../../src/runtime/env.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import worker from "../../src/worker/index.ts";
import { productDocumentBody, sendRaw } from "./a2a-helpers.ts";

const noQueue: Env = { ...env, MEMORY_SUMMARIZE: "true", SUMMARY_QUEUE: undefined };

describe("summary without SUMMARY_QUEUE (postgres)", () => {
  it("R7.1 R7.5 the due turn hands the summary run to ctx.waitUntil; once it settles, the thread's summary row is there", async () => {
    const pending: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (promise: Promise<unknown>) => pending.push(promise),
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext;
    const fetcher = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) =>
        Promise.resolve(
          worker.fetch?.(new Request(input, init) as never, noQueue, ctx) as Response,
        ),
    } as { fetch: typeof fetch };
    const contextId = `fallback-${crypto.randomUUID()}`;
    let handedOver = -1;
    // 40 messages (the default threshold) after turn 20: the first summary is due then.
    for (let turn = 1; turn <= 20; turn++) {
      const before = pending.length;
      const sent = await sendRaw(productDocumentBody(contextId, `message ${turn}`), fetcher);
      expect(sent.status).toBe(200);
      if (pending.length > before && handedOver < 0) handedOver = turn;
    }
    expect(handedOver).toBe(20);
    await Promise.allSettled(pending);
    const rows = await createPostgresMemory(workerDb(noQueue), env.AGENT_ID).load(contextId);
    expect(rows.thread[SUMMARY_KEY]).toMatchObject({ covers: expect.any(Number) });
  });
});
