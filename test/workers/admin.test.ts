/**
 * The management API inside workerd, postgres backend (R7.6, R10.2, R2.3, R4.3):
 * access, the memory config with its run-time layer and cache bound, the inspector view of a
 * conversation, agent isolation and erasure. Every test uses its own AGENT_ID, so run-time
 * config changes never reach the other test files' agent.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { firstLine, productDocumentBody, sendRaw } from "./a2a-helpers.ts";
import { deleteKeysAtOnce, patchEachKeyAtOnce, TEN_KEYS } from "./config-race.ts";

const TOKEN = "test-admin-token-4f9c1e7a2b";

const db = () =>
  createNeonDb({
    connectionString: env.POSTGRES_MEMORY_DSN,
    fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
  });

/** A unique AGENT_ID, so run-time config changes never touch other test files' agent. */
function agentId(prefix = "admin"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

interface ApiResult {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

interface Instance {
  readonly env: Record<string, unknown>;
  readonly fetch: typeof fetch;
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<ApiResult>;
}

/**
 * A separate Worker instance: `createWorker(referenceAgent)` called with its own env object.
 * Per-isolate state (the run-time config cache, the A2A app) is keyed by the env object, so
 * two instances behave like two isolates of one deployment.
 */
function instance(vars: Record<string, unknown> = {}): Instance {
  const worker = createWorker(referenceAgent);
  const instanceEnv: Record<string, unknown> = { ...env, LLAMON_ADMIN_TOKEN: TOKEN, ...vars };
  const ctx = {
    waitUntil: () => {},
    passThroughOnException: () => {},
    props: {},
  } as unknown as ExecutionContext;
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(
      worker.fetch?.(new Request(input, init) as never, instanceEnv as never, ctx) as Response,
    )) as typeof fetch;
  return {
    env: instanceEnv,
    fetch: fetcher,
    async api(method, path, body, token = TOKEN) {
      const headers: Record<string, string> = {};
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let payload: string | undefined;
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        payload = typeof body === "string" ? body : JSON.stringify(body);
      }
      const res = await fetcher(`http://agent.local${path}`, { method, headers, body: payload });
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        json = { text };
      }
      return { status: res.status, body: json, headers: res.headers };
    },
  };
}

/** Rows of one conversation in every table (checkpoint tables by storage id). */
async function rowCounts(agent: string, contextId: string): Promise<Record<string, number>> {
  const storage = `${agent}:${contextId}`;
  const results = await db().batch(
    [
      {
        text: "SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1",
        params: [storage],
      },
      {
        text: "SELECT count(*)::int AS n FROM checkpoint_blobs WHERE thread_id = $1",
        params: [storage],
      },
      {
        text: "SELECT count(*)::int AS n FROM checkpoint_writes WHERE thread_id = $1",
        params: [storage],
      },
      {
        text: "SELECT count(*)::int AS n FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2",
        params: [agent, contextId],
      },
      {
        text: "SELECT count(*)::int AS n FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
        params: [agent, contextId],
      },
    ],
    { readOnly: true },
  );
  const names = [
    "checkpoints",
    "checkpoint_blobs",
    "checkpoint_writes",
    "persistent_memory",
    "llamon_threads",
  ];
  return Object.fromEntries(
    names.map((name, i) => [
      name,
      Number((results[i]?.rows[0] as { n?: number } | undefined)?.n ?? -1),
    ]),
  );
}

/** The stored run-time settings row of an agent, or undefined. */
async function settingsRow(agent: string): Promise<unknown> {
  const { rows } = await db().query<{ value: unknown }>(
    "SELECT value FROM persistent_memory WHERE agent_id = $1 AND thread_id = '' AND key = 'settings'",
    [agent],
  );
  return rows[0]?.value;
}

const TTL_VAR = "LLAMON_RUNTIME_CONFIG_TTL_SECONDS";

async function say(worker: Instance, contextId: string, text: string): Promise<string> {
  const result = await sendRaw(productDocumentBody(contextId, text), worker);
  expect(result.status).toBe(200);
  return firstLine(result.replyText);
}

/** Sends a message; returns the id of the A2A task that answered it. */
async function sayTask(worker: Instance, contextId: string, text: string): Promise<string> {
  const result = await sendRaw(productDocumentBody(contextId, text), worker);
  expect(result.status).toBe(200);
  return String((result.body.result as { id: string }).id);
}

/** tasks/get: the stored task's history texts, or the JSON-RPC error. */
async function getTask(worker: Instance, id: string) {
  const res = await worker.fetch("http://agent.local/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id } }),
  });
  return (await res.json()) as { result?: { id: string }; error?: { code: number } };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("management API: access (R10.2)", () => {
  it("R10.2 is off, not open, when LLAMON_ADMIN_TOKEN is not set (API and Studio)", async () => {
    for (const worker of [
      instance({ LLAMON_ADMIN_TOKEN: undefined }),
      instance({ LLAMON_ADMIN_TOKEN: "  " }),
    ]) {
      const res = await worker.api("GET", "/api/v1/memory/config");
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("ADMIN_DISABLED");
      expect(String(res.body.message)).toContain("LLAMON_ADMIN_TOKEN");
      const any = await worker.api("GET", "/api/v1/memory/config", undefined, "anything");
      expect(any.status).toBe(403);
      const studio = await worker.fetch("http://agent.local/studio");
      expect(studio.status).toBe(403);
    }
    const reference = await exports.default.fetch("http://w/api/v1/memory/threads");
    expect(reference.status).toBe(403);
  });

  it("R10.2 serves Studio's page, its bundled script and its stylesheet under a strict CSP", async () => {
    const worker = instance({ AGENT_ID: agentId() });
    const page = await worker.fetch("http://agent.local/studio?lang=en");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<script src="/studio/studio.js" defer=""></script>');
    const script = await worker.fetch("http://agent.local/studio/studio.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    // The bundle of src/studio/client/: it reads the page's data block, by its id.
    const js = await script.text();
    expect(js).toContain('"studio-data"');
    expect(js.length).toBeGreaterThan(5_000);
    const css = await worker.fetch("http://agent.local/studio/studio.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("R10.2 answers 401 without a token and with a wrong one; 200 with the right one", async () => {
    const worker = instance({ AGENT_ID: agentId() });
    const none = await worker.api("GET", "/api/v1/memory/config", undefined, null);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect(none.body.code).toBe("UNAUTHORIZED");
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), "", "x"]) {
      expect((await worker.api("GET", "/api/v1/memory/config", undefined, wrong)).status).toBe(401);
    }
    const basic = await worker.fetch("http://agent.local/api/v1/memory/config", {
      headers: { authorization: `Basic ${btoa(`admin:${TOKEN}`)}` },
    });
    expect(basic.status).toBe(401);
    for (const path of ["/api/v1/memory/threads", "/api/v1/memory/threads/x", "/api/v1/nope"]) {
      expect((await worker.api("GET", path, undefined, null)).status).toBe(401);
    }
    const ok = await worker.api("GET", "/api/v1/memory/config");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });
});

describe("management API: memory config (R7.6, R10.2)", () => {
  it("R10.2 GET shows the effective config and which layer set each key; the DSN is masked", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent });
    const res = await worker.api("GET", "/api/v1/memory/config");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      agent_id: agent,
      config: {
        enabled: true,
        backend: "postgres",
        window_size: 20,
        summarize: false,
        recall: true,
        recall_max_items: 5,
      },
      sources: {
        enabled: "default",
        backend: "env",
        window_size: "env",
        postgres_dsn: "env",
        recall: "env",
        recall_max_items: "env",
      },
      runtime: { layer: {}, updated_at: null, store: "postgres" },
      deploy_time_keys: ["backend", "postgres_dsn"],
      propagation: { cache_ttl_seconds: 5 },
    });
    expect(String((res.body.config as Record<string, unknown>).postgres_dsn)).toContain("****");
  });

  it("R10.2 bad PATCH bodies get 400 with per-field errors, and nothing is stored", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent });
    const cases: [unknown, string, string][] = [
      [{ windowSize: 5 }, "windowSize", 'did you mean "window_size"'],
      [{ window_size: 0 }, "window_size", "whole number >= 1"],
      [{ window_size: "5" }, "window_size", 'got "5"'],
      [{ summarize: "yes" }, "summarize", "true or false"],
      [{ history_aware: null }, "history_aware", "true or false"],
      [{ facts_mode: "smart" }, "facts_mode", '"off", "heuristic", "llm"'],
      [{ recall: "on" }, "recall", "true or false"],
      [{ recall_max_items: 0 }, "recall_max_items", "whole number >= 1 and <= 20"],
      [{ recall_max_items: 21 }, "recall_max_items", "whole number >= 1 and <= 20, got 21"],
      [{ recall_semantic: "on" }, "recall_semantic", "true or false"],
      [{ embedding_provider: "cohere" }, "embedding_provider", '"workers_ai", "openai_compatible"'],
      [{ embedding_base_url: "localhost:11434" }, "embedding_base_url", "http(s) URL"],
      [{ backend: "sqlite" }, "backend", "cannot be changed at run time"],
      [{ postgres_dsn: "postgresql://x@y/z" }, "postgres_dsn", "cannot be changed at run time"],
      [{ MEMORY_WINDOW_SIZE: 4 }, "MEMORY_WINDOW_SIZE", 'did you mean "window_size"'],
      ["{not json", "(root)", "not JSON"],
      [[1, 2], "(root)", "object"],
    ];
    for (const [body, field, text] of cases) {
      const res = await worker.api("PATCH", "/api/v1/memory/config", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("INPUT_INVALID");
      const errors = res.body.fieldErrors as Record<string, string[]>;
      expect(errors[field]?.join(" "), JSON.stringify(res.body)).toContain(text);
    }
    // Good and bad keys together: all problems at once, and the good key is not stored either.
    const mixed = await worker.api("PATCH", "/api/v1/memory/config", {
      window_size: 8,
      summarize_threshold: -1,
      backend: "off",
    });
    expect(mixed.status).toBe(400);
    expect(Object.keys(mixed.body.fieldErrors as object).sort()).toEqual([
      "backend",
      "summarize_threshold",
    ]);
    expect(await settingsRow(agent)).toBeUndefined();
    const after = await worker.api("GET", "/api/v1/memory/config");
    expect((after.body.config as Record<string, unknown>).window_size).toBe(20);
  });

  it("R10.2 PATCH merges into the run-time layer; null unsets an optional key; DELETE ?key= falls back", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent, MAX_HISTORY_TOKENS: "900" });
    const first = await worker.api("PATCH", "/api/v1/memory/config", {
      window_size: 7,
      summarize: true,
      recall: false,
      recall_max_items: 12,
      recall_semantic: true,
      embedding_provider: "openai_compatible",
      embedding_model: "nomic-embed-text",
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      config: {
        window_size: 7,
        summarize: true,
        max_history_tokens: 900,
        recall: false,
        recall_max_items: 12,
        recall_semantic: true,
        embedding_provider: "openai_compatible",
        embedding_model: "nomic-embed-text",
      },
      sources: {
        window_size: "runtime",
        summarize: "runtime",
        max_history_tokens: "env",
        recall: "runtime",
        recall_max_items: "runtime",
        recall_semantic: "runtime",
        embedding_model: "runtime",
      },
    });
    const second = await worker.api("PATCH", "/api/v1/memory/config", {
      max_history_tokens: null,
      embedding_model: null,
    });
    expect(second.status).toBe(200);
    expect((second.body.config as Record<string, unknown>).max_history_tokens).toBeUndefined();
    expect((second.body.config as Record<string, unknown>).embedding_model).toBeUndefined();
    expect(second.body.sources).toMatchObject({
      max_history_tokens: "runtime",
      window_size: "runtime",
    });
    expect(await settingsRow(agent)).toMatchObject({
      memory: { window_size: 7, summarize: true, max_history_tokens: null },
    });
    const reset = await worker.api(
      "DELETE",
      "/api/v1/memory/config?key=window_size&key=max_history_tokens",
    );
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({
      config: { window_size: 20, max_history_tokens: 900, summarize: true },
      sources: { window_size: "env", max_history_tokens: "env", summarize: "runtime" },
    });
    const bad = await worker.api("DELETE", "/api/v1/memory/config?key=windowsize");
    expect(bad.status).toBe(400);
    const all = await worker.api("DELETE", "/api/v1/memory/config");
    expect(all.body.runtime).toMatchObject({ layer: {} });
    expect((all.body.sources as Record<string, unknown>).summarize).toBe("env");
  });

  it("R10.2 concurrent PATCHes (and DELETEs) of different keys all take effect (one SQL statement each)", async () => {
    const agent = agentId("race");
    const worker = instance({ AGENT_ID: agent });
    await patchEachKeyAtOnce((method, path, body) => worker.api(method, path, body));
    expect(await settingsRow(agent)).toMatchObject({ memory: TEN_KEYS });
    const dropped = Object.keys(TEN_KEYS).slice(0, 5);
    await deleteKeysAtOnce((method, path) => worker.api(method, path), dropped);
    const kept = Object.fromEntries(Object.entries(TEN_KEYS).slice(5));
    expect((await settingsRow(agent)) as { memory: unknown }).toHaveProperty("memory", kept);
  });

  it("R10.2 a PATCH is seen by a second Worker instance within the cache bound (5 s)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const agent = agentId();
    const isolateA = instance({ AGENT_ID: agent });
    const isolateB = instance({ AGENT_ID: agent });
    const contextId = `bound-${crypto.randomUUID()}`;
    await say(isolateA, contextId, "one");
    await say(isolateA, contextId, "two");
    const windowOf = async (worker: Instance) => {
      const res = await worker.api("GET", `/api/v1/memory/threads/${contextId}`);
      expect(res.status).toBe(200);
      return res.body.signals as Record<string, unknown>;
    };
    expect(await windowOf(isolateA)).toMatchObject({ window: 20, sent_to_llm: 4 });

    const patched = await isolateB.api("PATCH", "/api/v1/memory/config", { window_size: 2 });
    expect(patched.status).toBe(200);
    // B served the PATCH: in effect there at once.
    expect(await windowOf(isolateB)).toMatchObject({ window: 2, sent_to_llm: 2, thread_msgs: 4 });
    // A still uses the value it read less than 5 s ago …
    expect(await windowOf(isolateA)).toMatchObject({ window: 20 });
    // … and the new one once the bound has passed.
    vi.setSystemTime(start + 5_001);
    expect(await windowOf(isolateA)).toMatchObject({ window: 2, sent_to_llm: 2 });
    // With LLAMON_RUNTIME_CONFIG_TTL_SECONDS=0 an isolate reads on every use.
    const eager = instance({ AGENT_ID: agent, [TTL_VAR]: "0" });
    expect(await windowOf(eager)).toMatchObject({ window: 2 });
    await isolateB.api("PATCH", "/api/v1/memory/config", { window_size: 3 });
    expect(await windowOf(eager)).toMatchObject({ window: 3 });
  });

  it("R10.2 the next turn in another isolate follows the PATCH (window_size)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const agent = agentId();
    const isolateA = instance({ AGENT_ID: agent });
    const isolateB = instance({ AGENT_ID: agent });
    const contextId = `turn-${crypto.randomUUID()}`;
    expect(await say(isolateA, contextId, "one")).toBe("offline-model: received=1 has_prior=false");
    expect(await say(isolateA, contextId, "two")).toBe("offline-model: received=3 has_prior=true");
    expect((await isolateB.api("PATCH", "/api/v1/memory/config", { window_size: 2 })).status).toBe(
      200,
    );
    vi.setSystemTime(start + 5_001);
    // [user, ai, user, ai, user]: the latest user turn plus one older message fit in 2.
    expect(await say(isolateA, contextId, "three")).toBe(
      "offline-model: received=2 has_prior=true",
    );
    expect(await say(isolateB, contextId, "four")).toBe("offline-model: received=2 has_prior=true");
  });
});

describe("management API: conversations (R2.3)", () => {
  it("lists this agent's conversations, newest activity first, in pages", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent });
    const ids = ["list-a", "list-b", "list-c"];
    for (const id of ids) await say(worker, id, `hello ${id}`);
    await say(worker, "list-a", "again"); // list-a is now the most recent

    const first = await worker.api("GET", "/api/v1/memory/threads?limit=2");
    expect(first.status).toBe(200);
    const page1 = first.body.threads as { context_id: string; message_count: number }[];
    expect(page1.map((t) => t.context_id)).toEqual(["list-a", "list-c"]);
    expect(page1[0]?.message_count).toBe(4);
    expect(typeof first.body.next_cursor).toBe("string");
    const second = await worker.api(
      "GET",
      `/api/v1/memory/threads?limit=2&cursor=${encodeURIComponent(String(first.body.next_cursor))}`,
    );
    expect((second.body.threads as { context_id: string }[]).map((t) => t.context_id)).toEqual([
      "list-b",
    ]);
    expect(second.body.next_cursor).toBeNull();

    // Forged cursors: well-formed base64 JSON whose timestamp or id the database
    // would refuse — the client's 400, never a 503.
    const forge = (value: unknown) =>
      btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    const forged = [
      forge(["2024-13-45T99:99:99.000000Z", "x"]),
      forge(["2024-02-30T00:00:00.000000Z", "x"]),
      forge(["2024-01-01T00:00:00.000000Z", "a\u0000b"]),
      forge(["2024-01-01T00:00:00.000000Z", "\ud800"]),
      forge(["2024-01-01T00:00:00.000000Z", "x".repeat(10_000)]),
    ].map((c) => `cursor=${c}`);
    for (const query of ["limit=0", "limit=101", "limit=abc", "cursor=nope", ...forged]) {
      const bad = await worker.api("GET", `/api/v1/memory/threads?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.fieldErrors).toBeDefined();
    }
  });

  it("R3.4 shows a conversation as the window sees it: groups, window, signals and the product document's hints", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent });
    const contextId = `view-${crypto.randomUUID()}`;
    await say(worker, contextId, "내 이름은 민수야");
    const one = await worker.api("GET", `/api/v1/memory/threads/${contextId}`);
    expect(one.status).toBe(200);
    expect(one.body.signals).toEqual({
      thread_msgs: 2,
      window: 20,
      sent_to_llm: 2,
      has_prior: false,
    });
    expect((one.body.hints as { id: string }[]).map((h) => h.id)).toEqual(["check_context_id"]);

    await say(worker, contextId, "이전에 뭐 얘기했지?");
    await worker.api("PATCH", "/api/v1/memory/config", { window_size: 2 });
    await say(worker, contextId, "세 번째");
    const memory = createPostgresMemory(db(), agent);
    await memory.set(contextId, "summary", {
      text: "민수가 자기소개를 했다",
      covers: 2,
      version: 1,
    });
    await memory.set(contextId, "facts", {
      version: 1,
      facts: [{ id: "name", text: "사용자 이름은 민수" }],
    });
    const res = await worker.api("GET", `/api/v1/memory/threads/${contextId}`);
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    expect(body).toMatchObject({
      agent_id: agent,
      backend: "postgres",
      context_id: contextId,
      signals: { thread_msgs: 6, window: 2, sent_to_llm: 2, has_prior: true },
      window: { window_size: 2, dropped_groups: 4, malformed_groups: 0 },
      summary: { text: "민수가 자기소개를 했다", covers: 2, effective_covers: 2 },
      facts: [{ id: "name", text: "사용자 이름은 민수" }],
      registry: { message_count: 6 },
      history_note: true,
    });
    const messages = body.messages as { type: string; text: string; id: string }[];
    expect(messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai", "human", "ai"]);
    expect(messages[0]?.text).toBe("내 이름은 민수야");
    const groups = body.groups as { kind: string; in_window: boolean; message_ids: string[] }[];
    expect(groups.map((g) => [g.kind, g.in_window])).toEqual([
      ["user", false],
      ["ai", false],
      ["user", false],
      ["ai", false],
      ["user", true],
      ["ai", true],
    ]);
    expect((body.window as { kept_ids: string[] }).kept_ids).toEqual([
      messages[4]?.id,
      messages[5]?.id,
    ]);
    const hints = body.hints as { id: string; ko: string; en: string }[];
    expect(hints.map((h) => h.id)).toEqual(["window_cut", "check_prompt"]);
    expect(hints[0]?.ko).toContain("window_size=2");
    expect(hints[0]?.en).toMatch(/^thread_msgs \([56]\) > sent_to_llm \(2\)/);
    expect(String(body.system_prompt)).toContain("[이전 대화 요약]");
    // Recorded by the turn runtime (persistent_memory `last_turn`) where it records it: the
    // last model call saw [user, ai, user, ai, user] and sent the last two.
    if (body.last_turn !== null) {
      expect(body.last_turn).toMatchObject({
        signals: { thread_msgs: 5, window: 2, sent_to_llm: 2, has_prior: true },
        sent_ids: [messages[3]?.id, messages[4]?.id],
      });
      expect(body.hints_basis).toBe("last_turn");
    }

    expect(body.page).toEqual({ from: 0, to: 6, total: 6, stored: 6, older: null });

    // A page of messages: the newest by default, older ones by `before` (a position).
    const newest = await worker.api("GET", `/api/v1/memory/threads/${contextId}?limit=2`);
    expect(newest.status).toBe(200);
    expect(newest.body.page).toEqual({ from: 4, to: 6, total: 6, stored: 6, older: 4 });
    expect((newest.body.messages as { index: number; id: string }[]).map((m) => m.id)).toEqual([
      messages[4]?.id,
      messages[5]?.id,
    ]);
    expect(newest.body.signals).toMatchObject({ thread_msgs: 6, sent_to_llm: 2 });
    const older = await worker.api("GET", `/api/v1/memory/threads/${contextId}?before=4&limit=3`);
    expect(older.body.page).toEqual({ from: 1, to: 4, total: 6, stored: 6, older: 1 });
    expect((older.body.messages as { index: number }[]).map((m) => m.index)).toEqual([1, 2, 3]);
    for (const query of [
      "before=-1",
      "before=1.5",
      "before=abc",
      "limit=0",
      "limit=501",
      "limit=x",
    ]) {
      const bad = await worker.api("GET", `/api/v1/memory/threads/${contextId}?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.code, query).toBe("INPUT_INVALID");
    }

    const missing = await worker.api("GET", "/api/v1/memory/threads/never-sent");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
  });

  it("takes any contextId, percent-encoded in the path (slashes, spaces, Hangul)", async () => {
    const worker = instance({ AGENT_ID: agentId() });
    const contextId = `사용자/세션 1?x=${crypto.randomUUID().slice(0, 4)}`;
    await say(worker, contextId, "hello");
    const path = `/api/v1/memory/threads/${encodeURIComponent(contextId)}`;
    const res = await worker.api("GET", path);
    expect(res.status).toBe(200);
    expect(res.body.context_id).toBe(contextId);
    expect((await worker.api("DELETE", path)).body).toMatchObject({ context_id: contextId });
    expect((await worker.api("GET", path)).status).toBe(404);
  });

  it("R2.3 another AGENT_ID sees, changes and erases nothing of this agent", async () => {
    const mine = instance({ AGENT_ID: agentId("mine") });
    const other = instance({ AGENT_ID: agentId("other") });
    const contextId = `shared-${crypto.randomUUID()}`;
    await say(mine, contextId, "mine only");
    await say(mine, `${contextId}-2`, "also mine");

    const listed = await other.api("GET", "/api/v1/memory/threads");
    expect(listed.body.threads).toEqual([]);
    expect((await other.api("GET", `/api/v1/memory/threads/${contextId}`)).status).toBe(404);
    expect((await other.api("PATCH", "/api/v1/memory/config", { window_size: 3 })).status).toBe(
      200,
    );
    const config = await mine.api("GET", "/api/v1/memory/config");
    expect(config.body.config).toMatchObject({ window_size: 20 });
    expect(config.body.runtime).toMatchObject({ layer: {} });
    expect((await other.api("DELETE", `/api/v1/memory/threads/${contextId}`)).status).toBe(200);
    const still = await mine.api("GET", `/api/v1/memory/threads/${contextId}`);
    expect(still.status).toBe(200);
    expect((still.body.signals as { thread_msgs: number }).thread_msgs).toBe(2);
    expect((await mine.api("GET", "/api/v1/memory/threads")).body.threads).toHaveLength(2);
  });

  it("R4.3 DELETE erases every row of the conversation in every table, and nothing else", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent });
    const otherAgent = instance({ AGENT_ID: agentId("keep") });
    const contextId = `forget-${crypto.randomUUID()}`;
    const tasks = [
      await sayTask(worker, contextId, "please forget me"),
      await sayTask(worker, contextId, "really"),
    ];
    const keptTask = await sayTask(worker, `${contextId}-kept`, "keep me");
    for (const id of [...tasks, keptTask]) expect((await getTask(worker, id)).result?.id).toBe(id);
    await say(otherAgent, contextId, "same contextId, other agent");
    // Rows the turn path may not have written yet in this configuration: summary, facts, a
    // pending write.
    const memory = createPostgresMemory(db(), agent);
    await memory.set(contextId, "summary", { text: "s", covers: 1, version: 1 });
    await memory.set(contextId, "facts", { version: 1, facts: [] });
    const saver = new NeonSaver({ db: db(), agentId: agent });
    const tuple = await saver.getTuple({ configurable: { thread_id: contextId } });
    await saver.putWrites(
      {
        configurable: {
          thread_id: contextId,
          checkpoint_ns: "",
          checkpoint_id: tuple?.checkpoint.id,
        },
      },
      [["messages", []]],
      "task-1",
    );
    const before = await rowCounts(agent, contextId);
    for (const [table, n] of Object.entries(before)) expect(n, table).toBeGreaterThan(0);
    const keptBefore = await rowCounts(agent, `${contextId}-kept`);
    const otherBefore = await rowCounts(String(otherAgent.env.AGENT_ID), contextId);

    const res = await worker.api("DELETE", `/api/v1/memory/threads/${contextId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agent_id: agent,
      principal: "anonymous",
      context_id: contextId,
      erased: true,
      tasks_erased: 2,
    });
    // The A2A task records (each holds a user message and its reply) are gone too.
    for (const id of tasks) expect((await getTask(worker, id)).error?.code).toBe(-32001);
    expect((await getTask(worker, keptTask)).result?.id).toBe(keptTask);
    expect(await rowCounts(agent, contextId)).toEqual({
      checkpoints: 0,
      checkpoint_blobs: 0,
      checkpoint_writes: 0,
      persistent_memory: 0,
      llamon_threads: 0,
    });
    expect(await rowCounts(agent, `${contextId}-kept`)).toEqual(keptBefore);
    expect(await rowCounts(String(otherAgent.env.AGENT_ID), contextId)).toEqual(otherBefore);
    expect((await worker.api("GET", `/api/v1/memory/threads/${contextId}`)).status).toBe(404);
    // Idempotent.
    expect((await worker.api("DELETE", `/api/v1/memory/threads/${contextId}`)).status).toBe(200);
    // The conversation starts over.
    expect(await say(worker, contextId, "hello again")).toBe(
      "offline-model: received=1 has_prior=false",
    );
  });
});

describe("contextIds a URL path cannot carry", () => {
  it("`.` and `..` are shown and erased through /api/v1/memory/thread?context_id=", async () => {
    const worker = instance({ AGENT_ID: agentId("dots") });
    for (const contextId of [".", ".."]) {
      await say(worker, contextId, `hello ${contextId}`);
      const q = `context_id=${encodeURIComponent(contextId)}`;
      const shown = await worker.api("GET", `/api/v1/memory/thread?${q}`);
      expect(shown.status, contextId).toBe(200);
      expect((shown.body.signals as { thread_msgs: number }).thread_msgs).toBe(2);
      const erased = await worker.api("DELETE", `/api/v1/memory/thread?${q}`);
      expect(erased.body).toMatchObject({ context_id: contextId, erased: true, tasks_erased: 1 });
      expect((await worker.api("GET", `/api/v1/memory/thread?${q}`)).status).toBe(404);
    }
    expect((await worker.api("GET", "/api/v1/memory/thread")).status).toBe(400);
  });
});
