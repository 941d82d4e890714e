/**
 * The vendored a2a-tck MUST cases (conformance-cases.ts) replayed against
 * the reference Worker (postgres, offline model) with its conformance scenarios on.
 */
import { describe, expect, it } from "vitest";
import { type Instance, instance } from "./auth-helpers.ts";
import { CONFORMANCE_CASES, type Prior, type Setup } from "./conformance-cases.ts";

const worker: Instance = instance({ LLAMON_A2A_SCENARIOS: "on" });

async function call(
  method: string,
  params: Record<string, unknown>,
  version: string | null,
): Promise<{ sse: boolean; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (version !== null) headers["A2A-Version"] = version;
  const res = await worker.fetch("https://agent.example/", {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const sse = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
  if (!sse) return { sse, body: (await res.json()) as Record<string, unknown> };
  // Read the first event only (a working task's stream goes on).
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n\n")) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += new TextDecoder().decode(chunk.value);
  }
  await reader.cancel();
  const data = text.split("\n").find((l) => l.startsWith("data:")) ?? "data: {}";
  return { sse, body: JSON.parse(data.slice(5)) as Record<string, unknown> };
}

async function setupTask(setup: Setup): Promise<Prior> {
  const text = setup === "completed" ? "setup" : `/${setup}`;
  const message = {
    role: "ROLE_USER",
    parts: [{ text }],
    messageId: `setup-${crypto.randomUUID()}`,
  };
  const method = setup === "working" ? "SendStreamingMessage" : "SendMessage";
  const { body } = await call(method, { message }, "1.0");
  const result = body.result as Record<string, unknown>;
  const task = (result.task ?? result) as { id: string; contextId: string };
  return { taskId: task.id, contextId: task.contextId };
}

describe("a2a-tck MUST cases replayed through the Worker", () => {
  for (const c of CONFORMANCE_CASES) {
    it(`${c.version} ${c.id}: ${c.title}`, async () => {
      const prior =
        c.setup === undefined ? { taskId: "", contextId: "" } : await setupTask(c.setup);
      const version = c.versionHeader === undefined ? c.version : c.versionHeader;
      const { sse, body } = await call(c.method, c.params(prior), version);
      if ("error" in c.expect) {
        expect((body.error as { code?: number } | undefined)?.code, JSON.stringify(body)).toBe(
          c.expect.error,
        );
        if (c.expect.sse !== undefined) expect(sse).toBe(c.expect.sse);
      } else {
        expect(body.error, JSON.stringify(body.error)).toBeUndefined();
        expect(c.expect.result(body.result as Record<string, unknown>, prior)).toBeUndefined();
      }
    });
  }
});
