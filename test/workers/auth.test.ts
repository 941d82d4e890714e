/**
 * A2A authentication through the Worker (postgres backend): what is refused
 * (401 + WWW-Authenticate, a JSON-RPC error naming what is missing, nothing stored), what
 * passes (API keys, JWTs signed by the local JWKS server, Cloudflare Access's header), the
 * card, the separation from the admin token, the Content-Type check, the rate limit and the
 * server-made contextIds.
 */
import { env } from "cloudflare:test";
import { generateKeyPair } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { ADMIN_TOKEN, apiKeys, bearer, instance, jwtVars, send, signJwt } from "./auth-helpers.ts";

const db = () =>
  createNeonDb({
    connectionString: env.POSTGRES_MEMORY_DSN,
    fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
  });

const agentId = () => `auth-${crypto.randomUUID().slice(0, 8)}`;
const uid = () => crypto.randomUUID().slice(0, 8);

/** Rows of any principal's conversation `contextId` of `agent`, in every table. */
async function storedRows(agent: string, contextId: string): Promise<number> {
  const suffix = `%${contextId}`;
  const { rows } = await db().query<{ n: string }>(
    `SELECT ((SELECT count(*) FROM llamon_threads WHERE agent_id = $1 AND thread_id LIKE $2)
           + (SELECT count(*) FROM persistent_memory WHERE agent_id = $1 AND thread_id LIKE $2)
           + (SELECT count(*) FROM checkpoints WHERE thread_id LIKE $3))::text AS n`,
    [agent, suffix, `${agent}:${suffix}`],
  );
  return Number(rows[0]?.n);
}

function rpcError(body: Record<string, unknown>) {
  return body.error as { code: number; message: string; data: { reason: string } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("A2A authentication (postgres)", () => {
  it("api_key — missing, malformed, wrong and revoked keys get 401 with WWW-Authenticate and a JSON-RPC error that names what is missing; nothing is stored", async () => {
    const agent = agentId();
    const [alice, bob] = [`alice-key-${uid()}`, `bob-key-${uid()}`];
    const both = instance({
      AGENT_ID: agent,
      A2A_AUTH: "api_key",
      A2A_API_KEYS: await apiKeys({ alice, bob }),
    });
    const refused: string[] = [];
    const attempt = async (headers: Record<string, string>) => {
      const contextId = `refused-${uid()}`;
      refused.push(contextId);
      return both.rpc(send(contextId, "hello"), headers);
    };

    const missing = await attempt({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="a2a"');
    expect(missing.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32040,
        message: "this agent requires an API key: send `Authorization: Bearer <key>`",
        data: { reason: "AUTH_REQUIRED", retryable: false },
      },
    });
    const basic = await attempt({ authorization: `Basic ${btoa("alice:pw")}` });
    expect(basic.status).toBe(401);
    expect(rpcError(basic.body).message).toContain("must be `Bearer <API key>`");
    const wrong = await attempt(bearer("not-a-configured-key"));
    expect(wrong.status).toBe(401);
    expect(rpcError(wrong.body)).toMatchObject({ code: -32041, data: { reason: "AUTH_INVALID" } });
    expect(wrong.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="a2a", error="invalid_token"/,
    );

    const ok = await both.rpc(send(`ok-${uid()}`, "hello"), bearer(alice));
    expect(ok.status).toBe(200);
    expect(ok.firstLine).toBe("offline-model: received=1 has_prior=false");

    // Revoking alice's key (its entry removed) leaves bob's working.
    const revoked = instance({
      AGENT_ID: agent,
      A2A_AUTH: "api_key",
      A2A_API_KEYS: await apiKeys({ bob }),
    });
    const contextId = `revoked-${uid()}`;
    refused.push(contextId);
    const gone = await revoked.rpc(send(contextId, "hello"), bearer(alice));
    expect(gone.status).toBe(401);
    expect(rpcError(gone.body).data.reason).toBe("AUTH_INVALID");
    expect((await revoked.rpc(send(`ok-${uid()}`, "hi"), bearer(bob))).status).toBe(200);

    for (const id of refused) expect(await storedRows(agent, id)).toBe(0);
    // Every method needs the key, not only message sends.
    const get = await both.rpc({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: "x" } });
    expect(get.status).toBe(401);
    const card = await both.rpc({ jsonrpc: "2.0", id: 3, method: "GetExtendedAgentCard" });
    expect(card.status).toBe(401);
  });

  it("jwt — a token signed by the local JWKS server passes (Bearer and Cf-Access-Jwt-Assertion); expired, wrong-audience, wrong-issuer, foreign-key and missing tokens get 401; nothing is stored", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent, ...jwtVars() });
    const contextId = `jwt-${uid()}`;
    const good = await worker.rpc(
      send(contextId, "hello"),
      bearer(await signJwt({ sub: "user-1" })),
    );
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const viaAccess = await worker.rpc(send(contextId, "again"), {
      "cf-access-jwt-assertion": await signJwt({ sub: "user-1" }),
    });
    expect(viaAccess.firstLine).toBe("offline-model: received=3 has_prior=true");
    // Within the clock skew (default 60 s), a token that just expired still passes.
    const skewed = await worker.rpc(
      send(contextId, "still me"),
      bearer(await signJwt({ sub: "user-1" }, { expiresIn: "-20s" })),
    );
    expect(skewed.firstLine).toBe("offline-model: received=5 has_prior=true");

    const { privateKey: foreignKey } = await generateKeyPair("RS256");
    const cases: [string, Record<string, string>, RegExp][] = [
      ["missing", {}, /requires a JWT/],
      ["expired", bearer(await signJwt({ sub: "user-1" }, { expiresIn: "-5m" })), /expired/],
      ["audience", bearer(await signJwt({ sub: "user-1", aud: "someone-else" })), /"aud" claim/],
      ["issuer", bearer(await signJwt({ sub: "user-1", iss: "https://evil.test" })), /"iss" claim/],
      ["signature", bearer(await signJwt({ sub: "user-1" }, { foreignKey })), /signature/],
      ["no sub", bearer(await signJwt({})), /"sub" claim/],
      ["garbage", bearer("a.b.c"), /not a usable signed JWT/],
    ];
    for (const [name, headers, reason] of cases) {
      const id = `jwt-refused-${uid()}`;
      const res = await worker.rpc(send(id, "hello"), headers);
      expect(res.status, name).toBe(401);
      expect(rpcError(res.body).message, name).toMatch(reason);
      expect(res.headers.get("www-authenticate"), name).toMatch(/^Bearer realm="a2a"/);
      expect(await storedRows(agent, id), name).toBe(0);
    }

    // The identity provider's keys cannot be read: 503 (retry), not a 401 blaming the token.
    const unreachable = instance({
      AGENT_ID: agent,
      ...jwtVars(),
      A2A_JWT_JWKS_URL: "http://127.0.0.1:9/jwks.json",
    });
    const down = await unreachable.rpc(
      send(`down-${uid()}`, "hi"),
      bearer(await signJwt({ sub: "u" })),
    );
    expect(down.status).toBe(503);
    expect(rpcError(down.body).data.reason).toBe("AUTH_UNAVAILABLE");
  });

  it("the agent card declares the scheme in both versions; with none an optional extension says the agent is open", async () => {
    const keyed = instance({ A2A_AUTH: "api_key", A2A_API_KEYS: await apiKeys({ a: "k" }) });
    const legacy = (await (
      await keyed.fetch("https://agent.example/.well-known/agent-card.json")
    ).json()) as Record<string, unknown>;
    expect(legacy.securitySchemes).toMatchObject({ apiKey: { type: "http", scheme: "bearer" } });
    expect(legacy.security).toEqual([{ apiKey: [] }]);
    const v1 = (await (
      await keyed.fetch("https://agent.example/.well-known/agent-card.json", {
        headers: { "A2A-Version": "1.0" },
      })
    ).json()) as Record<string, unknown>;
    expect(v1.securitySchemes).toMatchObject({
      apiKey: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "API key" } },
    });
    // proto-JSON leaves out the empty scope list.
    expect(v1.securityRequirements).toEqual([{ schemes: { apiKey: {} } }]);

    const open = instance({ A2A_AUTH: "none" });
    const card = (await (
      await open.fetch("https://agent.example/.well-known/agent-card.json")
    ).json()) as {
      securitySchemes: object;
      capabilities: { extensions?: { uri: string; required: boolean; params: object }[] };
    };
    expect(card.securitySchemes).toEqual({});
    expect(card.capabilities.extensions).toEqual([
      expect.objectContaining({
        uri: "urn:llamon:a2a-auth:v1",
        required: false,
        params: { mode: "none" },
      }),
    ]);
  });

  it("the admin token does not open A2A, and an A2A key does not open the management API", async () => {
    const key = `a2a-key-${uid()}`;
    const worker = instance({ A2A_AUTH: "api_key", A2A_API_KEYS: await apiKeys({ alice: key }) });
    const withAdmin = await worker.rpc(send(`adm-${uid()}`, "hi"), bearer(ADMIN_TOKEN));
    expect(withAdmin.status).toBe(401);
    const api = await worker.fetch("https://agent.example/api/v1/memory/threads", {
      headers: bearer(key),
    });
    expect(api.status).toBe(401);
    const admin = await worker.fetch("https://agent.example/api/v1/memory/threads", {
      headers: bearer(ADMIN_TOKEN),
    });
    expect(admin.status).toBe(200);
  });

  it("a body that is not declared as JSON gets 415 and is not stored; without A2A_AUTH every call is refused and nothing is stored", async () => {
    const agent = agentId();
    const worker = instance({ AGENT_ID: agent, A2A_AUTH: "none" });
    const contextId = `plain-${uid()}`;
    for (const type of ["text/plain", "application/x-www-form-urlencoded", undefined]) {
      const res = await worker.fetch("https://agent.example/", {
        method: "POST",
        headers: type === undefined ? {} : { "content-type": type },
        body: new TextEncoder().encode(JSON.stringify(send(contextId, "written by a web page"))),
      });
      expect(res.status, String(type)).toBe(415);
      const body = (await res.json()) as Record<string, unknown>;
      expect(rpcError(body)).toMatchObject({
        code: -32600,
        data: { reason: "UNSUPPORTED_MEDIA_TYPE" },
      });
      expect(rpcError(body).message).toContain("Content-Type: application/json");
    }
    // The size cap comes before the credentials and before JSON parsing: 413, not 401 or -32700.
    const keyed = instance({ A2A_AUTH: "api_key", A2A_API_KEYS: await apiKeys({ a: "k" }) });
    const big = await keyed.fetch("https://agent.example/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{".repeat(1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
    expect(rpcError((await big.json()) as Record<string, unknown>).data.reason).toBe(
      "BODY_TOO_LARGE",
    );
    const charset = await worker.rpc(send(`json-${uid()}`, "hi"), {
      "content-type": "application/json; charset=utf-8",
    });
    expect(charset.status).toBe(200);

    const unset = instance({ AGENT_ID: agent, A2A_AUTH: "" });
    const res = await unset.rpc(send(contextId, "hello"));
    expect(res.status).toBe(500);
    expect(rpcError(res.body).data.reason).toBe("CONFIG_INVALID");
    expect(await storedRows(agent, contextId)).toBe(0);
  });

  it("with the rate-limiting binding, a principal over its limit gets 429 with Retry-After; another principal is not affected", async () => {
    const [alice, bob] = [`alice-${uid()}`, `bob-${uid()}`];
    const worker = instance({
      A2A_AUTH: "api_key",
      A2A_API_KEYS: await apiKeys({ [alice]: alice, [bob]: bob }),
      A2A_RATE_LIMITER: env.TEST_RATE_LIMITER, // limit 2 per 60 s (vitest.workers.config.mts)
    });
    const call = (key: string) =>
      worker.rpc(
        { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: "none" } },
        bearer(key),
      );
    expect((await call(alice)).status).toBe(200);
    expect((await call(alice)).status).toBe(200);
    const limited = await call(alice);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(rpcError(limited.body)).toMatchObject({
      code: -32043,
      data: { reason: "RATE_LIMITED", retryable: true },
    });
    expect((await call(bob)).status).toBe(200);
  });

  it("a contextId the server makes comes from crypto.randomUUID (122 random bits)", async () => {
    const made: string[] = [];
    const original = crypto.randomUUID.bind(crypto);
    vi.spyOn(crypto, "randomUUID").mockImplementation(() => {
      const id = original();
      made.push(id);
      return id;
    });
    const warned = vi.spyOn(console, "warn");
    const worker = instance({ A2A_AUTH: "none" });
    const first = await worker.rpc(send(undefined, "hi"));
    // none on a host that is not localhost: a warning on every call.
    expect(warned.mock.calls.map((c) => String(c[0])).join("\n")).toContain(
      "A2A_AUTH=none on agent.example",
    );
    const second = await worker.rpc(send(undefined, "hi"));
    const ids = [first, second].map((r) => (r.body.result as { contextId: string }).contextId);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(made).toContain(id);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });
});
