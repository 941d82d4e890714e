/**
 * The deadline of createNeonDb (`timeoutMs`, MEMORY_DB_TIMEOUT_MS in the Worker): Neon driver →
 * fault proxy (packages/cli/src/dev/fault-proxy.ts, which can hold a request as a stalled database would) →
 * the local Neon-protocol proxy → Postgres.
 *
 * A held `query` or `batch` fails with DB_UNAVAILABLE naming the deadline instead of waiting
 * for the client to give up; healthy requests are unaffected; bad values are CONFIG_INVALID.
 * Assertions are on the error, not on elapsed time (the fault proxy would hold for 20 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../../packages/cli/src/dev/fault-proxy.ts";
import { isLlamonError, type LlamonError } from "../../src/errors.ts";
import { workerDb } from "../../src/runtime/db.ts";
import { parseWorkerVars } from "../../src/runtime/env.ts";
import type { Db } from "../../src/store/db.ts";
import { createNeonDb, DEFAULT_DB_TIMEOUT_MS } from "../../src/store/db-neon.ts";
import { atHost, startTestBackend, type TestBackend } from "../helpers/backend.ts";
import { caught } from "../helpers/caught.ts";

const TIMEOUT_MS = 500;
/** Its own host name, so the driver routes it to the fault proxy (endpoints are per host). */
const stallingDsn = () => atHost(backend.neonDsn, "stalling.localhost");

let backend: TestBackend;
let faults: FaultProxy;
let db: Db;

beforeAll(async () => {
  backend = await startTestBackend();
  faults = await startFaultProxy({ target: backend.proxy.url, holdMs: 20_000 });
  db = createNeonDb({
    connectionString: stallingDsn(),
    fetchEndpoint: faults.url,
    timeoutMs: TIMEOUT_MS,
  });
});
afterAll(async () => {
  await faults?.close();
  await backend?.close();
});

function expectDeadline(error: unknown, ms: number): void {
  expect(isLlamonError(error, "DB_UNAVAILABLE"), String(error)).toBe(true);
  const e = error as LlamonError;
  expect(e.message).toContain(`the database did not answer within ${ms} ms (timeoutMs`);
  expect(e.message).toContain("nothing was confirmed");
  expect(e.details).toEqual({ timeoutMs: ms, timedOut: true });
  expect(e.message).not.toContain("local@");
}

async function freshTable(): Promise<string> {
  const table = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  await backend.pg.query(`CREATE TABLE ${table} (id int PRIMARY KEY)`);
  return table;
}

async function count(table: string): Promise<number> {
  const { rows } = await backend.pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? -1;
}

describe("createNeonDb timeoutMs", () => {
  it("a stalled query fails with DB_UNAVAILABLE naming the deadline", async () => {
    faults.clear();
    const start = faults.log.length;
    faults.inject({ step: "write", kind: "timeout" });
    expectDeadline(await caught(db.query("SELECT 1 AS one")), TIMEOUT_MS);
    expect(faults.log.slice(start)).toEqual([
      { step: "write", fault: "timeout", upstreamStatus: undefined },
    ]);
    // The Db is still usable afterwards.
    const { rows } = await db.query<{ one: number }>("SELECT 1 AS one");
    expect(rows).toEqual([{ one: 1 }]);
  });

  it("a stalled batch fails with DB_UNAVAILABLE and commits nothing it contained", async () => {
    const table = await freshTable();
    faults.clear();
    const start = faults.log.length;
    faults.inject({ step: "write", kind: "timeout" });
    const error = await caught(
      db.batch([
        { text: `INSERT INTO ${table} VALUES ($1)`, params: [1] },
        { text: `INSERT INTO ${table} VALUES ($1)`, params: [2] },
      ]),
    );
    expectDeadline(error, TIMEOUT_MS);
    expect(faults.log.slice(start)).toEqual([
      { step: "write", fault: "timeout", upstreamStatus: undefined },
    ]);
    expect(await count(table)).toBe(0);
  });

  it("a stalled read-only batch fails the same way", async () => {
    faults.clear();
    faults.inject({ step: "read", kind: "timeout" });
    const error = await caught(
      db.batch([{ text: "SELECT 1 AS one" }, { text: "SELECT 2 AS two" }], { readOnly: true }),
    );
    expectDeadline(error, TIMEOUT_MS);
  });

  it("an answer lost after the commit is the same error: nothing was confirmed, though it committed", async () => {
    const table = await freshTable();
    faults.clear();
    faults.inject({ step: "write", kind: "timeout-after-commit" });
    const error = await caught(
      db.batch([{ text: `INSERT INTO ${table} VALUES ($1)`, params: [1] }]),
    );
    expectDeadline(error, TIMEOUT_MS);
    expect(await count(table)).toBe(1);
  });

  it("healthy queries and batches work with the option set", async () => {
    faults.clear();
    const table = await freshTable();
    const inserted = await db.query(`INSERT INTO ${table} VALUES ($1), ($2)`, [1, 2]);
    expect(inserted.rowCount).toBe(2);
    const results = await db.batch([
      { text: `INSERT INTO ${table} VALUES ($1)`, params: [3] },
      { text: `SELECT count(*)::int AS n FROM ${table}` },
    ]);
    expect(results[1]?.rows).toEqual([{ n: 3 }]);
    const read = await db.batch([{ text: `SELECT max(id) AS m FROM ${table}` }], {
      readOnly: true,
    });
    expect(read[0]?.rows).toEqual([{ m: 3 }]);
    // The default deadline (no option) too.
    const byDefault = createNeonDb({ connectionString: stallingDsn(), fetchEndpoint: faults.url });
    expect((await byDefault.query<{ n: number }>("SELECT 7 AS n")).rows).toEqual([{ n: 7 }]);
    expect(DEFAULT_DB_TIMEOUT_MS).toBe(10_000);
  });

  it("a SQL error within the deadline stays DB_QUERY_FAILED", async () => {
    faults.clear();
    const error = await caught(db.query("SELECT * FROM no_such_table_here"));
    expect(isLlamonError(error, "DB_QUERY_FAILED"), String(error)).toBe(true);
  });

  it.each([0, -1, 1.5, 600_001, Number.NaN, Number.POSITIVE_INFINITY, "500"])(
    "rejects timeoutMs %s with CONFIG_INVALID",
    (value) => {
      let error: unknown;
      try {
        createNeonDb({ connectionString: stallingDsn(), timeoutMs: value as number });
      } catch (e) {
        error = e;
      }
      expect(isLlamonError(error, "CONFIG_INVALID"), String(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^timeoutMs must be a whole number of milliseconds from 1 to 600000 .*, got /,
      );
    },
  );

  it("accepts the bounds 1 and 600000", () => {
    for (const timeoutMs of [1, 600_000]) {
      expect(createNeonDb({ connectionString: stallingDsn(), timeoutMs }).transport).toBe(
        "neon-http",
      );
    }
  });
});

describe("MEMORY_DB_TIMEOUT_MS (Worker env)", () => {
  const base = { AGENT_ID: "timeout-agent" };

  it("is optional; digits (or a number from [vars]) are read as milliseconds; empty is unset", () => {
    expect(parseWorkerVars(base).MEMORY_DB_TIMEOUT_MS).toBeUndefined();
    expect(parseWorkerVars({ ...base, MEMORY_DB_TIMEOUT_MS: "" }).MEMORY_DB_TIMEOUT_MS).toBe(
      undefined,
    );
    expect(parseWorkerVars({ ...base, MEMORY_DB_TIMEOUT_MS: "2500" }).MEMORY_DB_TIMEOUT_MS).toBe(
      2500,
    );
    expect(parseWorkerVars({ ...base, MEMORY_DB_TIMEOUT_MS: 2500 }).MEMORY_DB_TIMEOUT_MS).toBe(
      2500,
    );
  });

  it.each(["0", "-5", "2.5", "1e3", "10s", "600001", true])(
    "rejects %s with CONFIG_INVALID naming the variable",
    (value) => {
      let error: unknown;
      try {
        parseWorkerVars({ ...base, MEMORY_DB_TIMEOUT_MS: value });
      } catch (e) {
        error = e;
      }
      expect(isLlamonError(error, "CONFIG_INVALID"), String(error)).toBe(true);
      expect((error as Error).message).toContain(
        "MEMORY_DB_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000",
      );
      expect((error as Error).message).toContain(`got ${JSON.stringify(value)}`);
    },
  );

  it("reaches the Worker's database: a stalled query fails at that deadline", async () => {
    const wdb = workerDb({
      ...base,
      POSTGRES_MEMORY_DSN: stallingDsn(),
      LLAMON_NEON_FETCH_ENDPOINT: faults.url,
      MEMORY_DB_TIMEOUT_MS: "300",
    });
    faults.clear();
    faults.inject({ step: "write", kind: "timeout" });
    expectDeadline(await caught(wdb.query("SELECT 1")), 300);
    expect((await wdb.query<{ n: number }>("SELECT 2 AS n")).rows).toEqual([{ n: 2 }]);
  });
});
