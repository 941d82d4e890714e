/** Plain-fetch helpers for A2A tests inside workerd (no SDK client: the wire format itself). */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";

/** The request body exactly as the product document writes it (no id, no messageId). */
export function productDocumentBody(
  contextId: string | undefined,
  text = "이전에 뭐 얘기했지?",
): string {
  const message: Record<string, unknown> = { role: "user", parts: [{ kind: "text", text }] };
  if (contextId !== undefined) message.contextId = contextId;
  return JSON.stringify({
    jsonrpc: "2.0",
    method: "message/send",
    params: { message: { ...message } },
  });
}

export interface SendResult {
  status: number;
  body: Record<string, unknown>;
  replyText: string;
  contextId: string | undefined;
}

export async function sendRaw(
  body: string,
  fetcher: { fetch: typeof fetch } = exports.default,
): Promise<SendResult> {
  const res = await fetcher.fetch("http://agent.local/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const json = (await res.json()) as Record<string, unknown>;
  const result = json.result as Record<string, unknown> | undefined;
  const status = result?.status as { message?: { parts?: { text?: string }[] } } | undefined;
  const replyText = (status?.message?.parts ?? []).map((p) => p.text ?? "").join("");
  return {
    status: res.status,
    body: json,
    replyText,
    contextId: result?.contextId as string | undefined,
  };
}

/** Every send was answered: HTTP 200 and a JSON-RPC result (an error also comes with 200). */
export function expectAnswered(results: readonly SendResult[]): void {
  for (const r of results) {
    expect(r.status).toBe(200);
    expect(r.body.error).toBeUndefined();
  }
}

export function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}
