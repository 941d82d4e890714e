/**
 * The local Neon (packages/cli/src/dev/neon-http-proxy.ts) against a case list derived from Neon's own
 * proxy: neondatabase/neon proxy/src/serverless/ (commit 6a35a3e9f1) — sql_over_http.rs
 * (SQL), json.rs (JSON), http_util.rs (HU), error.rs (ER), mod.rs (MOD). Each case names the
 * lines it follows. Run on the server Postgres (project node) and on PGlite (embedded); a case
 * that cannot run on one of them says why in its title.
 *
 * Groups: L limits, A client aborts, E errors, T typed output, R result shape, P parameters,
 * B body shapes, H headers and routes, S session state. The credentials cases are in
 * test/integration/neon-proxy-credentials.test.ts.
 */
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  NEON_MAX_REQUEST_BYTES,
  NEON_MAX_RESPONSE_BYTES,
  type NeonProxy,
  type NeonProxyOptions,
  type ProxyRequestInfo,
  startNeonProxy,
} from "../../../packages/cli/src/dev/neon-http-proxy.ts";
import { isLlamonError } from "../../../src/errors.ts";
import { createNeonDb } from "../../../src/store/db-neon.ts";
import {
  backendKind,
  NEON_STYLE_DSN,
  startTestBackend,
  type TestBackend,
} from "../../helpers/backend.ts";
import { NEON_ERROR_KEYS } from "../../helpers/neon-error-keys.ts";
import { dsnForDatabase } from "../../helpers/pg.ts";

let backend: TestBackend;
const extra: NeonProxy[] = [];
/** Known when the file is collected (`it.skipIf` needs it then). */
const server = backendKind() === "server";

beforeAll(async () => {
  backend = await startTestBackend({ migrate: false });
  await backend.pg.query("CREATE TABLE writes (id int4 PRIMARY KEY, note text)");
  await backend.pg.query(
    "CREATE TABLE deferred (id int4 UNIQUE DEFERRABLE INITIALLY DEFERRED, note text)",
  );
});

afterAll(async () => {
  for (const p of extra) await p.close();
  await backend?.close();
});

beforeEach(async () => {
  await backend.pg.query("DELETE FROM writes");
});

const DRIVER_HEADERS: Record<string, string> = {
  "Neon-Connection-String": NEON_STYLE_DSN,
  "Neon-Raw-Text-Output": "true",
  "Neon-Array-Mode": "true",
};

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  body: any;
}

async function post(
  body: unknown,
  o: { headers?: Record<string, string>; omit?: string[]; url?: string; method?: string } = {},
): Promise<Reply> {
  const headers = { ...DRIVER_HEADERS, ...o.headers };
  for (const name of o.omit ?? []) delete headers[name];
  const res = await fetch(o.url ?? backend.proxy.url, {
    method: o.method ?? "POST",
    headers,
    ...(o.method === "GET" || o.method === "OPTIONS"
      ? {}
      : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text === "" ? undefined : JSON.parse(text),
  };
}

const q = (query: string, params: unknown[] = []) => ({ query, params });

async function ok(body: unknown, o?: Parameters<typeof post>[1]) {
  const r = await post(body, o);
  expect(r.status, r.text).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: see Reply
  return r.body as any;
}

async function rows(query: string, params: unknown[] = [], o?: Parameters<typeof post>[1]) {
  return (await ok(q(query, params), o)).rows;
}

async function proxy(options: Omit<NeonProxyOptions, "upstreamDsn"> & { upstreamDsn?: string }) {
  const p = await startNeonProxy({ upstreamDsn: backend.dsn, poolSize: 1, ...options });
  extra.push(p);
  return p;
}

async function countWrites(): Promise<number> {
  const r = await backend.pg.query<{ n: number }>("SELECT count(*)::int AS n FROM writes");
  return r.rows[0]?.n ?? -1;
}

function requestError(message: string) {
  const body: Record<string, unknown> = {};
  for (const k of NEON_ERROR_KEYS)
    body[k] = k === "message" ? message : k === "code" || k === "severity" ? "" : null;
  return body;
}

/** A proxy whose finished requests can be awaited (onRequest). */
async function watchedProxy() {
  const seen: ProxyRequestInfo[] = [];
  const waiters: ((info: ProxyRequestInfo) => void)[] = [];
  const p = await proxy({
    poolSize: server ? 2 : 1,
    onRequest: (info) => {
      seen.push(info);
      waiters.shift()?.(info);
    },
  });
  const next = () =>
    new Promise<ProxyRequestInfo>((resolve) => {
      const done = seen.shift();
      if (done !== undefined) resolve(done);
      else waiters.push(resolve);
    });
  return { proxy: p, next };
}

/** Sleeping statements of this test's database (server only). */
async function sleepers(): Promise<number> {
  const admin = new pg.Client({ connectionString: backend.dsn });
  await admin.connect();
  try {
    const r = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND state = 'active' AND query LIKE '%pg_sleep(30)%'`,
    );
    return r.rows[0]?.n ?? 0;
  } finally {
    await admin.end();
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/**
 * Keeps a batch from finishing until the client has left. On the server: a long sleep (what the
 * abort cancels). On PGlite, whose statements block this process while they run: another
 * connection's open transaction, which keeps PGlite's one session, so the batch waits for it
 * without blocking anything; `release` ends it.
 */
async function holdBatch(): Promise<{
  statements: { query: string; params: unknown[] }[];
  release(): Promise<void>;
}> {
  if (server) return { statements: [q("SELECT pg_sleep(30)")], release: async () => {} };
  const holder = new pg.Client({ connectionString: backend.dsn });
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query("SELECT 1");
  return {
    statements: [],
    async release() {
      await holder.query("ROLLBACK");
      await holder.end();
    },
  };
}

/** Aborts once the batch is held (server: its sleep is running; PGlite: 100 ms after it was sent). */
async function abortWhenBusy(controller: AbortController): Promise<void> {
  if (server) expect(await until(async () => (await sleepers()) > 0, 5000)).toBe(true);
  else await new Promise((r) => setTimeout(r, 100));
  controller.abort();
}

/**
 * Waits until the proxy has finished the abandoned request: the next request through it (one
 * pooled connection on PGlite) runs after it. On the server the request reached its sleep, so
 * its end is reported (`next`), as abandoned.
 */
async function settled(p: NeonProxy, next: () => Promise<ProxyRequestInfo>): Promise<void> {
  if (server) expect(await next()).toMatchObject({ clientGone: true, status: 400 });
  expect((await ok(q("SELECT 1"), { url: p.url })).rows).toEqual([["1"]]);
}

// ── L: limits ────────────────────────────────────────────────────────────────────────

describe("L limits (SQL ~902–927, http read_body_with_limit)", () => {
  it("L01 Neon's limits are 10 MiB for the request body and the answer", () => {
    expect(NEON_MAX_REQUEST_BYTES).toBe(10 * 1024 * 1024);
    expect(NEON_MAX_RESPONSE_BYTES).toBe(10 * 1024 * 1024);
  });

  it("L02 a request body at the limit runs; one byte over is 413 with the 17-key body (ER ~60, ~89)", async () => {
    const small = await proxy({ maxRequestBytes: 200 });
    const base = JSON.stringify(q("SELECT length($1)", [""])).length;
    const at = JSON.stringify(q("SELECT length($1)", ["x".repeat(200 - base)]));
    expect((await ok(at, { url: small.url })).rows).toEqual([[String(200 - base)]]);
    const over = await post(JSON.stringify(q("SELECT length($1)", ["x".repeat(201 - base)])), {
      url: small.url,
    });
    expect(over.status).toBe(413);
    expect(over.body).toEqual(requestError("request is too large (max is 200 bytes)"));
  });

  it("L03 the answer's JSON is counted, not its cells: 300 empty strings outgrow 1 KiB (SQL ~912)", async () => {
    const small = await proxy({ maxResponseBytes: 1024 });
    const r = await post(q("SELECT '' FROM generate_series(1, 300)"), { url: small.url });
    expect(r.status).toBe(507);
    expect(r.body).toEqual(requestError("response is too large (max is 1024 bytes)"));
  });

  it("L04 the check runs before each row: one row larger than the limit passes (SQL ~907–918)", async () => {
    const small = await proxy({ maxResponseBytes: 1024 });
    expect(await rows("SELECT repeat('x', 4000)", [], { url: small.url })).toEqual([
      ["x".repeat(4000)],
    ]);
  });

  it("L05 the row after the answer outgrew the limit is refused: two rows of 1100 bytes are 507", async () => {
    const small = await proxy({ maxResponseBytes: 1024 });
    const r = await post(q("SELECT repeat('x', 1100) FROM generate_series(1, 2)"), {
      url: small.url,
    });
    expect(r.status).toBe(507);
  });

  it("L06 a batch counts its earlier results: a small row after a big result is 507", async () => {
    const small = await proxy({ maxResponseBytes: 1024 });
    const r = await post(
      { queries: [q("SELECT repeat('x', 1100)"), q("SELECT 'a'")] },
      { url: small.url },
    );
    expect(r.status).toBe(507);
  });

  it("L07 column names count in object mode (Neon-Array-Mode off), not in array mode", async () => {
    const small = await proxy({ maxResponseBytes: 1024 });
    const query = `SELECT '' AS ${"n".repeat(60)} FROM generate_series(1, 20)`;
    expect((await post(q(query), { url: small.url })).status).toBe(200);
    const objects = await post(q(query), {
      url: small.url,
      headers: { "Neon-Array-Mode": "false" },
    });
    expect(objects.status).toBe(507);
  });

  it("L08 a batch over the limit commits nothing", async () => {
    const small = await proxy({ maxResponseBytes: 1024 });
    const r = await post(
      {
        queries: [
          q("INSERT INTO writes (id) VALUES (1)"),
          q("SELECT '' FROM generate_series(1, 300)"),
        ],
      },
      { url: small.url },
    );
    expect(r.status).toBe(507);
    expect(await countWrites()).toBe(0);
  });

  it("L09 a row of 11 MiB passes the default limit (the check before it saw an empty answer)", async () => {
    const r = await rows("SELECT repeat('x', 11 * 1024 * 1024)");
    expect((r[0] as string[])[0]).toHaveLength(11 * 1024 * 1024);
  });

  it("L10 a chunked body over the limit is 413 too", async () => {
    const small = await proxy({ maxRequestBytes: 100 });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(JSON.stringify(q("SELECT $1", ["x".repeat(200)]))));
        c.close();
      },
    });
    const res = await fetch(small.url, {
      method: "POST",
      headers: DRIVER_HEADERS,
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    await res.body?.cancel();
  });
});

// ── A: client aborts ─────────────────────────────────────────────────────────────────

describe("A client aborts (MOD ~318–345, SQL ~684–727, ~800–808)", () => {
  it.skipIf(!server)(
    "A01 a client that goes away cancels its running statement (the protocol cancel) — server only: PGlite's statement blocks the process until it ends",
    async () => {
      const { proxy: p, next } = await watchedProxy();
      const controller = new AbortController();
      const request = fetch(p.url, {
        method: "POST",
        headers: DRIVER_HEADERS,
        body: JSON.stringify(q("SELECT pg_sleep(30)")),
        signal: controller.signal,
      }).catch(() => undefined);
      await abortWhenBusy(controller);
      await request;
      expect(await until(async () => (await sleepers()) === 0, 5000)).toBe(true);
      expect(await next()).toMatchObject({ clientGone: true, status: 400 });
    },
  );

  it("A02 a batch whose client goes away mid-statement never commits", async () => {
    const { proxy: p, next } = await watchedProxy();
    const hold = await holdBatch();
    const controller = new AbortController();
    const request = fetch(p.url, {
      method: "POST",
      headers: DRIVER_HEADERS,
      body: JSON.stringify({
        queries: [q("INSERT INTO writes (id) VALUES (1)"), ...hold.statements],
      }),
      signal: controller.signal,
    }).catch(() => undefined);
    await abortWhenBusy(controller);
    await request;
    await hold.release();
    await settled(p, next);
    expect(await countWrites()).toBe(0);
  });

  it("A03 after an aborted batch the proxy's connection is clean: no transaction left open", async () => {
    const { proxy: p, next } = await watchedProxy();
    const hold = await holdBatch();
    const controller = new AbortController();
    const request = fetch(p.url, {
      method: "POST",
      headers: DRIVER_HEADERS,
      body: JSON.stringify({
        queries: [q("INSERT INTO writes (id) VALUES (2)"), ...hold.statements],
      }),
      signal: controller.signal,
    }).catch(() => undefined);
    await abortWhenBusy(controller);
    await request;
    await hold.release();
    await settled(p, next);
    const probe = await post(q("SAVEPOINT s"), { url: p.url });
    expect(probe.body).toMatchObject({ code: "25P01" });
    expect((await ok(q("SELECT 1"), { url: p.url })).rows).toEqual([["1"]]);
  });

  it.skipIf(!server)(
    "A04 an aborted single write is cancelled before it commits (INSERT … pg_sleep) — server only, as A01",
    async () => {
      const { proxy: p, next } = await watchedProxy();
      const controller = new AbortController();
      const request = fetch(p.url, {
        method: "POST",
        headers: DRIVER_HEADERS,
        body: JSON.stringify(q("INSERT INTO writes (id) SELECT 3 FROM pg_sleep(30)")),
        signal: controller.signal,
      }).catch(() => undefined);
      await abortWhenBusy(controller);
      await request;
      await next();
      expect(await countWrites()).toBe(0);
    },
  );

  it("A05 the driver deadline (createNeonDb timeoutMs) firing during a write batch: DB_UNAVAILABLE, timedOut, nothing committed", async () => {
    const { proxy: p, next } = await watchedProxy();
    const hold = await holdBatch();
    const db = createNeonDb({
      connectionString: NEON_STYLE_DSN,
      fetchEndpoint: p.url,
      timeoutMs: 500,
    });
    const error = await db
      .batch([
        { text: "INSERT INTO writes (id) VALUES (4)" },
        ...hold.statements.map((s) => ({ text: s.query })),
      ])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isLlamonError(error, "DB_UNAVAILABLE")).toBe(true);
    expect((error as { details: unknown }).details).toMatchObject({ timedOut: true });
    await hold.release();
    await settled(p, next);
    expect(await countWrites()).toBe(0);
  });

  it("A06 a batch that ended before the client left commits (Neon commits once its last statement ended)", async () => {
    const r = await post({ queries: [q("INSERT INTO writes (id) VALUES (5)")] });
    expect(r.status).toBe(200);
    expect(await countWrites()).toBe(1);
  });
});

// ── E: errors ────────────────────────────────────────────────────────────────────────

describe("E errors (SQL ~154–241, ~322–339; ER; HU get_conn_info ~142–215)", () => {
  it("E01 an SQL error is 400 with the 17 keys in Neon's order", async () => {
    const r = await post(q("SELECT 1/0"));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(NEON_ERROR_KEYS);
    expect(r.body).toMatchObject({ code: "22012", severity: "ERROR", message: "division by zero" });
  });

  it('E02 a missing Neon-Connection-String: 400, code and severity "", the rest null', async () => {
    const r = await post(q("SELECT 1"), { omit: ["Neon-Connection-String"] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(requestError("invalid header: neon-connection-string"));
  });

  it("E03 a connection string that is no URL is 400 'invalid connection string'", async () => {
    const r = await post(q("SELECT 1"), { headers: { "Neon-Connection-String": "not a url" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^invalid connection string/);
  });

  it("E04 a scheme other than postgres(ql) is 400 'incorrect scheme'", async () => {
    const r = await post(q("SELECT 1"), {
      headers: { "Neon-Connection-String": "mysql://u:p@localhost/db" },
    });
    expect(r.body).toEqual(requestError("incorrect scheme"));
  });

  it("E05 no user is 400 'missing username'", async () => {
    const r = await post(q("SELECT 1"), {
      headers: { "Neon-Connection-String": "postgresql://localhost/db" },
    });
    expect(r.body).toEqual(requestError("missing username"));
  });

  it("E06 an IP address as host is 400 'missing hostname…'", async () => {
    for (const host of ["127.0.0.1", "[::1]"]) {
      const r = await post(q("SELECT 1"), {
        headers: { "Neon-Connection-String": `postgresql://u:p@${host}/db` },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^missing hostname/);
    }
  });

  it("E07 an unknown isolation level (names are case-sensitive) is 400 'invalid isolation level'", async () => {
    for (const level of ["serializable", "Snapshot", ""]) {
      const r = await post({ queries: [] }, { headers: { "Neon-Batch-Isolation-Level": level } });
      expect(r.body, level).toEqual(requestError("invalid isolation level"));
    }
  });

  it("E08 headers are checked before the body (SQL ~475 before ~480)", async () => {
    const r = await post("{not json", { headers: { "Neon-Batch-Isolation-Level": "x" } });
    expect(r.body.message).toBe("invalid isolation level");
  });

  it("E09 the connection string is checked before the isolation level (SQL ~431 before ~475)", async () => {
    const r = await post(q("SELECT 1"), {
      omit: ["Neon-Connection-String"],
      headers: { "Neon-Batch-Isolation-Level": "x" },
    });
    expect(r.body.message).toBe("invalid header: neon-connection-string");
  });

  it("E10 a body that is no JSON is 400 'could not parse the HTTP request body: …'", async () => {
    for (const body of ["{not json", "", "[1,"]) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^could not parse the HTTP request body: /);
      expect(r.body.code).toBe("");
    }
  });

  it("E11 a body of neither shape is 400 (no variant of the untagged Payload)", async () => {
    for (const body of [{}, [], { query: 5 }, { queries: "x" }, { queries: [{}] }, null, 1]) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toMatch(/^could not parse the HTTP request body/);
    }
  });

  it("E12 params that are not an array are 400", async () => {
    for (const params of ["x", { a: 1 }, null]) {
      expect((await post({ query: "SELECT 1", params })).status).toBe(400);
    }
  });

  it("E13 too few parameters: 400 with 08P01 from Postgres (a statement error, not a 500)", async () => {
    const r = await post(q("SELECT $1::int4 + $2::int4", ["1"]));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "08P01" });
    expect(r.body.message).toMatch(/bind message supplies 1 parameters/);
  });

  it("E14 too many parameters: 400 with 08P01", async () => {
    const r = await post(q("SELECT $1::text", ["a", "b"]));
    expect(r.body).toMatchObject({ code: "08P01" });
  });

  it("E15 a syntax error carries its position", async () => {
    const r = await post(q("SELEC 1"));
    expect(r.body).toMatchObject({ code: "42601", position: "1", internalPosition: null });
  });

  it("E16 an error inside a function carries internalPosition and internalQuery", async () => {
    const r = await post(q("DO $$ BEGIN EXECUTE 'SELEC 1'; END $$"));
    expect(r.body).toMatchObject({
      code: "42601",
      internalPosition: "1",
      internalQuery: "SELEC 1",
    });
    expect(r.body.where).toMatch(/PL\/pgSQL/);
  });

  it("E17 a multi-statement string is 42601 and runs nothing", async () => {
    const r = await post(q("INSERT INTO writes (id) VALUES (9); SELECT 1"));
    expect(r.body).toMatchObject({ code: "42601" });
    expect(await countWrites()).toBe(0);
  });

  it("E18 an error in a batch rolls back its earlier statements and echoes no Neon-Batch-* header", async () => {
    const r = await post(
      {
        queries: [q("INSERT INTO writes (id) VALUES (1)"), q("INSERT INTO writes (id) VALUES (1)")],
      },
      {
        headers: { "Neon-Batch-Read-Only": "false", "Neon-Batch-Isolation-Level": "Serializable" },
      },
    );
    expect(r.body).toMatchObject({ code: "23505", constraint: "writes_pkey" });
    expect(r.headers.get("neon-batch-isolation-level")).toBeNull();
    expect(await countWrites()).toBe(0);
  });

  it("E19 an error at COMMIT (a deferred unique constraint) is 400 with its SQLSTATE and nothing commits", async () => {
    const r = await post({
      queries: [
        q("INSERT INTO deferred (id) VALUES (1)"),
        q("INSERT INTO deferred (id) VALUES (1)"),
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "23505" });
    expect((await backend.pg.query("SELECT count(*)::int AS n FROM deferred")).rows).toEqual([
      { n: 0 },
    ]);
  });

  it("E20 a read-only batch that writes is 25006", async () => {
    const r = await post(
      { queries: [q("INSERT INTO writes (id) VALUES (1)")] },
      { headers: { "Neon-Batch-Read-Only": "true" } },
    );
    expect(r.body).toMatchObject({ code: "25006" });
  });

  it.skipIf(!server)(
    "E21 a terminated backend (57P01) is 400 with the SQLSTATE and severity FATAL — server only: PGlite has no backends to terminate",
    async () => {
      const { proxy: p } = await watchedProxy();
      const reply = post(q("SELECT pg_sleep(30)"), { url: p.url });
      expect(await until(async () => (await sleepers()) > 0, 5000)).toBe(true);
      const admin = new pg.Client({ connectionString: backend.dsn });
      await admin.connect();
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%pg_sleep(30)%'`,
      );
      await admin.end();
      const r = await reply;
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "57P01", severity: "FATAL" });
      expect((await ok(q("SELECT 1"), { url: p.url })).rows).toEqual([["1"]]);
    },
  );

  it.skipIf(!server)(
    "E22 a database that does not exist is the user's mistake: 400 with 3D000 (backend.rs ~465) — server only: PGlite accepts any database name",
    async () => {
      const p = await proxy({ upstreamDsn: dsnForDatabase("llamon_no_such_database") });
      const r = await post(q("SELECT 1"), { url: p.url });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "3D000" });
    },
  );

  it("E23 an unreachable database is 500 'Couldn't connect to compute node' (compute/mod.rs COULD_NOT_CONNECT)", async () => {
    const p = await proxy({ upstreamDsn: "postgresql://postgres@localhost:1/postgres" });
    const r = await post(q("SELECT 1"), { url: p.url });
    expect(r.status).toBe(500);
    expect(r.body.message).toMatch(/^Couldn't connect to compute node/);
    expect(Object.keys(r.body)).toEqual(NEON_ERROR_KEYS);
  });

  it('E25 a connection closed under a statement is 400 with code "" (SQL ~333: Postgres(e) without a database error), and DB_UNAVAILABLE through the driver', async () => {
    // The proxy reaches the database through a relay this test can cut.
    const target = new URL(backend.dsn);
    const sockets = new Set<Socket>();
    const relay = createServer((inbound) => {
      const outbound = connect(Number(target.port || 5432), target.hostname);
      for (const s of [inbound, outbound]) {
        sockets.add(s);
        s.on("error", () => {});
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((r) => relay.listen(0, "127.0.0.1", () => r()));
    const relayed = new URL(backend.dsn);
    relayed.hostname = "127.0.0.1";
    relayed.port = String((relay.address() as AddressInfo).port);
    const p = await proxy({ upstreamDsn: relayed.toString() });
    /** Sends while the proxy's connection is open, cuts it under the statement, returns the outcome. */
    async function cutUnder<T>(send: () => Promise<T>): Promise<T> {
      expect((await ok(q("SELECT 1"), { url: p.url })).rows).toEqual([["1"]]);
      const hold = await holdBatch();
      try {
        const outcome = send();
        // Server: the statement is running; PGlite: it waits for the held session.
        if (server) expect(await until(async () => (await sleepers()) > 0, 5000)).toBe(true);
        else await new Promise((r) => setTimeout(r, 100));
        for (const s of sockets) s.destroy();
        sockets.clear();
        return await outcome;
      } finally {
        await hold.release();
      }
    }
    const statement = server ? "SELECT pg_sleep(30)" : "SELECT 1";
    try {
      const db = createNeonDb({ connectionString: NEON_STYLE_DSN, fetchEndpoint: p.url });
      const error = await cutUnder(() =>
        db.query(statement).then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      expect(isLlamonError(error, "DB_UNAVAILABLE"), String(error)).toBe(true);
      const r = await cutUnder(() => post(q(statement), { url: p.url }));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "", severity: "" });
      expect(Object.keys(r.body)).toEqual(NEON_ERROR_KEYS);
    } finally {
      relay.close();
    }
  });

  it("E24 through the driver an SQL error (400 with a SQLSTATE) is DB_QUERY_FAILED", async () => {
    const db = createNeonDb({ connectionString: NEON_STYLE_DSN, fetchEndpoint: backend.proxy.url });
    const error = await db.query("SELECT 1/0").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLlamonError(error, "DB_QUERY_FAILED")).toBe(true);
  });
});

// ── T: typed output (Neon-Raw-Text-Output absent) ────────────────────────────────────

describe("T typed output without Neon-Raw-Text-Output (SQL ~371; json.rs pg_text_to_json ~133–165)", () => {
  const typed = { omit: ["Neon-Raw-Text-Output"] };
  const one = async (expr: string) => (await rows(`SELECT ${expr}`, [], typed))[0][0];

  it("T01 bool is true/false", async () => {
    expect(await rows("SELECT true, false", [], typed)).toEqual([[true, false]]);
  });
  it("T02 int2 and int4 are numbers", async () => {
    expect(await rows("SELECT 7::int2, '-2147483648'::int4", [], typed)).toEqual([
      [7, -2147483648],
    ]);
  });
  it("T03 int8 and numeric stay strings", async () => {
    expect(await rows("SELECT 9007199254740993::int8, 1.50::numeric", [], typed)).toEqual([
      ["9007199254740993", "1.50"],
    ]);
  });
  it("T04 float4/float8 are numbers", async () => {
    expect(await rows("SELECT 1.5::float4, 0.1::float8, 1e300::float8", [], typed)).toEqual([
      [1.5, 0.1, 1e300],
    ]);
  });
  it("T05 NaN and ±Infinity stay strings", async () => {
    expect(
      await rows("SELECT 'NaN'::float8, 'Infinity'::float8, '-Infinity'::float4", [], typed),
    ).toEqual([["NaN", "Infinity", "-Infinity"]]);
  });
  it("T06 json and jsonb are embedded as JSON", async () => {
    expect(await rows(`SELECT '{"a" : [1, "x"]}'::json, '{"b": null}'::jsonb`, [], typed)).toEqual([
      [{ a: [1, "x"] }, { b: null }],
    ]);
  });
  it("T07 text[] is an array of strings; NULL is null; quoted items are unescaped", async () => {
    expect(await one(`ARRAY['a', NULL, 'b c', 'q"t', 'back\\slash', 'NULL']::text[]`)).toEqual([
      "a",
      null,
      "b c",
      'q"t',
      "back\\slash",
      "NULL",
    ]);
  });
  it("T08 int4[] is numbers, a 2-D array nests", async () => {
    expect(await one("'{{1,2},{3,NULL}}'::int4[]")).toEqual([
      [1, 2],
      [3, null],
    ]);
  });
  it("T09 bool[] and float8[] convert their elements", async () => {
    expect(await rows("SELECT ARRAY[true,false], ARRAY[1.5,'NaN']::float8[]", [], typed)).toEqual([
      [
        [true, false],
        [1.5, "NaN"],
      ],
    ]);
  });
  it("T10 jsonb[] elements are JSON", async () => {
    expect(await one(`ARRAY['{"a":1}'::jsonb, '[2]'::jsonb]`)).toEqual([{ a: 1 }, [2]]);
  });
  it("T11 int8[] elements stay strings", async () => {
    expect(await one("ARRAY[1,2]::int8[]")).toEqual(["1", "2"]);
  });
  it("T12 bounds decoration is dropped: '[0:1]={1,2}' is [1,2] (json.rs ~192–200)", async () => {
    expect(await one("'[0:1]={1,2}'::int4[]")).toEqual([1, 2]);
  });
  it('T13 Neon\'s quirk: an empty text[] reads as one empty item, [""] (json.rs ~286–303)', async () => {
    expect(await one("'{}'::text[]")).toEqual([""]);
  });
  it("T14 Neon's quirk: an empty int4[] cannot be read: 500 'could not parse postgres response'", async () => {
    const r = await post(q("SELECT '{}'::int4[]"), typed);
    expect(r.status).toBe(500);
    expect(r.body.message).toBe("could not parse postgres response");
  });
  it("T15 other types are their text: date, bytea, uuid, interval", async () => {
    expect(
      await rows(
        "SELECT '2024-02-29'::date, '\\x00ff'::bytea, '00000000-0000-0000-0000-000000000001'::uuid, '1 day'::interval",
        [],
        typed,
      ),
    ).toEqual([["2024-02-29", "\\x00ff", "00000000-0000-0000-0000-000000000001", "1 day"]]);
  });
  it("T16 NULL of any type is null", async () => {
    expect(await rows("SELECT NULL::int4, NULL::jsonb, NULL::text[]", [], typed)).toEqual([
      [null, null, null],
    ]);
  });
  it("T17 with raw text output every value is Postgres text", async () => {
    expect(await rows("SELECT true, 1::int4, '{1}'::int4[], '{}'::jsonb")).toEqual([
      ["t", "1", "{1}", "{}"],
    ]);
  });
  it("T18 only exactly 'true' turns raw text on: 'TRUE' and '1' give typed JSON", async () => {
    for (const v of ["TRUE", "1", "yes"]) {
      expect(await rows("SELECT 1::int4", [], { headers: { "Neon-Raw-Text-Output": v } })).toEqual([
        [1],
      ]);
    }
  });
  it("T19 typed output works in a batch and in object mode", async () => {
    const r = await ok(
      { queries: [q("SELECT 1::int4 AS a"), q("SELECT true AS b")] },
      {
        omit: ["Neon-Raw-Text-Output"],
        headers: { "Neon-Array-Mode": "false" },
      },
    );
    expect(r.results.map((x: { rows: unknown }) => x.rows)).toEqual([[{ a: 1 }], [{ b: true }]]);
  });
  it("T20 an array of a user-defined enum is read as an array (its element type learnt from pg_type)", async () => {
    await backend.pg.query("DROP TYPE IF EXISTS mood");
    await backend.pg.query("CREATE TYPE mood AS ENUM ('sad', 'ok')");
    expect(await one("ARRAY['ok','sad']::mood[]")).toEqual(["ok", "sad"]);
  });
});

// ── R: result shape ──────────────────────────────────────────────────────────────────

describe("R result shape (SQL query_to_json ~868–961)", () => {
  it("R01 keys come in Neon's order: fields, rows, command, rowCount, rowAsArray", async () => {
    const r = await post(q("SELECT 1 AS one"));
    expect(Object.keys(r.body)).toEqual(["fields", "rows", "command", "rowCount", "rowAsArray"]);
    expect(r.text.startsWith('{"fields":[{"name":"one","dataTypeID":23,')).toBe(true);
  });
  it("R02 a field has name, dataTypeID, tableID, columnID, dataTypeSize, dataTypeModifier, format 'text'", async () => {
    const r = await ok(q("SELECT 'a'::varchar(5) AS v"));
    expect(r.fields).toEqual([
      {
        name: "v",
        dataTypeID: 1043,
        tableID: 0,
        columnID: 0,
        dataTypeSize: -1,
        dataTypeModifier: 9,
        format: "text",
      },
    ]);
  });
  it('R03 an empty query: command "", rowCount null, no fields, no rows', async () => {
    expect(await ok(q(""))).toEqual({
      fields: [],
      rows: [],
      command: "",
      rowCount: null,
      rowAsArray: true,
    });
  });
  it("R04 INSERT's rowCount is the tag's second number", async () => {
    const r = await ok(q("INSERT INTO writes (id) VALUES (1), (2), (3)"));
    expect(r).toMatchObject({ command: "INSERT", rowCount: 3 });
  });
  it("R05 a tag without a count (CREATE TABLE, SHOW) gives rowCount null", async () => {
    expect(await ok(q("CREATE TEMP TABLE t_r05 (x int)"))).toMatchObject({
      command: "CREATE",
      rowCount: null,
    });
    expect(await ok(q("SHOW server_version_num"))).toMatchObject({
      command: "SHOW",
      rowCount: null,
    });
  });
  it("R06 a SELECT without rows has rowCount 0", async () => {
    expect(await ok(q("SELECT 1 WHERE false"))).toMatchObject({
      command: "SELECT",
      rowCount: 0,
      rows: [],
    });
  });
  it("R07 UPDATE and DELETE count their rows", async () => {
    await ok(q("INSERT INTO writes (id) VALUES (1), (2)"));
    expect(await ok(q("UPDATE writes SET note = 'x'"))).toMatchObject({
      command: "UPDATE",
      rowCount: 2,
    });
    expect(await ok(q("DELETE FROM writes WHERE id = 1"))).toMatchObject({
      command: "DELETE",
      rowCount: 1,
    });
  });
  it("R08 Neon-Array-Mode other than 'true' gives objects; the query's arrayMode overrides the header", async () => {
    expect((await ok(q("SELECT 1 AS a"), { headers: { "Neon-Array-Mode": "1" } })).rows).toEqual([
      { a: "1" },
    ]);
    const r = await ok({ query: "SELECT 1 AS a", arrayMode: false });
    expect(r).toMatchObject({ rows: [{ a: "1" }], rowAsArray: false });
  });
  it("R09 a batch is {results:[…]} and each statement's arrayMode applies to its own result", async () => {
    const r = await ok({
      queries: [{ query: "SELECT 1 AS a", arrayMode: false }, q("SELECT 2 AS b")],
    });
    expect(Object.keys(r)).toEqual(["results"]);
    expect(r.results.map((x: { rows: unknown }) => x.rows)).toEqual([[{ a: "1" }], [["2"]]]);
  });
  it('R10 an empty batch is {"results":[]}', async () => {
    expect((await post({ queries: [] })).text).toBe('{"results":[]}');
  });
  it("R11 duplicate column names: object mode keeps the last", async () => {
    expect(
      (await ok(q("SELECT 1 AS a, 2 AS a"), { headers: { "Neon-Array-Mode": "false" } })).rows,
    ).toEqual([{ a: "2" }]);
  });
});

// ── P: parameters ────────────────────────────────────────────────────────────────────

describe("P JSON parameters (json.rs json_to_pg_text ~10–60)", () => {
  const text = async (param: unknown) => (await rows("SELECT $1::text", [param]))[0][0];

  it("P01 a string goes as is; null is NULL", async () => {
    expect(await text('a"b\\c\n')).toBe('a"b\\c\n');
    expect(await text(null)).toBeNull();
  });
  it("P02 numbers as serde_json writes them: integers exact, floats with '.0', exponents without '+'", async () => {
    const r = await post(
      '{"query":"SELECT $1::text, $2::text, $3::text, $4::text, $5::text","params":[42, 1.0, 1e21, 9007199254740993, 0.1]}',
    );
    expect(r.body.rows).toEqual([["42", "1.0", "1e21", "9007199254740993", "0.1"]]);
  });
  it("P03 booleans are 'true'/'false'", async () => {
    expect(await rows("SELECT $1::text, $2::bool", [true, false])).toEqual([["true", "f"]]);
  });
  it("P04 an object is its JSON with keys sorted (serde_json's map), compact", async () => {
    expect(await text({ b: 2, a: [1, { d: 1, c: 2 }] })).toBe('{"a":[1,{"c":2,"d":1}],"b":2}');
  });
  it("P05 an array becomes an array literal: numbers and booleans bare, strings quoted", async () => {
    expect(await text([1, true, "x", 'q"'])).toBe('{1,true,"x","q\\""}');
  });
  it("P06 Neon's quirk: a string in an array keeps its JSON escapes, so a newline arrives as 'n'", async () => {
    expect(await rows("SELECT $1::text[]", [["a\nb"]])).toEqual([["{anb}"]]);
  });
  it("P07 null in an array is NULL; nested arrays nest; [] is {}", async () => {
    expect(
      await rows("SELECT $1::int4[], $2::int4[]", [
        [
          [1, 2],
          [3, null],
        ],
        [],
      ]),
    ).toEqual([["{{1,2},{3,NULL}}", "{}"]]);
  });
  it("P08 an object in an array is the JSON string of its text", async () => {
    expect(await text([{ a: 1 }])).toBe('{"{\\"a\\":1}"}');
  });
  it("P09 params may be omitted", async () => {
    expect(await ok({ query: "SELECT 1" })).toMatchObject({ rows: [["1"]] });
  });
});

// ── B: body shapes ───────────────────────────────────────────────────────────────────

describe("B body shapes (SQL Payload ~44–65)", () => {
  it("B01 a body with both query and queries is a single query (Single is tried first)", async () => {
    const r = await ok({ query: "SELECT 1 AS single", queries: [q("SELECT 2")] });
    expect(r).toMatchObject({ rows: [["1"]], command: "SELECT" });
    expect(r.results).toBeUndefined();
  });
  it("B02 an invalid query next to valid queries is a batch", async () => {
    const r = await ok({ query: 5, queries: [q("SELECT 2")] });
    expect(r.results).toHaveLength(1);
  });
  it("B03 unknown keys are ignored", async () => {
    expect(await ok({ query: "SELECT 1", params: [], extra: true })).toMatchObject({
      rows: [["1"]],
    });
  });
  it("B04 arrayMode: null is 'not given'", async () => {
    expect(await ok({ query: "SELECT 1", arrayMode: null })).toMatchObject({ rowAsArray: true });
  });
  it("B05 arrayMode of another type is refused", async () => {
    expect((await post({ query: "SELECT 1", arrayMode: "yes" })).status).toBe(400);
  });
});

// ── H: headers and routes ────────────────────────────────────────────────────────────

describe("H headers and routes (MOD ~461–530; HU ~26–35)", () => {
  it("H01 OPTIONS /sql is 200 with Allow, CORS headers and max-age, and no body", async () => {
    const r = await post(undefined, { method: "OPTIONS" });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    expect(r.headers.get("allow")).toBe("OPTIONS, POST");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-headers")).toContain("Neon-Pool-Opt-In");
    expect(r.headers.get("access-control-max-age")).toBe("86400");
  });
  it('H02 GET /sql is 400 with the JSON string "query is not supported"', async () => {
    const r = await post(undefined, { method: "GET" });
    expect(r.status).toBe(400);
    expect(r.text).toBe('"query is not supported"');
  });
  it('H03 POST to another path is 400 "query is not supported"', async () => {
    const base = backend.proxy.url.replace(/\/sql$/, "");
    for (const path of ["/", "/sql/", "/SQL", "/query"]) {
      const r = await post(q("SELECT 1"), { url: base + path });
      expect(r.status, path).toBe(400);
      expect(r.body).toBe("query is not supported");
    }
  });
  it("H04 OPTIONS on another path is 400 too", async () => {
    const r = await post(undefined, {
      method: "OPTIONS",
      url: backend.proxy.url.replace(/\/sql$/, "/x"),
    });
    expect(r.status).toBe(400);
  });
  it("H05 every answer carries a Neon-Request-Id (a UUID); the client's own is not echoed", async () => {
    const mine = "00000000-0000-4000-8000-000000000000";
    const a = await post(q("SELECT 1"), { headers: { "Neon-Request-Id": mine } });
    const b = await post(q("SELEC"));
    const c = await post(undefined, { method: "GET" });
    for (const r of [a, b, c]) expect(r.headers.get("neon-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("neon-request-id")).not.toBe(mine);
    expect(a.headers.get("neon-request-id")).not.toBe(b.headers.get("neon-request-id"));
  });
  it("H06 Neon-Pool-Opt-In: true is accepted and keeps no session state either", async () => {
    const pool = { headers: { "Neon-Pool-Opt-In": "true" } };
    await ok(q("SET application_name = 'opt_in_leak'"), pool);
    const r = await rows("SELECT current_setting('application_name')", [], pool);
    expect(r).not.toEqual([["opt_in_leak"]]);
  });
  it("H07 answers of /sql carry Access-Control-Allow-Origin: * and application/json, errors too", async () => {
    for (const r of [await post(q("SELECT 1")), await post(q("SELEC")), await post("{")]) {
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });
  it("H08 a batch echoes the Neon-Batch-* headers it applied; a single query does not", async () => {
    const headers = {
      "Neon-Batch-Isolation-Level": "RepeatableRead",
      "Neon-Batch-Read-Only": "true",
      "Neon-Batch-Deferrable": "true",
    };
    const batch = await post({ queries: [q("SHOW transaction_isolation")] }, { headers });
    expect(batch.body.results[0].rows).toEqual([["repeatable read"]]);
    expect(batch.headers.get("neon-batch-isolation-level")).toBe("RepeatableRead");
    expect(batch.headers.get("neon-batch-read-only")).toBe("true");
    expect(batch.headers.get("neon-batch-deferrable")).toBe("true");
    const single = await post(q("SELECT 1"), { headers });
    expect(single.headers.get("neon-batch-read-only")).toBeNull();
  });
  it("H09 each of the four isolation levels is applied", async () => {
    const expected = {
      ReadUncommitted: "read uncommitted",
      ReadCommitted: "read committed",
      RepeatableRead: "repeatable read",
      Serializable: "serializable",
    };
    for (const [level, shown] of Object.entries(expected)) {
      const r = await ok(
        { queries: [q("SHOW transaction_isolation")] },
        { headers: { "Neon-Batch-Isolation-Level": level } },
      );
      expect(r.results[0].rows).toEqual([[shown]]);
    }
  });
  it("H10 read-only and deferrable need exactly 'true'", async () => {
    const r = await ok(
      { queries: [q("SHOW transaction_read_only"), q("SHOW transaction_deferrable")] },
      { headers: { "Neon-Batch-Read-Only": "TRUE", "Neon-Batch-Deferrable": "1" } },
    );
    expect(r.results.map((x: { rows: unknown }) => x.rows)).toEqual([[["off"]], [["off"]]]);
  });
  it("H11 a query string on /sql is ignored", async () => {
    expect(await rows("SELECT 1", [], { url: `${backend.proxy.url}?x=1` })).toEqual([["1"]]);
  });
});

// ── S: session state ─────────────────────────────────────────────────────────────────

describe("S no session state survives a request (conn_pool reset)", () => {
  it("S01 SET in one request is not seen by the next", async () => {
    await ok(q("SET statement_timeout = '4321ms'"));
    expect(await rows("SELECT current_setting('statement_timeout')")).not.toEqual([["4321ms"]]);
  });
  it("S02 a BEGIN sent alone leaves no transaction open", async () => {
    await ok(q("BEGIN"));
    expect((await post(q("SAVEPOINT s"))).body).toMatchObject({ code: "25P01" });
  });
  it("S03 temp tables and prepared statements do not outlive their request", async () => {
    await ok(q("CREATE TEMP TABLE s03 (x int)"));
    await ok(q("PREPARE s03p AS SELECT 1"));
    expect(
      await rows(
        "SELECT to_regclass('pg_temp.s03')::text, (SELECT count(*) FROM pg_prepared_statements)::int4",
      ),
    ).toEqual([[null, "0"]]);
  });
});
