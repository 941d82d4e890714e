/**
 * The management API on the Durable Object backends (runs in workers-sqlite and
 * workers-in-memory): inspect and erase through the ThreadDO RPCs; the run-time layer in the
 * agent's settings object `settings:<AGENT_ID>`.
 *
 * The ThreadDO keeps threads under its own env's AGENT_ID, so inspect/erase use the binding's
 * agent; the PATCH test uses an agent of its own, so it never changes the config the other
 * test files of this project run with.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InspectedThread } from "../../../src/admin/threads.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { TAIL_MARGIN } from "../../../src/memory/live-tail.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import { ANONYMOUS_PRINCIPAL, threadKey } from "../../../src/runtime/thread-keys.ts";
import { createWorker } from "../../../src/worker/create-worker.ts";
import { referenceAgent } from "../../../src/worker/reference-agent.ts";
import { firstLine, productDocumentBody, sendRaw } from "../a2a-helpers.ts";
import { deleteKeysAtOnce, patchEachKeyAtOnce, TEN_KEYS } from "../config-race.ts";
import { lateTaskSaveIsRefused } from "../task-fence-cases.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;

function instance(vars: Record<string, unknown> = {}) {
  const worker = createWorker(referenceAgent);
  const instanceEnv: Record<string, unknown> = { ...env, LLAMON_ADMIN_TOKEN: "t", ...vars };
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} };
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(
      worker.fetch?.(
        new Request(input, init) as never,
        instanceEnv as never,
        ctx as never,
      ) as Response,
    )) as typeof fetch;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetcher(`http://agent.local${path}`, {
      method,
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { fetch: fetcher, api };
}

interface Listed {
  context_id: string;
  created_at: string;
  last_activity_at: string;
  message_count: number;
}

/** Every listed conversation of the instance's agent, page by page (checks the paging). */
async function allThreads(worker: ReturnType<typeof instance>, limit = 2): Promise<Listed[]> {
  const seen: Listed[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? `?limit=${limit}` : `?limit=${limit}&cursor=${cursor}`;
    const page = await worker.api("GET", `/api/v1/memory/threads${query}`);
    expect(page.status).toBe(200);
    const threads = page.body.threads as Listed[];
    expect(threads.length).toBeLessThanOrEqual(limit);
    seen.push(...threads);
    cursor = page.body.next_cursor as string | null;
  } while (cursor !== null);
  // Newest activity first, no conversation twice.
  const order = seen.map((t) => `${t.last_activity_at} ${t.context_id}`);
  expect(order).toEqual([...order].sort().reverse());
  expect(new Set(seen.map((t) => t.context_id)).size).toBe(seen.length);
  return seen;
}

/** Polls `probe` until it returns a value (the index is written after the answer). */
async function eventually<T>(probe: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("not listed in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`management API on the ${backend} backend`, () => {
  it("R2.3 R4.3 lists the conversation, shows it through the ThreadDO, erases it (and its list entry)", async () => {
    const worker = instance();
    const contextId = `admin-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "one"), worker);
    await sendRaw(productDocumentBody(contextId, "two"), worker);
    const others = [`admin-b-${crypto.randomUUID()}`, `admin-c-${crypto.randomUUID()}`];
    for (const other of others) await sendRaw(productDocumentBody(other, "hi"), worker);
    // The agent's index object is written after each turn's answer (waitUntil).
    const listed = await eventually(async () => {
      const entry = (await allThreads(worker)).find((t) => t.context_id === contextId);
      return entry?.message_count === 4 ? entry : undefined;
    });
    expect(listed.created_at <= listed.last_activity_at).toBe(true);
    // More than one page (limit 2), the later conversations first.
    const ids = (
      await eventually(async () => {
        const all = await allThreads(worker);
        return others.every((o) => all.some((t) => t.context_id === o)) ? all : undefined;
      })
    ).map((t) => t.context_id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids.indexOf(others[1] as string)).toBeLessThan(ids.indexOf(contextId));
    const view = await worker.api("GET", `/api/v1/memory/threads/${contextId}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      backend: backend.replace("-", "_"),
      signals: { thread_msgs: 4, window: 20, sent_to_llm: 4, has_prior: true },
      last_turn: { signals: { thread_msgs: 3, sent_to_llm: 3 } },
    });
    const other = instance({ AGENT_ID: "someone-else" });
    expect((await other.api("GET", `/api/v1/memory/threads/${contextId}`)).status).toBe(404);
    expect((await worker.api("DELETE", `/api/v1/memory/threads/${contextId}`)).status).toBe(200);
    expect((await worker.api("GET", `/api/v1/memory/threads/${contextId}`)).status).toBe(404);
    expect((await allThreads(worker)).some((t) => t.context_id === contextId)).toBe(false);
    const again = await sendRaw(productDocumentBody(contextId, "again"), worker);
    expect(firstLine(again.replyText)).toBe("offline-model: received=1 has_prior=false");
  });

  it(`R8.3 R11.1 a retired fact is in the thread view with its messages and is erased with the conversation (${backend})`, async () => {
    const contextId = `facts-${crypto.randomUUID()}`;
    const threadId = threadKey(ANONYMOUS_PRINCIPAL, contextId);
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, threadId));
    // This project's wrangler.toml turns facts off (MEMORY_FACTS_MODE, over code); the
    // Worker sends the DO its request's config, so this test sends one with facts on.
    const config = {
      ...resolveMemoryConfig({ env: env as unknown as Record<string, unknown> }).config,
      facts_mode: "heuristic" as const,
    };
    const said = ["I live in Boston.", "Nice weather.", "I moved out last week."];
    for (const [i, text] of said.entries()) {
      await stub.turn({ threadId, contextId, messageId: `${contextId}-m${i}`, text }, config);
    }
    const worker = instance();
    const path = `/api/v1/memory/threads/${contextId}`;
    const view = await worker.api("GET", path);
    expect(view.status).toBe(200);
    expect(view.body.facts).toEqual([]);
    expect(view.body.retired_facts).toEqual([
      expect.objectContaining({
        id: "residence",
        value: "Boston",
        messageId: `${contextId}-m0`,
        position: 0,
        retiredBy: `${contextId}-m2`,
      }),
    ]);
    expect((await worker.api("DELETE", path)).status).toBe(200);
    expect((await worker.api("GET", path)).status).toBe(404);
    const inspected = (await stub.inspect(env.AGENT_ID, threadId, {
      limit: 10,
    })) as unknown as InspectedThread;
    expect(inspected.memory).toEqual({});
  });

  it(`R11.1 a task record saved after its conversation was erased (by a turn that read it before) is refused (${backend})`, async () => {
    const worker = instance();
    const contextId = `fence-${crypto.randomUUID()}`;
    await lateTaskSaveIsRefused({
      fetch: worker.fetch,
      agentId: env.AGENT_ID,
      contextId,
      erase: async () => {
        const erased = await worker.api("DELETE", `/api/v1/memory/threads/${contextId}`);
        expect(erased.status).toBe(200);
      },
    });
  });

  it("a thread view crosses the object boundary as one page and the head, never the whole thread; pages join down to the first message and the window is the whole thread's", async () => {
    const contextId = `page-${crypto.randomUUID()}`;
    const threadId = threadKey(ANONYMOUS_PRINCIPAL, contextId);
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, threadId));
    const config = resolveMemoryConfig({ env: env as unknown as Record<string, unknown> }).config;
    const turns = 120;
    const total = 2 * turns;
    for (let i = 1; i <= turns; i++) {
      const messageId = crypto.randomUUID();
      await stub.turn({ threadId, contextId, messageId, text: `page turn ${i}` }, config);
    }
    // What the object sends for a page of 10: the page and a head of about the window.
    // (The RPC stub types the answer `never`: its `unknown` fields are not known serialisable.)
    const sent = (await stub.inspect(env.AGENT_ID, threadId, {
      limit: 10,
      window_size: config.window_size,
    })) as unknown as InspectedThread;
    expect(sent.head.length).toBeLessThanOrEqual(config.window_size + TAIL_MARGIN + 1);
    expect(sent.before.length + sent.headTo - sent.headFrom).toBe(10);
    expect(sent.archived.messages + sent.head.length).toBe(total);

    const worker = instance();
    const path = `/api/v1/memory/threads/${contextId}`;
    const newest = await worker.api("GET", `${path}?limit=10`);
    expect(newest.status).toBe(200);
    expect(newest.body.page).toEqual({
      from: total - 10,
      to: total,
      total,
      stored: total,
      older: total - 10,
    });
    expect(newest.body.signals).toEqual({
      thread_msgs: total,
      window: config.window_size,
      sent_to_llm: config.window_size,
      has_prior: true,
    });
    const lastWindow = await worker.api("GET", `${path}?limit=${config.window_size}`);
    const ids = (body: Record<string, unknown>) =>
      (body.messages as { id: string | null }[]).map((m) => m.id);
    expect((newest.body.window as { kept_ids: string[] }).kept_ids).toEqual(ids(lastWindow.body));
    expect((newest.body.groups as { in_window: boolean }[]).every((g) => g.in_window)).toBe(true);
    // Older pages, down to the first message: every position once, in order.
    const texts: string[] = [];
    let before: number | null = total;
    while (before !== null) {
      const page = await worker.api("GET", `${path}?limit=50&before=${before}`);
      const messages = page.body.messages as { index: number; text: string }[];
      expect(messages.map((m) => m.index)).toEqual(
        Array.from({ length: messages.length }, (_, k) => (before as number) - messages.length + k),
      );
      texts.unshift(...messages.map((m) => m.text));
      before = (page.body.page as { older: number | null }).older;
    }
    expect(texts).toHaveLength(total);
    expect(texts[0]).toBe("page turn 1");
    expect(texts[total - 2]).toBe(`page turn ${turns}`);
  });

  it("R10.2 keeps the run-time layer in the agent's settings object; the next turn follows it", async () => {
    const agent = `do-admin-${crypto.randomUUID().slice(0, 8)}`;
    const worker = instance({ AGENT_ID: agent });
    const contextId = `patch-${crypto.randomUUID()}`;
    await sendRaw(productDocumentBody(contextId, "one"), worker);
    await sendRaw(productDocumentBody(contextId, "two"), worker);
    const patched = await worker.api("PATCH", "/api/v1/memory/config", { window_size: 2 });
    expect(patched.status).toBe(200);
    expect(patched.body.runtime).toMatchObject({
      layer: { window_size: 2 },
      store: "durable_object",
    });
    const third = await sendRaw(productDocumentBody(contextId, "three"), worker);
    expect(firstLine(third.replyText)).toBe("offline-model: received=2 has_prior=true");
    const other = instance({ AGENT_ID: `${agent}-x` });
    expect((await other.api("GET", "/api/v1/memory/config")).body.config).toMatchObject({
      window_size: 20,
    });
  });

  it("R10.2 concurrent PATCHes (and DELETEs) of different keys all take effect in the settings object", async () => {
    const worker = instance({ AGENT_ID: `do-race-${crypto.randomUUID().slice(0, 8)}` });
    await patchEachKeyAtOnce(worker.api);
    const after = await worker.api("GET", "/api/v1/memory/config");
    expect((after.body.runtime as { layer: unknown }).layer).toEqual(TEN_KEYS);
    expect(after.body.config).toMatchObject(TEN_KEYS);
    const dropped = Object.keys(TEN_KEYS).slice(0, 5);
    await deleteKeysAtOnce(worker.api, dropped);
    const kept = Object.fromEntries(Object.entries(TEN_KEYS).slice(5));
    const final = await worker.api("GET", "/api/v1/memory/config");
    expect((final.body.runtime as { layer: unknown }).layer).toEqual(kept);
  });

  it("R10.2 recall_semantic is refused here (no vectors in an object), not ignored; nothing is stored", async () => {
    const agent = `do-semantic-${crypto.randomUUID().slice(0, 8)}`;
    const worker = instance({ AGENT_ID: agent });
    const refused = await worker.api("PATCH", "/api/v1/memory/config", {
      recall_semantic: true,
      window_size: 3,
    });
    expect(refused.status).toBe(400);
    const lines = (refused.body.fieldErrors as Record<string, string[]>).recall_semantic;
    expect(lines?.join(" ")).toContain("needs the postgres backend");
    const after = await worker.api("GET", "/api/v1/memory/config");
    expect(after.body.config).toMatchObject({ recall_semantic: false, window_size: 20 });
    // Set at deploy time, the turn is refused as misconfigured (the caller is not told the
    // cause) and the operator's view names the key.
    const deployed = instance({ AGENT_ID: agent, MEMORY_RECALL_SEMANTIC: "true" });
    const turn = await sendRaw(
      productDocumentBody(`semantic-${crypto.randomUUID()}`, "hi"),
      deployed,
    );
    expect(turn.body.error).toMatchObject({ data: { reason: "CONFIG_INVALID" } });
    expect(JSON.stringify(turn.body)).not.toContain("recall_semantic");
    const operator = await deployed.api("GET", "/api/v1/memory/config");
    expect(operator.status).toBe(500);
    expect(JSON.stringify(operator.body)).toContain("needs the postgres backend");
  });
});
