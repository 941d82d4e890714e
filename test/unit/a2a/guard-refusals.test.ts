/**
 * The guard's refusals (401, 413, 415, 429) carry the error body of the binding they refuse:
 * JSON-RPC errors on `POST /`, the HTTP+JSON binding's `{ error: { code, status, message,
 * details } }` on `/rest/*`; and the JSON-RPC dialect follows `A2A-Version` read as version
 * negotiation reads it.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseApiKeys } from "../../../src/runtime/auth-config.ts";
import type { RateLimiterBinding } from "../../../src/runtime/env.ts";
import { BASE_URL, makeApp } from "./helpers.ts";

const hex = (key: string) => createHash("sha256").update(key).digest("hex");
const V1 = { "A2A-Version": "1.0" };
const JSON_TYPE = { "content-type": "application/json" };
const KEY = "rest-refusal-key";

const message = {
  message: { role: "ROLE_USER", parts: [{ text: "hi" }], messageId: "m-1", contextId: "c-1" },
};

const refusingLimiter: RateLimiterBinding = { limit: async () => ({ success: false }) };

function app(options: { limited?: boolean; maxBodyBytes?: number } = {}) {
  return makeApp({
    auth: () => ({ mode: "api_key", keys: parseApiKeys(`carol=${hex(KEY)}`) }),
    ...(options.limited
      ? { rateLimit: () => ({ binding: refusingLimiter, periodSeconds: 60 }) }
      : {}),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
  });
}

const send = (
  t: ReturnType<typeof app>,
  path: string,
  headers: Record<string, string>,
  body?: string,
) =>
  t.app.fetch(
    new Request(`${BASE_URL}${path}`, {
      method: "POST",
      headers,
      body: body ?? JSON.stringify(message),
    }),
  );

const errorInfo = (reason: string) => [
  expect.objectContaining({ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason }),
];

describe("guard refusals on the HTTP+JSON binding", () => {
  it("401, 415, 413 and 429 answer the REST error shape with the same status", async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    const cases: [
      ReturnType<typeof app>,
      Record<string, string>,
      number,
      string,
      string,
      string?,
    ][] = [
      [app(), { ...JSON_TYPE, ...V1 }, 401, "UNAUTHENTICATED", "AUTH_REQUIRED"],
      [
        app(),
        { "content-type": "text/plain", ...V1, ...auth },
        415,
        "INVALID_ARGUMENT",
        "UNSUPPORTED_MEDIA_TYPE",
      ],
      [
        app({ maxBodyBytes: 64 }),
        { ...JSON_TYPE, ...V1, ...auth },
        413,
        "INVALID_ARGUMENT",
        "BODY_TOO_LARGE",
        "x".repeat(200),
      ],
      [
        app({ limited: true }),
        { ...JSON_TYPE, ...V1, ...auth },
        429,
        "RESOURCE_EXHAUSTED",
        "RATE_LIMITED",
      ],
    ];
    for (const [t, headers, status, name, reason, body] of cases) {
      const res = await send(t, "/rest/message:send", headers, body);
      expect(res.status, reason).toBe(status);
      const json = (await res.json()) as Record<string, unknown>;
      expect(json, reason).toEqual({
        error: {
          code: status,
          status: name,
          message: expect.any(String),
          details: errorInfo(reason),
        },
      });
      expect(json).not.toHaveProperty("jsonrpc");
      expect(t.turns.inputs).toEqual([]);
    }
    const unauth = await send(app(), "/rest/message:send", { ...JSON_TYPE, ...V1 });
    expect(unauth.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const limited = await send(app({ limited: true }), "/rest/message:send", {
      ...JSON_TYPE,
      ...V1,
      ...auth,
    });
    expect(limited.headers.get("retry-after")).toBe("60");
  });

  it("the JSON-RPC binding still answers JSON-RPC refusals, in the dialect A2A-Version names", async () => {
    const t = app();
    for (const [version, v1] of [
      ["1.0", true],
      ["1.0.2", true],
      [" 1 ", true],
      ["01.0", true], // negotiation reads it as 1.0, so the refusal must too
      ["0.3", false],
      ["", false],
      ["one", false],
    ] as const) {
      const res = await send(t, "/", { ...JSON_TYPE, "A2A-Version": version });
      expect(res.status).toBe(401);
      const json = (await res.json()) as { jsonrpc: string; error: { data: unknown } };
      expect(json.jsonrpc).toBe("2.0");
      if (v1) expect(json.error.data, version).toEqual(errorInfo("AUTH_REQUIRED"));
      else expect(json.error.data, version).toMatchObject({ reason: "AUTH_REQUIRED" });
    }
  });
});
