/**
 * Token streaming end to end inside workerd (R12.1): the reference Worker with an
 * OpenAI-compatible model — a fake server that streams a word per chunk and holds its answer
 * after two words until the test releases it (test/helpers/fake-llm.ts) — memory in Postgres
 * through Neon HTTP, driven by the official @a2a-js/sdk client over JSON-RPC 1.0 and through its
 * 0.3 compat transport. The chunks reach the client while the model has not finished (the
 * server's own state says so, no timing), the reply is stored once (the next turn's request
 * shows the thread), and a client that leaves mid-stream still leaves a stored, completed turn.
 */
import { env } from "cloudflare:workers";
import { type StreamResponse, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  sdkChunkText,
  sdkClient,
  sdkClientV03,
  sdkReply,
  sdkRequest,
  sdkStreamedText,
} from "../helpers/a2a-sdk.ts";
import { FAKE_LLM_WORDS } from "../helpers/fake-llm.ts";
import { instance } from "./auth-helpers.ts";

const LLM = env.TEST_FAKE_LLM_URL;
const URL_ = "http://agent.local";

/** The reference Worker with the fake model; `settled` waits for its background work. */
function agentWithModel() {
  const agent = instance({
    LLM_PROVIDER: "openai-compatible",
    LLM_MODEL: "fake",
    LLM_BASE_URL: `${LLM}/v1`,
  });
  return { fetchImpl: agent.fetch, settled: () => agent.settled() };
}

interface LlmState {
  finished: number;
  bodies: { stream?: boolean; messages: { role: string; content: string }[] }[];
}

async function llmState(id: string): Promise<LlmState> {
  return (await (await fetch(`${LLM}/state/${id}`)).json()) as LlmState;
}

const release = (id: string) => fetch(`${LLM}/release/${id}`, { method: "POST" });

const kinds = (events: readonly StreamResponse[]) => events.map((e) => e.payload?.$case);

/** The fake model's whole answer for a thread of `received` non-system messages. */
const fullReply = (received: number) =>
  [`fake-llm: received=${received} words:`, ...FAKE_LLM_WORDS].join(" ");

describe.each([
  ["JSON-RPC 1.0", sdkClient],
  ["JSON-RPC 0.3 (compat client)", sdkClientV03],
] as const)("R12.1 model tokens through message/stream — %s", (_name, makeClient) => {
  it("R12.1 chunks arrive before the model has finished; then the whole reply, the status, and the reply is stored once", async () => {
    const agent = agentWithModel();
    const client = await makeClient(agent.fetchImpl, URL_);
    const id = crypto.randomUUID();
    const contextId = `stream-${id}`;
    const events: StreamResponse[] = [];
    let unfinishedAtFirstChunk: number | undefined;
    for await (const event of client.sendMessageStream(
      sdkRequest(`[gate:${id}] hello`, contextId),
    )) {
      events.push(event);
      if (unfinishedAtFirstChunk === undefined && event.payload?.$case === "artifactUpdate") {
        unfinishedAtFirstChunk = (await llmState(id)).finished;
        await release(id);
      }
    }
    // The first chunk came while the model's answer was held: it had finished nothing.
    expect(unfinishedAtFirstChunk).toBe(0);
    expect((await llmState(id)).finished).toBe(1);

    const k = kinds(events);
    expect(k[0]).toBe("task");
    expect(k.at(-1)).toBe("statusUpdate");
    const updates = events.filter((e) => e.payload?.$case === "artifactUpdate");
    // A chunk per word (the fake streams 6), then the whole reply as the last chunk.
    expect(updates.length).toBe(7);
    const last = updates.at(-1)?.payload;
    if (last?.$case !== "artifactUpdate") throw new Error("no last chunk");
    expect(last.value.lastChunk).toBe(true);
    expect(last.value.append).toBe(false);
    const reply = fullReply(1);
    expect(sdkChunkText(updates.at(-1) as StreamResponse)).toBe(reply);
    expect(updates.slice(0, -1).map(sdkChunkText).join("")).toBe(reply);
    expect(sdkStreamedText(events)).toBe(reply);
    const status = events.at(-1)?.payload;
    if (status?.$case !== "statusUpdate") throw new Error("no status");
    expect(status.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // The next turn (message/send: a whole answer) sees the thread: the reply, stored once.
    const next = await client.sendMessage(sdkRequest(`[tag:${id}] again`, contextId));
    expect(sdkReply(next as never)).toBe(fullReply(3));
    const { bodies } = await llmState(id);
    expect(bodies.map((b) => b.stream ?? false)).toEqual([true, false]);
    const seen = (bodies[1]?.messages ?? []).filter((m) => m.role !== "system");
    expect(seen.map((m) => [m.role, m.content])).toEqual([
      ["user", `[gate:${id}] hello`],
      ["assistant", reply],
      ["user", `[tag:${id}] again`],
    ]);
  });
});

describe("R12.1 R2.4 a client that leaves mid-stream", () => {
  it("R12.1 R2.4 still leaves a stored, completed turn and task", async () => {
    const agent = agentWithModel();
    const id = crypto.randomUUID();
    const contextId = `leave-${id}`;
    const leave = new AbortController();
    const res = await agent.fetchImpl(`${URL_}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/stream",
        params: {
          message: {
            messageId: crypto.randomUUID(),
            contextId,
            role: "user",
            parts: [{ kind: "text", text: `[gate:${id}] hello` }],
          },
        },
      }),
      signal: leave.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"artifact-update"')) seen += decoder.decode((await reader.read()).value);
    const taskId = /"taskId":"([^"]+)"/.exec(seen)?.[1] ?? "";
    expect(taskId).not.toBe("");
    // The client goes away while the model is still answering.
    expect((await llmState(id)).finished).toBe(0);
    leave.abort();
    await reader.cancel();
    await release(id);
    await agent.settled();
    expect((await llmState(id)).finished).toBe(1);

    const client = await sdkClient(agent.fetchImpl, URL_);
    const task = await client.getTask({ tenant: "", id: taskId });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(sdkReply(task)).toBe(fullReply(1));
    await client.sendMessage(sdkRequest(`[tag:${id}] again`, contextId));
    const { bodies } = await llmState(id);
    const thread = (bodies[1]?.messages ?? []).filter((m) => m.role !== "system");
    expect(thread.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(thread[1]?.content).toBe(fullReply(1));
  });
});
