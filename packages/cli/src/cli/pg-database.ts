/**
 * Is a Postgres database there, and creating it when it is not — what `llamon run` and
 * `llamon migrate --create-db` do before migrating. node-postgres only (no embedded Postgres).
 */

import { LlamonError } from "llamon/errors";
import pg from "pg";

export type Probe = "ok" | "missing-database" | "unreachable";

export async function probeDatabase(dsn: string): Promise<Probe> {
  const client = new pg.Client({ connectionString: dsn, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code === "3D000" ? "missing-database" : "unreachable";
  } finally {
    await client.end().catch(() => {});
  }
}

/** The database named in the DSN's path. */
export function databaseNameOf(dsn: string): string {
  return decodeURIComponent(new URL(dsn).pathname.slice(1));
}

/**
 * CREATE DATABASE for the DSN's database, connected to the server's `postgres` database with
 * the same credentials. Only plain identifiers (the scaffold's `<name>_memory` is one); an
 * existing database (made meanwhile) is fine.
 */
export async function createDatabase(dsn: string): Promise<void> {
  const name = databaseNameOf(dsn);
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `database "${name}" does not exist and its name is not a plain identifier, so llamon will not create it; create it yourself`,
    );
  }
  const url = new URL(dsn);
  url.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  admin.on("error", () => {});
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code === "42P04") return; // created meanwhile
    throw new LlamonError(
      "CONFIG_INVALID",
      `cannot create database "${name}": ${(error as Error).message} — create it yourself (or use a role that may CREATE DATABASE)`,
      { cause: error },
    );
  } finally {
    await admin.end().catch(() => {});
  }
}
