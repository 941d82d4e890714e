/** Thread keys, the A2A auth settings and API-key authentication (pure parts). */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authenticate } from "../../../src/a2a/index.ts";
import { defineAgent } from "../../../src/agent/define.ts";
import { isLlamonError } from "../../../src/errors.ts";
import { parseApiKeys, resolveA2AAuth } from "../../../src/runtime/auth-config.ts";
import { parseWorkerVars } from "../../../src/runtime/env.ts";
import {
  contextIdProblem,
  decodeThreadKey,
  inKeyScope,
  principalKeyScope,
  principalProblem,
  threadKey,
} from "../../../src/runtime/thread-keys.ts";
import { MAX_THREAD_ID_LENGTH } from "../../../src/store/thread-key.ts";

const hex = (key: string) => createHash("sha256").update(key).digest("hex");

function caught(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isLlamonError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected an error");
}

const vars = (env: Record<string, unknown>) => parseWorkerVars({ AGENT_ID: "a", ...env });

describe("thread keys", () => {
  it("anonymous keeps the contextId itself (old threads); others get a key that decodes back", () => {
    expect(threadKey("anonymous", "user-alice-session")).toBe("user-alice-session");
    const key = threadKey("alice@example.com", "chat:1");
    expect(key).toBe("\u001falice@example.com\u001fchat:1");
    expect(decodeThreadKey(key)).toEqual({ principal: "alice@example.com", contextId: "chat:1" });
    expect(decodeThreadKey("user-alice-session")).toEqual({
      principal: "anonymous",
      contextId: "user-alice-session",
    });
    expect(threadKey("x".repeat(200), "c".repeat(256)).length).toBeLessThanOrEqual(
      MAX_THREAD_ID_LENGTH,
    );
  });

  it("contextIds and principals with control characters or unpaired surrogates are refused", () => {
    expect(contextIdProblem("ok-1")).toBeUndefined();
    expect(contextIdProblem("😀 ok")).toBeUndefined();
    expect(contextIdProblem("a\u001fb")).toMatch(/control characters/);
    expect(contextIdProblem("a\u0000")).toMatch(/control characters/);
    expect(contextIdProblem("\ud800x")).toMatch(/unpaired surrogates/);
    expect(contextIdProblem("x\udc00")).toMatch(/unpaired surrogates/);
    expect(contextIdProblem("")).toMatch(/empty/);
    expect(contextIdProblem("c".repeat(257))).toMatch(/at most 256/);
    expect(principalProblem("p".repeat(201))).toMatch(/at most 200/);
    expect(principalProblem("bad\nname")).toMatch(/control characters/);
  });

  it("a principal's key scope holds exactly its keys (anonymous: the keys without a principal)", () => {
    const keys = [
      "c1",
      threadKey("alice", "c1"),
      threadKey("alice2", "c1"),
      threadKey("bob", "c1"),
    ];
    expect(keys.filter((k) => inKeyScope(k, principalKeyScope("alice")))).toEqual([keys[1]]);
    expect(keys.filter((k) => inKeyScope(k, principalKeyScope("anonymous")))).toEqual(["c1"]);
  });
});

describe("A2A auth settings", () => {
  it("there is no default mode, and each mode names what it still needs", () => {
    expect(caught(() => resolveA2AAuth(vars({}), undefined)).message).toMatch(
      /A2A_AUTH is not set/,
    );
    expect(caught(() => resolveA2AAuth(vars({ A2A_AUTH: "open" }), undefined)).message).toMatch(
      /none, api_key or jwt/,
    );
    expect(caught(() => resolveA2AAuth(vars({ A2A_AUTH: "api_key" }), undefined)).message).toMatch(
      /wrangler secret put A2A_API_KEYS/,
    );
    expect(caught(() => resolveA2AAuth(vars({ A2A_AUTH: "jwt" }), undefined)).message).toMatch(
      /A2A_JWT_JWKS_URL, A2A_JWT_ISSUER, A2A_JWT_AUDIENCE/,
    );
    const jwt = {
      A2A_AUTH: "jwt",
      A2A_JWT_JWKS_URL: "http://idp.example/jwks",
      A2A_JWT_ISSUER: "i",
      A2A_JWT_AUDIENCE: "a",
    };
    expect(caught(() => resolveA2AAuth(vars(jwt), undefined)).message).toMatch(/https:\/\//);
    expect(resolveA2AAuth(vars({ A2A_AUTH: "none" }), undefined)).toEqual({ mode: "none" });
    // env over code; code alone works too
    const code = defineAgent({ name: "n", description: "", auth: { mode: "none" } }).auth;
    expect(resolveA2AAuth(vars({}), code)).toEqual({ mode: "none" });
    expect(
      resolveA2AAuth(vars({ ...jwt, A2A_JWT_JWKS_URL: "https://idp.example/jwks" }), code),
    ).toMatchObject({ mode: "jwt", jwt: { principalClaim: "sub", clockSkewSeconds: 60 } });
    expect(
      caught(() => defineAgent({ name: "n", description: "", auth: { mode: "open" as never } }))
        .message,
    ).toMatch(/auth\.mode/);
  });

  it("A2A_API_KEYS holds principal=<sha256 hex> pairs; a bare key, a bad hash or a repeated hash is refused", () => {
    const keys = parseApiKeys(` alice=${hex("k1")}, alice=${hex("k2")},\nbob=${hex("k3")} `);
    expect(keys.map((k) => k.principal)).toEqual(["alice", "alice", "bob"]);
    expect(caught(() => parseApiKeys("k1")).message).toMatch(/principal=<sha256 hex/);
    expect(caught(() => parseApiKeys("alice=k1")).message).toMatch(/not the key itself/);
    expect(caught(() => parseApiKeys(`a=${hex("k")},b=${hex("k")}`)).message).toMatch(/twice/);
    expect(caught(() => parseApiKeys(`a\u0001=${hex("k")}`)).message).toMatch(/control/);
  });

  it("an API key maps to its principal; two keys of one principal both work (rotation)", async () => {
    const config = {
      mode: "api_key" as const,
      keys: parseApiKeys(`alice=${hex("old")},alice=${hex("new")},bob=${hex("b")}`),
    };
    const as = (token: string) =>
      authenticate(new Headers({ authorization: `Bearer ${token}` }), config);
    expect((await as("old")).principal).toBe("alice");
    expect((await as("new")).principal).toBe("alice");
    expect(await as("b")).toEqual({ principal: "bob", authenticated: true, mode: "api_key" });
    await expect(as("nope")).rejects.toMatchObject({ code: "AUTH_INVALID" });
    await expect(authenticate(new Headers(), config)).rejects.toMatchObject({
      code: "AUTH_REQUIRED",
      details: { challenge: 'Bearer realm="a2a"' },
    });
    expect(await authenticate(new Headers(), { mode: "none" })).toEqual({
      principal: "anonymous",
      authenticated: false,
      mode: "none",
    });
  });
});
