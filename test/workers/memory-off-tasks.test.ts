/**
 * R11.3: memory `off` keeps no conversation text after the request, A2A task records
 * included. Through the Worker's fetch handler (inside workerd), with MEMORY_BACKEND=off and
 * with memory turned off at run time on the postgres backend: every send is answered in full
 * within its request (blocking and streaming, v0.3 and v1.0), and afterwards no read path
 * returns its text — tasks/get and GetTask are TaskNotFound (-32001), ListTasks lists nothing,
 * resubscribing is TaskNotFound — and no Durable Object that keeps task records (the owner's
 * task list, a record object of an earlier release, the conversation's index) holds it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlow } from "../../src/agent/flow.ts";
import { TASK_INDEX_PREFIX } from "../../src/durable/task-index.ts";
import {
  taskListObjectName,
  taskRecordObjectName,
  threadObjectName,
} from "../../src/runtime/objects.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { ADMIN_TOKEN, type Instance, instance } from "./auth-helpers.ts";

const V1 = { "A2A-Version": "1.0" };

type Rpc = { result?: Record<string, unknown>; error?: { code: number; message: string } };

function freshAgent(vars: Record<string, unknown> = {}) {
  const agentId = `off-${crypto.randomUUID().slice(0, 8)}`;
  return { agentId, worker: instance({ AGENT_ID: agentId, ...vars }) };
}

async function call(
  worker: Instance,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
): Promise<Rpc> {
  return (await worker.rpc({ jsonrpc: "2.0", id: 1, method, params }, headers)).body as Rpc;
}

function v03Message(text: string, contextId?: string) {
  return {
    message: {
      role: "user",
      parts: [{ kind: "text", text }],
      messageId: crypto.randomUUID(),
      ...(contextId === undefined ? {} : { contextId }),
    },
  };
}

function v1Message(text: string) {
  return { message: { role: "ROLE_USER", parts: [{ text }], messageId: crypto.randomUUID() } };
}

/** Every SSE event of a streaming call, parsed. */
async function stream(worker: Instance, method: string, params: unknown, headers = {}) {
  const res = await worker.fetch("https://agent.example/", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  return (await res.text())
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as Rpc);
}

/** Everything the task-keeping Durable Objects hold of these tasks, as one text. */
async function storedTaskText(
  agentId: string,
  tasks: readonly { id: string; contextId: string }[],
): Promise<string> {
  const parts: string[] = [];
  const list = env.THREADS.getByName(taskListObjectName(agentId, "anonymous"));
  parts.push(
    ...(await runInDurableObject(list, async (_o, state) => {
      try {
        return state.storage.sql
          .exec<{ record: string }>("SELECT record FROM a2a_task_list")
          .toArray()
          .map((r) => r.record);
      } catch {
        return []; // no table: nothing was ever listed here
      }
    })),
  );
  for (const task of tasks) {
    const record = env.THREADS.getByName(taskRecordObjectName(`a2a-task:${agentId}:${task.id}`));
    parts.push(
      ...(await runInDurableObject(record, async (_o, state) =>
        [...(await state.storage.list()).values()].map((v) => JSON.stringify(v)),
      )),
    );
    const conversation = env.THREADS.getByName(threadObjectName(agentId, task.contextId));
    parts.push(
      ...(await runInDurableObject(conversation, async (_o, state) => [
        ...(await state.storage.list({ prefix: TASK_INDEX_PREFIX })).keys(),
      ])),
    );
  }
  return parts.join("\n");
}

/** What a client can still read of a task after its request: nothing. */
async function expectNothingReadable(worker: Instance, task: { id: string; contextId: string }) {
  expect((await call(worker, "tasks/get", { id: task.id })).error?.code).toBe(-32001);
  expect((await call(worker, "GetTask", { id: task.id }, V1)).error?.code).toBe(-32001);
  const resubscribed = await stream(worker, "tasks/resubscribe", { id: task.id });
  expect(resubscribed.map((e) => e.error?.code)).toEqual([-32001]);
  const listed = await call(worker, "ListTasks", { contextId: task.contextId }, V1);
  expect(listed.error).toBeUndefined();
  expect(listed.result).toMatchObject({ tasks: [], totalSize: 0, nextPageToken: "" });
}

describe("R11.3 memory off keeps no task records", () => {
  it("R11.3 MEMORY_BACKEND=off: message/send, SendMessage and message/stream answer in full, then tasks/get is -32001, ListTasks is empty and no Durable Object holds the text", async () => {
    const { agentId, worker } = freshAgent({ MEMORY_BACKEND: "off" });
    const tasks: { id: string; contextId: string }[] = [];

    // v0.3 message/send: the whole task (user text and reply) within the request.
    const secret03 = `pumpkin-${crypto.randomUUID()}`;
    const sent = await call(worker, "message/send", v03Message(`my secret is ${secret03}`));
    expect(sent.error).toBeUndefined();
    expect(sent.result).toMatchObject({ kind: "task", status: { state: "completed" } });
    expect(JSON.stringify(sent.result)).toContain(secret03);
    expect(JSON.stringify(sent.result?.status)).toMatch(/offline-model: received=1/);
    tasks.push({ id: String(sent.result?.id), contextId: String(sent.result?.contextId) });

    // v1.0 SendMessage.
    const secret10 = `tangerine-${crypto.randomUUID()}`;
    const sent1 = await call(worker, "SendMessage", v1Message(`and ${secret10}`), V1);
    expect(sent1.error).toBeUndefined();
    const task1 = sent1.result?.task as { id: string; contextId: string; status: unknown };
    expect(task1.status).toMatchObject({ state: "TASK_STATE_COMPLETED" });
    expect(JSON.stringify(task1)).toContain(secret10);
    tasks.push({ id: task1.id, contextId: task1.contextId });

    // v0.3 message/stream: the working task, the reply's chunks and whole artifact (its last
    // chunk), and the final status.
    const secretStream = `quince-${crypto.randomUUID()}`;
    const events = await stream(worker, "message/stream", v03Message(`also ${secretStream}`));
    expect(
      events.every((e) => e.error === undefined),
      JSON.stringify(events),
    ).toBe(true);
    const first = events[0]?.result as { id: string; contextId: string; kind: string };
    expect(first.kind).toBe("task");
    expect(events.at(-1)?.result).toMatchObject({
      kind: "status-update",
      final: true,
      status: { state: "completed" },
    });
    const artifact = events.find(
      (e) => e.result?.kind === "artifact-update" && e.result.lastChunk === true,
    );
    expect(JSON.stringify(artifact)).toContain("offline-model: received=1");
    tasks.push({ id: first.id, contextId: first.contextId });

    for (const task of tasks) await expectNothingReadable(worker, task);
    const all = await call(worker, "ListTasks", {}, V1);
    expect(all.result).toMatchObject({ tasks: [], totalSize: 0 });
    // The spec's limits still hold on an empty list.
    expect((await call(worker, "ListTasks", { pageToken: "not a token!" }, V1)).error?.code).toBe(
      -32602,
    );

    const stored = await storedTaskText(agentId, tasks);
    for (const secret of [secret03, secret10, secretStream]) expect(stored).not.toContain(secret);
    expect(stored).toBe("");

    // Nothing kept, nothing to erase: the management API says so.
    const erase = await worker.fetch(
      `https://agent.example/api/v1/memory/threads/${encodeURIComponent(tasks[0]?.contextId ?? "")}`,
      { method: "DELETE", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
    );
    expect(erase.status).toBe(501);
    expect(((await erase.json()) as { message: string }).message).toMatch(
      /memory is off.*task records included.*nothing to list, show or erase/,
    );
  });

  it("R11.3 memory turned off at run time (postgres): tasks kept before stay readable, a task sent while off is not kept", async () => {
    const { agentId, worker } = freshAgent();
    const kept = await call(worker, "message/send", v03Message("kept while memory is on"));
    const keptTask = { id: String(kept.result?.id), contextId: String(kept.result?.contextId) };
    expect((await call(worker, "tasks/get", { id: keptTask.id })).result?.id).toBe(keptTask.id);
    expect(await storedTaskText(agentId, [keptTask])).toContain("kept while memory is on");

    const patched = await worker.fetch("https://agent.example/api/v1/memory/config", {
      method: "PATCH",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });
    expect(patched.status).toBe(200);

    const secret = `plum-${crypto.randomUUID()}`;
    const sent = await call(worker, "message/send", v03Message(`off now: ${secret}`));
    expect(sent.result).toMatchObject({ status: { state: "completed" } });
    expect(JSON.stringify(sent.result)).toContain(secret);
    const secretStream = `fig-${crypto.randomUUID()}`;
    const events = await stream(worker, "message/stream", v03Message(`and ${secretStream}`));
    expect(events.at(-1)?.result).toMatchObject({ final: true, status: { state: "completed" } });
    const streamed = events[0]?.result as { id: string; contextId: string };
    const offTasks = [
      { id: String(sent.result?.id), contextId: String(sent.result?.contextId) },
      { id: streamed.id, contextId: streamed.contextId },
    ];
    for (const task of offTasks) await expectNothingReadable(worker, task);

    const stored = await storedTaskText(agentId, [keptTask, ...offTasks]);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secretStream);
    // The task kept before memory was turned off is still there.
    expect((await call(worker, "tasks/get", { id: keptTask.id })).result?.id).toBe(keptTask.id);
    expect((await call(worker, "ListTasks", {}, V1)).result?.totalSize).toBe(1);
  });

  it("R11.3 a flow's question with memory off is not input-required: no kept task could take the answer, so the next message starts a new task", async () => {
    const flow = defineFlow({
      name: "off flow",
      description: "for tests",
      steps: [{ id: "city", ask: "Which city?", answer: z.string().min(2) }],
      finish: ({ answers }) => `Going to ${String(answers.city)}.`,
    });
    const flowEnv = { ...env, AGENT_ID: `off-flow-${crypto.randomUUID().slice(0, 8)}` };
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} };
    const ask = async (body: unknown) => {
      // Made per request: the test isolate also registers the reference Worker's agent.
      const res = await createWorker(flow).fetch?.(
        new Request("https://agent.example/", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }) as never,
        { ...flowEnv, MEMORY_BACKEND: "off" } as never,
        ctx as unknown as ExecutionContext,
      );
      return (await (res as Response).json()) as Rpc;
    };
    const first = await ask({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: v03Message("hi"),
    });
    expect(first.result).toMatchObject({
      status: { state: "completed", message: { parts: [{ text: "Which city?" }] } },
    });
    const answer = v03Message("Busan", String(first.result?.contextId));
    const named = { message: { ...answer.message, taskId: String(first.result?.id) } };
    expect(
      (await ask({ jsonrpc: "2.0", id: 2, method: "message/send", params: named })).error?.code,
    ).toBe(-32001);
    const again = await ask({ jsonrpc: "2.0", id: 3, method: "message/send", params: answer });
    expect(again.result).toMatchObject({ status: { state: "completed" } });
  });
});
