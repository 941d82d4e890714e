/**
 * A throwaway database for a project's own tests (`llamon/dev`): an embedded Postgres
 * (PGlite) in a temporary folder — or the Postgres at `dsn` — with llamon's migrations applied
 * and the Neon-protocol proxy in front, so a Worker under test (workerd, through
 * `@cloudflare/vitest-plugin`) reaches it exactly as a deployed Worker reaches Neon:
 *
 *   bindings: { LLAMON_NEON_FETCH_ENDPOINT: db.proxyUrl, POSTGRES_MEMORY_DSN: db.neonDsn }
 *
 * Node only (tests' global setup), never part of a Worker bundle.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../store/migrate.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { startNeonProxy } from "./neon-http-proxy.ts";
import {
  dropWorkerRole,
  ensureWorkerRole,
  newRoleCredentials,
  workerNeonDsn,
} from "./worker-role.ts";

export interface TestDatabase {
  /** The proxy's URL: the Worker's LLAMON_NEON_FETCH_ENDPOINT. */
  readonly proxyUrl: string;
  /**
   * The Worker's DSN: a role made for the test with only the Worker's privileges and a
   * generated password (the proxy checks it and runs the statements as that role, as Neon
   * does), and a host name, as Neon requires.
   */
  readonly neonDsn: string;
  /** node-postgres DSN of the database itself. */
  readonly dsn: string;
  close(): Promise<void>;
}

export async function startTestDatabase(options: { dsn?: string } = {}): Promise<TestDatabase> {
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    let dsn = options.dsn;
    if (dsn === undefined) {
      const dir = await mkdtemp(join(tmpdir(), "llamon-test-db-"));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const embedded = await startEmbeddedPostgres({ dataDir: dir });
      cleanups.push(() => embedded.close());
      dsn = embedded.dsn;
    }
    await migrate({ connectionString: dsn });
    const worker = newRoleCredentials("llamon_test_worker");
    await ensureWorkerRole(dsn, worker);
    // A server's roles outlive the test (an embedded one goes with its folder).
    const ownerDsn = dsn;
    if (options.dsn !== undefined) cleanups.push(() => dropWorkerRole(ownerDsn, worker.role));
    const proxy = await startNeonProxy({
      upstreamDsn: dsn,
      poolSize: options.dsn === undefined ? 1 : 5,
    });
    cleanups.push(() => proxy.close());
    return { proxyUrl: proxy.url, neonDsn: workerNeonDsn(dsn, worker), dsn, close };
  } catch (error) {
    await close();
    throw error;
  }
}
