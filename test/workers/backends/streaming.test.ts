/**
 * Token streaming when the turn runs in the conversation's Durable Object (R12.1; this file
 * runs in `workers-sqlite` and `workers-in-memory`): the offline model streams a word per chunk
 * inside the object, the pieces cross Durable Object RPC back to the Worker as they are made,
 * and reach the official client as artifact chunks; the reply is stored once.
 */
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { type StreamResponse, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import {
  sdkChunkText,
  sdkClient,
  sdkClientV03,
  sdkRequest,
  sdkStreamedText,
} from "../../helpers/a2a-sdk.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;
const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) =>
  exports.default.fetch(new Request(input, init))) as typeof fetch;

async function stored(contextId: string): Promise<number> {
  const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
  return (await stub.threadState(env.AGENT_ID, contextId)).messageCount;
}

async function streamed(
  client: Awaited<ReturnType<typeof sdkClient>>,
  text: string,
  contextId: string,
) {
  const events: StreamResponse[] = [];
  for await (const e of client.sendMessageStream(sdkRequest(text, contextId))) events.push(e);
  return events;
}

describe.each([
  ["JSON-RPC 1.0", sdkClient],
  ["JSON-RPC 0.3 (compat client)", sdkClientV03],
] as const)(`R12.1 streaming on the ${backend} backend — %s`, (_name, makeClient) => {
  it("R12.1 the offline model's words arrive as artifact chunks from the object; the reply is stored once", async () => {
    const client = await makeClient(fetchImpl, "http://agent.local");
    const contextId = `do-stream-${crypto.randomUUID()}`;
    const first = await streamed(client, "hello there", contextId);
    const updates = first.filter((e) => e.payload?.$case === "artifactUpdate");
    const chunks = updates.slice(0, -1).map(sdkChunkText);
    const whole = sdkChunkText(updates.at(-1) as StreamResponse);
    expect(whole.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.every((c) => c.trim().split(/\s+/).length === 1)).toBe(true);
    expect(chunks.join("")).toBe(whole);
    expect(sdkStreamedText(first)).toBe(whole);
    const status = first.at(-1)?.payload;
    expect(status?.$case === "statusUpdate" && status.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );

    const second = await streamed(client, "and again", contextId);
    expect(sdkStreamedText(second).split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
    expect(await stored(contextId)).toBe(4);
  });
});
