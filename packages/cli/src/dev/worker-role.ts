/**
 * The Worker's own database role for local runs and tests: a login role with a generated
 * password and only the privileges a Worker needs, made by the database's owner after the
 * migrations. The local Neon proxy authenticates it and runs the Worker's statements as it,
 * so a missing privilege shows locally, as it would on Neon. Dev and tests only.
 *
 * The grants are the ones docs/deploy.en.md asks for on Neon: the Worker reads and writes
 * rows; it creates, alters and drops nothing (migrations do, as the owner).
 */
import { randomBytes } from "node:crypto";
import { LlamonError } from "llamon/errors";
import pg from "pg";
import { z } from "zod";
import { scramPasswordMatches, scramVerifier } from "./scram.ts";

export interface RoleCredentials {
  readonly role: string;
  readonly password: string;
}

export const roleCredentialsSchema = z.object({
  role: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, "a role name: lowercase letters, digits and _"),
  password: z.string().regex(/^[\x21-\x7e]{16,}$/, "16 or more printable ASCII characters"),
});

/** A new role name (`<prefix>_<12 hex>`) and a 32-character password. */
export function newRoleCredentials(prefix = "llamon_worker"): RoleCredentials {
  return {
    role: `${prefix}_${randomBytes(6).toString("hex")}`,
    password: randomBytes(24).toString("base64url"),
  };
}

/**
 * What the Worker's role may do, in the schema the migrations made their tables in (the first
 * of the owner's search_path): use the schema, read and write the rows of every table, use the
 * sequences — now and, through default privileges, for tables later migrations add.
 */
export function workerGrants(schema: string, role: string): string[] {
  const s = pg.escapeIdentifier(schema);
  const r = pg.escapeIdentifier(role);
  return [
    `GRANT USAGE ON SCHEMA ${s} TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT ON SEQUENCES TO ${r}`,
  ];
}

/**
 * Creates the role (or sets its password and LOGIN when it exists) and grants it the Worker's
 * privileges, connected to `ownerDsn` (the owner of the tables, who may create roles).
 * Idempotent; safe when two processes make the same role at once.
 */
export async function ensureWorkerRole(ownerDsn: string, creds: RoleCredentials): Promise<void> {
  const client = new pg.Client({ connectionString: ownerDsn });
  client.on("error", () => {});
  try {
    await client.connect();
    await retryConcurrentUpdate(() => makeRole(client, creds));
    await retryConcurrentUpdate(() => grant(client, creds.role));
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Two runs that make the same role, or grant on the same objects, at the same moment can meet
 * Postgres's "tuple concurrently updated" (XX000) on the catalog row: the second try succeeds.
 */
async function retryConcurrentUpdate(step: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const concurrent = /concurrently (updated|deleted)/.test(String(error));
      if (!concurrent || attempt >= 5) throw error;
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
}

async function makeRole(client: pg.Client, creds: RoleCredentials): Promise<void> {
  // The verifier, not the password: the server never sees (or logs) it, and it is SCRAM
  // whatever the server's password_encryption says.
  const password = pg.escapeLiteral(scramVerifier(creds.password));
  const role = pg.escapeIdentifier(creds.role);
  const { rows: found } = await client.query<{ login: boolean; authid: boolean }>(
    `SELECT rolcanlogin AS login, has_table_privilege('pg_catalog.pg_authid', 'SELECT') AS authid
       FROM pg_catalog.pg_roles WHERE rolname = $1`,
    [creds.role],
  );
  const existing = found[0];
  // Its password as it is, where the owner may read it (a superuser): unchanged, nothing to write.
  const secret = existing?.authid
    ? (
        await client.query<{ secret: string | null }>(
          "SELECT rolpassword AS secret FROM pg_catalog.pg_authid WHERE rolname = $1",
          [creds.role],
        )
      ).rows[0]?.secret
    : undefined;
  if (existing === undefined) {
    try {
      await client.query(`CREATE ROLE ${role} LOGIN PASSWORD ${password}`);
      return;
    } catch (error) {
      // Made by another process in the meantime (duplicate_object, or the catalog's unique
      // index when both inserted at once): set the password below.
      const code = (error as { code?: string }).code;
      if (code !== "42710" && code !== "23505") throw error;
    }
  } else if (
    existing.login &&
    secret != null &&
    (await scramPasswordMatches(secret, creds.password))
  ) {
    return;
  }
  await client.query(`ALTER ROLE ${role} LOGIN PASSWORD ${password}`);
}

async function grant(client: pg.Client, role: string): Promise<void> {
  const { rows } = await client.query<{ schema: string | null }>(
    "SELECT current_schema() AS schema",
  );
  const schema = rows[0]?.schema;
  if (schema == null) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "the database has no current schema (search_path is empty): cannot grant the Worker's role",
    );
  }
  for (const statement of workerGrants(schema, role)) await client.query(statement);
}

/** Drops the role (tests); its privileges in `ownerDsn`'s database go with it. */
export async function dropWorkerRole(ownerDsn: string, role: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerDsn });
  client.on("error", () => {});
  try {
    await client.connect();
    const r = pg.escapeIdentifier(role);
    const exists = await client.query("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1", [
      role,
    ]);
    if (exists.rowCount === 0) return;
    await client.query(`DROP OWNED BY ${r}`);
    await client.query(`DROP ROLE ${r}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The connection string the Worker sends to the local Neon proxy: the role and its password, a
 * host *name* (Neon refuses IP addresses) and the database's name.
 */
export function workerNeonDsn(ownerDsn: string, creds: RoleCredentials): string {
  const database = new URL(ownerDsn).pathname.replace(/^\//, "") || "postgres";
  return `postgresql://${encodeURIComponent(creds.role)}:${encodeURIComponent(creds.password)}@localhost/${database}`;
}
