/**
 * The A2A-Version checks every memory backend runs (a2a-version.test.ts:
 * postgres and off; backends/a2a-version.test.ts: sqlite and in_memory) — a real turn under
 * each accepted header, and the refusals, through the Worker's fetch handler.
 */
import { expect } from "vitest";

type Fetcher = { fetch: (input: string, init?: RequestInit) => Promise<Response> };
type Reply = { result?: Record<string, unknown>; error?: { code: number } };

async function send(worker: Fetcher, method: string, version: string | undefined): Promise<Reply> {
  const v1 = method === "SendMessage";
  const message = v1
    ? { role: "ROLE_USER", parts: [{ text: "hello" }], messageId: crypto.randomUUID() }
    : { role: "user", parts: [{ kind: "text", text: "hello" }], messageId: crypto.randomUUID() };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (version !== undefined) headers["A2A-Version"] = version;
  const res = await worker.fetch("http://agent.local/", {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { message } }),
  });
  return (await res.json()) as Reply;
}

export async function versionCases(worker: Fetcher): Promise<void> {
  for (const version of [undefined, "", "0.3", "0.3.1"]) {
    const reply = await send(worker, "message/send", version);
    expect(reply.result, String(version)).toMatchObject({ status: { state: "completed" } });
  }
  for (const version of ["1.0", "1.0.2"]) {
    const reply = await send(worker, "SendMessage", version);
    expect(reply.result, version).toMatchObject({
      task: { status: { state: "TASK_STATE_COMPLETED" } },
    });
  }
  expect((await send(worker, "SendMessage", "99.0")).error?.code).toBe(-32009);
  expect((await send(worker, "message/send", "2")).error?.code).toBe(-32009);
  expect((await send(worker, "SendMessage", "0.3")).error?.code).toBe(-32601);
  expect((await send(worker, "message/send", "1.0")).error?.code).toBe(-32601);
}
