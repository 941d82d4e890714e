/**
 * The official @a2a-js/sdk client (v1.0 transport) holding conversations with the real
 * reference Worker inside workerd: memory comes from Postgres through Neon HTTP.
 */

import { exports } from "cloudflare:workers";
import { type Message, Role, type StreamResponse, type Task } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";

const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) =>
  exports.default.fetch(new Request(input, init))) as typeof fetch;

async function client() {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl("http://agent.local");
}

function request(text: string, contextId = "") {
  const message: Message = {
    messageId: crypto.randomUUID(),
    contextId,
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: "text", value: text }, mediaType: "", filename: "", metadata: undefined },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

function replyOf(task: Task): string {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === "text");
  return part?.content?.$case === "text" ? part.content.value : "";
}

describe("the official A2A client against the reference Worker", () => {
  it("R2.1 R2.2 holds a 3-turn conversation (non-streaming) that the agent remembers", async () => {
    const c = await client();
    const first = (await c.sendMessage(request("my name is Alice"))) as Task;
    const contextId = first.contextId;
    expect(contextId).toMatch(/^[0-9a-f-]{36}$/);
    await c.sendMessage(request("I like tea", contextId));
    const third = (await c.sendMessage(request("what is my name?", contextId))) as Task;
    expect(replyOf(third).split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    expect(replyOf(third)).toContain("previous user message: I like tea");
    const fetched = await c.getTask({ tenant: "", id: third.id });
    expect(replyOf(fetched)).toBe(replyOf(third));
  });

  it("R2.1 holds a streaming 3-turn conversation", async () => {
    const c = await client();
    const contextId = `stream-${crypto.randomUUID()}`;
    let last = "";
    for (const text of ["one", "two", "three"]) {
      const events: StreamResponse[] = [];
      for await (const e of c.sendMessageStream(request(text, contextId))) events.push(e);
      const status = events.at(-1)?.payload;
      if (status?.$case !== "statusUpdate")
        throw new Error("stream did not end with a status update");
      const part = status.value.status?.message?.parts[0]?.content;
      last = part?.$case === "text" ? part.value : "";
    }
    expect(last.split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    expect(last).toContain("previous user message: two");
  });
});
