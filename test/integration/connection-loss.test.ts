/**
 * When Postgres drops connections (pg_terminate_backend, a restart, a failover),
 * a node-postgres client that is checked out emits 'error'; with no listener that crashes the
 * whole process (the dev Neon proxy would take `npm start` down with it, and so would
 * store/db-pg.ts). The request in flight must fail cleanly and the pool recover.
 *
 * Needs the real server (PGlite has no backends to terminate), so it runs in the server pass
 * of the suite and is skipped in the embedded one.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NeonProxy, startNeonProxy } from "../../packages/cli/src/dev/neon-http-proxy.ts";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import { isLlamonError, type LlamonError } from "../../src/errors.ts";
import { mapError } from "../../src/runtime/errors.ts";
import type { Db } from "../../src/store/db.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { backendKind, createWorkerRole } from "../helpers/backend.ts";
import { createTestDatabase, SERVER_DSN, type TestDatabase } from "../helpers/pg.ts";

const server = backendKind() === "server";
let db: TestDatabase;
let proxy: NeonProxy;
let pgDb: Db;
let role: Awaited<ReturnType<typeof createWorkerRole>>;

beforeAll(async () => {
  if (!server) return;
  db = await createTestDatabase("llamon_connloss");
  role = await createWorkerRole(db.dsn, "server");
  proxy = await startNeonProxy({ upstreamDsn: db.dsn, poolSize: 2 });
  pgDb = createPgDb({ connectionString: db.dsn, max: 2 });
});
afterAll(async () => {
  await proxy?.close();
  await pgDb?.close();
  await db?.drop();
  await role?.drop();
});

async function sql(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(proxy.url, {
    method: "POST",
    headers: {
      "Neon-Connection-String": role.neonDsn,
      "Neon-Raw-Text-Output": "true",
      "Neon-Array-Mode": "true",
    },
    body: JSON.stringify({ query, params: [] }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Waits until a backend of the test database runs `pg_sleep`, then terminates them all. */
async function terminateSleepers(): Promise<number> {
  const admin = new pg.Client({ connectionString: SERVER_DSN });
  await admin.connect();
  try {
    for (let i = 0; i < 200; i++) {
      const { rows } = await admin.query<{ n: string }>(
        `SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND query LIKE '%pg_sleep%'`,
        [db.name],
      );
      if (Number(rows[0]?.n) > 0) return Number(rows[0]?.n);
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("no sleeping backend showed up");
  } finally {
    await admin.end();
  }
}

describe.skipIf(!server)("backend connections killed under load (pg_terminate_backend)", () => {
  it("the Neon proxy answers the request in flight with Neon's 400 and the SQLSTATE (57P01), stays up and serves the next one", async () => {
    const inFlight = sql("SELECT pg_sleep(30)");
    expect(await terminateSleepers()).toBe(1);
    const failed = await inFlight;
    // Neon: every failure of the client's statement is SqlOverHttpError::Postgres → 400
    // with the database error's fields (sql_over_http.rs ~333, ~154–241).
    expect(failed.status).toBe(400);
    expect(failed.body).toMatchObject({
      code: "57P01",
      message: "terminating connection due to administrator command",
      severity: "FATAL",
    });
    const next = await sql("SELECT 41 + 1 AS answer");
    expect(next.status).toBe(200);
    expect(next.body.rows).toEqual([["42"]]);
  });

  it("the proxy survives a batch whose connection is killed, and the pool recovers", async () => {
    const res = fetch(proxy.url, {
      method: "POST",
      headers: {
        "Neon-Connection-String": role.neonDsn,
        "Neon-Raw-Text-Output": "true",
        "Neon-Array-Mode": "true",
      },
      body: JSON.stringify({
        queries: [
          { query: "SELECT 1", params: [] },
          { query: "SELECT pg_sleep(30)", params: [] },
        ],
      }),
    });
    await terminateSleepers();
    const reply = await res;
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({ code: "57P01" });
    for (let i = 0; i < 3; i++) expect((await sql("SELECT 1")).status).toBe(200);
  });

  it("through the driver (createNeonDb) a terminated backend is DB_UNAVAILABLE with the SQLSTATE, retryable", async () => {
    const neonDb = createNeonDb({ connectionString: role.neonDsn, fetchEndpoint: proxy.url });
    const query = neonDb.query("SELECT pg_sleep(30)").then(
      () => undefined,
      (e: unknown) => e,
    );
    await terminateSleepers();
    const error = await query;
    expect(isLlamonError(error, "DB_UNAVAILABLE")).toBe(true);
    expect((error as LlamonError).details).toMatchObject({ sqlstate: "57P01" });
    expect(mapError(error)).toMatchObject({ retryable: true, status: 503 });
  });

  it("a wrong parameter count (08P01) is Neon's 400 with the SQLSTATE, and DB_QUERY_FAILED (the request was wrong)", async () => {
    const res = await fetch(proxy.url, {
      method: "POST",
      headers: {
        "Neon-Connection-String": role.neonDsn,
        "Neon-Raw-Text-Output": "true",
        "Neon-Array-Mode": "true",
      },
      body: JSON.stringify({ query: "SELECT $1::int4 + $2::int4", params: ["1"] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "08P01" });
    const neonDb = createNeonDb({ connectionString: role.neonDsn, fetchEndpoint: proxy.url });
    const error = await neonDb.query("SELECT $1::int4 + $2::int4", [1]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLlamonError(error, "DB_QUERY_FAILED")).toBe(true);
    expect((await sql("SELECT 1")).status).toBe(200);
  });

  it("node-postgres (db-pg) fails the batch and the query in flight with DB errors and keeps working", async () => {
    const batch = pgDb.batch([{ text: "SELECT pg_sleep(30)", params: [] }]);
    const batchError = batch.then(
      () => undefined,
      (e: unknown) => e,
    );
    await terminateSleepers();
    expect(isLlamonError(await batchError, "DB_UNAVAILABLE")).toBe(true);

    const query = pgDb.query("SELECT pg_sleep(30)").then(
      () => undefined,
      (e: unknown) => e,
    );
    await terminateSleepers();
    expect(isLlamonError(await query)).toBe(true);

    expect((await pgDb.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    const [r] = await pgDb.batch([{ text: "SELECT 2 AS two", params: [] }]);
    expect(r?.rows).toEqual([{ two: 2 }]);
  });
});
