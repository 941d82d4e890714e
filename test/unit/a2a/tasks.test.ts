/**
 * Tasks after the turn: tasks/get, cancel and resubscribe of terminal tasks (our turns end
 * inside their request), ListTasks, failed turns mapped to JSON-RPC errors, and the number of
 * task-store round trips of a turn.
 */
import { Role, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { InMemoryKv, type KvBackend, KvTaskStore } from "../../../src/a2a/index.ts";
import { LlamonError } from "../../../src/errors.ts";
import {
  AGENT_ID,
  BASE_URL,
  fakeTurns,
  makeApp,
  PRODUCT_DOC_BODY,
  post,
  readSse,
  rpc,
} from "./helpers.ts";

async function sendOne(t: ReturnType<typeof makeApp>, contextId = "ctx-1") {
  const reply = await rpc(t.app, {
    jsonrpc: "2.0",
    id: 1,
    method: "message/send",
    params: { message: { contextId, role: "user", parts: [{ kind: "text", text: "hi" }] } },
  });
  return reply.body.result as { id: string; contextId: string };
}

/**
 * The error answer of a streaming call that failed before its first event: a plain JSON-RPC
 * error (no stream opens), except 0.3's tasks/resubscribe, which answers one SSE error event.
 */
async function earlyError(res: Response, sse: boolean) {
  if (sse) {
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    expect(events).toHaveLength(1);
    return events[0]?.data;
  }
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return (await res.json()) as { id: unknown; error?: { code: number; message: string } };
}

describe("tasks of finished turns", () => {
  it("tasks/get and GetTask return the stored task, with historyLength applied", async () => {
    const t = makeApp();
    const task = await sendOne(t);
    const v03 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/get",
      params: { id: task.id },
    });
    expect(v03.body.result).toMatchObject({
      kind: "task",
      id: task.id,
      status: { state: "completed" },
    });
    const v1 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 3,
      method: "GetTask",
      params: { id: task.id, historyLength: 1 },
    });
    expect(v1.body.result).toMatchObject({
      id: task.id,
      status: { state: "TASK_STATE_COMPLETED" },
    });
    expect((v1.body.result as { history: unknown[] }).history).toHaveLength(1);
  });

  it("tasks/cancel of a completed task is TaskNotCancelable (-32002)", async () => {
    const t = makeApp();
    const task = await sendOne(t);
    const v03 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/cancel",
      params: { id: task.id },
    });
    expect(v03.body.error).toMatchObject({
      code: -32002,
      message: `Task not cancelable: ${task.id}`,
    });
    const v1 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 3,
      method: "CancelTask",
      params: { id: task.id },
    });
    expect(v1.body.error).toMatchObject({
      code: -32002,
      data: [{ reason: "TASK_NOT_CANCELABLE" }],
    });
    const after = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 4,
      method: "tasks/get",
      params: { id: task.id },
    });
    expect(after.body.result).toMatchObject({ status: { state: "completed" } });
  });

  it("R12.2 tasks/resubscribe and SubscribeToTask of a finished task answer UnsupportedOperation (-32004) without opening a stream (0.3's resubscribe: one SSE event), the state named in the version spoken", async () => {
    const t = makeApp();
    const task = await sendOne(t);
    for (const [method, state] of [
      ["tasks/resubscribe", "(completed)"],
      ["SubscribeToTask", "(TASK_STATE_COMPLETED)"],
    ] as const) {
      const headers: Record<string, string> =
        method === "SubscribeToTask" ? { "A2A-Version": "1.0" } : {};
      const res = await post(
        t.app,
        { jsonrpc: "2.0", id: 5, method, params: { id: task.id } },
        headers,
      );
      const body = await earlyError(res, method === "tasks/resubscribe");
      expect(body?.id).toBe(5);
      expect(body?.error?.code).toBe(-32004);
      expect(body?.error?.message).toContain(`terminal state ${state}`);
      expect(body?.error?.message).not.toMatch(/\(\d\)/);
    }
  });

  it("unknown task ids are TaskNotFound (-32001) for get, cancel and resubscribe (a plain error; 0.3's resubscribe as SSE)", async () => {
    const t = makeApp();
    for (const method of ["tasks/get", "tasks/cancel", "GetTask", "CancelTask"]) {
      const reply = await rpc(t.app, { jsonrpc: "2.0", id: 1, method, params: { id: "nope" } });
      expect(reply.body.error?.code, method).toBe(-32001);
    }
    for (const method of ["tasks/resubscribe", "SubscribeToTask"]) {
      const res = await post(t.app, { jsonrpc: "2.0", id: 1, method, params: { id: "nope" } });
      const body = await earlyError(res, method === "tasks/resubscribe");
      expect(body?.error?.code, method).toBe(-32001);
    }
  });

  it("R12.2 message/stream naming an unknown or a finished task answers a plain JSON-RPC error, no stream", async () => {
    const t = makeApp();
    const task = await sendOne(t);
    for (const [taskId, code] of [
      ["nope", -32001],
      [task.id, -32004],
    ] as const) {
      const res = await post(t.app, {
        jsonrpc: "2.0",
        id: 2,
        method: "message/stream",
        params: { message: { taskId, role: "user", parts: [{ kind: "text", text: "more" }] } },
      });
      const body = await earlyError(res, false);
      expect([body?.id, body?.error?.code]).toEqual([2, code]);
    }
    expect(t.turns.inputs).toHaveLength(1);
  });

  it("agent/getAuthenticatedExtendedCard is -32007 (v0.3), GetExtendedAgentCard -32004 (v1.0)", async () => {
    const t = makeApp();
    const v03 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "agent/getAuthenticatedExtendedCard",
    });
    expect(v03.body.error?.code).toBe(-32007);
    const v1 = await rpc(
      t.app,
      { jsonrpc: "2.0", id: 1, method: "GetExtendedAgentCard", params: {} },
      { "A2A-Version": "1.0" },
    );
    expect(v1.body.error?.code).toBe(-32004);
  });

  it("a message naming a finished task is refused without running a turn", async () => {
    const t = makeApp();
    const task = await sendOne(t);
    const reply = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: { taskId: task.id, role: "user", parts: [{ kind: "text", text: "more" }] },
      },
    });
    expect(reply.body.error?.code).toBe(-32004);
    expect(t.turns.inputs).toHaveLength(1);
  });

  it("R12.2 a working task (turn still streaming elsewhere) can be resubscribed and canceled from another request; the subscription follows it to its end", async () => {
    const kv = new InMemoryKv();
    await new KvTaskStore({ kv, agentId: AGENT_ID }).save({
      id: "running-1",
      contextId: "ctx-r",
      status: {
        state: TaskState.TASK_STATE_WORKING,
        message: undefined,
        timestamp: new Date(Date.now() - 1000).toISOString(),
      },
      artifacts: [],
      history: [],
      metadata: undefined,
    });
    const t = makeApp({ kv });
    const res = await post(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "tasks/resubscribe",
      params: { id: "running-1" },
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    // The subscription stays open: its events arrive as another request changes the task.
    const followed = readSse(res);
    const canceled = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/cancel",
      params: { id: "running-1" },
    });
    expect(canceled.body.result).toMatchObject({ id: "running-1", status: { state: "canceled" } });
    const events = await followed;
    expect(events.map((e) => e.data.result)).toEqual([
      expect.objectContaining({
        kind: "task",
        id: "running-1",
        status: expect.objectContaining({ state: "working" }),
      }),
      expect.objectContaining({
        kind: "status-update",
        taskId: "running-1",
        status: expect.objectContaining({ state: "canceled" }),
        final: true,
      }),
    ]);
    // A canceled task cannot be canceled again (A2A: TaskNotCancelableError), in both versions.
    for (const method of ["tasks/cancel", "CancelTask"]) {
      const again = await rpc(t.app, {
        jsonrpc: "2.0",
        id: 3,
        method,
        params: { id: "running-1" },
      });
      expect(again.body.result, method).toBeUndefined();
      expect(again.body.error, method).toMatchObject({ code: -32002 });
      expect(again.body.error?.message, method).toContain("already canceled");
    }
    const rest = await t.app.fetch(
      new Request(`${BASE_URL}/rest/tasks/running-1:cancel`, {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
        body: "{}",
      }),
    );
    expect(rest.status).toBe(409);
    expect(await rest.json()).toMatchObject({
      error: { code: 409, status: "FAILED_PRECONDITION" },
    });
  });

  it("cancel of a task whose streaming turn runs in this isolate aborts the turn's signal", async () => {
    let signal: AbortSignal | undefined;
    const t = makeApp({
      turns: {
        inputs: [],
        execute: (_input, s) =>
          new Promise((_resolve, reject) => {
            signal = s;
            s?.addEventListener("abort", () => reject(new Error("aborted")));
          }),
      },
    });
    const res = await post(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/stream",
      params: { message: { contextId: "c", role: "user", parts: [{ kind: "text", text: "x" }] } },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("\n\n")) text += decoder.decode((await reader.read()).value);
    const working = JSON.parse(text.slice(text.indexOf("data:") + 5, text.indexOf("\n\n"))) as {
      result: { id: string; status: { state: string } };
    };
    expect(working.result.status.state).toBe("working");
    const canceled = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/cancel",
      params: { id: working.result.id },
    });
    expect(canceled.body.result).toMatchObject({ status: { state: "canceled" } });
    expect(signal?.aborted).toBe(true);
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    expect(text).toContain('"state":"canceled"');
    expect(text).not.toContain('"state":"failed"');
  });

  it("ListTasks lists this agent's tasks, filtered by contextId", async () => {
    const kv = new InMemoryKv();
    const t = makeApp({ kv });
    await sendOne(t, "ctx-x");
    await sendOne(t, "ctx-x");
    await sendOne(t, "ctx-y");
    await sendOne(makeApp({ kv, agentId: "other-agent" }), "ctx-x");
    const reply = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "ListTasks",
      params: { contextId: "ctx-x" },
    });
    const result = reply.body.result as { tasks: { contextId: string }[]; totalSize: number };
    expect(result.totalSize).toBe(2);
    expect(result.tasks.map((task) => task.contextId)).toEqual(["ctx-x", "ctx-x"]);
  });

  it("ListTasks over a backend that cannot list keys is UnsupportedOperation", async () => {
    const inner = new InMemoryKv();
    const kv: KvBackend = { get: (k) => inner.get(k), put: (k, v) => inner.put(k, v) };
    const t = makeApp({ kv });
    const reply = await rpc(t.app, { jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} });
    expect(reply.body.error?.code).toBe(-32004);
  });

  it("a blocking turn costs one task-store write and no read", async () => {
    const inner = new InMemoryKv();
    const ops: string[] = [];
    const kv: KvBackend = {
      get: (k) => {
        ops.push("get");
        return inner.get(k);
      },
      put: (k, v) => {
        ops.push("put");
        return inner.put(k, v);
      },
    };
    const t = makeApp({ kv });
    await rpc(t.app, PRODUCT_DOC_BODY);
    expect(ops).toEqual(["put"]);
  });
});

describe("failed turns", () => {
  const CASES = [
    {
      name: "INPUT_INVALID keeps its message as -32602",
      error: new LlamonError("INPUT_INVALID", "metadata.history[0].role must be user or agent"),
      code: -32602,
      message: "metadata.history[0].role must be user or agent",
    },
    {
      name: "THREAD_CONFLICT asks to retry (-32603)",
      error: new LlamonError("THREAD_CONFLICT", "head moved from 1 to 2"),
      code: -32603,
      message: /retry/,
    },
    {
      name: "DB_UNAVAILABLE gets a safe message (-32603)",
      error: new LlamonError(
        "DB_UNAVAILABLE",
        "connect ECONNREFUSED 10.0.0.7:5432 password=hunter2",
      ),
      code: -32603,
      message: "conversation memory is temporarily unavailable; retry later",
    },
    {
      name: "any other error is a generic internal error (-32603)",
      error: new Error("boom at /work/main/src/agent/run-turn.ts:42"),
      code: -32603,
      message: "internal error",
    },
  ];

  it.each(CASES)("$name; nothing is stored", async ({ error, code, message }) => {
    const kv = new InMemoryKv();
    const t = makeApp({
      kv,
      turns: fakeTurns(() => {
        throw error;
      }),
    });
    for (const method of ["message/send", "SendMessage"]) {
      const message_ =
        method === "SendMessage"
          ? { role: "ROLE_USER", parts: [{ text: "x" }] }
          : { role: "user", parts: [{ kind: "text", text: "x" }] };
      const reply = await rpc(t.app, {
        jsonrpc: "2.0",
        id: 7,
        method,
        params: { message: message_ },
      });
      expect(reply.body.id).toBe(7);
      expect(reply.body.result).toBeUndefined();
      expect(reply.body.error?.code).toBe(code);
      if (typeof message === "string") expect(reply.body.error?.message).toBe(message);
      else expect(reply.body.error?.message).toMatch(message);
      expect(reply.text).not.toMatch(/hunter2|ECONNREFUSED|\/work\/|run-turn|head moved/);
      expect(JSON.stringify(reply.body.error?.data)).toContain(
        error instanceof LlamonError ? error.code : "INTERNAL",
      );
    }
    expect(kv.entries.size).toBe(0);
  });

  it("a provider 429 reaches the client as its own retryable code (-32050), in both versions", async () => {
    const busy = new LlamonError(
      "MODEL_FAILED",
      "openai (HTTP 429 from https://api.example): busy",
      {
        details: {
          provider: "openai-compatible",
          reason: "rate_limited",
          retryable: true,
          status: 429,
        },
      },
    );
    const refused = new LlamonError("MODEL_FAILED", "openai (HTTP 400): the request was refused", {
      details: { provider: "openai-compatible", reason: "bad_request", retryable: false },
    });
    for (const [error, retryable] of [
      [busy, true],
      [refused, false],
    ] as const) {
      const t = makeApp({
        turns: fakeTurns(() => {
          throw error;
        }),
      });
      const v03 = await rpc(t.app, {
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: { role: "user", parts: [{ kind: "text", text: "x" }] } },
      });
      expect(v03.body.error).toMatchObject({
        code: -32050,
        data: { reason: "MODEL_FAILED", retryable },
      });
      expect(v03.body.error?.message).toMatch(retryable ? /retry/ : /operator/);
      expect(v03.text).not.toContain("api.example");
      const v1 = await rpc(t.app, {
        jsonrpc: "2.0",
        id: 2,
        method: "SendMessage",
        params: { message: { role: "ROLE_USER", parts: [{ text: "x" }] } },
      });
      expect(v1.body.error).toMatchObject({
        code: -32050,
        data: [
          { reason: "MODEL_FAILED", domain: "llamon", metadata: { retryable: String(retryable) } },
        ],
      });
    }
  });

  it("a streaming turn that fails ends with a failed status carrying the safe message", async () => {
    const t = makeApp({
      turns: fakeTurns(() => {
        throw new LlamonError("THREAD_CONFLICT", "head moved");
      }),
    });
    const res = await post(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/stream",
      params: { message: { contextId: "c", role: "user", parts: [{ kind: "text", text: "x" }] } },
    });
    const events = await readSse(res);
    const last = events.at(-1)?.data.result as {
      kind: string;
      final: boolean;
      status: { state: string; message: { parts: { text: string }[]; metadata: unknown } };
    };
    expect(last).toMatchObject({ kind: "status-update", final: true, status: { state: "failed" } });
    expect(last.status.message.parts[0]?.text).toMatch(/retry/);
    expect(last.status.message.metadata).toEqual({
      error_reason: "THREAD_CONFLICT",
      retryable: true,
    });
    expect(JSON.stringify(events)).not.toContain("head moved");
  });

  it("a turn that resolves to something else than { reply } is an internal error", async () => {
    const t = makeApp({ turns: { inputs: [], execute: async () => ({}) as never } });
    const reply = await rpc(t.app, PRODUCT_DOC_BODY);
    expect(reply.body.error).toMatchObject({ code: -32603, message: "internal error" });
  });

  it("passes an AbortSignal to the turn", async () => {
    let seen: AbortSignal | undefined;
    const t = makeApp({
      turns: {
        inputs: [],
        async execute(_input, signal) {
          seen = signal;
          return { reply: "ok" };
        },
      },
    });
    await rpc(t.app, PRODUCT_DOC_BODY);
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(seen?.aborted).toBe(false);
  });
});

it("Role enum sanity (SDK v1 ROLE_USER = 1)", () => {
  expect(Role.ROLE_USER).toBe(1);
});

describe("streams and non-blocking sends", () => {
  it("a streaming client that disconnects still leaves the task recorded as completed", async () => {
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const kv = new InMemoryKv();
    const t = makeApp({
      kv,
      turns: fakeTurns(async () => {
        await gate;
        return { reply: "late" };
      }),
    });
    const res = await post(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/stream",
      params: { message: { contextId: "c", role: "user", parts: [{ kind: "text", text: "x" }] } },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the working task
    await reader.cancel();
    finish();
    const store = new KvTaskStore({ kv, agentId: AGENT_ID });
    const key = [...kv.entries.keys()][0] as string;
    const taskId = key.slice(store.keyOf("").length);
    for (let i = 0; i < 50; i++) {
      if ((await store.load(taskId))?.status?.state === TaskState.TASK_STATE_COMPLETED) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await store.load(taskId))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("blocking:false and returnImmediately:true still answer with the finished task", async () => {
    const t = makeApp();
    const v03 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: { role: "user", parts: [{ kind: "text", text: "x" }] },
        configuration: { blocking: false },
      },
    });
    expect(v03.body.result).toMatchObject({ status: { state: "completed" } });
    const v1 = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 2,
      method: "SendMessage",
      params: {
        message: { role: "ROLE_USER", parts: [{ text: "x" }] },
        configuration: { returnImmediately: true },
      },
    });
    expect(v1.body.result).toMatchObject({ task: { status: { state: "TASK_STATE_COMPLETED" } } });
  });

  it("a failed non-blocking send is answered with the mapped error too", async () => {
    const t = makeApp({
      turns: fakeTurns(() => {
        throw new LlamonError("THREAD_CONFLICT", "x");
      }),
    });
    const reply = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: { role: "user", parts: [{ kind: "text", text: "x" }] },
        configuration: { blocking: false },
      },
    });
    expect(reply.body.error).toMatchObject({ code: -32603, data: { reason: "THREAD_CONFLICT" } });
  });
});
