/**
 * The official SDK clients against the Hono app (their fetch calls `app.fetch`): the v1.0
 * JSON-RPC transport and the v0.3 compat transport each hold a 3-turn conversation on one
 * contextId, blocking and streaming; a task they got back is read by `tasks/get` through a
 * second app instance that shares only the key/value backend ("another isolate").
 */
import { type Message, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { LegacyJsonRpcTransport } from "@a2a-js/sdk/compat/v0_3/client";
import { describe, expect, it } from "vitest";
import { sdkClient, sdkClientV03, sdkUserMessage } from "../../helpers/a2a-sdk.ts";
import { BASE_URL, makeApp, type TestApp } from "./helpers.ts";

const userMessage = (text: string, contextId = ""): Message => sdkUserMessage(text, contextId);

function send(text: string, contextId?: string) {
  return {
    tenant: "",
    message: userMessage(text, contextId),
    configuration: undefined,
    metadata: undefined,
  };
}

function textOf(message: Message | undefined): string | undefined {
  const part = message?.parts.find((p) => p.content?.$case === "text");
  return part?.content?.$case === "text" ? part.content.value : undefined;
}

/** Records the JSON-RPC methods and A2A-Version headers the client puts on the wire. */
function recordingFetch(t: TestApp) {
  const calls: { method: string | undefined; version: string | null }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.method === "POST") {
      const body = (await request.clone().json()) as { method?: string };
      calls.push({ method: body.method, version: request.headers.get("A2A-Version") });
    }
    return t.app.fetch(request);
  }) as typeof fetch;
  return { calls, fetchImpl };
}

function v1Client(fetchImpl: typeof fetch): Promise<Client> {
  return sdkClient(fetchImpl, BASE_URL);
}

/** A client as a v0.3-only agent card makes the SDK build it (compat transport). */
async function v03Client(fetchImpl: typeof fetch): Promise<Client> {
  const client = await sdkClientV03(fetchImpl, BASE_URL);
  // The compat transport (the class is bundled twice, so compare by what it speaks).
  expect(client.transport.constructor.name).toBe(LegacyJsonRpcTransport.name);
  expect(client.protocolVersion).toBe("0.3");
  return client;
}

function asTask(result: Message | Task): Task {
  if (!("id" in result) || "messageId" in result) throw new Error("expected a Task");
  return result;
}

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const VARIANTS = [
  {
    name: "v1.0 JSON-RPC transport",
    make: v1Client,
    wire: ["SendMessage", "SendStreamingMessage", "GetTask"],
    version: "1.0",
  },
  {
    name: "v0.3 compat transport",
    make: v03Client,
    wire: ["message/send", "message/stream", "tasks/get"],
    version: "0.3",
  },
] as const;

describe.each(VARIANTS)("the official SDK client — $name", ({ make, wire, version }) => {
  it("R2.1 R2.2 holds a blocking 3-turn conversation on the contextId the agent generated", async () => {
    const t = makeApp();
    const { calls, fetchImpl } = recordingFetch(t);
    const client = await make(fetchImpl);

    const first = asTask(await client.sendMessage(send("my name is Alice")));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const contextId = first.contextId;
    expect(contextId).not.toBe("");
    const second = asTask(await client.sendMessage(send("I like tea", contextId)));
    const third = asTask(await client.sendMessage(send("what is my name?", contextId)));

    expect([first, second, third].map((task) => task.contextId)).toEqual([
      contextId,
      contextId,
      contextId,
    ]);
    expect(textOf(third.status?.message)).toBe('reply #3 to "what is my name?"');
    expect(third.artifacts[0]?.name).toBe("reply");
    expect(t.turns.inputs.map((i) => [i.contextId, i.text])).toEqual([
      [contextId, "my name is Alice"],
      [contextId, "I like tea"],
      [contextId, "what is my name?"],
    ]);
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
    expect(calls.every((c) => c.method === wire[0] && c.version === version)).toBe(true);

    // tasks/get from "another isolate": a second app sharing only the key/value backend.
    const other = makeApp({ kv: t.kv });
    const otherCalls = recordingFetch(other);
    const otherClient = await make(otherCalls.fetchImpl);
    const fetched = await otherClient.getTask({ tenant: "", id: second.id });
    expect(fetched.id).toBe(second.id);
    expect(fetched.contextId).toBe(contextId);
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(fetched.status?.message)).toBe('reply #2 to "I like tea"');
    expect(fetched.history.map(textOf)).toEqual(["I like tea", 'reply #2 to "I like tea"']);
    expect(otherCalls.calls.at(-1)?.method).toBe(wire[2]);
    expect(other.turns.inputs).toEqual([]);
  });

  it("R2.1 holds a streaming 3-turn conversation on one contextId", async () => {
    const t = makeApp();
    const { calls, fetchImpl } = recordingFetch(t);
    const client = await make(fetchImpl);
    const contextId = `stream-${version}`;
    let lastTaskId = "";
    for (const [n, text] of ["one", "two", "three"].entries()) {
      const events = await collect(client.sendMessageStream(send(text, contextId)));
      const kinds = events.map((e) => e.payload?.$case);
      expect(kinds).toEqual(["task", "artifactUpdate", "statusUpdate"]);
      const [task, artifact, status] = events.map((e) => e.payload);
      if (
        task?.$case !== "task" ||
        artifact?.$case !== "artifactUpdate" ||
        status?.$case !== "statusUpdate"
      ) {
        throw new Error("unexpected stream shape");
      }
      expect(task.value.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      expect(task.value.contextId).toBe(contextId);
      expect(
        artifact.value.artifact?.parts.map((p) => p.content?.$case === "text" && p.content.value),
      ).toEqual([`reply #${n + 1} to "${text}"`]);
      expect(status.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(textOf(status.value.status?.message)).toBe(`reply #${n + 1} to "${text}"`);
      lastTaskId = task.value.id;
    }
    expect(t.turns.inputs.map((i) => i.contextId)).toEqual([contextId, contextId, contextId]);
    expect(calls.every((c) => c.method === wire[1])).toBe(true);

    const other = makeApp({ kv: t.kv });
    const stored = await (await make(recordingFetch(other).fetchImpl)).getTask({
      tenant: "",
      id: lastTaskId,
    });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(stored.artifacts.map((a) => a.name)).toEqual(["reply"]);
    expect(stored.history.map(textOf)).toEqual(["three", 'reply #3 to "three"']);
  });

  it("surfaces a task-not-found error for an unknown task id", async () => {
    const t = makeApp();
    const client = await make(recordingFetch(t).fetchImpl);
    await expect(client.getTask({ tenant: "", id: "no-such-task" })).rejects.toThrow(/not found/i);
  });
});
