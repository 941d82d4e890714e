/**
 * Through the Worker's fetch handler inside workerd,
 * postgres backend: hostile bodies are clear client errors and store NOTHING — no run-time
 * settings row for a bad PATCH; no checkpoint, thread row, memory row or A2A task for a bad
 * A2A request.
 *
 * - PATCH /api/v1/memory/config takes exactly the run-time keys: `__proto__`, `constructor`,
 *   `toString` are unknown keys (400), never a way to store `backend`/`postgres_dsn`, and
 *   window_size / max_history_tokens / a2a_history_max_messages have upper bounds;
 * - a `metadata.history` over the item cap is -32602 before the turn (stored, it would make
 *   the task oversized and fail with -32603 on every retry);
 * - deep JSON is -32600 (parsed, it would overflow the stack: -32603);
 * - invalid UTF-8 is -32700 (decoded with U+FFFD, two contextIds differing only in invalid
 *   bytes would share a thread).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SEED_MAX_ITEMS } from "../../src/memory/seed.ts";
import { MAX_JSON_DEPTH } from "../../src/runtime/json-body.ts";
import { taskListObjectName } from "../../src/runtime/objects.ts";
import { ANONYMOUS_PRINCIPAL } from "../../src/runtime/thread-keys.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";

const TOKEN = "test-admin-token-hostile-input";

const db = () =>
  createNeonDb({
    connectionString: env.POSTGRES_MEMORY_DSN,
    fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
  });

interface Reply {
  status: number;
  type: string;
  body: Record<string, unknown>;
}

/** A Worker instance with its own AGENT_ID (and the admin token). */
function instance() {
  const agent = `h15-${crypto.randomUUID().slice(0, 8)}`;
  const worker = createWorker(referenceAgent);
  const workerEnv = { ...env, AGENT_ID: agent, LLAMON_ADMIN_TOKEN: TOKEN };
  const ctx = {
    waitUntil: () => {},
    passThroughOnException: () => {},
    props: {},
  } as unknown as ExecutionContext;
  async function call(
    method: string,
    path: string,
    body?: BodyInit,
    extra: Record<string, string> = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, ...extra };
    if (body !== undefined) headers["content-type"] = "application/json";
    const request = new Request(`http://agent.local${path}`, { method, headers, body });
    const res = (await worker.fetch?.(request as never, workerEnv as never, ctx)) as Response;
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      body: JSON.parse(text) as Record<string, unknown>,
    };
  }
  return {
    agent,
    patch: (body: BodyInit) => call("PATCH", "/api/v1/memory/config", body),
    getConfig: () => call("GET", "/api/v1/memory/config"),
    rpc: (body: BodyInit) => call("POST", "/", body),
    /** An A2A 1.0 HTTP+JSON call (`/rest/…`). */
    rest: (path: string, body: BodyInit) =>
      call("POST", `/rest/${path}`, body, { "a2a-version": "1.0" }),
  };
}

/** What is stored for one conversation: postgres rows and the A2A tasks listed for it. */
async function stored(agent: string, contextId: string): Promise<Record<string, number>> {
  const count = (text: string, params: string[]) => ({ text, params });
  const results = await db().batch(
    [
      count("SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1", [
        `${agent}:${contextId}`,
      ]),
      count(
        "SELECT count(*)::int AS n FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2",
        [agent, contextId],
      ),
      count(
        "SELECT count(*)::int AS n FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
        [agent, contextId],
      ),
    ],
    { readOnly: true },
  );
  const n = (i: number) => Number((results[i]?.rows[0] as { n?: number } | undefined)?.n ?? -1);
  const list = env.THREADS.getByName(taskListObjectName(agent, ANONYMOUS_PRINCIPAL));
  const tasks = await runInDurableObject(list, async (_object, state) => {
    try {
      return state.storage.sql
        .exec<{ n: number }>(
          "SELECT count(*) AS n FROM a2a_task_list WHERE context_id = ?",
          contextId,
        )
        .one().n;
    } catch {
      return 0; // no table: no task saved in this list
    }
  });
  return { checkpoints: n(0), persistent_memory: n(1), llamon_threads: n(2), tasks };
}

const NOTHING = { checkpoints: 0, persistent_memory: 0, llamon_threads: 0, tasks: 0 };

async function settingsRow(agent: string): Promise<unknown> {
  const { rows } = await db().query<{ value: unknown }>(
    "SELECT value FROM persistent_memory WHERE agent_id = $1 AND thread_id = '' AND key = 'settings'",
    [agent],
  );
  return rows[0]?.value;
}

function sendBody(contextId: string, extra: Record<string, unknown> = {}, method = "message/send") {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method,
    params: {
      message: { contextId, role: "user", parts: [{ kind: "text", text: "hello" }] },
      ...extra,
    },
  });
}

const rpcError = (reply: Reply) => reply.body.error as { code: number; message: string };

describe("hostile management API bodies store nothing", () => {
  it("prototype keys and over-bound values are a 400 per key; backend is never stored", async () => {
    const worker = instance();
    const cases: [string, string, string][] = [
      [
        '{"__proto__":{"backend":"sqlite","postgres_dsn":"postgresql://evil@x/y","window_size":3}}',
        "__proto__",
        "unknown key",
      ],
      ['{"window_size":5,"__proto__":{"backend":"off"}}', "__proto__", "unknown key"],
      ['{"constructor":{"prototype":{"backend":"sqlite"}}}', "constructor", "unknown key"],
      ['{"toString":1}', "toString", "unknown key"],
      ['{"constructor":1}', "constructor", "unknown key"],
      ['{"hasOwnProperty":true}', "hasOwnProperty", "unknown key"],
      ['{"window_size":1001}', "window_size", "<= 1000, got 1001"],
      ['{"max_history_tokens":1000001}', "max_history_tokens", "<= 1000000, got 1000001"],
      ['{"a2a_history_max_messages":1001}', "a2a_history_max_messages", "<= 1000"],
      ['{"window_size":1e300}', "window_size", "whole number"],
    ];
    for (const [body, field, text] of cases) {
      const res = await worker.patch(body);
      expect(res.status, body).toBe(400);
      expect(res.type).toContain("application/json");
      expect(res.body.code, body).toBe("INPUT_INVALID");
      const errors = res.body.fieldErrors as Record<string, string[]>;
      expect(Object.keys(errors), body).toEqual([field]);
      expect(errors[field]?.join(" "), body).toContain(text);
    }
    expect(await settingsRow(worker.agent)).toBeUndefined();
    const after = await worker.getConfig();
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      config: { backend: "postgres", window_size: 20 },
      sources: { backend: "env", postgres_dsn: "env", window_size: "env" },
      runtime: { layer: {} },
    });
    // The bounds themselves are accepted.
    const max = await worker.patch('{"window_size":1000,"max_history_tokens":1000000}');
    expect(max.status).toBe(200);
    expect(await settingsRow(worker.agent)).toMatchObject({
      memory: { window_size: 1000, max_history_tokens: 1_000_000 },
    });
  });

  it("a body that is not strict UTF-8 or nests too deep is a 400 that says so", async () => {
    const worker = instance();
    const enc = new TextEncoder();
    const invalid = new Uint8Array([...enc.encode('{"window_size":5}'), 0xff]);
    const res = await worker.patch(invalid);
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toEqual({ "(root)": ["not valid UTF-8"] });
    const deep = `{"window_size":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const tooDeep = await worker.patch(deep);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.fieldErrors).toEqual({
      "(root)": [`nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`],
    });
    expect(await settingsRow(worker.agent)).toBeUndefined();
  });
});

describe("hostile A2A bodies store nothing", () => {
  it("a 10k-item invalid history is -32602 up front, on every try; one at the cap is answered with its report", async () => {
    const worker = instance();
    const contextId = `seed-${crypto.randomUUID()}`;
    const items = (n: number) => Array.from({ length: n }, () => ({ role: "system", text: "x" }));
    for (const method of ["message/send", "message/send", "message/stream"]) {
      const res = await worker.rpc(
        sendBody(contextId, { metadata: { history: items(10_000) } }, method),
      );
      expect(res.status).toBe(200);
      expect(rpcError(res)).toMatchObject({
        code: -32602,
        message: `params.metadata.history has 10000 items; at most ${SEED_MAX_ITEMS} are accepted (send the newest)`,
      });
      expect(await stored(worker.agent, contextId)).toEqual(NOTHING);
    }
    const atCap = await worker.rpc(
      sendBody(contextId, { metadata: { history: items(SEED_MAX_ITEMS) } }),
    );
    expect(atCap.body.error).toBeUndefined();
    const result = atCap.body.result as { metadata: { seed_report: Record<string, unknown[]> } };
    expect(result.metadata.seed_report.dropped).toHaveLength(SEED_MAX_ITEMS);
    expect(result.metadata.seed_report).toMatchObject({ accepted: 0, truncated: 0 });
    expect(await stored(worker.agent, contextId)).toMatchObject({ llamon_threads: 1, tasks: 1 });
  });

  it("R11.2 a messageId, taskId or referenced task id with NUL or an unpaired surrogate is -32602 / HTTP 400 on postgres, and stores nothing", async () => {
    const worker = instance();
    const contextId = `bad-id-${crypto.randomUUID()}`;
    const BAD = [
      { id: "m\u0000x", problem: "must not contain control characters" },
      { id: "m-\ud83d", problem: "must not contain unpaired surrogates (invalid Unicode)" },
    ];
    const v03 = (fields: Record<string, unknown>) => ({
      contextId,
      role: "user",
      parts: [{ kind: "text", text: "hello" }],
      ...fields,
    });
    const v1 = (fields: Record<string, unknown>) => ({
      contextId,
      role: "ROLE_USER",
      parts: [{ text: "hello" }],
      ...fields,
    });
    for (const { id, problem } of BAD) {
      const rpcCases = [
        { method: "message/send", message: v03({ messageId: id }), field: "messageId" },
        { method: "message/stream", message: v03({ messageId: id }), field: "messageId" },
        { method: "message/send", message: v03({ taskId: id }), field: "taskId" },
        {
          method: "message/send",
          message: v03({ referenceTaskIds: [id] }),
          field: "referenceTaskIds[0]",
        },
        { method: "SendMessage", message: v1({ messageId: id }), field: "messageId" },
        { method: "SendStreamingMessage", message: v1({ message_id: id }), field: "message_id" },
      ];
      for (const { method, message, field } of rpcCases) {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { message } });
        const res = await worker.rpc(body);
        expect(res.status, `${method} ${field}`).toBe(200);
        expect(res.type, `${method} ${field}`).toContain("application/json");
        expect(rpcError(res), `${method} ${field}`).toMatchObject({
          code: -32602,
          message: `params.message.${field} ${problem}`,
        });
      }
      for (const path of ["message:send", "message:stream"]) {
        const res = await worker.rest(path, JSON.stringify({ message: v1({ messageId: id }) }));
        expect(res.status, path).toBe(400);
        expect(res.body.error, path).toMatchObject({
          code: 400,
          status: "INVALID_ARGUMENT",
          message: `params.message.messageId ${problem}`,
        });
      }
    }
    expect(await stored(worker.agent, contextId)).toEqual(NOTHING);
    // The same conversation takes a well-formed id afterwards.
    const good = await worker.rpc(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: v03({ messageId: "m-😀" }) },
      }),
    );
    expect(good.body.error).toBeUndefined();
    expect(await stored(worker.agent, contextId)).toMatchObject({ llamon_threads: 1, tasks: 1 });
  });

  it("deep JSON is -32600 wherever it nests, never a 5xx, and stores nothing", async () => {
    const worker = instance();
    const contextId = `deep-${crypto.randomUUID()}`;
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const place = (body: string, n: number) => body.replace('"@@"', deep(n));
    const bodies = [
      place(sendBody(contextId, { metadata: { x: "@@" } }), 100_000),
      place(sendBody(contextId, { metadata: { history: [{ role: "user", text: "@@" }] } }), 5_000),
      place(sendBody(contextId, { configuration: { pushNotificationConfig: "@@" } }), 1_000),
      place(sendBody(contextId, {}, "SendMessage").replace('"hello"', '"@@"'), 100_000),
      `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`,
    ];
    for (const body of bodies) {
      const res = await worker.rpc(body);
      expect(res.status, body.slice(0, 80)).toBe(200);
      expect(rpcError(res), body.slice(0, 80)).toEqual({
        code: -32600,
        message: `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
    expect(await stored(worker.agent, contextId)).toEqual(NOTHING);
  });

  it("contextIds with invalid UTF-8 are -32700 and never meet on one thread", async () => {
    const worker = instance();
    const enc = new TextEncoder();
    const [before, after] = sendBody("u-@@").split("@@") as [string, string];
    for (const bytes of [[0xff], [0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const body = new Uint8Array([...enc.encode(before), ...bytes, ...enc.encode(after)]);
      const res = await worker.rpc(body);
      expect(res.status).toBe(200);
      expect(rpcError(res)).toMatchObject({
        code: -32700,
        message: "the request body is not valid UTF-8",
      });
    }
    // What a lenient decoder would have made of them.
    for (const decoded of ["u-\uFFFD", "u-\uFFFD\uFFFD", "u-\uFFFD\uFFFD\uFFFD"]) {
      expect(await stored(worker.agent, decoded)).toEqual(NOTHING);
    }
  });
});
