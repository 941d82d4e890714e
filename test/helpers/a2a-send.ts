/**
 * One A2A `message/send` (JSON-RPC v0.3 body) straight into a Worker app's `fetch`, for the
 * integration tests that drive the Hono app without HTTP: the status, the raw text and the
 * parsed body.
 */
export interface A2aReply {
  status: number;
  text: string;
  body: {
    result?: { status?: { message?: { parts?: { text?: string }[] } } };
    error?: { code: number; message: string; data?: { reason?: string; retryable?: boolean } };
  };
}

export async function sendA2aMessage(
  app: { fetch(request: Request): Response | Promise<Response> },
  contextId: string,
  messageId: string,
  text: string,
): Promise<A2aReply> {
  const res = await app.fetch(
    new Request("http://agent.local/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: messageId,
        method: "message/send",
        params: {
          message: { contextId, messageId, role: "user", parts: [{ kind: "text", text }] },
        },
      }),
    }),
  );
  const body = await res.text();
  return { status: res.status, text: body, body: JSON.parse(body) as A2aReply["body"] };
}
