/**
 * Test databases on the real Postgres server: each test file gets its own database so
 * files can run in parallel and leave nothing behind.
 * Server: LLAMON_TEST_DSN, else postgresql://postgres@localhost:5432/postgres.
 */
import { randomBytes } from "node:crypto";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";

export const SERVER_DSN =
  process.env.LLAMON_TEST_DSN ?? "postgresql://postgres@localhost:5432/postgres";

export function dsnForDatabase(name: string, base = SERVER_DSN): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface TestDatabase {
  readonly name: string;
  readonly dsn: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = "llamon_test"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_DSN });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    dsn: dsnForDatabase(name),
    async drop() {
      const c = new pg.Client({ connectionString: SERVER_DSN });
      await c.connect();
      try {
        await leftSessions(c, name);
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Waits (up to 3 s) until no session is connected to `name`. A pool's `end()` resolves while
 * its clients are still closing; a DROP … WITH (FORCE) then terminates them, and a client that
 * is ending has no error listener left: its FATAL 57P01 became an unhandled error of the test
 * run (seen in CI with the 20-client pool of thread-registry-race.test.ts). What is still
 * connected after the wait (a session the test left open) is forced off, as before.
 */
async function leftSessions(admin: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
      [name],
    );
    if ((rows[0]?.n ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A fresh, empty database of the kind the suite runs on: a new database on the server, or
 * a new embedded PGlite in a temp folder when LLAMON_TEST_DB=embedded.
 */
export async function createFreshDatabase(prefix = "llamon_test"): Promise<TestDatabase> {
  if ((process.env.LLAMON_TEST_DB ?? "server") !== "embedded") return createTestDatabase(prefix);
  const { rm } = await import("node:fs/promises");
  const { startEmbeddedPostgres } = await import("../../packages/cli/src/dev/embedded-postgres.ts");
  const { freshEmbeddedDataDir } = await import("./pglite-template.ts");
  const dir = await freshEmbeddedDataDir(prefix);
  const embedded = await startEmbeddedPostgres({ dataDir: dir });
  return {
    name: "postgres",
    dsn: embedded.dsn,
    async drop() {
      await embedded.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The official PostgresSaver on its own pool, like `PostgresSaver.fromConnString` but with an
 * idle-client error handler: a connection the server closes while the pool holds it (a
 * database dropped WITH (FORCE), a loaded server) must not surface as an unhandled error of
 * the test file. Close it with `end()`.
 */
export function officialSaver(dsn: string): PostgresSaver {
  const pool = new pg.Pool({ connectionString: dsn });
  pool.on("error", () => {});
  return new PostgresSaver(pool);
}
