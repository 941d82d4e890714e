/**
 * A2A version negotiation through the reference Worker. The `A2A-Version` header
 * is honoured on every method of both JSON-RPC dialects; an unsupported version is -32009;
 * a missing or empty header is 0.3; the card's supportedInterfaces are what is served.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { instance } from "./auth-helpers.ts";
import { versionCases } from "./version-cases.ts";

type Reply = {
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

async function call(
  method: string,
  params: Record<string, unknown>,
  version: string | undefined,
): Promise<{ status: number; type: string; body: Reply }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (version !== undefined) headers["A2A-Version"] = version;
  const res = await exports.default.fetch("http://agent.local/", {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  // A stream's first event carries the reply (or the error).
  const json = type.startsWith("text/event-stream")
    ? (text.split("\n").find((l) => l.startsWith("data:")) ?? "data: {}").slice(5)
    : text;
  return { status: res.status, type, body: JSON.parse(json) as Reply };
}

const v03Message = (text: string) => ({
  message: { role: "user", parts: [{ kind: "text", text }], messageId: crypto.randomUUID() },
});
const v1Message = (text: string) => ({
  message: { role: "ROLE_USER", parts: [{ text }], messageId: crypto.randomUUID() },
});

/** Every method of each dialect with params valid for it (tasks named are unknown). */
const V03_METHODS: [string, Record<string, unknown>][] = [
  ["message/send", v03Message("hi")],
  ["message/stream", v03Message("hi")],
  ["tasks/get", { id: "no-such-task" }],
  ["tasks/cancel", { id: "no-such-task" }],
  ["tasks/resubscribe", { id: "no-such-task" }],
  ["agent/getAuthenticatedExtendedCard", {}],
];
const V1_METHODS: [string, Record<string, unknown>][] = [
  ["SendMessage", v1Message("hi")],
  ["SendStreamingMessage", v1Message("hi")],
  ["GetTask", { id: "no-such-task" }],
  ["CancelTask", { id: "no-such-task" }],
  ["SubscribeToTask", { id: "no-such-task" }],
  ["ListTasks", {}],
  ["GetExtendedAgentCard", {}],
];

describe("A2A-Version negotiation through the Worker", () => {
  it("an unsupported A2A-Version is -32009 VersionNotSupportedError on every method", async () => {
    type Case = [version: string, method: string, params: Record<string, unknown>];
    const send = v1Message("hi");
    const cases: Case[] = [
      ...[...V03_METHODS, ...V1_METHODS].map(([m, p]): Case => ["99.0", m, p]),
      ...["2.0", "1.1", "0.2", "banana"].map((v): Case => [v, "SendMessage", send]),
    ];
    for (const [version, method, params] of cases) {
      const { status, body } = await call(method, params, version);
      expect(status, `${version} ${method}`).toBe(200);
      expect(body.id).toBe(7);
      expect(body.error?.code, `${version} ${method}`).toBe(-32009);
      expect(body.error?.data).toEqual([
        expect.objectContaining({ reason: "VERSION_NOT_SUPPORTED" }),
      ]);
    }
  });

  it("a missing or empty A2A-Version is 0.3, and a patch number is ignored", async () => {
    for (const version of [undefined, "", "0.3", "0.3.7"]) {
      const { body } = await call("message/send", v03Message("hello"), version);
      expect(body.error, String(version)).toBeUndefined();
      expect(body.result).toMatchObject({ kind: "task", status: { state: "completed" } });
    }
    for (const version of ["1.0", "1.0.3", "1"]) {
      const { body } = await call("SendMessage", v1Message("hello"), version);
      expect(body.error, version).toBeUndefined();
      expect(body.result).toMatchObject({ task: { status: { state: "TASK_STATE_COMPLETED" } } });
    }
  });

  it("a method of the other version than the header names is -32601", async () => {
    for (const [method, params] of V1_METHODS) {
      const { body } = await call(method, params, "0.3");
      expect(body.error?.code, method).toBe(-32601);
      expect(body.error?.message).toContain("A2A-Version: 1.0");
    }
    for (const [method, params] of V03_METHODS) {
      const { body } = await call(method, params, "1.0");
      expect(body.error?.code, method).toBe(-32601);
      expect(body.error?.message).toContain("A2A-Version: 0.3");
    }
  });

  it("every interface the card declares is served, with the version it declares", async () => {
    const res = await exports.default.fetch("http://agent.local/.well-known/agent-card.json", {
      headers: { "A2A-Version": "1.0" },
    });
    const card = (await res.json()) as {
      supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
    };
    const jsonrpc = card.supportedInterfaces.filter((i) => i.protocolBinding === "JSONRPC");
    expect(jsonrpc.map((i) => i.protocolVersion).sort()).toEqual(["0.3", "1.0"]);
    for (const i of jsonrpc) {
      expect(i.url).toBe("http://agent.local/");
      const [method, params] =
        i.protocolVersion === "1.0" ? ["GetTask", { id: "x" }] : ["tasks/get", { id: "x" }];
      const { body } = await call(method, params, i.protocolVersion);
      // Served: the method runs and answers "task not found", never a version error.
      expect(body.error?.code).toBe(-32001);
    }
  });

  it("accepted versions run a turn, others are refused (postgres, off)", async () => {
    await versionCases(exports.default);
    await versionCases(instance({ MEMORY_BACKEND: "off" }));
  });
});
