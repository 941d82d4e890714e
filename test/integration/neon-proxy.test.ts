/**
 * Protocol fidelity of the local Neon SQL-over-HTTP proxy (packages/cli/src/dev/neon-http-proxy.ts):
 * what `@neondatabase/serverless` sends and expects, checked with raw `fetch` (the wire
 * format) and with the real driver (what the Worker sees).
 */
import { request } from "node:http";
import { NeonDbError, neon, neonConfig } from "@neondatabase/serverless";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type NeonProxy,
  type ProxyRequestInfo,
  startNeonProxy,
} from "../../packages/cli/src/dev/neon-http-proxy.ts";
import { isLlamonError, type LlamonError } from "../../src/errors.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { startTestBackend, type TestBackend } from "../helpers/backend.ts";

let backend: TestBackend;
const extraProxies: NeonProxy[] = [];

beforeAll(async () => {
  backend = await startTestBackend({ migrate: false });
  await backend.pg.query("CREATE TABLE shape (id int4 PRIMARY KEY, name text NOT NULL)");
  await backend.pg.query("INSERT INTO shape (id, name) VALUES (1, 'one'), (2, 'two')");
  await backend.pg.query("CREATE TABLE writes (id int4 PRIMARY KEY, note text)");
});

afterAll(async () => {
  for (const p of extraProxies) await p.close();
  await backend?.close();
});

beforeEach(() => {
  // Some tests point the driver's global endpoint elsewhere; every test starts on ours.
  const url = backend.proxy.url;
  neonConfig.fetchEndpoint = () => url;
});

/** The headers @neondatabase/serverless sends with every request (as the Worker's role). */
function driverHeaders(): Record<string, string> {
  return {
    "Neon-Connection-String": backend.neonDsn,
    "Neon-Raw-Text-Output": "true",
    "Neon-Array-Mode": "true",
  };
}

interface NeonField {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: string;
}

interface NeonResult {
  fields: NeonField[];
  rows: unknown[];
  command: string;
  rowCount: number | null;
  rowAsArray: boolean;
}

interface Reply {
  status: number;
  headers: Headers;
  /** The parsed JSON body (an object for every status this proxy sends). */
  body: Record<string, unknown>;
}

async function post(
  body: unknown,
  options: { headers?: Record<string, string>; url?: string; omit?: string[] } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...driverHeaders(), ...options.headers };
  for (const name of options.omit ?? []) delete headers[name];
  const res = await fetch(options.url ?? backend.proxy.url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

/** Neon's body for a request it refuses before any SQL: all 17 keys, code and severity "". */
function requestError(message: string): Record<string, unknown> {
  return {
    message,
    code: "",
    detail: null,
    hint: null,
    position: null,
    internalPosition: null,
    internalQuery: null,
    severity: "",
    where: null,
    table: null,
    column: null,
    schema: null,
    dataType: null,
    constraint: null,
    file: null,
    line: null,
    routine: null,
  };
}

function result(reply: Reply): NeonResult {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as unknown as NeonResult;
}

function batchResults(reply: Reply): NeonResult[] {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as { results: NeonResult[] }).results;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

async function llamonRejection(promise: Promise<unknown>): Promise<LlamonError> {
  const error = await rejection(promise);
  if (!isLlamonError(error)) throw new Error(`expected a LlamonError, got ${String(error)}`);
  return error;
}

async function extraProxy(options: Omit<Parameters<typeof startNeonProxy>[0], "upstreamDsn">) {
  const proxy = await startNeonProxy({ upstreamDsn: backend.dsn, poolSize: 1, ...options });
  extraProxies.push(proxy);
  return proxy;
}

async function countWrites(where = "true"): Promise<number> {
  const r = await backend.pg.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM writes WHERE ${where}`,
  );
  return r.rows[0]?.n ?? -1;
}

// ── response shape ────────────────────────────────────────────────────────────────────

describe("response shape", () => {
  it("R10.1 a query returns {fields, rows, command, rowCount, rowAsArray} with Neon's field keys", async () => {
    const r = result(await post({ query: "SELECT id, name FROM shape ORDER BY id", params: [] }));
    const oid = await backend.pg.query<{ oid: string }>("SELECT 'shape'::regclass::oid AS oid");
    const tableID = Number(oid.rows[0]?.oid);
    expect(Object.keys(r).sort()).toEqual(["command", "fields", "rowAsArray", "rowCount", "rows"]);
    expect(r).toEqual({
      command: "SELECT",
      rowCount: 2,
      rowAsArray: true,
      rows: [
        ["1", "one"],
        ["2", "two"],
      ],
      fields: [
        {
          name: "id",
          dataTypeID: 23,
          tableID,
          columnID: 1,
          dataTypeSize: 4,
          dataTypeModifier: -1,
          format: "text",
        },
        {
          name: "name",
          dataTypeID: 25,
          tableID,
          columnID: 2,
          dataTypeSize: -1,
          dataTypeModifier: -1,
          format: "text",
        },
      ],
    });
  });

  it("R10.1 every value comes back as Postgres text (or null), whatever its type", async () => {
    const r = result(
      await post({
        query: `SELECT 1::int4 AS i4, 9007199254740993::int8 AS i8, 1.50::numeric(5,2) AS num,
                       true AS t, false AS f, '{"b": [1, "한"], "a": null}'::jsonb AS j,
                       '\\x00ff'::bytea AS by, '2024-02-29'::date AS d,
                       ARRAY['a', NULL, 'b c']::text[] AS ta, ARRAY[1, NULL]::int4[] AS ia,
                       '안녕 👋'::text AS ko, ''::text AS empty, NULL::int4 AS nul,
                       $1::text AS p`,
        params: ["param"],
      }),
    );
    expect(r.rows).toEqual([
      [
        "1",
        "9007199254740993",
        "1.50",
        "t",
        "f",
        '{"a": null, "b": [1, "한"]}',
        "\\x00ff",
        "2024-02-29",
        '{a,NULL,"b c"}',
        "{1,NULL}",
        "안녕 👋",
        "",
        null,
        "param",
      ],
    ]);
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([
      23, 20, 1700, 16, 16, 3802, 17, 1082, 1009, 1007, 25, 25, 23, 25,
    ]);
    expect(r.fields.every((f) => f.format === "text")).toBe(true);
  });

  it("R10.1 JSON parameters become Postgres text: numbers, booleans, arrays as array literals, objects as JSON", async () => {
    const r = result(
      await post({
        query:
          "SELECT $1::int4 AS n, $2::bool AS b, $3::text[] AS a, $4::jsonb AS j, $5::text AS nul, $6::int4[] AS nested",
        params: [
          42,
          true,
          ["x", null, 'q"uote', "back\\slash", ""],
          { k: [1, 2] },
          null,
          [
            [1, 2],
            [3, null],
          ],
        ],
      }),
    );
    expect(r.rows).toEqual([
      [
        "42",
        "t",
        '{x,NULL,"q\\"uote","back\\\\slash",""}',
        '{"k": [1, 2]}',
        null,
        "{{1,2},{3,NULL}}",
      ],
    ]);
  });

  it("R10.1 Neon-Array-Mode: false returns rows as objects of text", async () => {
    const r = result(
      await post(
        { query: "SELECT id, name, id > 1 AS big FROM shape ORDER BY id", params: [] },
        { headers: { "Neon-Array-Mode": "false" } },
      ),
    );
    expect(r.rowAsArray).toBe(false);
    expect(r.rows).toEqual([
      { id: "1", name: "one", big: "f" },
      { id: "2", name: "two", big: "t" },
    ]);
  });

  it("R10.1 a statement without rows reports its command; rowCount is null where Postgres gives none", async () => {
    const r = result(
      await post({
        query: "UPDATE shape SET name = name WHERE id = $1",
        params: [1],
      }),
    );
    expect(r).toMatchObject({ command: "UPDATE", rowCount: 1, rows: [], fields: [] });
    const show = result(await post({ query: "SHOW server_version_num", params: [] }));
    expect(show.command).toBe("SHOW");
    expect(show.rowCount).toBeNull();
    expect(show.rows).toHaveLength(1);
  });

  it("R10.1 a batch returns {results:[…]} and echoes the Neon-Batch-* headers it applied", async () => {
    const reply = await post(
      {
        queries: [
          { query: "SHOW transaction_isolation", params: [] },
          { query: "SHOW transaction_read_only", params: [] },
          { query: "SHOW transaction_deferrable", params: [] },
          { query: "SELECT count(*) AS n FROM shape", params: [] },
        ],
      },
      {
        headers: {
          "Neon-Batch-Isolation-Level": "Serializable",
          "Neon-Batch-Read-Only": "true",
          "Neon-Batch-Deferrable": "true",
        },
      },
    );
    const results = batchResults(reply);
    expect(Object.keys(reply.body)).toEqual(["results"]);
    expect(results.map((r) => r.rows)).toEqual([[["serializable"]], [["on"]], [["on"]], [["2"]]]);
    expect(results.every((r) => r.rowAsArray === true)).toBe(true);
    expect(reply.headers.get("neon-batch-isolation-level")).toBe("Serializable");
    expect(reply.headers.get("neon-batch-read-only")).toBe("true");
    expect(reply.headers.get("neon-batch-deferrable")).toBe("true");

    const plain = await post({ queries: [{ query: "SHOW transaction_isolation", params: [] }] });
    expect(batchResults(plain)[0]?.rows).toEqual([["read committed"]]);
    expect(plain.headers.get("neon-batch-isolation-level")).toBeNull();
    expect(plain.headers.get("neon-batch-read-only")).toBeNull();
  });

  it("R10.1 an empty batch is an empty result list", async () => {
    expect(batchResults(await post({ queries: [] }))).toEqual([]);
  });

  it("R10.1 the driver parses the proxy's text exactly like Neon (fullResults, bigint as string)", async () => {
    const sql = neon(backend.neonDsn, { fullResults: true });
    const r = await sql.query(
      "SELECT $1::int8 AS big, $2::jsonb AS j, $3::bytea AS by, $4::bool AS b",
      ["9007199254740993", { a: ["한"] }, Buffer.from([0, 255]), false],
    );
    expect(r.rows).toEqual([
      { big: "9007199254740993", j: { a: ["한"] }, by: expect.anything(), b: false },
    ]);
    expect(Buffer.from(r.rows[0]?.by as Uint8Array).equals(Buffer.from([0, 255]))).toBe(true);
    expect(r.command).toBe("SELECT");
    expect(r.rowCount).toBe(1);
    const tagged = neon(backend.neonDsn);
    expect(await tagged`SELECT ${"x"}::text AS v`).toEqual([{ v: "x" }]);
  });
});

// ── SQL errors ────────────────────────────────────────────────────────────────────────

describe("SQL errors", () => {
  it("R10.1 a SQL error is HTTP 400 with Neon's error body (message, code, detail, constraint, …)", async () => {
    const reply = await post({
      query: "INSERT INTO shape (id, name) VALUES ($1, $2)",
      params: [1, "dup"],
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      message: 'duplicate key value violates unique constraint "shape_pkey"',
      code: "23505",
      detail: "Key (id)=(1) already exists.",
      constraint: "shape_pkey",
      table: "shape",
      schema: "public",
      severity: "ERROR",
    });
    for (const key of [
      "hint",
      "position",
      "where",
      "column",
      "dataType",
      "file",
      "line",
      "routine",
    ]) {
      expect(reply.body, key).toHaveProperty(key);
    }
  });

  it("R10.1 through the driver a SQL error is a NeonDbError carrying the SQLSTATE in .code", async () => {
    const sql = neon(backend.neonDsn);
    const error = await rejection(sql.query("INSERT INTO shape (id, name) VALUES (2, 'dup')"));
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({
      code: "23505",
      constraint: "shape_pkey",
      detail: "Key (id)=(2) already exists.",
      table: "shape",
      schema: "public",
      severity: "ERROR",
    });
    const syntax = await rejection(sql.query("SELEC 1"));
    expect(syntax).toBeInstanceOf(NeonDbError);
    expect(syntax).toMatchObject({ code: "42601", position: "1" });
  });

  it("R10.1 a multi-statement string is 400 with 42601 and runs nothing", async () => {
    const reply = await post({
      query: "INSERT INTO writes (id) VALUES (900); SELECT 2",
      params: [],
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: "42601",
      message: "cannot insert multiple commands into a prepared statement",
    });
    const viaDriver = await rejection(neon(backend.neonDsn).query("SELECT 1; SELECT 2"));
    expect(viaDriver).toBeInstanceOf(NeonDbError);
    expect(viaDriver).toMatchObject({ code: "42601" });
    expect(await countWrites("id = 900")).toBe(0);
  });

  it("R2.4 a failing batch rolls back every statement before the failure", async () => {
    const reply = await post({
      queries: [
        { query: "INSERT INTO writes (id, note) VALUES ($1, $2)", params: [1, "a"] },
        { query: "INSERT INTO writes (id, note) VALUES ($1, $2)", params: [2, "b"] },
        { query: "UPDATE shape SET name = 'changed' WHERE id = 1", params: [] },
        { query: "INSERT INTO writes (id, note) VALUES ($1, $2)", params: [1, "duplicate"] },
        { query: "INSERT INTO writes (id, note) VALUES ($1, $2)", params: [3, "never"] },
      ],
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "23505", constraint: "writes_pkey" });
    expect(reply.headers.get("neon-batch-read-only")).toBeNull();
    expect(await countWrites()).toBe(0);
    const shape = await backend.pg.query("SELECT name FROM shape WHERE id = 1");
    expect(shape.rows).toEqual([{ name: "one" }]);

    // Through the driver's transaction() too.
    const sql = neon(backend.neonDsn);
    const error = await rejection(
      sql.transaction([
        sql.query("INSERT INTO writes (id, note) VALUES (4, 'd')"),
        sql.query("INSERT INTO writes (id, note) VALUES (4, 'again')"),
      ]),
    );
    expect(error).toMatchObject({ code: "23505" });
    expect(await countWrites()).toBe(0);
  });

  it("R2.4 a read-only batch cannot write (25006)", async () => {
    const reply = await post(
      { queries: [{ query: "INSERT INTO writes (id) VALUES (10)", params: [] }] },
      { headers: { "Neon-Batch-Read-Only": "true" } },
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: "25006",
      message: "cannot execute INSERT in a read-only transaction",
    });
    const sql = neon(backend.neonDsn);
    const error = await rejection(
      sql.transaction([sql.query("INSERT INTO writes (id) VALUES (11)")], { readOnly: true }),
    );
    expect(error).toBeInstanceOf(NeonDbError);
    expect(error).toMatchObject({ code: "25006" });
    expect(await countWrites()).toBe(0);
  });
});

// ── size limits ───────────────────────────────────────────────────────────────────────

describe("size limits", () => {
  /** A request body of exactly `bytes` bytes (ASCII) whose query returns the param's length. */
  function bodyOfSize(bytes: number): { body: string; length: number } {
    const query = "SELECT length($1::text) AS n";
    const length = bytes - JSON.stringify({ query, params: [""] }).length;
    const body = JSON.stringify({ query, params: ["x".repeat(length)] });
    expect(Buffer.byteLength(body)).toBe(bytes);
    return { body, length };
  }

  it("R10.1 a request body over maxRequestBytes is 413 'request is too large'; one at the limit works", async () => {
    const small = await extraProxy({ maxRequestBytes: 1024 });
    const over = await post(bodyOfSize(1025).body, { url: small.url });
    expect(over.status).toBe(413);
    expect(over.body).toEqual(requestError("request is too large (max is 1024 bytes)"));
    for (const size of [1024, 1000]) {
      const { body, length } = bodyOfSize(size);
      const fits = result(await post(body, { url: small.url }));
      expect(fits.rows).toEqual([[String(length)]]);
    }
  });

  it("R10.1 a chunked request body (no Content-Length) over the limit is also 413", async () => {
    const small = await extraProxy({ maxRequestBytes: 1024 });
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        small.url,
        { method: "POST", headers: { ...driverHeaders(), "Transfer-Encoding": "chunked" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.write(`{"query":"SELECT $1::text","params":["${"x".repeat(700)}`);
      req.end(`${"y".repeat(700)}"]}`);
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual(
      requestError("request is too large (max is 1024 bytes)"),
    );
    expect(result(await post({ query: "SELECT 1", params: [] }, { url: small.url })).rows).toEqual([
      ["1"],
    ]);
  });

  it("R10.1 a too-large parameter through createNeonDb is DB_PAYLOAD_TOO_LARGE (413)", async () => {
    const small = await extraProxy({ maxRequestBytes: 1024 });
    const db = createNeonDb({ connectionString: backend.neonDsn, fetchEndpoint: small.url });
    const error = await llamonRejection(db.query("SELECT $1::text AS v", ["x".repeat(2000)]));
    expect(error.code).toBe("DB_PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ httpStatus: 413 });
    expect(error.message).toContain("request is too large (max is 1024 bytes)");
    const batch = await llamonRejection(
      db.batch([{ text: "SELECT $1::text AS v", params: ["x".repeat(2000)] }]),
    );
    expect(batch.code).toBe("DB_PAYLOAD_TOO_LARGE");
    // A small query through the same db still works.
    expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("the response limit counts the JSON built so far, checked before each row (Neon sql_over_http.rs ~907–916)", async () => {
    const small = await extraProxy({ maxResponseBytes: 1024 });
    // 300 empty strings: no cell bytes, but 1500 bytes of JSON rows — 507 on Neon.
    const empties = await post(
      { query: "SELECT '' FROM generate_series(1, 300)", params: [] },
      { url: small.url },
    );
    expect(empties.status).toBe(507);
    expect(empties.body).toEqual(requestError("response is too large (max is 1024 bytes)"));
    const many = await post(
      { query: "SELECT repeat('x', 100) FROM generate_series(1, 20)", params: [] },
      { url: small.url },
    );
    expect(many.status).toBe(507);
    // One row larger than the limit: the check before it saw a small answer — 200 on Neon.
    const big = result(
      await post({ query: "SELECT repeat('x', 5000) AS v", params: [] }, { url: small.url }),
    );
    expect(big.rows).toEqual([["x".repeat(5000)]]);
  });

  it("R10.1 a batch whose response is too large is 507 and commits nothing", async () => {
    const small = await extraProxy({ maxResponseBytes: 1024 });
    const reply = await post(
      {
        queries: [
          { query: "INSERT INTO writes (id, note) VALUES (30, 'big')", params: [] },
          { query: "SELECT repeat('x', 100) FROM generate_series(1, 20)", params: [] },
        ],
      },
      { url: small.url },
    );
    expect(reply.status).toBe(507);
    expect(await countWrites("id = 30")).toBe(0);
  });

  it("R10.1 a too-large response through createNeonDb is DB_PAYLOAD_TOO_LARGE (507)", async () => {
    const small = await extraProxy({ maxResponseBytes: 1024 });
    const db = createNeonDb({ connectionString: backend.neonDsn, fetchEndpoint: small.url });
    const error = await llamonRejection(
      db.query("SELECT repeat('x', 100) AS v FROM generate_series(1, 20)"),
    );
    expect(error.code).toBe("DB_PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ httpStatus: 507 });
    expect(error.message).toContain("response is too large (max is 1024 bytes)");
  });
});

// ── session state ─────────────────────────────────────────────────────────────────────

describe("no session state survives a request", () => {
  /** Enough parallel requests to open every pooled connection, repeated. */
  const ROUNDS = 20;
  const WIDTH = 6;

  async function single(query: string, params: unknown[] = []): Promise<NeonResult> {
    return result(await post({ query, params }));
  }

  it("R10.1 SET statement_timeout / application_name in one request is not visible in the next", async () => {
    const probe = `SELECT current_setting('statement_timeout') AS st,
                          current_setting('application_name') AS app,
                          current_setting('search_path') AS sp,
                          pg_backend_pid()::text AS pid`;
    const baseline = ((await single(probe)).rows[0] as string[]).slice(0, 3);
    expect(baseline).not.toContain("1234ms");
    expect(baseline).not.toContain("leaky");
    const pids = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        Array.from({ length: WIDTH }, () =>
          Promise.all([
            single("SET statement_timeout = '1234ms'"),
            single("SET application_name = 'leaky'"),
            single("SELECT set_config('search_path', 'pg_catalog', false)"),
          ]),
        ),
      );
      const probes = await Promise.all(Array.from({ length: WIDTH }, () => single(probe)));
      for (const p of probes) {
        const row = p.rows[0] as string[];
        expect(row.slice(0, 3)).toEqual(baseline);
        pids.add(row[3] ?? "");
      }
    }
    // On the server the pool really spread the requests over several connections.
    if (backend.kind === "server") expect(pids.size).toBeGreaterThan(1);
  });

  it("R10.1 temp tables, prepared statements and advisory locks do not outlive their request", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await Promise.all(
        Array.from({ length: WIDTH }, () =>
          Promise.all([
            post({ query: "CREATE TEMP TABLE leak_tmp (x int4)", params: [] }),
            post({ query: "PREPARE leak_stmt AS SELECT 1", params: [] }),
            post({ query: "SELECT pg_try_advisory_lock($1)", params: [4242 + round] }),
          ]),
        ),
      );
      for (const replies of created) {
        for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      }
      const probes = await Promise.all(
        Array.from({ length: WIDTH }, () =>
          single(
            `SELECT to_regclass('pg_temp.leak_tmp')::text AS t,
                    (SELECT count(*) FROM pg_prepared_statements)::int AS p,
                    (SELECT count(*) FROM pg_locks
                      WHERE locktype = 'advisory' AND classid = 0 AND objsubid = 1
                        AND objid BETWEEN 4242 AND ${4242 + ROUNDS})::int AS l`,
          ),
        ),
      );
      for (const probe of probes) expect(probe.rows).toEqual([[null, "0", "0"]]);
    }
  });

  it("R10.1 a BEGIN sent as a single query does not leave the next request inside a transaction", async () => {
    await backend.pg.query("DELETE FROM writes");
    for (let i = 0; i < ROUNDS; i++) {
      const begin = result(await post({ query: "BEGIN", params: [] }));
      expect(begin.command).toBe("BEGIN");
      // SAVEPOINT only works inside a transaction block: outside one it is 25P01.
      const probe = await post({ query: "SAVEPOINT leak_probe", params: [] });
      expect(probe.status).toBe(400);
      expect(probe.body).toMatchObject({ code: "25P01" });
      // A write in the next request commits on its own: another connection sees it.
      result(await post({ query: "INSERT INTO writes (id) VALUES ($1)", params: [i] }));
      expect(await countWrites(`id = ${i}`)).toBe(1);
    }
    expect(await countWrites()).toBe(ROUNDS);
    await backend.pg.query("DELETE FROM writes");
  });
});

// ── bad requests ──────────────────────────────────────────────────────────────────────

describe("bad requests are answered, never crash the proxy", () => {
  const select = { query: "SELECT 1 AS one", params: [] };

  it("R10.1 a missing Neon-Connection-String is 400 'invalid header: neon-connection-string'", async () => {
    const reply = await post(select, { omit: ["Neon-Connection-String"] });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(requestError("invalid header: neon-connection-string"));
  });

  it("R10.1 a connection string with an IP host is 400 mentioning hostname", async () => {
    for (const host of ["127.0.0.1", "[::1]"]) {
      const reply = await post(select, {
        headers: { "Neon-Connection-String": `postgresql://postgres:x@${host}/db` },
      });
      expect(reply.status).toBe(400);
      expect(String(reply.body.message)).toContain("hostname");
    }
    for (const bad of ["not a url", "mysql://u:p@localhost/db", "postgresql://localhost/db"]) {
      const reply = await post(select, { headers: { "Neon-Connection-String": bad } });
      expect(reply.status, bad).toBe(400);
    }
  });

  it("R10.1 an invalid isolation level header is 400 'invalid isolation level'", async () => {
    const reply = await post(
      { queries: [select] },
      { headers: { "Neon-Batch-Isolation-Level": "serializable" } },
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(requestError("invalid isolation level"));
  });

  it("R10.1 an unparsable JSON body is 400 'could not parse the HTTP request body…'", async () => {
    for (const body of ["{not json", "", '{"query": "SELECT 1"']) {
      const reply = await post(body);
      expect(reply.status, body).toBe(400);
      expect(String(reply.body.message)).toMatch(/^could not parse the HTTP request body/);
    }
  });

  it("R10.1 a body of the wrong shape is 400", async () => {
    for (const body of [
      {},
      [],
      { query: 5 },
      { query: "SELECT 1", params: "x" },
      { queries: "SELECT 1" },
      { queries: [{ params: [] }] },
      { query: "SELECT 1", arrayMode: "yes" },
      null,
      42,
    ]) {
      const reply = await post(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(String(reply.body.message)).toMatch(/^could not parse the HTTP request body/);
    }
  });

  it("without Neon-Raw-Text-Output the answer is typed JSON, as on Neon", async () => {
    const r = result(
      await post(
        {
          query:
            "SELECT 1::int4 AS i, 2::int8 AS big, true AS b, '{\"a\":1}'::jsonb AS j, ARRAY[1,NULL]::int4[] AS ia",
          params: [],
        },
        { omit: ["Neon-Raw-Text-Output"] },
      ),
    );
    expect(r.rows).toEqual([[1, "2", true, { a: 1 }, [1, null]]]);
  });

  it("OPTIONS /sql is 200 with Neon's CORS headers; other methods and paths are 400 'query is not supported'", async () => {
    const options = await fetch(backend.proxy.url, { method: "OPTIONS" });
    expect(options.status).toBe(200);
    expect(options.headers.get("allow")).toBe("OPTIONS, POST");
    expect(options.headers.get("access-control-max-age")).toBe("86400");
    await options.body?.cancel();
    const get = await fetch(backend.proxy.url, { headers: driverHeaders() });
    expect(get.status).toBe(400);
    expect(await get.json()).toBe("query is not supported");
    const base = backend.proxy.url.replace(/\/sql$/, "");
    for (const path of ["/", "/sql/extra", "/query", "/SQL"]) {
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        headers: driverHeaders(),
        body: JSON.stringify(select),
      });
      expect(res.status, path).toBe(400);
      expect(await res.json()).toBe("query is not supported");
    }
    const withQuery = result(await post(select, { url: `${backend.proxy.url}?x=1` }));
    expect(withQuery.rows).toEqual([["1"]]);
  });

  it("R10.1 after all of the above a normal query and batch still work", async () => {
    expect(result(await post(select)).rows).toEqual([["1"]]);
    const sql = neon(backend.neonDsn);
    expect(await sql.query("SELECT 2 AS two")).toEqual([{ two: 2 }]);
    const [a, b] = await sql.transaction([sql.query("SELECT 3 AS x"), sql.query("SELECT 4 AS x")]);
    expect([a, b]).toEqual([[{ x: 3 }], [{ x: 4 }]]);
  });

  it("R10.1 an unreachable upstream is HTTP 500 and DB_UNAVAILABLE through createNeonDb", async () => {
    const dead = await startNeonProxy({
      upstreamDsn: "postgresql://postgres@localhost:1/postgres",
      poolSize: 1,
    });
    extraProxies.push(dead);
    const reply = await post(select, { url: dead.url });
    expect(reply.status).toBe(500);
    expect(String(reply.body.message)).toContain("Couldn't connect to compute node");
    const db = createNeonDb({ connectionString: backend.neonDsn, fetchEndpoint: dead.url });
    const error = await llamonRejection(db.query("SELECT 1"));
    expect(error.code).toBe("DB_UNAVAILABLE");
    expect(error.details).toEqual({ httpStatus: 500 });
  });
});

// ── concurrency and counting ──────────────────────────────────────────────────────────

describe("concurrency and request counting", () => {
  it("R10.1 30 parallel driver queries with pg_sleep all succeed with their own results", async () => {
    const sql = neon(backend.neonDsn);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sql.query("SELECT $1::int4 AS i, pg_sleep(0.01)::text AS slept", [i]),
      ),
    );
    expect(results.map((r) => r[0]?.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("R2.4 parallel batches each commit atomically", async () => {
    await backend.pg.query("DELETE FROM writes");
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        backend.neon.batch([
          { text: "INSERT INTO writes (id, note) VALUES ($1, 'a')", params: [i * 2] },
          { text: "SELECT pg_sleep(0.005)" },
          { text: "INSERT INTO writes (id, note) VALUES ($1, 'b')", params: [i * 2 + 1] },
        ]),
      ),
    );
    expect(await countWrites()).toBe(30);
    await backend.pg.query("DELETE FROM writes");
  });

  it("R10.1 stats count one request per HTTP request: a batch of 3 is 1 request, 3 statements", async () => {
    const seen: ProxyRequestInfo[] = [];
    const counted = await extraProxy({ onRequest: (info) => seen.push(info) });
    const db = createNeonDb({ connectionString: backend.neonDsn, fetchEndpoint: counted.url });
    await db.query("SELECT 1");
    await db.batch([{ text: "SELECT 1" }, { text: "SELECT 2" }, { text: "SELECT 3" }]);
    await llamonRejection(db.query("SELEC 1"));
    expect(counted.stats.requests).toBe(3);
    expect(counted.stats.statements).toBe(5);
    expect(seen.map(({ batch, statements, status }) => ({ batch, statements, status }))).toEqual([
      { batch: false, statements: 1, status: 200 },
      { batch: true, statements: 3, status: 200 },
      { batch: false, statements: 1, status: 400 },
    ]);
    expect(counted.stats.requestBytes).toBe(seen.reduce((n, s) => n + s.requestBytes, 0));
    expect(seen.every((s) => s.requestBytes > 0)).toBe(true);
    counted.resetStats();
    expect(counted.stats).toEqual({
      requests: 0,
      statements: 0,
      requestBytes: 0,
      responseBytes: 0,
    });
    await db.batch([{ text: "SELECT 1" }, { text: "SELECT 2" }]);
    expect(counted.stats).toMatchObject({ requests: 1, statements: 2 });
  });
});
