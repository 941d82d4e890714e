/**
 * The reply's artifact chunks of a streaming send (executor.ts, reply-chunks.ts), on the A2A
 * app with a fake turn that writes its reply in pieces: the order on the wire (the working task,
 * the chunks, the whole reply as the last chunk, the status) in v0.3, v1.0 and HTTP+JSON, what
 * the task store keeps, a blocking send unchanged, and a streaming client that goes away.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { InMemoryKv, KvTaskStore } from "../../../src/a2a/index.ts";
import type { A2ATurnInput } from "../../../src/a2a/types.ts";
import { AGENT_ID, BASE_URL, fakeTurns, makeApp, post, readSse, rpc } from "./helpers.ts";

/** A turn that streams "Hello there" in pieces (a tool call's preamble first, then restarts). */
const piecewise = fakeTurns(async (input: A2ATurnInput) => {
  input.replyText?.({ text: "Let me check.", restart: true });
  input.replyText?.({ text: "Hello", restart: true });
  input.replyText?.({ text: " there", restart: false });
  return { reply: "Hello there" };
});

const V03 = {
  jsonrpc: "2.0",
  id: 1,
  method: "message/stream",
  params: { message: { contextId: "c", role: "user", parts: [{ kind: "text", text: "hi" }] } },
};

describe("R12.1 reply chunks of message/stream", () => {
  it("R12.1 v0.3: working task, artifact-update chunks (append), the whole reply as lastChunk, then the status", async () => {
    const kv = new InMemoryKv();
    const t = makeApp({ kv, turns: piecewise });
    const events = (await readSse(await post(t.app, V03))).map(
      (e) => e.data.result as Record<string, unknown>,
    );
    expect(events.map((e) => e.kind)).toEqual([
      "task",
      "artifact-update",
      "artifact-update",
      "artifact-update",
      "artifact-update",
      "status-update",
    ]);
    const updates = events.slice(1, 5) as {
      append?: boolean;
      lastChunk?: boolean;
      artifact: { artifactId: string; name: string; parts: { text: string }[] };
    }[];
    expect(
      updates.map((u) => [u.artifact.parts[0]?.text, u.append ?? false, u.lastChunk ?? false]),
    ).toEqual([
      ["Let me check.", false, false],
      ["Hello", false, false],
      [" there", true, false],
      ["Hello there", false, true],
    ]);
    expect(new Set(updates.map((u) => u.artifact.artifactId)).size).toBe(1);
    expect(updates.every((u) => u.artifact.name === "reply")).toBe(true);
    expect(events.at(-1)).toMatchObject({ final: true, status: { state: "completed" } });

    // Stored: the whole reply as the artifact's one part (no part per chunk).
    const taskId = String(events[0]?.id);
    const stored = await new KvTaskStore({ kv, agentId: AGENT_ID }).load(taskId);
    expect(stored?.artifacts.map((a) => a.parts.map((p) => p.content))).toEqual([
      [{ $case: "text", value: "Hello there" }],
    ]);
  });

  it("R12.1 v1.0 JSON-RPC and HTTP+JSON carry the same chunks", async () => {
    const t = makeApp({ turns: piecewise });
    const v1 = await readSse(
      await post(
        t.app,
        {
          jsonrpc: "2.0",
          id: 2,
          method: "SendStreamingMessage",
          params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
        },
        { "A2A-Version": "1.0" },
      ),
    );
    const kinds = v1.map((e) => Object.keys(e.data.result ?? {})[0]);
    expect(kinds).toEqual([
      "task",
      "artifactUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "artifactUpdate",
      "statusUpdate",
    ]);
    const last = v1[4]?.data.result?.artifactUpdate as { lastChunk?: boolean; append?: boolean };
    expect(last.lastChunk).toBe(true);

    const rest = await t.app.fetch(
      new Request(`${BASE_URL}/rest/message:stream`, {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
        body: JSON.stringify({
          message: { messageId: "m2", role: "ROLE_USER", parts: [{ text: "hi" }] },
        }),
      }),
    );
    const text = await rest.text();
    const restEvents = text
      .split("\n\n")
      .filter((b) => b.startsWith("data:"))
      .map((b) => JSON.parse(b.slice(5)) as Record<string, unknown>);
    expect(restEvents.map((e) => Object.keys(e)[0])).toEqual(kinds);
  });

  it("R12.1 message/send still answers with the whole reply, no chunks", async () => {
    const t = makeApp({ turns: piecewise });
    const reply = await rpc(t.app, { ...V03, method: "message/send" });
    expect(reply.body.result).toMatchObject({
      kind: "task",
      status: { state: "completed", message: { parts: [{ text: "Hello there" }] } },
      artifacts: [{ name: "reply", parts: [{ text: "Hello there" }] }],
    });
  });

  it("R12.1 R2.4 a streaming client that goes away does not stop the turn; the task ends completed", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let signal: AbortSignal | undefined;
    const kv = new InMemoryKv();
    const t = makeApp({
      kv,
      turns: {
        inputs: [],
        async execute(input, s) {
          signal = s;
          input.replyText?.({ text: "first ", restart: true });
          await gate;
          input.replyText?.({ text: "second", restart: false });
          return { reply: "first second" };
        },
      },
    });
    const client = new AbortController();
    const res = await t.app.fetch(
      new Request(`${BASE_URL}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(V03),
        signal: client.signal,
      }),
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"first "')) seen += decoder.decode((await reader.read()).value);
    client.abort();
    await reader.cancel();
    expect(signal?.aborted).toBe(false);
    release();
    const store = new KvTaskStore({ kv, agentId: AGENT_ID });
    const key = [...(kv as InMemoryKv).entries.keys()][0] as string;
    const taskId = key.slice(store.keyOf("").length);
    for (let i = 0; i < 100; i++) {
      if ((await store.load(taskId))?.status?.state === TaskState.TASK_STATE_COMPLETED) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const task = await store.load(taskId);
    expect(task?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(signal?.aborted).toBe(false);
  });
});
