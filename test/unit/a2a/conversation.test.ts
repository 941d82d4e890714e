/**
 * R2.1 / R2.2 through raw HTTP (no SDK client): the product document's request, byte for byte,
 * continues a conversation by contextId; without a contextId each request is a new one whose
 * generated id is returned.
 */
import { describe, expect, it } from "vitest";
import { validateRpcBody } from "../../../src/a2a/validate.ts";
import { makeApp, PRODUCT_DOC_BODY, post, readSse, rpc } from "./helpers.ts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function replyText(result: Record<string, unknown> | undefined): string | undefined {
  const status = result?.status as { message?: { parts?: { kind: string; text: string }[] } };
  return status?.message?.parts?.find((p) => p.kind === "text")?.text;
}

describe("A2A conversation identity over plain HTTP", () => {
  it("R2.1 the product document's message/send, sent twice, reaches the turn with the same contextId", async () => {
    const t = makeApp();
    const first = await rpc(t.app, PRODUCT_DOC_BODY);
    const second = await rpc(t.app, PRODUCT_DOC_BODY);

    for (const [i, reply] of [first, second].entries()) {
      expect(reply.status).toBe(200);
      // No `id` member: a notification strictly speaking, answered anyway with id null.
      expect(reply.body).toMatchObject({ jsonrpc: "2.0", id: null });
      expect(reply.body.error).toBeUndefined();
      expect(reply.body.result).toMatchObject({
        kind: "task",
        contextId: "user-alice-session",
        status: { state: "completed" },
      });
      expect(replyText(reply.body.result)).toBe(`reply #${i + 1} to "이전에 뭐 얘기했지?"`);
      expect(reply.body.result?.artifacts).toEqual([
        expect.objectContaining({
          name: "reply",
          parts: [{ kind: "text", text: `reply #${i + 1} to "이전에 뭐 얘기했지?"` }],
        }),
      ]);
    }
    expect(t.turns.inputs).toHaveLength(2);
    for (const input of t.turns.inputs) {
      expect(input.contextId).toBe("user-alice-session");
      expect(input.text).toBe("이전에 뭐 얘기했지?");
      expect(input.messageId).toMatch(UUID_RE); // filled in: the document's body has none
      expect(input.history).toBeUndefined();
    }
    expect(t.turns.inputs[0]?.messageId).not.toBe(t.turns.inputs[1]?.messageId);
    expect(t.turns.inputs[0]?.taskId).not.toBe(t.turns.inputs[1]?.taskId);
  });

  it("R2.1 keeps the client's id, messageId and joins text parts with a newline", async () => {
    const t = makeApp();
    const reply = await rpc(t.app, {
      jsonrpc: "2.0",
      id: "req-7",
      method: "message/send",
      params: {
        message: {
          kind: "message",
          messageId: "m-1",
          contextId: "ctx-a",
          role: "user",
          parts: [
            { kind: "text", text: "line one" },
            { kind: "data", data: { ignored: true } },
            { kind: "text", text: "line two" },
          ],
        },
      },
    });
    expect(reply.body.id).toBe("req-7");
    expect(t.turns.inputs).toEqual([
      expect.objectContaining({ contextId: "ctx-a", messageId: "m-1", text: "line one\nline two" }),
    ]);
  });

  it("R2.2 without contextId every request is a new conversation whose UUID is returned", async () => {
    const t = makeApp();
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: { message: { role: "user", parts: [{ kind: "text", text: "hello" }] } },
    };
    const a = await rpc(t.app, body);
    const b = await rpc(t.app, body);
    const ctxA = a.body.result?.contextId as string;
    const ctxB = b.body.result?.contextId as string;
    expect(ctxA).toMatch(UUID_RE);
    expect(ctxB).toMatch(UUID_RE);
    expect(ctxA).not.toBe(ctxB);
    expect(t.turns.inputs.map((i) => i.contextId)).toEqual([ctxA, ctxB]);

    // The client continues the generated conversation by sending it back.
    await rpc(t.app, {
      ...body,
      params: { message: { ...body.params.message, contextId: ctxA } },
    });
    expect(t.turns.inputs[2]?.contextId).toBe(ctxA);
  });

  it("R2.2 v1.0 SendMessage without contextId returns the generated one too", async () => {
    const t = makeApp();
    const reply = await rpc(t.app, {
      jsonrpc: "2.0",
      id: 9,
      method: "SendMessage",
      params: { message: { role: "ROLE_USER", parts: [{ text: "hi" }] } },
    });
    const task = (reply.body.result as { task: Record<string, unknown> }).task;
    expect(task).toMatchObject({ status: { state: "TASK_STATE_COMPLETED" } });
    expect(task.contextId).toMatch(UUID_RE);
    expect(t.turns.inputs[0]?.contextId).toBe(task.contextId);
  });

  it("R5 passes params.metadata.history through exactly as received", async () => {
    const t = makeApp();
    const history = [
      { role: "user", parts: [{ kind: "text", text: "earlier" }] },
      { role: "agent", text: "answer", extra: { nested: [1, null, "x"] } },
    ];
    await rpc(t.app, {
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: { contextId: "seeded", role: "user", parts: [{ kind: "text", text: "go on" }] },
        metadata: { history },
      },
    });
    expect(t.turns.inputs[0]?.history).toEqual(history);
  });

  it("R5.2 returns the turn's seed report in the task metadata", async () => {
    const report = { seeded: 1, rejected: [{ index: 1, reason: "role system is not allowed" }] };
    const app2 = makeApp({
      turns: {
        inputs: [],
        execute: async () => ({ reply: "ok", seedReport: report }),
      },
    });
    const reply = await rpc(app2.app, PRODUCT_DOC_BODY);
    expect(reply.body.result?.metadata).toEqual({ seed_report: report });
  });

  it("fills messageId and defaults a v0.3 configuration without blocking to blocking (SDK pitfalls)", () => {
    const call = validateRpcBody(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: {
          message: { role: "user", parts: [{ kind: "text", text: "x" }] },
          configuration: { acceptedOutputModes: ["text/plain"] },
        },
      }),
    );
    if (!call.ok) throw new Error(call.error.message);
    const params = call.body.params as {
      message: { messageId?: string; kind?: string };
      configuration: { blocking?: boolean };
    };
    expect(params.message.messageId).toMatch(UUID_RE);
    expect(params.message.kind).toBe("message");
    expect(params.configuration.blocking).toBe(true);
    const explicit = validateRpcBody(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: {
          message: { messageId: "mine", role: "user", parts: [{ kind: "text", text: "x" }] },
          configuration: { blocking: false },
        },
      }),
    );
    if (!explicit.ok) throw new Error(explicit.error.message);
    const p2 = explicit.body.params as typeof params;
    expect(p2.message.messageId).toBe("mine");
    expect(p2.configuration.blocking).toBe(false);
  });

  it("R2.1 message/stream answers SSE: working task, reply artifact, completed status", async () => {
    const t = makeApp();
    const res = await post(t.app, {
      jsonrpc: "2.0",
      id: "s1",
      method: "message/stream",
      params: {
        message: { contextId: "ctx-s", role: "user", parts: [{ kind: "text", text: "stream me" }] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(res);
    expect(events.map((e) => e.data.id)).toEqual(["s1", "s1", "s1"]);
    const results = events.map((e) => e.data.result as Record<string, unknown>);
    expect(results[0]).toMatchObject({
      kind: "task",
      contextId: "ctx-s",
      status: { state: "working" },
    });
    expect(results[1]).toMatchObject({
      kind: "artifact-update",
      lastChunk: true,
      artifact: { name: "reply", parts: [{ kind: "text", text: 'reply #1 to "stream me"' }] },
    });
    expect(results[2]).toMatchObject({
      kind: "status-update",
      final: true,
      contextId: "ctx-s",
      status: { state: "completed" },
    });
    expect(t.turns.inputs).toHaveLength(1);
  });
});
