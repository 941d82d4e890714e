/** The official @a2a-js/sdk client (v1.0 JSON-RPC transport) and its messages, for tests in Node and workerd. */
import type { Message, StreamResponse, Task } from "@a2a-js/sdk";
import { Role } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";

/** A client of the agent at `url`, reached through `fetchImpl` (a Worker's fetch). */
export function sdkClient(fetchImpl: typeof fetch, url: string) {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(url);
}

/** A user message with one text part; `taskId` continues a task (input-required). */
export function sdkUserMessage(text: string, contextId = "", taskId = ""): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: "text", value: text }, mediaType: "", filename: "", metadata: undefined },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** SendMessage params with one text part; `taskId` continues a task (input-required). */
export function sdkRequest(text: string, contextId = "", taskId = "") {
  const message = sdkUserMessage(text, contextId, taskId);
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** The text of a task's status message. */
export function sdkReply(task: Task): string {
  const part = task.status?.message?.parts.find((p) => p.content?.$case === "text");
  return part?.content?.$case === "text" ? part.content.value : "";
}

/**
 * A client as a v0.3-only agent card makes the SDK build it: the 0.3 compat transport
 * (`message/stream`, `kind: "artifact-update"` on the wire), answering in the 1.0 model.
 */
export async function sdkClientV03(fetchImpl: typeof fetch, url: string) {
  const res = await fetchImpl(`${url}/.well-known/agent-card.json`, {
    headers: { "A2A-Version": "0.3" },
  });
  const { supportedInterfaces: _v1, ...legacyOnlyCard } = (await res.json()) as Record<
    string,
    unknown
  >;
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }),
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: a raw v0.3 card goes through the resolver
  const client = await factory.createFromAgentCard(legacyOnlyCard as any);
  if (client.protocolVersion !== "0.3") throw new Error("expected the 0.3 compat transport");
  return client;
}

/** The text of an artifact update's first text part. */
export function sdkChunkText(event: StreamResponse): string {
  if (event.payload?.$case !== "artifactUpdate") return "";
  const part = event.payload.value.artifact?.parts.find((p) => p.content?.$case === "text");
  return part?.content?.$case === "text" ? part.content.value : "";
}

/**
 * The reply a client holds after a stream's artifact updates, honouring `append` (false: the
 * update replaces the artifact's text).
 */
export function sdkStreamedText(events: readonly StreamResponse[]): string {
  let text = "";
  for (const e of events) {
    if (e.payload?.$case !== "artifactUpdate") continue;
    text = e.payload.value.append ? text + sdkChunkText(e) : sdkChunkText(e);
  }
  return text;
}
