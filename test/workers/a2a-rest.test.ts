/**
 * The HTTP+JSON (REST) binding through the Worker: declared in the card, behind
 * the same guard (401 without credentials, 415 for a non-JSON body), the same memory as
 * JSON-RPC, and REST error bodies with HTTP statuses.
 */
import { describe, expect, it } from "vitest";
import { apiKeys, bearer, instance } from "./auth-helpers.ts";

const V1 = { "A2A-Version": "1.0" };
const JSON_TYPE = { "content-type": "application/json" };

const message = (text: string, contextId: string) => ({
  message: { role: "ROLE_USER", parts: [{ text }], messageId: crypto.randomUUID(), contextId },
});

type Json = Record<string, unknown>;
const replyOf = (task: Json) =>
  (((task.status as Json).message as Json).parts as { text: string }[])[0]?.text.split("\n")[0];

describe("HTTP+JSON binding", () => {
  it("is declared in the card and shares the conversation with JSON-RPC", async () => {
    const worker = instance();
    const card = (await (
      await worker.fetch("https://agent.example/.well-known/agent-card.json", { headers: V1 })
    ).json()) as { supportedInterfaces: Json[] };
    expect(card.supportedInterfaces).toContainEqual(
      expect.objectContaining({
        url: "https://agent.example/rest",
        protocolBinding: "HTTP+JSON",
        protocolVersion: "1.0",
      }),
    );

    const contextId = `rest-${crypto.randomUUID()}`;
    const send = (text: string) =>
      worker.fetch("https://agent.example/rest/message:send", {
        method: "POST",
        headers: { ...JSON_TYPE, ...V1 },
        body: JSON.stringify(message(text, contextId)),
      });
    const first = await send("my name is Ada");
    expect(first.status).toBe(200);
    const task = ((await first.json()) as { task: Json }).task;
    expect(replyOf(task)).toBe("offline-model: received=1 has_prior=false");
    const second = ((await (await send("who am I?")).json()) as { task: Json }).task;
    expect(replyOf(second)).toBe("offline-model: received=3 has_prior=true");
    // JSON-RPC continues the same conversation.
    const rpc = await worker.rpc(
      { jsonrpc: "2.0", id: 1, method: "SendMessage", params: message("and now?", contextId) },
      V1,
    );
    expect(replyOf((rpc.body.result as { task: Json }).task)).toBe(
      "offline-model: received=5 has_prior=true",
    );

    const got = await worker.fetch(`https://agent.example/rest/tasks/${task.id}?historyLength=1`, {
      headers: V1,
    });
    expect(got.status).toBe(200);
    expect(((await got.json()) as Json).id).toBe(task.id);
    const listed = await worker.fetch(
      `https://agent.example/rest/tasks?contextId=${encodeURIComponent(contextId)}&pageSize=2`,
      { headers: V1 },
    );
    const page = (await listed.json()) as {
      tasks: Json[];
      totalSize: number;
      nextPageToken: string;
    };
    expect(page.totalSize).toBe(3);
    expect(page.tasks).toHaveLength(2);
    expect(page.nextPageToken).not.toBe("");

    const streamed = await worker.fetch("https://agent.example/rest/message:stream", {
      method: "POST",
      headers: { ...JSON_TYPE, ...V1 },
      body: JSON.stringify(message("stream it", contextId)),
    });
    expect(streamed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = (await streamed.text())
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => JSON.parse(l.slice(5)) as Json);
    expect(Object.keys(events[0] ?? {})).toEqual(["task"]);
    expect(events.at(-1)).toMatchObject({
      statusUpdate: { status: { state: "TASK_STATE_COMPLETED" } },
    });
  });

  it("errors are HTTP statuses with REST bodies; the guard applies", async () => {
    const worker = instance({
      A2A_AUTH: "api_key",
      A2A_API_KEYS: await apiKeys({ carol: "carol-rest-key" }),
    });
    const url = "https://agent.example/rest/message:send";
    const body = JSON.stringify(message("hi", `rest-${crypto.randomUUID()}`));
    const anonymous = await worker.fetch(url, {
      method: "POST",
      headers: { ...JSON_TYPE, ...V1 },
      body,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const listAnon = await worker.fetch("https://agent.example/rest/tasks", { headers: V1 });
    expect(listAnon.status).toBe(401);
    const auth = bearer("carol-rest-key");
    const plain = await worker.fetch(url, {
      method: "POST",
      headers: { "content-type": "text/plain", ...V1, ...auth },
      body,
    });
    expect(plain.status).toBe(415);

    const missing = await worker.fetch("https://agent.example/rest/tasks/no-such-task", {
      headers: { ...V1, ...auth },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      error: {
        code: 404,
        status: "NOT_FOUND",
        details: [expect.objectContaining({ reason: "TASK_NOT_FOUND" })],
      },
    });
    // No A2A-Version means 0.3, which this binding does not serve.
    const unversioned = await worker.fetch(url, {
      method: "POST",
      headers: { ...JSON_TYPE, ...auth },
      body,
    });
    expect(unversioned.status).toBe(400);
    expect(await unversioned.json()).toMatchObject({
      error: {
        status: "FAILED_PRECONDITION",
        details: [expect.objectContaining({ reason: "VERSION_NOT_SUPPORTED" })],
      },
    });
    const media = await worker.fetch(url, {
      method: "POST",
      headers: { ...JSON_TYPE, ...V1, ...auth },
      body: JSON.stringify({
        message: { role: "ROLE_USER", parts: [{ url: "https://x/a.png" }], messageId: "m-1" },
      }),
    });
    expect(media.status).toBe(415); // ContentTypeNotSupported (A2A 1.0 error mapping)
    expect(((await media.json()) as { error: { message: string } }).error.message).toContain(
      "text only",
    );
    const malformed = await worker.fetch("https://agent.example/rest/tasks/%E0%A4%A", {
      headers: { ...V1, ...auth },
    });
    expect(malformed.status).toBe(404);
    const unknown = await worker.fetch("https://agent.example/rest/nothing", {
      headers: { ...V1, ...auth },
    });
    expect(unknown.status).toBe(404);
  });
});
