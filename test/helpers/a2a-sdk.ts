/** The official @a2a-js/sdk client (v1.0 JSON-RPC transport) and its messages, for tests in Node and workerd. */
import type { Message, Task } from "@a2a-js/sdk";
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
