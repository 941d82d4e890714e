/**
 * Helpers of the A2A authentication tests inside workerd: a Worker instance with
 * its own env (so A2A_AUTH and the keys are per test), JSON-RPC calls with credentials, and
 * JWTs signed with the key whose public half the globalSetup's JWKS server serves.
 */
import { env } from "cloudflare:test";
import { importJWK, type JWTPayload, SignJWT } from "jose";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";

export const ADMIN_TOKEN = "test-admin-token-9d41b7c2e0";

/** The hex SHA-256 of a key, as A2A_API_KEYS lists it. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `A2A_API_KEYS` for principal → key pairs. */
export async function apiKeys(keys: Record<string, string>): Promise<string> {
  const entries = await Promise.all(
    Object.entries(keys).map(async ([principal, key]) => `${principal}=${await sha256Hex(key)}`),
  );
  return entries.join(",");
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  /** First line of the reply text (the offline model's `received=` line), or "". */
  firstLine: string;
  replyText: string;
}

export interface Instance {
  readonly env: Record<string, unknown>;
  /** The Worker's fetch handler as a `fetch` (for an SDK client's `fetchImpl` too). */
  readonly fetch: typeof fetch;
  /** One JSON-RPC call to POST /, with `headers` (credentials). */
  rpc(body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Waits for what the requests so far handed to `ctx.waitUntil` (background work). */
  settled(): Promise<void>;
}

/** A separate Worker (`createWorker(referenceAgent)`) with `vars` over the test env. */
export function instance(vars: Record<string, unknown> = {}): Instance {
  const worker = createWorker(referenceAgent);
  const instanceEnv: Record<string, unknown> = {
    ...env,
    LLAMON_ADMIN_TOKEN: ADMIN_TOKEN,
    ...vars,
  };
  const pending: Promise<unknown>[] = [];
  const ctx = {
    waitUntil: (promise: Promise<unknown>) => {
      pending.push(promise);
    },
    passThroughOnException: () => {},
    props: {},
  } as unknown as ExecutionContext;
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(
      worker.fetch?.(new Request(input, init) as never, instanceEnv as never, ctx) as Response,
    )) as typeof fetch;
  return {
    env: instanceEnv,
    fetch: fetcher,
    async settled() {
      while (pending.length > 0) await Promise.allSettled(pending.splice(0));
    },
    async rpc(body, headers = {}) {
      const res = await fetcher("https://agent.example/", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      // A streaming method's answer is SSE: its first event carries the reply or the error.
      const sse = (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
      const first = sse ? text.split("\n").find((line) => line.startsWith("data:")) : undefined;
      const json = JSON.parse(first === undefined ? text : first.slice(5)) as Record<
        string,
        unknown
      >;
      const result = json.result as { status?: { message?: { parts?: { text?: string }[] } } };
      const replyText = (result?.status?.message?.parts ?? []).map((p) => p.text ?? "").join("");
      return {
        status: res.status,
        headers: res.headers,
        body: json,
        replyText,
        firstLine: replyText.split("\n")[0] ?? "",
      };
    },
  };
}

/** The product document's message/send, with an id. */
export function send(contextId: string | undefined, text: string): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "user", parts: [{ kind: "text", text }] };
  if (contextId !== undefined) message.contextId = contextId;
  return { jsonrpc: "2.0", id: 1, method: "message/send", params: { message } };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export const JWT_ISSUER = "https://issuer.test";
export const JWT_AUDIENCE = "llamon-agent";

/** A2A_AUTH=jwt against the globalSetup's JWKS server. */
export function jwtVars(): Record<string, string> {
  return {
    A2A_AUTH: "jwt",
    A2A_JWT_JWKS_URL: env.TEST_JWKS_URL,
    A2A_JWT_ISSUER: JWT_ISSUER,
    A2A_JWT_AUDIENCE: JWT_AUDIENCE,
  };
}

/**
 * A JWT signed with the JWKS server's key (or `foreignKey`, one the server does not list).
 * Defaults: the issuer and audience above, expiring in 5 minutes.
 */
export async function signJwt(
  claims: JWTPayload,
  options: { expiresIn?: string; foreignKey?: CryptoKey } = {},
): Promise<string> {
  const jwk = JSON.parse(env.TEST_JWT_PRIVATE_JWK) as { kid: string };
  const key = options.foreignKey ?? ((await importJWK(jwk, "RS256")) as CryptoKey);
  return new SignJWT({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: jwk.kid })
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "5m")
    .sign(key);
}
