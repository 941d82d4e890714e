/**
 * Bad input gets the right JSON-RPC error, a specific message, and never
 * reaches the turn (so nothing is stored).
 */
import { describe, expect, it } from "vitest";
import { MAX_MESSAGE_TEXT_CHARS } from "../../../src/a2a/index.ts";
import { InMemoryKv } from "../../../src/a2a/task-store.ts";
import { BASE_URL, makeApp, rpc } from "./helpers.ts";

const JSON_TYPE = { "content-type": "application/json" };

const PARSE = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const CONTENT_TYPE_NOT_SUPPORTED = -32005;

const text = (t: string) => ({ kind: "text", text: t });
const send = (message: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "message/send",
  params: { message, ...extra },
});
const userMsg = (fields: Record<string, unknown> = {}) => ({
  role: "user",
  parts: [text("hi")],
  ...fields,
});
const v1Send = (message: unknown) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "SendMessage",
  params: { message },
});

interface Case {
  name: string;
  body: string | object;
  code: number;
  message: string | RegExp;
  id?: string | number | null;
}

const CASES: Case[] = [
  { name: "unparsable JSON", body: '{"jsonrpc":"2.0",', code: PARSE, message: "not valid JSON" },
  { name: "empty body", body: "", code: PARSE, message: "not valid JSON" },
  {
    name: "a JSON string",
    body: '"message/send"',
    code: INVALID_REQUEST,
    message: "JSON-RPC 2.0 object",
  },
  { name: "a JSON number", body: "42", code: INVALID_REQUEST, message: "JSON-RPC 2.0 object" },
  { name: "JSON null", body: "null", code: INVALID_REQUEST, message: "JSON-RPC 2.0 object" },
  {
    name: "a batch (array)",
    body: [send(userMsg())],
    code: INVALID_REQUEST,
    message: "batch requests are not supported",
  },
  {
    name: "an empty batch",
    body: [],
    code: INVALID_REQUEST,
    message: "batch requests are not supported",
  },
  {
    name: "missing jsonrpc",
    body: { id: 1, method: "message/send", params: { message: userMsg() } },
    code: INVALID_REQUEST,
    message: 'jsonrpc must be exactly "2.0"',
    id: 1,
  },
  {
    name: "jsonrpc 1.0",
    body: { ...send(userMsg()), jsonrpc: "1.0" },
    code: INVALID_REQUEST,
    message: 'jsonrpc must be exactly "2.0"',
    id: 1,
  },
  {
    name: "jsonrpc as a number",
    body: { ...send(userMsg()), jsonrpc: 2 },
    code: INVALID_REQUEST,
    message: 'jsonrpc must be exactly "2.0"',
    id: 1,
  },
  {
    name: "missing method",
    body: { jsonrpc: "2.0", id: 1, params: {} },
    code: INVALID_REQUEST,
    message: "method must be a non-empty string",
    id: 1,
  },
  {
    name: "method not a string",
    body: { jsonrpc: "2.0", id: 1, method: 7 },
    code: INVALID_REQUEST,
    message: "method must be a non-empty string",
    id: 1,
  },
  {
    name: "id an object",
    body: { ...send(userMsg()), id: { a: 1 } },
    code: INVALID_REQUEST,
    message: "id must be a string, an integer or null",
    id: null,
  },
  {
    name: "id a fraction",
    body: { ...send(userMsg()), id: 1.5 },
    code: INVALID_REQUEST,
    message: "id must be",
    id: null,
  },
  {
    name: "unknown method",
    body: { jsonrpc: "2.0", id: "x", method: "message/sendd", params: {} },
    code: METHOD_NOT_FOUND,
    message: "Method not found: message/sendd",
    id: "x",
  },
  {
    name: "unknown method, wrong case",
    body: { jsonrpc: "2.0", id: 3, method: "Message/Send", params: {} },
    code: METHOD_NOT_FOUND,
    message: "Method not found",
    id: 3,
  },
  {
    name: "tasks/list (no v0.3 JSON-RPC binding)",
    body: { jsonrpc: "2.0", id: 3, method: "tasks/list", params: {} },
    code: METHOD_NOT_FOUND,
    message: "Method not found",
  },
  {
    name: "missing params",
    body: { jsonrpc: "2.0", id: 1, method: "message/send" },
    code: INVALID_PARAMS,
    message: "params must be an object",
    id: 1,
  },
  {
    name: "params an array",
    body: { jsonrpc: "2.0", id: 1, method: "message/send", params: [userMsg()] },
    code: INVALID_PARAMS,
    message: "params must be an object",
  },
  {
    name: "missing message",
    body: { jsonrpc: "2.0", id: 1, method: "message/send", params: {} },
    code: INVALID_PARAMS,
    message: "params.message must be a message object",
  },
  {
    name: "message null",
    body: send(null),
    code: INVALID_PARAMS,
    message: "params.message must be a message object",
  },
  {
    name: "empty parts",
    body: send(userMsg({ parts: [] })),
    code: INVALID_PARAMS,
    message: "params.message.parts must contain at least one text part",
  },
  {
    name: "parts missing",
    body: send({ role: "user" }),
    code: INVALID_PARAMS,
    message: "params.message.parts must be an array of parts",
  },
  {
    name: "only a data part (ContentTypeNotSupported)",
    body: send(userMsg({ parts: [{ kind: "data", data: { a: 1 } }] })),
    code: CONTENT_TYPE_NOT_SUPPORTED,
    message: "this agent accepts text only (input mode text/plain); the message has a data part",
  },
  {
    name: "only a file part (ContentTypeNotSupported)",
    body: send(
      userMsg({
        parts: [{ kind: "file", file: { uri: "https://x/y.pdf", mimeType: "application/pdf" } }],
      }),
    ),
    code: CONTENT_TYPE_NOT_SUPPORTED,
    message: "the message has a file part (application/pdf)",
  },
  {
    name: "a file part without file",
    body: send(userMsg({ parts: [text("a"), { kind: "file" }] })),
    code: INVALID_PARAMS,
    message: 'params.message.parts[1].file must be an object with "bytes" (base64) or "uri"',
  },
  {
    name: "a part of unknown kind",
    body: send(userMsg({ parts: [{ kind: "image", url: "x" }] })),
    code: INVALID_PARAMS,
    message: 'params.message.parts[0].kind must be "text", "file" or "data"',
  },
  {
    name: "a part that is a string",
    body: send(userMsg({ parts: ["hello"] })),
    code: INVALID_PARAMS,
    message: 'params.message.parts[0] must be a part object like {"kind":"text","text":"…"}',
  },
  {
    name: "a v1 part in a v0.3 message",
    body: send(userMsg({ parts: [{ text: "no kind" }] })),
    code: INVALID_PARAMS,
    message: "params.message.parts[0].kind",
  },
  {
    name: "text not a string",
    body: send(userMsg({ parts: [{ kind: "text", text: 5 }] })),
    code: INVALID_PARAMS,
    message: "params.message.parts[0].text must be a string",
  },
  {
    name: "whitespace-only text",
    body: send(userMsg({ parts: [text("  \n ")] })),
    code: INVALID_PARAMS,
    message: "params.message.parts must contain non-empty text",
  },
  {
    name: "role agent",
    body: send(userMsg({ role: "agent" })),
    code: INVALID_PARAMS,
    message: 'params.message.role must be "user"',
  },
  {
    name: "role missing",
    body: send({ parts: [text("hi")] }),
    code: INVALID_PARAMS,
    message: 'params.message.role must be "user"',
  },
  {
    name: "role system",
    body: send(userMsg({ role: "system" })),
    code: INVALID_PARAMS,
    message: 'params.message.role must be "user"',
  },
  {
    name: "contextId a number",
    body: send(userMsg({ contextId: 42 })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must be a string",
  },
  {
    name: "contextId null",
    body: send(userMsg({ contextId: null })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must be a string",
  },
  {
    name: "contextId empty",
    body: send(userMsg({ contextId: "" })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must not be empty",
  },
  {
    name: "contextId of 257 characters",
    body: send(userMsg({ contextId: "c".repeat(257) })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must be at most 256 characters",
  },
  {
    name: "contextId with NUL (a control character)",
    body: send(userMsg({ contextId: "user\u0000alice" })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must not contain control characters",
  },
  {
    name: "contextId with the thread-key separator U+001F",
    body: send(userMsg({ contextId: "\u001fbob\u001fchat" })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must not contain control characters",
  },
  {
    name: "contextId with an unpaired surrogate",
    body: send(userMsg({ contextId: "chat-\ud83d" })),
    code: INVALID_PARAMS,
    message: "params.message.contextId must not contain unpaired surrogates (invalid Unicode)",
  },
  {
    name: "R11.2 messageId with NUL",
    body: send(userMsg({ messageId: "m\u0000x" })),
    code: INVALID_PARAMS,
    message: "params.message.messageId must not contain control characters",
  },
  {
    name: "R11.2 message/stream messageId with an unpaired surrogate",
    body: { ...send(userMsg({ messageId: "m-\ud83d" })), method: "message/stream" },
    code: INVALID_PARAMS,
    message: "params.message.messageId must not contain unpaired surrogates (invalid Unicode)",
  },
  {
    name: "R11.2 v1.0 message_id with NUL",
    body: v1Send({ role: "ROLE_USER", message_id: "\u0000", parts: [{ text: "x" }] }),
    code: INVALID_PARAMS,
    message: "params.message.message_id must not contain control characters",
  },
  {
    name: "taskId with an unpaired surrogate",
    body: send(userMsg({ taskId: "\udc00t" })),
    code: INVALID_PARAMS,
    message: "params.message.taskId must not contain unpaired surrogates (invalid Unicode)",
  },
  {
    name: "a referenced task id with NUL",
    body: send(userMsg({ referenceTaskIds: ["t\u0000"] })),
    code: INVALID_PARAMS,
    message: "params.message.referenceTaskIds[0] must not contain control characters",
  },
  {
    name: "messageId a number",
    body: send(userMsg({ messageId: 1 })),
    code: INVALID_PARAMS,
    message: "params.message.messageId must be a string",
  },
  {
    name: "text over the cap",
    body: send(userMsg({ parts: [text("가".repeat(MAX_MESSAGE_TEXT_CHARS + 1))] })),
    code: INVALID_PARAMS,
    message: `at most ${MAX_MESSAGE_TEXT_CHARS} are accepted`,
  },
  {
    name: "text parts joined over the cap",
    body: send(userMsg({ parts: [text("a".repeat(MAX_MESSAGE_TEXT_CHARS)), text("b")] })),
    code: INVALID_PARAMS,
    message: "characters; at most",
  },
  {
    name: "metadata.history a string",
    body: send(userMsg(), { metadata: { history: "earlier" } }),
    code: INVALID_PARAMS,
    message: "params.metadata.history must be an array of objects",
  },
  {
    name: "metadata.history an object",
    body: send(userMsg(), { metadata: { history: { role: "user" } } }),
    code: INVALID_PARAMS,
    message: "params.metadata.history must be an array of objects",
  },
  {
    name: "metadata.history of strings",
    body: send(userMsg(), { metadata: { history: ["a", "b"] } }),
    code: INVALID_PARAMS,
    message: "params.metadata.history[0] must be an object",
  },
  {
    name: "metadata.history with null",
    body: send(userMsg(), { metadata: { history: [{ role: "user", text: "a" }, null] } }),
    code: INVALID_PARAMS,
    message: "params.metadata.history[1] must be an object",
  },
  {
    name: "metadata.history with an array item",
    body: send(userMsg(), { metadata: { history: [[{ role: "user" }]] } }),
    code: INVALID_PARAMS,
    message: "params.metadata.history[0] must be an object",
  },
  {
    name: "metadata not an object",
    body: send(userMsg(), { metadata: [1] }),
    code: INVALID_PARAMS,
    message: "params.metadata must be an object",
  },
  {
    name: "configuration.blocking not a boolean",
    body: send(userMsg(), { configuration: { blocking: "yes" } }),
    code: INVALID_PARAMS,
    message: "params.configuration.blocking must be a boolean",
  },
  {
    name: "too many referenceTaskIds",
    body: send(userMsg({ referenceTaskIds: Array.from({ length: 17 }, (_, i) => `t${i}`) })),
    code: INVALID_PARAMS,
    message: "params.message.referenceTaskIds must list at most 16 task ids",
  },
  {
    name: "message/stream with empty parts",
    body: { ...send(userMsg({ parts: [] })), method: "message/stream" },
    code: INVALID_PARAMS,
    message: "at least one text part",
  },
  {
    name: "v1.0 role ROLE_AGENT",
    body: v1Send({ role: "ROLE_AGENT", parts: [{ text: "x" }] }),
    code: INVALID_PARAMS,
    message: 'params.message.role must be "ROLE_USER"',
    id: 2,
  },
  {
    name: "v1.0 role user (v0.3 spelling)",
    body: v1Send({ role: "user", parts: [{ text: "x" }] }),
    code: INVALID_PARAMS,
    message: 'params.message.role must be "ROLE_USER"',
  },
  {
    name: "v1.0 part with two contents",
    body: v1Send({ role: "ROLE_USER", parts: [{ text: "x", url: "https://x" }] }),
    code: INVALID_PARAMS,
    message: 'params.message.parts[0] must have exactly one of "text", "raw", "url" or "data"',
  },
  {
    name: "v1.0 only a url part (ContentTypeNotSupported)",
    body: v1Send({ role: "ROLE_USER", parts: [{ url: "https://x", mediaType: "image/png" }] }),
    code: CONTENT_TYPE_NOT_SUPPORTED,
    message: "the message has a url part (image/png)",
  },
  {
    name: "v1.0 contextId too long",
    body: v1Send({ role: "ROLE_USER", contextId: "x".repeat(300), parts: [{ text: "x" }] }),
    code: INVALID_PARAMS,
    message: "params.message.contextId must be at most 256 characters",
  },
  {
    name: "v1.0 context_id too long",
    body: v1Send({ role: "ROLE_USER", context_id: "x".repeat(300), parts: [{ text: "x" }] }),
    code: INVALID_PARAMS,
    message: "params.message.context_id must be at most 256 characters",
  },
  {
    name: "v1.0 history not an array",
    body: {
      ...v1Send({ role: "ROLE_USER", parts: [{ text: "x" }] }),
      params: { message: { role: "ROLE_USER", parts: [{ text: "x" }] }, metadata: { history: 3 } },
    },
    code: INVALID_PARAMS,
    message: "params.metadata.history must be an array of objects",
  },
  {
    name: "tasks/get without id",
    body: { jsonrpc: "2.0", id: 1, method: "tasks/get", params: {} },
    code: INVALID_PARAMS,
    message: "params.id must be a string",
  },
  {
    name: "GetTask with an empty id",
    body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "" } },
    code: INVALID_PARAMS,
    message: "params.id must not be empty",
  },
  {
    name: "tasks/get with a negative historyLength",
    body: { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "t", historyLength: -1 } },
    code: INVALID_PARAMS,
    message: "params.historyLength must not be negative",
  },
];

describe("bad input: JSON-RPC errors, no turn, nothing stored", () => {
  it.each(CASES)("$name → $code", async ({ body, code, message, id }) => {
    const kv = new InMemoryKv();
    const t = makeApp({ kv });
    const reply = await rpc(t.app, body);
    expect(reply.status).toBe(200);
    expect(reply.body.jsonrpc).toBe("2.0");
    expect(reply.body.result).toBeUndefined();
    expect(reply.body.error?.code).toBe(code);
    if (typeof message === "string") expect(reply.body.error?.message).toContain(message);
    else expect(reply.body.error?.message).toMatch(message);
    if (id !== undefined) expect(reply.body.id).toBe(id);
    expect(t.turns.inputs).toEqual([]);
    expect(kv.entries.size).toBe(0);
  });

  it("answers v1.0 methods with v1.0 error details (google.rpc.ErrorInfo)", async () => {
    const t = makeApp();
    const reply = await rpc(t.app, v1Send({ role: "ROLE_AGENT", parts: [{ text: "x" }] }));
    expect(reply.body.error).toMatchObject({
      code: INVALID_PARAMS,
      data: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "INVALID_PARAMS" }],
    });
  });

  it("refuses a body over maxBodyBytes with HTTP 413 before parsing it", async () => {
    const t = makeApp({ maxBodyBytes: 1024 });
    // Not even JSON: a parse would answer -32700, the size check answers first.
    const res = await t.app.fetch(
      new Request(`${BASE_URL}/`, { method: "POST", headers: JSON_TYPE, body: "{".repeat(2048) }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: INVALID_REQUEST,
        message: "the request body is larger than 1024 bytes; send a shorter message",
        data: { reason: "BODY_TOO_LARGE", retryable: false },
      },
    });
    expect(t.turns.inputs).toEqual([]);
  });

  it("refuses an oversize body announced by Content-Length and one streamed without it", async () => {
    const t = makeApp({ maxBodyBytes: 100 });
    const big = JSON.stringify(send(userMsg({ parts: [text("x".repeat(200))] })));
    const announced = await t.app.fetch(
      new Request(`${BASE_URL}/`, {
        method: "POST",
        headers: { ...JSON_TYPE, "content-length": String(big.length) },
        body: big,
      }),
    );
    expect(announced.status).toBe(413);
    const bytes = new TextEncoder().encode(big);
    const streamed = await t.app.fetch(
      new Request(`${BASE_URL}/`, {
        method: "POST",
        headers: JSON_TYPE,
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(bytes.slice(0, 60));
            controller.enqueue(bytes.slice(60));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(t.turns.inputs).toEqual([]);
    // A body under the cap goes through.
    const small = await rpc(makeApp({ maxBodyBytes: 1024 }).app, send(userMsg()));
    expect(small.body.result).toBeDefined();
  });

  it("the default body cap is 1 MiB", async () => {
    const t = makeApp();
    const body = JSON.stringify(send(userMsg(), { pad: "x".repeat(1024 * 1024) }));
    const res = await t.app.fetch(
      new Request(`${BASE_URL}/`, { method: "POST", headers: JSON_TYPE, body }),
    );
    expect(res.status).toBe(413);
  });
});
