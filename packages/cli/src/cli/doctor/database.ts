/**
 * `llamon doctor`'s database checks (postgres backend): the DSN's shape for Neon, the server
 * reachable, the database there, every migration applied (and unchanged), llamon's tables
 * present, and how many conversations the agent has. One connection, read only.
 */

import {
  DOCTOR_COUNT_AGENT_THREADS,
  DOCTOR_EXISTING_TABLES,
  redactDsn,
  SELECT_APPLIED_MIGRATIONS,
  vectorsReady,
} from "llamon/node";
import { createPgDb } from "../../store/db-pg.ts";
import { loadMigrations } from "../../store/migrate.ts";
import { databaseNameOf, probeDatabase } from "../pg-database.ts";
import { type Check, errorMessage, ok, problem, warning } from "./types.ts";

/** The tables the migrations create and a turn uses. */
export const LLAMON_TABLES = [
  "checkpoints",
  "checkpoint_blobs",
  "checkpoint_writes",
  "checkpoint_migrations",
  "persistent_memory",
  "llamon_threads",
  "llamon_migrations",
] as const;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** What the DSN's text already tells (before connecting). */
export function dsnChecks(dsn: string): Check[] {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return [
      problem(
        "database",
        "POSTGRES_MEMORY_DSN",
        "POSTGRES_MEMORY_DSN is not a URL",
        "use the form postgresql://user:password@host:5432/database",
      ),
    ];
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return [
      problem(
        "database",
        "POSTGRES_MEMORY_DSN",
        `POSTGRES_MEMORY_DSN has the scheme ${url.protocol}`,
        "use postgresql://user:password@host:5432/database",
      ),
    ];
  }
  const checks: Check[] = [];
  const host = url.hostname;
  if (/\.neon\.tech$/.test(host) && url.searchParams.get("sslmode") !== "require") {
    checks.push(
      warning(
        "database",
        "sslmode",
        "a Neon DSN without sslmode=require",
        "append ?sslmode=require to the DSN (Neon accepts only encrypted connections)",
      ),
    );
  }
  if (!LOCAL_HOSTS.has(host) && /^(\d{1,3}\.){3}\d{1,3}$|^\[/.test(host)) {
    checks.push(
      warning(
        "database",
        "host name",
        `the DSN's host is an IP address (${host}); Neon's HTTP endpoint needs a host name`,
        "use the host name Neon gives (ep-….neon.tech)",
      ),
    );
  }
  return checks;
}

/**
 * `semantic`: the config has `recall_semantic` on, so the pgvector table of migration 0009
 * must be there.
 */
export async function databaseChecks(
  dsn: string,
  agentId: string | undefined,
  semantic = false,
): Promise<Check[]> {
  const checks = dsnChecks(dsn);
  if (checks.some((c) => c.status === "problem")) return checks;
  const shown = redactDsn(dsn);
  const reach = await probeDatabase(dsn);
  if (reach === "unreachable") {
    checks.push(
      problem(
        "database",
        "reachable",
        `cannot connect to ${shown}`,
        "start that Postgres or correct POSTGRES_MEMORY_DSN (locally `npx llamon run .` starts an embedded Postgres instead)",
      ),
    );
    return checks;
  }
  if (reach === "missing-database") {
    checks.push(
      problem(
        "database",
        "database",
        `the server has no database "${databaseNameOf(dsn)}"`,
        "npx llamon migrate --create-db (creates it and its tables)",
      ),
    );
    return checks;
  }
  checks.push(ok("database", "reachable", `connected to ${shown}`));
  const db = createPgDb({ connectionString: dsn, max: 1 });
  try {
    const files = await loadMigrations();
    const existing = new Set(
      (await db.query<{ name: string }>(DOCTOR_EXISTING_TABLES, [[...LLAMON_TABLES]])).rows.map(
        (r) => r.name,
      ),
    );
    if (!existing.has("llamon_migrations")) {
      checks.push(
        problem(
          "database",
          "migrations",
          "no llamon tables yet (no migration was applied)",
          `npx llamon migrate --dsn '${shown}'`,
        ),
      );
      return checks;
    }
    const applied = new Map(
      (await db.query<{ name: string; checksum: string }>(SELECT_APPLIED_MIGRATIONS)).rows.map(
        (r) => [r.name, r.checksum],
      ),
    );
    const pending = files.filter((f) => !applied.has(f.name)).map((f) => f.name);
    const changed = files
      .filter((f) => applied.has(f.name) && applied.get(f.name) !== f.checksum)
      .map((f) => f.name);
    if (changed.length > 0) {
      checks.push(
        problem(
          "database",
          "migrations",
          `applied migrations differ from this llamon's files: ${changed.join(", ")}`,
          "use the llamon version that applied them (migrations are never edited; a change is a new file)",
        ),
      );
    } else if (pending.length > 0) {
      checks.push(
        problem(
          "database",
          "migrations",
          `${pending.length} migration(s) not applied: ${pending.join(", ")}`,
          "npx llamon migrate (with this DSN) before deploying this version",
        ),
      );
    } else {
      checks.push(ok("database", "migrations", `all ${files.length} migrations applied`));
    }
    const missing = LLAMON_TABLES.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      checks.push(
        problem(
          "database",
          "tables",
          `llamon's tables are missing: ${missing.join(", ")}`,
          "they were dropped after migrating: restore them from a backup, or migrate a new database",
        ),
      );
    } else if (agentId !== undefined) {
      const { rows } = await db.query<{ threads: string }>(DOCTOR_COUNT_AGENT_THREADS, [agentId]);
      checks.push(
        ok(
          "database",
          "tables",
          `llamon's tables are there; agent ${agentId} has ${rows[0]?.threads ?? "0"} conversation(s)`,
        ),
      );
    }
    if (semantic) {
      checks.push(
        (await vectorsReady(db))
          ? ok("database", "semantic recall", "pgvector and llamon_message_vectors are there")
          : problem(
              "database",
              "semantic recall",
              "recall_semantic is on but this database has no pgvector table (migration 0009 found no vector extension)",
              "on Neon run `CREATE EXTENSION vector;`, then `npx llamon memory reindex --dsn … --setup-vectors`; or set recall_semantic to false",
            ),
      );
    }
  } catch (error) {
    checks.push(
      problem(
        "database",
        "query",
        `reading ${shown} failed: ${errorMessage(error)}`,
        "check that the DSN's role may read llamon's tables",
      ),
    );
  } finally {
    await db.close();
  }
  return checks;
}
