/**
 * One SQL interface, two transports, same results, same error type: every value type the
 * store uses round-trips identically through Neon HTTP (driver → local Neon proxy) and
 * node-postgres, and every failure becomes the same LlamonError with the same fields.
 */
import { createServer } from "node:net";
import { neonConfig } from "@neondatabase/serverless";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import { type DbErrorFields, isLlamonError, type LlamonError } from "../../src/errors.ts";
import { type Db, type QueryResult, type SqlParam, toDbError } from "../../src/store/db.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { startTestBackend, type TestBackend } from "../helpers/backend.ts";

let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend({ migrate: false });
  // This file runs the same statements, DDL included, through both transports: here the
  // Worker's role may create tables (a Worker never does; neon-proxy-credentials.test.ts
  // checks what its grants allow).
  await backend.pg.query(
    `GRANT CREATE ON SCHEMA public TO ${pg.escapeIdentifier(backend.worker.role)}`,
  );
});

afterAll(async () => {
  await backend?.close();
});

/** Both transports, by name; `other` is the transport that did not run the statement. */
const TRANSPORTS = [
  { name: "neon-http", db: () => backend.neon, other: () => backend.pg, suffix: "neon" },
  { name: "node-postgres", db: () => backend.pg, other: () => backend.neon, suffix: "pg" },
] as const;

async function rejection(promise: Promise<unknown>): Promise<LlamonError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isLlamonError(error)) throw new Error(`expected a LlamonError, got ${String(error)}`);
  return error;
}

function fields(error: LlamonError): DbErrorFields {
  return error.details as DbErrorFields;
}

/** A port nothing listens on: bind an ephemeral port, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** createNeonDb sets the driver's global endpoint; put the test proxy back afterwards. */
async function withNeonDb<T>(endpoint: string, fn: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await fn(createNeonDb({ connectionString: backend.neonDsn, fetchEndpoint: endpoint }));
  } finally {
    const url = backend.proxy.url;
    neonConfig.fetchEndpoint = () => url;
  }
}

// ── values ────────────────────────────────────────────────────────────────────────────

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const BEYOND_2_53 = 2n ** 53n + 1n; // 9007199254740993: not representable as a JS number
const KOREAN_EMOJI = "안녕하세요, 세계! 기억해 줘 👋🏽🧠 — «ünï» \t tab";
const JSON_VALUE = {
  ko: "한국어 메모리",
  emoji: "🎉👨‍👩‍👧",
  nested: { list: [1, "two", null, { deep: [true, false, 1.5, -0.25] }], empty: {} },
  escapes: 'quote " backslash \\ newline \n',
  n: 12345678901,
};
const TEXT_ARRAY = ["a", null, "", "한글", 'quote " and \\ backslash', "comma,{brace}", "NULL"];
const INT_ARRAY = [1, null, -3, 2147483647];
const TIMESTAMP = new Date("2024-02-29T23:59:59.987Z");

interface TypeCase {
  readonly name: string;
  readonly sqlType: string;
  readonly param: SqlParam;
  readonly expected: unknown;
}

const TYPE_CASES: readonly TypeCase[] = [
  { name: "int4", sqlType: "int4", param: -2147483648, expected: -2147483648 },
  {
    name: "int8 beyond 2^53 (bigint param)",
    sqlType: "int8",
    param: BEYOND_2_53,
    expected: "9007199254740993",
  },
  {
    name: "int8 max (string param)",
    sqlType: "int8",
    param: "9223372036854775807",
    expected: "9223372036854775807",
  },
  {
    name: "numeric, exact",
    sqlType: "numeric",
    param: "-12345678901234567890.000000000000000001",
    expected: "-12345678901234567890.000000000000000001",
  },
  { name: "numeric keeps its scale", sqlType: "numeric(10,2)", param: "1.5", expected: "1.50" },
  { name: "bool true", sqlType: "bool", param: true, expected: true },
  { name: "bool false", sqlType: "bool", param: false, expected: false },
  { name: "text: Korean and emoji", sqlType: "text", param: KOREAN_EMOJI, expected: KOREAN_EMOJI },
  { name: "text: empty string", sqlType: "text", param: "", expected: "" },
  {
    name: "jsonb: nested objects and arrays, unicode",
    sqlType: "jsonb",
    param: JSON_VALUE,
    expected: JSON_VALUE,
  },
  {
    name: "jsonb: a top-level array (sent as JSON text)",
    sqlType: "jsonb",
    param: JSON.stringify([1, { a: "ä" }, [null]]),
    expected: [1, { a: "ä" }, [null]],
  },
  { name: "bytea: all 256 byte values", sqlType: "bytea", param: ALL_BYTES, expected: ALL_BYTES },
  { name: "bytea: empty", sqlType: "bytea", param: new Uint8Array(0), expected: Buffer.alloc(0) },
  {
    name: "timestamptz (ms precision)",
    sqlType: "timestamptz",
    param: TIMESTAMP,
    expected: TIMESTAMP,
  },
  // node-postgres and the Neon driver both parse `date` as local midnight.
  { name: "date", sqlType: "date", param: "2024-02-29", expected: new Date(2024, 1, 29) },
  { name: "text[] with NULL elements", sqlType: "text[]", param: TEXT_ARRAY, expected: TEXT_ARRAY },
  { name: "text[] empty", sqlType: "text[]", param: [], expected: [] },
  { name: "int4[] with NULL elements", sqlType: "int4[]", param: INT_ARRAY, expected: INT_ARRAY },
];

const NULL_TYPES = [
  "int4",
  "int8",
  "numeric",
  "bool",
  "text",
  "jsonb",
  "bytea",
  "timestamptz",
  "date",
  "text[]",
  "int4[]",
];

/** The columns of the round-trip table and one row of values for each insert. */
const COLUMNS = "id, i4, i8, num, b, t, j, by, ts, d, ta, ia";
const CREATE_TABLE = (table: string) => `CREATE TABLE ${table} (
  id int4 PRIMARY KEY, i4 int4, i8 int8, num numeric, b bool, t text, j jsonb, by bytea,
  ts timestamptz, d date, ta text[], ia int4[])`;
const INSERT = (table: string) =>
  `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;
const FULL_ROW: readonly SqlParam[] = [
  1,
  2147483647,
  BEYOND_2_53,
  "0.000000000000000000000000000001",
  true,
  KOREAN_EMOJI,
  JSON_VALUE,
  ALL_BYTES,
  TIMESTAMP,
  "1999-12-31",
  TEXT_ARRAY,
  INT_ARRAY,
];
const FULL_ROW_EXPECTED = {
  id: 1,
  i4: 2147483647,
  i8: "9007199254740993",
  num: "0.000000000000000000000000000001",
  b: true,
  t: KOREAN_EMOJI,
  j: JSON_VALUE,
  by: ALL_BYTES,
  ts: TIMESTAMP,
  d: new Date(1999, 11, 31),
  ta: TEXT_ARRAY,
  ia: INT_ARRAY,
};
const EMPTY_ROW: readonly SqlParam[] = [
  2,
  0,
  "0",
  "0",
  false,
  "",
  {},
  new Uint8Array(0),
  new Date(0),
  "1970-01-01",
  [],
  [],
];
const EMPTY_ROW_EXPECTED = {
  id: 2,
  i4: 0,
  i8: "0",
  num: "0",
  b: false,
  t: "",
  j: {},
  by: Buffer.alloc(0),
  ts: new Date(0),
  d: new Date(1970, 0, 1),
  ta: [],
  ia: [],
};
const NULL_ROW: readonly SqlParam[] = [3, ...Array.from({ length: 11 }, () => null)];
const NULL_ROW_EXPECTED = Object.fromEntries(
  COLUMNS.split(", ").map((c) => [c, c === "id" ? 3 : null]),
);

function expectBytes(value: unknown, expected: Uint8Array): void {
  expect(value).toBeInstanceOf(Uint8Array);
  expect(Buffer.from(value as Uint8Array).equals(Buffer.from(expected))).toBe(true);
}

describe.each(TRANSPORTS)("$name: values round-trip exactly", ({ db, suffix }) => {
  const table = `roundtrip_${suffix}`;

  it.each(TYPE_CASES)("R10.1 parameter round trip: $name", async ({ sqlType, param, expected }) => {
    const result = await db().query<{ v: unknown }>(`SELECT $1::${sqlType} AS v`, [param]);
    expect(result.rows).toHaveLength(1);
    const v = result.rows[0]?.v;
    if (expected instanceof Uint8Array) expectBytes(v, expected);
    else expect(v).toEqual(expected);
    if (typeof expected === "string") expect(typeof v).toBe("string");
  });

  it("R10.1 parameter round trip: NULL of every type comes back as null", async () => {
    for (const sqlType of NULL_TYPES) {
      const result = await db().query<{ v: unknown }>(`SELECT $1::${sqlType} AS v`, [null]);
      expect(result.rows, sqlType).toEqual([{ v: null }]);
    }
    const undef = await db().query<{ v: unknown }>("SELECT $1::text AS v", [undefined]);
    expect(undef.rows).toEqual([{ v: null }]);
  });

  it("R10.1 table round trip: insert with parameters, select back the exact values", async () => {
    await db().query(CREATE_TABLE(table));
    for (const row of [FULL_ROW, EMPTY_ROW, NULL_ROW]) {
      const inserted = await db().query(INSERT(table), row);
      expect(inserted).toMatchObject({ command: "INSERT", rowCount: 1, rows: [] });
    }
    const result = await db().query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM ${table} ORDER BY id`,
    );
    expect(result.command).toBe("SELECT");
    expect(result.rowCount).toBe(3);
    const [full, empty, nulls] = result.rows;
    expectBytes(full?.by, ALL_BYTES);
    expect(full).toEqual(FULL_ROW_EXPECTED);
    expect(empty).toEqual(EMPTY_ROW_EXPECTED);
    expect(nulls).toEqual(NULL_ROW_EXPECTED);
    expect(result.fields.map((f) => f.name)).toEqual(COLUMNS.split(", "));
    // Stored bytes are the bytes sent (checked inside the database, not via a parser).
    const check = await db().query<{ ok: boolean; len: number }>(
      `SELECT by = decode($1, 'hex') AS ok, length(by) AS len FROM ${table} WHERE id = 1`,
      [ALL_BYTES.toString("hex")],
    );
    expect(check.rows).toEqual([{ ok: true, len: 256 }]);
  });
});

describe("R10.1 both transports return identical results", () => {
  const QUERIES: readonly { text: string; params?: readonly SqlParam[] }[] = [
    ...TYPE_CASES.map((c) => ({ text: `SELECT $1::${c.sqlType} AS v`, params: [c.param] })),
    ...NULL_TYPES.map((t) => ({ text: `SELECT $1::${t} AS v`, params: [null] })),
    { text: `SELECT ${COLUMNS} FROM roundtrip_neon ORDER BY id` },
    { text: `SELECT ${COLUMNS} FROM roundtrip_pg ORDER BY id` },
    { text: "SELECT 1 AS a, 'x' AS b, NULL AS c, 2.5::float8 AS d, '{}'::int4[] AS e" },
    { text: "SELECT g AS n FROM generate_series(1, 5) g WHERE g > $1", params: [2] },
    { text: "SELECT * FROM roundtrip_neon WHERE false" },
  ];

  it("R10.1 the same queries give deep-equal rows, fields, command and rowCount", async () => {
    for (const q of QUERIES) {
      const viaNeon = await backend.neon.query(q.text, q.params);
      const viaPg = await backend.pg.query(q.text, q.params);
      expect(viaNeon, q.text).toStrictEqual(viaPg);
    }
  });

  it("R10.1 the rows written by one transport read back identically through the other", async () => {
    const neonRows = await backend.pg.query(`SELECT ${COLUMNS} FROM roundtrip_neon ORDER BY id`);
    const pgRows = await backend.neon.query(`SELECT ${COLUMNS} FROM roundtrip_pg ORDER BY id`);
    expect(neonRows.rows).toStrictEqual(pgRows.rows);
    expect(neonRows.rows).toHaveLength(3);
  });
});

// ── errors ────────────────────────────────────────────────────────────────────────────

describe("errors are one LlamonError with the same fields from both transports", () => {
  beforeAll(async () => {
    await backend.pg.query("CREATE TABLE err_unique (id int4 PRIMARY KEY, name text NOT NULL)");
    await backend.pg.query("INSERT INTO err_unique (id, name) VALUES (1, 'first')");
  });

  const byTransport = async (run: (db: Db) => Promise<unknown>) => {
    const neon = await rejection(run(backend.neon));
    const pg = await rejection(run(backend.pg));
    return { neon, pg };
  };

  it("R10.1 a unique violation is DB_QUERY_FAILED with SQLSTATE 23505, constraint, detail, table", async () => {
    const { neon, pg } = await byTransport((db) =>
      db.query("INSERT INTO err_unique (id, name) VALUES ($1, $2)", [1, "again"]),
    );
    for (const error of [neon, pg]) {
      expect(error.code).toBe("DB_QUERY_FAILED");
      expect(error.message).toBe(
        'duplicate key value violates unique constraint "err_unique_pkey"',
      );
      expect(fields(error)).toMatchObject({
        sqlstate: "23505",
        constraint: "err_unique_pkey",
        detail: "Key (id)=(1) already exists.",
        table: "err_unique",
        schema: "public",
        severity: "ERROR",
      });
      expect(error.cause).toBeDefined();
      expect(JSON.stringify(error.toJSON())).not.toContain("stack");
    }
    expect(fields(neon)).toStrictEqual(fields(pg));
  });

  it("R10.1 a NOT NULL violation names the column (23502) on both transports", async () => {
    const { neon, pg } = await byTransport((db) =>
      db.query("INSERT INTO err_unique (id, name) VALUES ($1, $2)", [2, null]),
    );
    expect(fields(neon)).toMatchObject({ sqlstate: "23502", column: "name", table: "err_unique" });
    expect(fields(neon)).toStrictEqual(fields(pg));
    expect(neon.message).toBe(pg.message);
  });

  it("R10.1 a syntax error is DB_QUERY_FAILED 42601 with the position", async () => {
    const { neon, pg } = await byTransport((db) => db.query("SELEC 1"));
    for (const error of [neon, pg]) {
      expect(error.code).toBe("DB_QUERY_FAILED");
      expect(fields(error)).toMatchObject({ sqlstate: "42601", position: "1" });
    }
    expect(fields(neon)).toStrictEqual(fields(pg));
  });

  it("R10.1 an unknown table is 42P01 and a bad cast 22P02 on both transports", async () => {
    const missing = await byTransport((db) => db.query("SELECT * FROM no_such_table_here"));
    expect(fields(missing.neon)?.sqlstate).toBe("42P01");
    expect(fields(missing.neon)).toStrictEqual(fields(missing.pg));
    const cast = await byTransport((db) => db.query("SELECT $1::int4", ["not a number"]));
    expect(fields(cast.neon)?.sqlstate).toBe("22P02");
    expect(fields(cast.neon)).toStrictEqual(fields(cast.pg));
  });

  it("R10.1 a multi-statement string is rejected (42601) on both transports and runs nothing", async () => {
    const { neon, pg } = await byTransport((db) =>
      db.query("INSERT INTO err_unique (id, name) VALUES (50, 'x'); SELECT 2"),
    );
    for (const error of [neon, pg]) {
      expect(error.code).toBe("DB_QUERY_FAILED");
      expect(fields(error)?.sqlstate).toBe("42601");
      expect(error.message).toContain("cannot insert multiple commands into a prepared statement");
    }
    const left = await backend.pg.query("SELECT count(*)::int AS n FROM err_unique WHERE id = 50");
    expect(left.rows).toEqual([{ n: 0 }]);
    // Also inside a batch.
    const inBatch = await rejection(backend.neon.batch([{ text: "SELECT 1; SELECT 2" }]));
    expect(fields(inBatch)?.sqlstate).toBe("42601");
    const inPgBatch = await rejection(backend.pg.batch([{ text: "SELECT 1; SELECT 2" }]));
    expect(fields(inPgBatch)?.sqlstate).toBe("42601");
  });

  it("R10.1 a JS array bound to jsonb is a Postgres array literal on both transports (22P02): send JSON text", async () => {
    const { neon, pg } = await byTransport((db) => db.query("SELECT $1::jsonb AS v", [[1, 2]]));
    expect(fields(neon)?.sqlstate).toBe("22P02");
    expect(fields(neon)).toStrictEqual(fields(pg));
  });

  it("R10.1 an unreachable Neon endpoint is DB_UNAVAILABLE for query and batch", async () => {
    const port = await closedPort();
    await withNeonDb(`http://127.0.0.1:${port}/sql`, async (db) => {
      for (const attempt of [() => db.query("SELECT 1"), () => db.batch([{ text: "SELECT 1" }])]) {
        const error = await rejection(attempt());
        expect(error.code).toBe("DB_UNAVAILABLE");
        expect(error.message).toContain("neon-http");
        expect(error.message).toContain("POSTGRES_MEMORY_DSN");
      }
    });
    // The shared driver endpoint is back on the test proxy.
    expect((await backend.neon.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("R10.1 an unreachable node-postgres database (port 1) is DB_UNAVAILABLE for query and batch", async () => {
    const db = createPgDb({ connectionString: "postgresql://postgres:pw@localhost:1/postgres" });
    try {
      for (const attempt of [() => db.query("SELECT 1"), () => db.batch([{ text: "SELECT 1" }])]) {
        const error = await rejection(attempt());
        expect(error.code).toBe("DB_UNAVAILABLE");
        expect(error.message).toContain("node-postgres");
      }
    } finally {
      await db.close();
    }
  });

  it("R10.1 a Node socket error whose code looks like a SQLSTATE (EPIPE) is DB_UNAVAILABLE", () => {
    const epipe = Object.assign(new Error("write EPIPE"), {
      code: "EPIPE",
      errno: -32,
      syscall: "write",
    });
    const error = toDbError(epipe, "node-postgres");
    expect(error.code).toBe("DB_UNAVAILABLE");
    expect(error.details).toEqual({});
  });
});

// ── batch ─────────────────────────────────────────────────────────────────────────────

describe.each(TRANSPORTS)("$name: batch", ({ db, other, suffix }) => {
  const table = `batch_${suffix}`;

  beforeAll(async () => {
    await backend.pg.query(`CREATE TABLE ${table} (id int4 PRIMARY KEY, name text NOT NULL)`);
  });

  it("R2.4 returns one result per statement, in statement order", async () => {
    const results = await db().batch([
      { text: `INSERT INTO ${table} (id, name) VALUES ($1, $2) RETURNING id`, params: [1, "one"] },
      {
        text: `INSERT INTO ${table} (id, name) VALUES ($1, $2), ($3, $4)`,
        params: [2, "two", 3, "three"],
      },
      { text: `SELECT name FROM ${table} ORDER BY id` },
      { text: `UPDATE ${table} SET name = upper(name) WHERE id >= $1`, params: [2] },
      { text: `SELECT name FROM ${table} WHERE id = $1`, params: [3] },
      { text: `DELETE FROM ${table} WHERE id = $1 RETURNING name`, params: [3] },
    ]);
    expect(results.map((r) => [r.command, r.rowCount, r.rows])).toEqual([
      ["INSERT", 1, [{ id: 1 }]],
      ["INSERT", 2, []],
      ["SELECT", 3, [{ name: "one" }, { name: "two" }, { name: "three" }]],
      ["UPDATE", 2, []],
      ["SELECT", 1, [{ name: "THREE" }]],
      ["DELETE", 1, [{ name: "THREE" }]],
    ]);
    const committed = await other().query(`SELECT id, name FROM ${table} ORDER BY id`);
    expect(committed.rows).toEqual([
      { id: 1, name: "one" },
      { id: 2, name: "TWO" },
    ]);
  });

  it("R2.4 a failing batch leaves nothing behind (seen from the other transport)", async () => {
    const error = await rejection(
      db().batch([
        { text: `INSERT INTO ${table} (id, name) VALUES ($1, $2)`, params: [10, "ten"] },
        { text: `UPDATE ${table} SET name = 'changed' WHERE id = 1` },
        { text: `INSERT INTO ${table} (id, name) VALUES ($1, $2)`, params: [1, "duplicate"] },
        { text: `INSERT INTO ${table} (id, name) VALUES ($1, $2)`, params: [11, "never run"] },
      ]),
    );
    expect(error.code).toBe("DB_QUERY_FAILED");
    expect(fields(error)).toMatchObject({ sqlstate: "23505", constraint: `${table}_pkey` });
    const rows = await other().query(`SELECT id, name FROM ${table} ORDER BY id`);
    expect(rows.rows).toEqual([
      { id: 1, name: "one" },
      { id: 2, name: "TWO" },
    ]);
    // The connection is usable afterwards (no aborted transaction left behind).
    const again = await db().batch([{ text: `SELECT count(*)::int AS n FROM ${table}` }]);
    expect(again[0]?.rows).toEqual([{ n: 2 }]);
  });

  it("R2.4 a readOnly batch cannot write (25006) and writes nothing", async () => {
    const error = await rejection(
      db().batch(
        [
          { text: `SELECT count(*) FROM ${table}` },
          { text: `INSERT INTO ${table} (id, name) VALUES ($1, $2)`, params: [20, "ro"] },
        ],
        { readOnly: true },
      ),
    );
    expect(error.code).toBe("DB_QUERY_FAILED");
    expect(fields(error)?.sqlstate).toBe("25006");
    const rows = await other().query(`SELECT count(*)::int AS n FROM ${table} WHERE id = 20`);
    expect(rows.rows).toEqual([{ n: 0 }]);
  });

  it("R2.4 Serializable + readOnly + deferrable is accepted and applied to the transaction", async () => {
    const results = await db().batch(
      [
        { text: "SHOW transaction_isolation" },
        { text: "SHOW transaction_read_only" },
        { text: "SHOW transaction_deferrable" },
        { text: `SELECT count(*)::int AS n FROM ${table}` },
      ],
      { isolationLevel: "Serializable", readOnly: true, deferrable: true },
    );
    expect(results.map((r) => r.rows[0])).toEqual([
      { transaction_isolation: "serializable" },
      { transaction_read_only: "on" },
      { transaction_deferrable: "on" },
      { n: 2 },
    ]);
    expect(results[0]).toMatchObject({ command: "SHOW", rowCount: 1 });
  });

  it("R2.4 each isolation level is applied; the default batch is read-write", async () => {
    const expected = {
      ReadUncommitted: "read uncommitted",
      ReadCommitted: "read committed",
      RepeatableRead: "repeatable read",
      Serializable: "serializable",
    } as const;
    for (const [level, shown] of Object.entries(expected)) {
      const [iso, ro] = await db().batch(
        [{ text: "SHOW transaction_isolation" }, { text: "SHOW transaction_read_only" }],
        { isolationLevel: level as keyof typeof expected },
      );
      expect(iso?.rows).toEqual([{ transaction_isolation: shown }]);
      expect(ro?.rows).toEqual([{ transaction_read_only: "off" }]);
    }
    const [ro] = await db().batch([{ text: "SHOW transaction_read_only" }], { readOnly: false });
    expect(ro?.rows).toEqual([{ transaction_read_only: "off" }]);
  });

  it("R2.4 an empty batch returns [] without touching the database", async () => {
    expect(await db().batch([])).toEqual([]);
    expect(await db().batch([], { readOnly: true, isolationLevel: "Serializable" })).toEqual([]);
  });
});

// ── rowCount / command ────────────────────────────────────────────────────────────────

describe("rowCount and command agree across transports", () => {
  async function script(
    db: Db,
    table: string,
  ): Promise<Pick<QueryResult, "command" | "rowCount">[]> {
    const steps: { text: string; params?: SqlParam[] }[] = [
      { text: `CREATE TABLE ${table} (id int4 PRIMARY KEY, v text)` },
      { text: `INSERT INTO ${table} (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')` },
      { text: `INSERT INTO ${table} (id, v) VALUES (1, 'z') ON CONFLICT (id) DO NOTHING` },
      { text: `UPDATE ${table} SET v = v || '!' WHERE id <= $1`, params: [2] },
      { text: `UPDATE ${table} SET v = 'none' WHERE id > 100` },
      { text: `SELECT * FROM ${table}` },
      { text: `SELECT * FROM ${table} WHERE id = $1`, params: [99] },
      { text: `DELETE FROM ${table} WHERE id = $1`, params: [3] },
      { text: `DELETE FROM ${table} WHERE id = $1`, params: [3] },
      { text: `SHOW server_version_num` },
      { text: `DROP TABLE ${table}` },
    ];
    const out: Pick<QueryResult, "command" | "rowCount">[] = [];
    for (const s of steps) {
      const r = await db.query(s.text, s.params);
      out.push({ command: r.command, rowCount: r.rowCount });
    }
    return out;
  }

  it("R10.1 INSERT/UPDATE/DELETE/SELECT report the same command and rowCount", async () => {
    const viaNeon = await script(backend.neon, "counts_neon");
    const viaPg = await script(backend.pg, "counts_pg");
    expect(viaNeon).toEqual([
      { command: "CREATE", rowCount: 0 },
      { command: "INSERT", rowCount: 3 },
      { command: "INSERT", rowCount: 0 },
      { command: "UPDATE", rowCount: 2 },
      { command: "UPDATE", rowCount: 0 },
      { command: "SELECT", rowCount: 3 },
      { command: "SELECT", rowCount: 0 },
      { command: "DELETE", rowCount: 1 },
      { command: "DELETE", rowCount: 0 },
      { command: "SHOW", rowCount: 1 },
      { command: "DROP", rowCount: 0 },
    ]);
    expect(viaNeon).toEqual(viaPg);
  });

  it("R10.1 batch results carry the same command and rowCount on both transports", async () => {
    await backend.pg.query("CREATE TABLE counts_batch (id int4 PRIMARY KEY)");
    const statements = [
      { text: "INSERT INTO counts_batch SELECT g FROM generate_series(1, 4) g" },
      { text: "UPDATE counts_batch SET id = id + 10 WHERE id > 2" },
      { text: "SELECT * FROM counts_batch" },
      { text: "DELETE FROM counts_batch" },
    ];
    const summary = (rs: QueryResult[]) => rs.map((r) => [r.command, r.rowCount]);
    const viaNeon = summary(await backend.neon.batch(statements));
    const viaPg = summary(await backend.pg.batch(statements));
    expect(viaNeon).toEqual([
      ["INSERT", 4],
      ["UPDATE", 2],
      ["SELECT", 4],
      ["DELETE", 4],
    ]);
    expect(viaNeon).toEqual(viaPg);
  });
});
