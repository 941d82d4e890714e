/**
 * The official @a2a-js/sdk client (v1.0 transport) holding conversations with the real
 * reference Worker inside workerd: memory comes from Postgres through Neon HTTP.
 */

import { exports } from "cloudflare:workers";
import type { StreamResponse, Task } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { sdkClient, sdkReply, sdkRequest } from "../helpers/a2a-sdk.ts";

const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) =>
  exports.default.fetch(new Request(input, init))) as typeof fetch;

const client = () => sdkClient(fetchImpl, "http://agent.local");

describe("the official A2A client against the reference Worker", () => {
  it("R2.1 R2.2 holds a 3-turn conversation (non-streaming) that the agent remembers", async () => {
    const c = await client();
    const first = (await c.sendMessage(sdkRequest("my name is Alice"))) as Task;
    const contextId = first.contextId;
    expect(contextId).toMatch(/^[0-9a-f-]{36}$/);
    await c.sendMessage(sdkRequest("I like tea", contextId));
    const third = (await c.sendMessage(sdkRequest("what is my name?", contextId))) as Task;
    expect(sdkReply(third).split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    expect(sdkReply(third)).toContain("previous user message: I like tea");
    const fetched = await c.getTask({ tenant: "", id: third.id });
    expect(sdkReply(fetched)).toBe(sdkReply(third));
  });

  it("R2.1 holds a streaming 3-turn conversation", async () => {
    const c = await client();
    const contextId = `stream-${crypto.randomUUID()}`;
    let last = "";
    for (const text of ["one", "two", "three"]) {
      const events: StreamResponse[] = [];
      for await (const e of c.sendMessageStream(sdkRequest(text, contextId))) events.push(e);
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
