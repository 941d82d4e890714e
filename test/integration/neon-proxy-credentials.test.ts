/**
 * Credentials cases of the local Neon proxy, from Neon's proxy source (neondatabase/neon,
 * proxy/src/serverless/): the user and password of Neon-Connection-String are authenticated
 * (http_util.rs `get_conn_info`, backend.rs `authenticate_with_password`) and the statements
 * run as that role (backend.rs `connect_to_compute`). On the server Postgres and on the
 * embedded PGlite (LLAMON_TEST_DB=embedded), where the role is taken with SET LOCAL ROLE and
 * `session_user` stays the bootstrap superuser (an accepted difference, docs/architecture.md).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scramVerifier } from "../../packages/cli/src/dev/scram.ts";
import type { RoleCredentials } from "../../packages/cli/src/dev/worker-role.ts";
import { isLlamonError } from "../../src/errors.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { createWorkerRole, startTestBackend, type TestBackend } from "../helpers/backend.ts";
import { caught } from "../helpers/caught.ts";

let backend: TestBackend;
/** A second role with the Worker's grants, and one that may not log in. */
let other: Awaited<ReturnType<typeof createWorkerRole>>;
let noLogin: Awaited<ReturnType<typeof createWorkerRole>>;

beforeAll(async () => {
  backend = await startTestBackend({ migrate: false });
  // Made by the owner after the Worker's role: its default privileges grant the Worker rows.
  await backend.pg.query("CREATE TABLE granted (id int4 PRIMARY KEY, note text)");
  await backend.pg.query("CREATE TABLE owner_only (id int4)");
  await backend.pg.query(
    `REVOKE ALL ON owner_only FROM ${pg.escapeIdentifier(backend.worker.role)}`,
  );
  other = await createWorkerRole(backend.dsn, backend.kind);
  noLogin = await createWorkerRole(backend.dsn, backend.kind);
  await backend.pg.query(`ALTER ROLE ${pg.escapeIdentifier(noLogin.worker.role)} NOLOGIN`);
});

afterAll(async () => {
  await backend?.close();
  await other?.drop();
  await noLogin?.drop();
});

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

function dsnOf(creds: { role: string; password?: string }): string {
  const password = creds.password === undefined ? "" : `:${encodeURIComponent(creds.password)}`;
  return `postgresql://${encodeURIComponent(creds.role)}${password}@localhost/llamon`;
}

async function post(
  connectionString: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(backend.proxy.url, {
    method: "POST",
    headers: {
      "Neon-Connection-String": connectionString,
      "Neon-Raw-Text-Output": "true",
      "Neon-Array-Mode": "true",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const one = (query: string, params: unknown[] = []) => ({ query, params });

function rows(reply: Reply): unknown[][] {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.rows as unknown[][];
}

const worker = (): RoleCredentials => backend.worker;

describe("R10.1 the connection string's role runs the statements", () => {
  it("a single statement runs as the role (current_user; session_user on the server)", async () => {
    const [[current, session]] = rows(
      await post(backend.neonDsn, one("SELECT current_user::text, session_user::text")),
    ) as [[string, string]];
    expect(current).toBe(worker().role);
    expect(session).toBe(backend.kind === "server" ? worker().role : "postgres");
  });

  it("a batch runs as the role", async () => {
    const reply = await post(backend.neonDsn, {
      queries: [one("SELECT current_user::text"), one("SELECT current_user::text")],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const results = reply.body.results as { rows: string[][] }[];
    expect(results.map((r) => r.rows[0]?.[0])).toEqual([worker().role, worker().role]);
  });

  it("two roles in turn each get their own session (no role leaks to the next request)", async () => {
    const as = async (dsn: string) =>
      (rows(await post(dsn, one("SELECT current_user::text")))[0] as string[])[0];
    expect(await as(backend.neonDsn)).toBe(worker().role);
    expect(await as(other.neonDsn)).toBe(other.worker.role);
    expect(await as(backend.neonDsn)).toBe(worker().role);
    // The owner's own connection is untouched (on PGlite it shares the one session).
    const { rows: owner } = await backend.pg.query<{ u: string }>("SELECT current_user AS u");
    expect(owner[0]?.u).toBe("postgres");
  });

  it("the role's grants apply: its rows yes, another table or DDL is 42501", async () => {
    rows(await post(backend.neonDsn, one("INSERT INTO granted (id, note) VALUES (1, 'ok')")));
    expect(rows(await post(backend.neonDsn, one("SELECT note FROM granted")))).toEqual([["ok"]]);
    for (const query of ["SELECT * FROM owner_only", "CREATE TABLE made_by_worker (id int4)"]) {
      const reply = await post(backend.neonDsn, one(query));
      expect(reply.status, query).toBe(400);
      expect(reply.body.code, query).toBe("42501");
    }
    // Through the driver, as the Worker meets it: DB_QUERY_FAILED with the SQLSTATE.
    const db = createNeonDb({
      connectionString: backend.neonDsn,
      fetchEndpoint: backend.proxy.url,
    });
    const error = await caught(db.query("SELECT * FROM owner_only"));
    expect(isLlamonError(error, "DB_QUERY_FAILED"), String(error)).toBe(true);
    expect((error as { details: { sqlstate?: string } }).details.sqlstate).toBe("42501");
  });

  it("a role that may not log in is refused with the server's 28000, as a 500 (Neon passes the compute's error)", async () => {
    const reply = await post(noLogin.neonDsn, one("SELECT 1"));
    expect(reply.status).toBe(500);
    expect(reply.body.code).toBe("28000");
    expect(String(reply.body.message)).toContain("not permitted to log in");
  });
});

describe("R10.1 credentials are checked as Neon checks them", () => {
  const failed = (user: string) => ({
    message: `password authentication failed for user '${user}'`,
  });

  it("a wrong password is 400 'password authentication failed for user …'", async () => {
    const reply = await post(
      dsnOf({ role: worker().role, password: "not-the-password" }),
      one("SELECT 1"),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject(failed(worker().role));
  });

  it("an unknown role fails the same way (no hint that it does not exist)", async () => {
    const reply = await post(
      dsnOf({ role: "nobody_here", password: "whatever-password" }),
      one("SELECT 1"),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject(failed("nobody_here"));
  });

  it("the superuser without a password (trust locally) is refused too", async () => {
    const reply = await post(dsnOf({ role: "postgres", password: "local" }), one("SELECT 1"));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject(failed("postgres"));
  });

  it("no password is 400 'missing authentication credentials: required password'", async () => {
    const reply = await post(dsnOf({ role: worker().role }), one("SELECT 1"));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      message: "missing authentication credentials: required password",
    });
  });

  it("an Authorization header on the password path is refused, even with the right password", async () => {
    for (const authorization of ["Bearer eyJhbGciOiJIUzI1NiJ9.e30.x", "Basic dTpw"]) {
      const reply = await post(backend.neonDsn, one("SELECT 1"), { Authorization: authorization });
      expect(reply.status, authorization).toBe(400);
      expect(reply.body).toMatchObject({
        message: "missing authentication credentials: required password",
      });
    }
  });

  it("a changed password applies to the next request; an expired one fails", async () => {
    const role = pg.escapeIdentifier(other.worker.role);
    const next = `${other.worker.password}-next`;
    await backend.pg.query(`ALTER ROLE ${role} PASSWORD ${pg.escapeLiteral(scramVerifier(next))}`);
    try {
      expect((await post(other.neonDsn, one("SELECT 1"))).status).toBe(400);
      const renewed = dsnOf({ role: other.worker.role, password: next });
      rows(await post(renewed, one("SELECT 1")));
      await backend.pg.query(`ALTER ROLE ${role} VALID UNTIL '2000-01-01'`);
      expect((await post(renewed, one("SELECT 1"))).body).toMatchObject(failed(other.worker.role));
    } finally {
      await backend.pg.query(
        `ALTER ROLE ${role} VALID UNTIL 'infinity' PASSWORD ${pg.escapeLiteral(scramVerifier(other.worker.password))}`,
      );
    }
  });

  it("the user and password are percent-decoded; a user that is no UTF-8 then is 400", async () => {
    const role = pg.escapeIdentifier(other.worker.role);
    const special = "p@ss:w/rd%20?#&=+ok-long";
    await backend.pg.query(
      `ALTER ROLE ${role} PASSWORD ${pg.escapeLiteral(scramVerifier(special))}`,
    );
    try {
      rows(await post(dsnOf({ role: other.worker.role, password: special }), one("SELECT 1")));
      const bad = await post("postgresql://%ff:secret@localhost/llamon", one("SELECT 1"));
      expect(bad.status).toBe(400);
      expect(String(bad.body.message)).toMatch(/^invalid username/);
    } finally {
      await backend.pg.query(
        `ALTER ROLE ${role} PASSWORD ${pg.escapeLiteral(scramVerifier(other.worker.password))}`,
      );
    }
  });

  it("through the driver a wrong password is CONFIG_INVALID (not retryable), naming the user and the DSN to check", async () => {
    const db = createNeonDb({
      connectionString: dsnOf({ role: worker().role, password: "wrong-password" }),
      fetchEndpoint: backend.proxy.url,
    });
    const error = await caught(db.query("SELECT 1"));
    // Neon answers refused credentials with a 400 and no SQLSTATE; a retry cannot help, so it
    // is a configuration error, not an unavailable database (src/store/db.ts toDbError).
    expect(isLlamonError(error, "CONFIG_INVALID"), String(error)).toBe(true);
    expect(String((error as Error).message)).toContain(
      `password authentication failed for user '${worker().role}'`,
    );
    expect(String((error as Error).message)).toContain(
      "Check the role and password in POSTGRES_MEMORY_DSN",
    );
  });
});
