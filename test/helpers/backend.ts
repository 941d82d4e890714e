/**
 * The database behind integration tests: the real Postgres server (default) or the
 * embedded PGlite (LLAMON_TEST_DB=embedded), always reached by the Worker's path —
 * Neon driver → local Neon-protocol proxy → Postgres — and by node-postgres directly.
 */
import { type NeonProxy, startNeonProxy } from "../../packages/cli/src/dev/neon-http-proxy.ts";
import {
  dropWorkerRole,
  ensureWorkerRole,
  newRoleCredentials,
  type RoleCredentials,
  workerNeonDsn,
} from "../../packages/cli/src/dev/worker-role.ts";
import { createPgDb } from "../../packages/cli/src/store/db-pg.ts";
import { migrate } from "../../packages/cli/src/store/migrate.ts";
import type { Db } from "../../src/store/db.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { createFreshDatabase, SERVER_DSN } from "./pg.ts";

export type BackendKind = "server" | "embedded";

export function backendKind(): BackendKind {
  const v = process.env.LLAMON_TEST_DB ?? "server";
  if (v !== "server" && v !== "embedded") {
    throw new Error(`LLAMON_TEST_DB must be "server" or "embedded", got "${v}"`);
  }
  return v;
}

export interface TestBackend {
  readonly kind: BackendKind;
  /** node-postgres DSN of the database (server database or the embedded socket). */
  readonly dsn: string;
  readonly proxy: NeonProxy;
  /**
   * The Worker's role (made for this backend, with only the Worker's grants) and the
   * connection string the Neon driver sends as it: a host name, as Neon requires.
   */
  readonly worker: RoleCredentials;
  readonly neonDsn: string;
  /** Transport A: the Neon HTTP driver through the proxy. */
  readonly neon: Db;
  /** Transport B: node-postgres straight to the database. */
  readonly pg: Db;
  close(): Promise<void>;
}

/**
 * The Worker's role of every test backend: one name and password for the whole server (a
 * role belongs to the server; each test database grants it the Worker's privileges), so a
 * test can name the Worker's connection string as a constant.
 */
export const TEST_WORKER: RoleCredentials = {
  role: "llamon_test_worker",
  password: "llamon-test-worker-password",
};

/** The connection string the Neon driver sends as the Worker (a host name, as Neon requires). */
export const NEON_STYLE_DSN = `postgresql://${TEST_WORKER.role}:${TEST_WORKER.password}@localhost/llamon`;

/**
 * Another role in the database at `dsn` (migrated already), for tests that start their
 * own database and proxy. `drop` removes it from the server, where a role outlives its
 * database (before or after that database is dropped); on PGlite it goes with the data folder.
 */
export async function createWorkerRole(
  dsn: string,
  kind: BackendKind,
): Promise<{ worker: RoleCredentials; neonDsn: string; drop(): Promise<void> }> {
  const worker = newRoleCredentials("llamon_test_worker");
  await ensureWorkerRole(dsn, worker);
  const onServer = kind === "server";
  return {
    worker,
    neonDsn: workerNeonDsn(dsn, worker),
    async drop() {
      if (!onServer) return;
      // Its grants in its database first (while that exists), then the role from the server.
      await dropWorkerRole(dsn, worker.role).catch(() => {});
      await dropWorkerRole(SERVER_DSN, worker.role);
    },
  };
}

/** The same connection string with another host name (the driver picks its endpoint by host). */
export function atHost(dsn: string, host: string): string {
  const url = new URL(dsn);
  url.hostname = host;
  return url.toString();
}

export async function startTestBackend(options: { migrate?: boolean } = {}): Promise<TestBackend> {
  const kind = backendKind();
  const db = await createFreshDatabase();
  const dsn = db.dsn;
  const cleanups: (() => Promise<void>)[] = [() => db.drop()];
  if (options.migrate !== false) await migrate({ connectionString: dsn });
  // Migrations run as the owner; the Worker's path runs as its own role, as on Neon.
  const worker = TEST_WORKER;
  await ensureWorkerRole(dsn, worker);
  const neonDsn = NEON_STYLE_DSN;
  const proxy = await startNeonProxy({ upstreamDsn: dsn, poolSize: kind === "embedded" ? 1 : 5 });
  cleanups.push(() => proxy.close());
  const neon = createNeonDb({ connectionString: neonDsn, fetchEndpoint: proxy.url });
  const pgDb = createPgDb({ connectionString: dsn, max: kind === "embedded" ? 1 : 2 });
  cleanups.push(() => pgDb.close());
  return {
    kind,
    dsn,
    proxy,
    worker,
    neonDsn,
    neon,
    pg: pgDb,
    async close() {
      for (const c of cleanups.reverse()) await c();
    },
  };
}

/**
 * Replace the thread's transcript with `count` alternating user/assistant messages
 * ("bulk message <seq>", ids "bulk-<seq>") in LangChain's serialised form, built in SQL
 * (generate_series): a long conversation without running its turns.
 */
export async function bulkTranscript(
  db: Db,
  agentId: string,
  threadId: string,
  count: number,
): Promise<void> {
  await db.query("DELETE FROM llamon_messages WHERE agent_id = $1 AND thread_id = $2", [
    agentId,
    threadId,
  ]);
  await db.query(
    `INSERT INTO llamon_messages (agent_id, thread_id, seq, message)
     SELECT $1, $2, g, jsonb_build_object(
       'lc', 1, 'type', 'constructor',
       'id', jsonb_build_array('langchain_core', 'messages',
                               CASE WHEN g % 2 = 0 THEN 'HumanMessage' ELSE 'AIMessage' END),
       'kwargs', jsonb_build_object('content', 'bulk message ' || g, 'id', 'bulk-' || g,
                                    'additional_kwargs', '{}'::jsonb, 'response_metadata', '{}'::jsonb))
       FROM generate_series(0, $3::int - 1) AS g`,
    [agentId, threadId, count],
  );
}
