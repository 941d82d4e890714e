/**
 * A flow (defineFlow) over A2A, driven by the official @a2a-js/sdk client
 * (v1.0 JSON-RPC) inside workerd, memory in Postgres through Neon HTTP. Between steps the
 * task is `input-required`; the next answer, sent with that taskId, continues the same task
 * and context; the final step completes it. Streaming ends each turn at the same states.
 */
import { env } from "cloudflare:workers";
import { Role, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlow } from "../../src/agent/flow.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { sdkClient, sdkReply, sdkRequest } from "../helpers/a2a-sdk.ts";

const flow = defineFlow({
  name: "booking flow",
  description: "for tests",
  steps: [
    { id: "city", ask: "Which city?", answer: z.string().min(2) },
    {
      id: "nights",
      ask: (a) => `How many nights in ${String(a.city)}?`,
      answer: z.coerce.number().int().min(1).max(30),
      invalid: "1 to 30 nights, please.",
    },
  ],
  finish: ({ answers }) => `Booked ${answers.nights} nights in ${answers.city}.`,
  done: ({ answers }) => `Already booked: ${answers.city}.`,
});

const ctx = {
  waitUntil: () => {},
  passThroughOnException: () => {},
  props: {},
} as unknown as ExecutionContext;

// createWorker registers the script's agent; register the flow again per request, since the
// test isolate also loads the reference Worker (which registers its own agent).
const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) => {
  const worker = createWorker(flow);
  return Promise.resolve(worker.fetch?.(new Request(input, init) as never, { ...env }, ctx));
}) as typeof fetch;

const client = () => sdkClient(fetchImpl, "http://flow.local");

describe("a flow over A2A with the official client", () => {
  it("input-required between steps, the answer continues the same task and context, then completed", async () => {
    const c = await client();
    const first = (await c.sendMessage(sdkRequest("hello"))) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(sdkReply(first)).toBe("Which city?");
    const { id: taskId, contextId } = first;

    const second = (await c.sendMessage(sdkRequest("Busan", contextId, taskId))) as Task;
    expect(second.id).toBe(taskId);
    expect(second.contextId).toBe(contextId);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(sdkReply(second)).toBe("How many nights in Busan?");

    const wrong = (await c.sendMessage(sdkRequest("many", contextId, taskId))) as Task;
    expect(wrong.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(sdkReply(wrong)).toBe("1 to 30 nights, please.\nHow many nights in Busan?");

    const done = (await c.sendMessage(sdkRequest("3", contextId, taskId))) as Task;
    expect(done.id).toBe(taskId);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(sdkReply(done)).toBe("Booked 3 nights in Busan.");

    const stored = await c.getTask({ tenant: "", id: taskId });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The task's history is the whole exchange: 4 user messages and 4 replies.
    expect(stored.history.filter((m) => m.role === Role.ROLE_USER)).toHaveLength(4);
    expect(stored.history.filter((m) => m.role === Role.ROLE_AGENT)).toHaveLength(4);

    // The completed task takes no more messages; the context (the flow's state) goes on.
    await expect(c.sendMessage(sdkRequest("more", contextId, taskId))).rejects.toThrow(/terminal/);
    const later = (await c.sendMessage(sdkRequest("Seoul", contextId))) as Task;
    expect(later.id).not.toBe(taskId);
    expect(sdkReply(later)).toBe("Already booked: Busan.");
    expect(later.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("an input-required task can be canceled; the conversation keeps its place", async () => {
    const c = await client();
    const first = (await c.sendMessage(sdkRequest("hello"))) as Task;
    const second = (await c.sendMessage(sdkRequest("Mokpo", first.contextId, first.id))) as Task;
    expect(second.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const canceled = await c.cancelTask({ tenant: "", id: first.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(canceled.contextId).toBe(first.contextId);
    const fetched = await c.getTask({ tenant: "", id: first.id });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // A new task in the same conversation: the flow still waits for the nights.
    const next = (await c.sendMessage(sdkRequest("5", first.contextId))) as Task;
    expect(sdkReply(next)).toBe("Booked 5 nights in Mokpo.");
  });

  it("streaming: each turn ends at input-required until the final step completes the task", async () => {
    const c = await client();
    const ends: {
      state: TaskState | undefined;
      text: string;
      taskId: string;
      contextId: string;
    }[] = [];
    let taskId = "";
    let contextId = `flow-stream-${crypto.randomUUID()}`;
    for (const text of ["hi", "Jeju", "2"]) {
      const events: StreamResponse[] = [];
      for await (const e of c.sendMessageStream(sdkRequest(text, contextId, taskId)))
        events.push(e);
      const last = events.at(-1)?.payload;
      if (last?.$case !== "statusUpdate") throw new Error("stream did not end with a status");
      const part = last.value.status?.message?.parts[0]?.content;
      ends.push({
        state: last.value.status?.state,
        text: part?.$case === "text" ? part.value : "",
        taskId: last.value.taskId,
        contextId: last.value.contextId,
      });
      taskId = last.value.taskId;
      contextId = last.value.contextId;
    }
    expect(ends.map((e) => e.state)).toEqual([
      TaskState.TASK_STATE_INPUT_REQUIRED,
      TaskState.TASK_STATE_INPUT_REQUIRED,
      TaskState.TASK_STATE_COMPLETED,
    ]);
    expect(ends.map((e) => e.text)).toEqual([
      "Which city?",
      "How many nights in Jeju?",
      "Booked 2 nights in Jeju.",
    ]);
    expect(new Set(ends.map((e) => e.taskId)).size).toBe(1);
  });
  it("an answer sent without the asking task's taskId continues the flow in a new task, and the task that asked is completed (it never waits forever)", async () => {
    const c = await client();
    const asked = (await c.sendMessage(sdkRequest("hello"))) as Task;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { contextId } = asked;
    const next = (await c.sendMessage(sdkRequest("Busan", contextId))) as Task;
    expect(next.id).not.toBe(asked.id);
    expect(next.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(sdkReply(next)).toBe("How many nights in Busan?");
    const old = await c.getTask({ tenant: "", id: asked.id });
    expect(old.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(sdkReply(old)).toBe(
      `continued in task ${next.id}: the answer came without this task's taskId`,
    );
    const done = (await c.sendMessage(sdkRequest("3", contextId, next.id))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(sdkReply(done)).toBe("Booked 3 nights in Busan.");
  });

  it("R12.2 a subscription to an input-required flow task follows it while another client answers, to completed", async () => {
    const asker = await client();
    const first = (await asker.sendMessage(sdkRequest("hello"))) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const { id: taskId, contextId } = first;
    const watcher = await client();
    const subscription = watcher.resubscribeTask({ tenant: "", id: taskId });
    const events: StreamResponse[] = [];
    const read = (async () => {
      for await (const event of subscription) events.push(event);
    })();
    // The snapshot first; then another client (the asker) answers both steps.
    while (events.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(events[0]?.payload?.$case).toBe("task");
    const second = (await asker.sendMessage(sdkRequest("Busan", contextId, taskId))) as Task;
    expect(sdkReply(second)).toBe("How many nights in Busan?");
    const done = (await asker.sendMessage(sdkRequest("3", contextId, taskId))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await read;
    const states = events.flatMap((e) =>
      e.payload?.$case === "statusUpdate" ? [e.payload.value.status?.state] : [],
    );
    expect(states).toContain(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const said = JSON.stringify(events);
    expect(said).toContain("How many nights in Busan?");
    expect(said).toContain("Booked 3 nights in Busan.");
  });
});
