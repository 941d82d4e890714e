/**
 * Give a local run a database (R9.3): the DSN configured for the project when it is
 * reachable (creating its database if the server has none by that name), otherwise an
 * embedded Postgres kept inside the project folder. Migrations are applied either way, as the
 * owner; the Worker gets a role of its own with only the privileges it needs (./worker-role.ts),
 * and the Neon-protocol proxy is put in front, authenticating that role, so the Worker uses
 * its production path.
 */
import { join } from "node:path";
import { redactDsn } from "llamon/node";
import { startEmbeddedPostgres } from "../dev/embedded-postgres.ts";
import { type NeonProxy, startNeonProxy } from "../dev/neon-http-proxy.ts";
import { migrate } from "../store/migrate.ts";
import { createDatabase, probeDatabase } from "./pg-database.ts";
import { listenError } from "./ports.ts";
import { provideWorkerRole } from "./worker-role.ts";

export interface LocalDatabase {
  readonly kind: "server" | "embedded";
  /** node-postgres DSN of the database in use (its owner: migrations, tools). */
  readonly dsn: string;
  /** The Worker's connection string: its own role and password, a host name as Neon needs. */
  readonly workerDsn: string;
  readonly proxy: NeonProxy;
  close(): Promise<void>;
}

/** The folder inside a project where the embedded Postgres keeps its data. */
export function embeddedDataDir(projectDir: string): string {
  return join(projectDir, ".llamon", "pgdata");
}

export async function provideLocalDatabase(options: {
  projectDir: string;
  dsn?: string | undefined;
  forceEmbedded?: boolean;
  /** Where the embedded Postgres keeps its data; default embeddedDataDir(projectDir). */
  dataDir?: string | undefined;
  /** The proxy's port (`--proxy-port`); default a free one. */
  proxyPort?: number | undefined;
  /** The embedded Postgres's port (`--pg-port`); default a free one. */
  pgPort?: number | undefined;
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
      let state = await probeDatabase(options.dsn);
      if (state === "missing-database") {
        options.log(`creating database for ${redactDsn(options.dsn)}`);
        await createDatabase(options.dsn);
        state = await probeDatabase(options.dsn);
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
      const embedded = await startEmbeddedPostgres({ dataDir, port: options.pgPort }).catch(
        (error: unknown) => {
          throw listenError(error, options.pgPort, "--pg-port");
        },
      );
      cleanups.push(() => embedded.close());
      dsn = embedded.dsn;
      options.log(`embedded Postgres (PGlite) with data in ${dataDir}`);
    } else {
      options.log(`Postgres at ${redactDsn(dsn)}`);
    }
    const result = await migrate({ connectionString: dsn });
    if (result.applied.length > 0) options.log(`applied migrations: ${result.applied.join(", ")}`);
    const worker = await provideWorkerRole({ projectDir: options.projectDir, ownerDsn: dsn });
    options.log(
      `the Worker connects as the role ${worker.role} (password in .llamon/worker-role.json)`,
    );
    const proxy = await startNeonProxy({
      upstreamDsn: dsn,
      poolSize: kind === "embedded" ? 1 : 5,
      port: options.proxyPort,
      onNotice: options.log,
    }).catch((error: unknown) => {
      throw listenError(error, options.proxyPort, "--proxy-port");
    });
    cleanups.push(() => proxy.close());
    return { kind, dsn, workerDsn: worker.neonDsn, proxy, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
