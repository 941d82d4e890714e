/**
 * How a failed turn is logged: the caller's mistake (JSON-RPC invalid params — a resend of a
 * turn trim deleted, a bad seed) is a warning, the agent's or the platform's failure an error,
 * so an operator's error alerts are not raised by clients.
 */
import { describe, expect, it } from "vitest";
import { LlamonError } from "../../../src/errors.ts";
import { fakeTurns, makeApp, rpc } from "./helpers.ts";

function send(text: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "message/send",
    params: { message: { role: "user", contextId: "c-1", parts: [{ kind: "text", text }] } },
  };
}

function failingWith(error: Error) {
  return makeApp({
    turns: fakeTurns(() => {
      throw error;
    }),
  });
}

describe("a failed turn's log line", () => {
  it("R11.2 a resend of a trimmed turn (the caller's mistake) is logged as a warning", async () => {
    const { app, logs } = failingWith(
      new LlamonError("MESSAGE_ALREADY_ANSWERED", "that message was already answered"),
    );
    const reply = await rpc(app, send("again"));
    expect(reply.body.error?.code).toBe(-32602);
    const record = logs.records.find((r) => r.message === "a2a: turn failed");
    expect(record?.level).toBe("warn");
  });

  it("a model failure is logged as an error", async () => {
    const { app, logs } = failingWith(new LlamonError("MODEL_FAILED", "the provider is down"));
    const reply = await rpc(app, send("hello"));
    expect(reply.body.error?.code).not.toBe(-32602);
    const record = logs.records.find((r) => r.message === "a2a: turn failed");
    expect(record?.level).toBe("error");
  });
});
