/**
 * Database round trips of a turn through the Worker's fetch handler (inside workerd),
 * counted at the Neon-protocol proxy: the proxy counts requests per user of the connection
 * string (`GET /stats`), so this file's Worker has a user of its own and other test files
 * running at the same time do not disturb the count.
 *
 * Cold: a fresh env object, so nothing is cached in this isolate for it (no run-time
 * layer, no saved thread). Warm: the same env object again.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { firstLine, productDocumentBody, sendRaw } from "./a2a-helpers.ts";

const USER = `rt-${crypto.randomUUID().slice(0, 8)}`;
const AGENT_ID = `rt-agent-${crypto.randomUUID().slice(0, 8)}`;
const TOKEN = "round-trip-admin-token";
const STATS_URL = env.LLAMON_NEON_FETCH_ENDPOINT.replace(/\/sql$/, "/stats");

const worker = createWorker(referenceAgent);

/** A fresh env object: a cold isolate as far as this Worker's caches go. */
function coldEnv(): Record<string, unknown> {
  return {
    ...env,
    AGENT_ID,
    LLAMON_ADMIN_TOKEN: TOKEN,
    POSTGRES_MEMORY_DSN: `${env.POSTGRES_MEMORY_DSN}?application_name=${USER}`,
  };
}

function fetcherFor(instanceEnv: Record<string, unknown>): { fetch: typeof fetch } {
  const ctx = {
    waitUntil: () => {},
    passThroughOnException: () => {},
    props: {},
  } as unknown as ExecutionContext;
  return {
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      worker.fetch?.(new Request(input, init) as never, instanceEnv, ctx)) as typeof fetch,
  };
}

async function roundTrips(): Promise<number> {
  const stats = (await (await fetch(STATS_URL)).json()) as {
    by_application: Record<string, { requests: number }>;
  };
  return stats.by_application[USER]?.requests ?? 0;
}

/** The round trips one call makes. */
async function counted<T>(call: () => Promise<T>): Promise<{ result: T; roundTrips: number }> {
  const before = await roundTrips();
  const result = await call();
  return { result, roundTrips: (await roundTrips()) - before };
}

describe("round trips of a turn through the Worker (counted at the proxy)", () => {
  it("a cold and a warm turn cost 2 round trips each: the read batch and the write batch", async () => {
    const contextId = `rt-${crypto.randomUUID()}`;
    const isolate = coldEnv();
    const cold = await counted(() =>
      sendRaw(productDocumentBody(contextId, "hello"), fetcherFor(isolate)),
    );
    expect(cold.result.status).toBe(200);
    expect(firstLine(cold.result.replyText)).toBe("offline-model: received=1 has_prior=false");
    expect(cold.roundTrips).toBe(2);

    const warm = await counted(() =>
      sendRaw(productDocumentBody(contextId, "again"), fetcherFor(isolate)),
    );
    expect(firstLine(warm.result.replyText)).toBe("offline-model: received=3 has_prior=true");
    expect(warm.roundTrips).toBe(2);

    // A cold isolate on a conversation that already exists.
    const coldAgain = await counted(() =>
      sendRaw(productDocumentBody(contextId, "third"), fetcherFor(coldEnv())),
    );
    expect(firstLine(coldAgain.result.replyText)).toBe("offline-model: received=5 has_prior=true");
    expect(coldAgain.roundTrips).toBe(2);
  });

  it("R11.3: a cold streaming turn costs 2 round trips too (whether its task is kept needs no read of its own)", async () => {
    const contextId = `rt-stream-${crypto.randomUUID()}`;
    const body = JSON.parse(productDocumentBody(contextId, "hello")) as Record<string, unknown>;
    const streamed = await counted(async () => {
      const res = await fetcherFor(coldEnv()).fetch("http://agent.local/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...body, id: 1, method: "message/stream" }),
      });
      return res.text();
    });
    expect(streamed.result).toContain('"state":"completed"');
    expect(streamed.result).toContain("offline-model: received=1 has_prior=false");
    expect(streamed.roundTrips).toBe(2);
  });

  it("R10.2 a cold turn takes the run-time layer from its read batch (no third read) and uses it", async () => {
    const admin = fetcherFor(coldEnv());
    const patched = await admin.fetch("http://agent.local/api/v1/memory/config", {
      method: "PATCH",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ window_size: 2 }),
    });
    expect(patched.status).toBe(200);
    try {
      const contextId = `rt-window-${crypto.randomUUID()}`;
      const isolate = coldEnv();
      await sendRaw(productDocumentBody(contextId, "one"), fetcherFor(isolate));
      const turn = await counted(() =>
        sendRaw(productDocumentBody(contextId, "two"), fetcherFor(coldEnv())),
      );
      // window_size=2 from the run-time layer: 2 of the 3 messages reach the model.
      expect(firstLine(turn.result.replyText)).toBe("offline-model: received=2 has_prior=true");
      expect(turn.roundTrips).toBe(2);
    } finally {
      await admin.fetch("http://agent.local/api/v1/memory/config", {
        method: "DELETE",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
    }
  });

  it("a conversation another LangGraph saver wrote, moved or deleted costs 2 round trips and goes on", async () => {
    // What the official saver leaves behind, made with SQL (it does not run in workerd):
    // the checkpoint tables changed, llamon_threads and the memory rows untouched.
    const db = createNeonDb({
      connectionString: env.POSTGRES_MEMORY_DSN,
      fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
    });
    const contextId = `rt-shared-${crypto.randomUUID()}`;
    const isolate = coldEnv();
    const send = (text: string) =>
      counted(() => sendRaw(productDocumentBody(contextId, text), fetcherFor(isolate)));
    await send("one");
    await send("two");
    // No registry row (a thread only the official saver wrote).
    await db.query("DELETE FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2", [
      AGENT_ID,
      contextId,
    ]);
    const unregistered = await send("three");
    expect(firstLine(unregistered.result.replyText)).toBe(
      "offline-model: received=5 has_prior=true",
    );
    expect(unregistered.roundTrips).toBe(2);
    // A stale registry head (the official saver wrote a newer checkpoint).
    await db.query(
      "UPDATE llamon_threads SET head_checkpoint_id = 'an-older-head' WHERE agent_id = $1 AND thread_id = $2",
      [AGENT_ID, contextId],
    );
    const stale = await send("four");
    expect(firstLine(stale.result.replyText)).toBe("offline-model: received=7 has_prior=true");
    expect(stale.roundTrips).toBe(2);
    // The official deleteThread: the checkpoint tables only.
    const storage = `${AGENT_ID}:${contextId}`;
    for (const table of ["checkpoint_writes", "checkpoint_blobs", "checkpoints"])
      await db.query(`DELETE FROM ${table} WHERE thread_id = $1`, [storage]);
    const fresh = await send("five");
    expect(firstLine(fresh.result.replyText)).toBe("offline-model: received=1 has_prior=false");
    expect(fresh.roundTrips).toBe(2);
  });
});
