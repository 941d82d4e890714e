/**
 * `startTestDatabase` (`llamon/dev`), what a scaffolded project's tests start: the Worker's
 * connection string names a role of its own with only the Worker's grants, and the proxy runs
 * the Worker's statements as it. The embedded default, or the server database given.
 */
import { afterAll, describe, expect, it } from "vitest";
import { startTestDatabase, type TestDatabase } from "../../packages/cli/src/dev/test-database.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { backendKind } from "../helpers/backend.ts";
import { caught } from "../helpers/caught.ts";
import { createTestDatabase, type TestDatabase as ServerDatabase } from "../helpers/pg.ts";

let server: ServerDatabase | undefined;
let db: TestDatabase | undefined;

afterAll(async () => {
  await db?.close();
  await server?.drop();
});

describe("R9.3 startTestDatabase gives the Worker under test its own role", () => {
  it("the Worker's DSN runs as that role: rows yes, schema changes no", async () => {
    if (backendKind() === "server") server = await createTestDatabase("llamon_testdb");
    db = await startTestDatabase(server === undefined ? {} : { dsn: server.dsn });
    const url = new URL(db.neonDsn);
    expect(url.hostname).toBe("localhost");
    expect(url.username).toMatch(/^llamon_test_worker_[0-9a-f]{12}$/);
    const worker = createNeonDb({ connectionString: db.neonDsn, fetchEndpoint: db.proxyUrl });
    const { rows } = await worker.query<{ u: string }>("SELECT current_user::text AS u");
    expect(rows).toEqual([{ u: url.username }]);
    await worker.query("SELECT count(*) FROM persistent_memory");
    const ddl = await caught(worker.query("CREATE TABLE not_the_workers (a int)"));
    expect((ddl as { details?: { sqlstate?: string } }).details?.sqlstate).toBe("42501");
  }, 120_000);
});
