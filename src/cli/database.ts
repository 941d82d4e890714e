/**
 * Give a local run a database (R9.3): the DSN configured for the project when it is
 * reachable (creating its database if the server has none by that name), otherwise an
 * embedded Postgres kept inside the project folder. Migrations are applied either way,
 * and the Neon-protocol proxy is put in front so the Worker uses its production path.
 */
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../dev/embedded-postgres.ts";
import { type NeonProxy, startNeonProxy } from "../dev/neon-http-proxy.ts";
import { LlamonError } from "../errors.ts";
import { redactDsn } from "../store/dsn.ts";
import { migrate } from "../store/migrate.ts";

export interface LocalDatabase {
  readonly kind: "server" | "embedded";
  /** node-postgres DSN of the database in use. */
  readonly dsn: string;
  readonly proxy: NeonProxy;
  close(): Promise<void>;
}

/** The folder inside a project where the embedded Postgres keeps its data. */
export function embeddedDataDir(projectDir: string): string {
  return join(projectDir, ".llamon", "pgdata");
}

type Probe = "ok" | "missing-database" | "unreachable";

async function probe(dsn: string): Promise<Probe> {
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

async function createDatabase(dsn: string): Promise<void> {
  const url = new URL(dsn);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `database "${name}" does not exist and its name is not a plain identifier, so llamon will not create it; create it yourself`,
    );
  }
  url.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  admin.on("error", () => {});
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P04") throw error; // created meanwhile
  } finally {
    await admin.end().catch(() => {});
  }
}

export async function provideLocalDatabase(options: {
  projectDir: string;
  dsn?: string | undefined;
  forceEmbedded?: boolean;
  /** Where the embedded Postgres keeps its data; default embeddedDataDir(projectDir). */
  dataDir?: string | undefined;
  log: (line: string) => void;
}): Promise<LocalDatabase> {
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    let kind: "server" | "embedded" = "embedded";
    let dsn: string | undefined;
    if (options.dsn && !options.forceEmbedded) {
      let state = await probe(options.dsn);
      if (state === "missing-database") {
        options.log(`creating database for ${redactDsn(options.dsn)}`);
        await createDatabase(options.dsn);
        state = await probe(options.dsn);
      }
      if (state === "ok") {
        kind = "server";
        dsn = options.dsn;
      } else {
        options.log(
          `${redactDsn(options.dsn)} is not reachable; using the embedded Postgres instead`,
        );
      }
    }
    if (dsn === undefined) {
      const dataDir = options.dataDir ?? embeddedDataDir(options.projectDir);
      const embedded = await startEmbeddedPostgres({ dataDir });
      cleanups.push(() => embedded.close());
      dsn = embedded.dsn;
      options.log(`embedded Postgres (PGlite) with data in ${dataDir}`);
    } else {
      options.log(`Postgres at ${redactDsn(dsn)}`);
    }
    const result = await migrate({ connectionString: dsn });
    if (result.applied.length > 0) options.log(`applied migrations: ${result.applied.join(", ")}`);
    const proxy = await startNeonProxy({ upstreamDsn: dsn, poolSize: kind === "embedded" ? 1 : 5 });
    cleanups.push(() => proxy.close());
    return { kind, dsn, proxy, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
