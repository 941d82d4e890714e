/**
 * What `llamon run` gives a postgres project (packages/cli/src/cli/database.ts): the database migrated as
 * its owner, a role of the Worker's own with a generated password kept in the project's
 * `.llamon/`, and the Neon-protocol proxy in front, which runs the Worker's statements as that
 * role. On the server Postgres and on the embedded PGlite (LLAMON_TEST_DB=embedded).
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalDatabase, provideLocalDatabase } from "../../packages/cli/src/cli/database.ts";
import { workerRoleFile } from "../../packages/cli/src/cli/worker-role.ts";
import { dropWorkerRole } from "../../packages/cli/src/dev/worker-role.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { backendKind } from "../helpers/backend.ts";
import { caught } from "../helpers/caught.ts";
import { createTestDatabase, SERVER_DSN, type TestDatabase } from "../helpers/pg.ts";
import { freshEmbeddedDataDir } from "../helpers/pglite-template.ts";

const kind = backendKind();
let projectDir: string;
let server: TestDatabase | undefined;
/** The embedded Postgres's folder (a copy of an empty cluster: no initdb in the test). */
let dataDir: string | undefined;

async function provide(): Promise<LocalDatabase> {
  return provideLocalDatabase({
    projectDir,
    dsn: server?.dsn,
    forceEmbedded: kind === "embedded",
    dataDir,
    log: () => {},
  });
}

beforeAll(async () => {
  projectDir = await mkdtemp(join(tmpdir(), "llamon-local-db-"));
  if (kind === "server") server = await createTestDatabase("llamon_localdb");
  else dataDir = await freshEmbeddedDataDir("llamon-local-db-pgdata");
});

afterAll(async () => {
  await server?.drop();
  if (kind === "server") {
    const file = JSON.parse(await readFile(workerRoleFile(projectDir), "utf8")) as { role: string };
    await dropWorkerRole(SERVER_DSN, file.role);
  }
  await rm(projectDir, { recursive: true, force: true });
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe("R9.3 llamon run: the Worker connects as a role of its own", () => {
  it("makes the role once, keeps its password in .llamon/, and the proxy runs the Worker as it", async () => {
    const first = await provide();
    let role: string;
    try {
      const creds = JSON.parse(await readFile(workerRoleFile(projectDir), "utf8")) as {
        role: string;
        password: string;
      };
      role = creds.role;
      expect(role).toMatch(/^llamon_worker_[0-9a-f]{12}$/);
      expect((await stat(workerRoleFile(projectDir))).mode & 0o077).toBe(0);
      const url = new URL(first.workerDsn);
      expect(decodeURIComponent(url.username)).toBe(role);
      expect(decodeURIComponent(url.password)).toBe(creds.password);
      expect(url.hostname).toBe("localhost");

      const worker = createNeonDb({
        connectionString: first.workerDsn,
        fetchEndpoint: first.proxy.url,
      });
      const { rows } = await worker.query<{ u: string }>("SELECT current_user::text AS u");
      expect(rows).toEqual([{ u: role }]);
      // Rows of llamon's tables yes; the schema itself no (migrations are the owner's).
      await worker.query("SELECT count(*) FROM llamon_migrations");
      const ddl = await caught(worker.query("CREATE TABLE not_the_workers (a int)"));
      expect((ddl as { details?: { sqlstate?: string } }).details?.sqlstate).toBe("42501");
    } finally {
      await first.close();
    }

    // The next run finds the same role and password.
    const second = await provide();
    try {
      expect(second.workerDsn).toBe(first.workerDsn);
      const worker = createNeonDb({
        connectionString: second.workerDsn,
        fetchEndpoint: second.proxy.url,
      });
      const { rows } = await worker.query<{ u: string }>("SELECT current_user::text AS u");
      expect(rows).toEqual([{ u: role }]);
    } finally {
      await second.close();
    }
  }, 120_000);
});
