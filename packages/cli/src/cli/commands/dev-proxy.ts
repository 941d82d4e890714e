/** `llamon dev proxy`: serve Neon's SQL-over-HTTP protocol in front of a Postgres. */
import type { Command } from "commander";
import { LlamonError } from "llamon/errors";
import { redactDsn } from "llamon/node";
import { portParser } from "../options.ts";
import { info, untilStopped } from "../output.ts";
import { assertPortsFree, listenError } from "../ports.ts";

export function registerDevProxy(dev: Command): void {
  dev
    .command("proxy")
    .description(
      "serve Neon's HTTP SQL protocol locally, in front of a Postgres or an embedded PGlite",
    )
    .option(
      "--dsn <dsn>",
      "Postgres to forward to, as a superuser, e.g. postgresql://postgres@localhost:5432/postgres",
    )
    .option("--embedded <dir>", "use an embedded Postgres (PGlite) keeping its data in <dir>")
    .option(
      "--port <port>",
      "port to listen on (127.0.0.1); default: a free port",
      portParser("--port"),
    )
    .option(
      "--pg-port <port>",
      "with --embedded: the embedded Postgres's port on 127.0.0.1; default: a free port",
      portParser("--pg-port"),
    )
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon dev proxy --dsn postgresql://postgres@localhost:5432/postgres --port 4444
  $ npx llamon dev proxy --embedded .llamon/pgdata --port 4444 --pg-port 5433

Point the Neon driver at the printed URL:
  neonConfig.fetchEndpoint = () => "http://127.0.0.1:4444/sql"

As on Neon, the connection string the driver sends must name a role with a password, and the
statements run as that role: the proxy checks the password against the role's SCRAM verifier
(so --dsn must be a superuser's) and refuses an Authorization header. Make the role with the
printed Postgres DSN, e.g. CREATE ROLE app LOGIN PASSWORD '…' and its GRANTs.
A pinned port that is taken is an error before anything starts.`,
    )
    .action(async (opts: { dsn?: string; embedded?: string; port?: number; pgPort?: number }) => {
      if ((opts.dsn === undefined) === (opts.embedded === undefined)) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "give exactly one of --dsn <postgres DSN> or --embedded <dir>",
        );
      }
      if (opts.pgPort !== undefined && opts.embedded === undefined) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "--pg-port is the embedded Postgres's port: use it with --embedded",
        );
      }
      await assertPortsFree([
        { flag: "--port", port: opts.port },
        { flag: "--pg-port", port: opts.pgPort },
      ]);
      // Imported here, not at the top: the embedded Postgres is heavy (CLI start-up time).
      const { startEmbeddedPostgres } = await import("../../dev/embedded-postgres.ts");
      const { startNeonProxy } = await import("../../dev/neon-http-proxy.ts");
      const embedded = opts.embedded
        ? await startEmbeddedPostgres({ dataDir: opts.embedded, port: opts.pgPort }).catch(
            (error: unknown) => {
              throw listenError(error, opts.pgPort, "--pg-port");
            },
          )
        : undefined;
      const upstreamDsn = embedded?.dsn ?? (opts.dsn as string);
      const proxy = await startNeonProxy({
        upstreamDsn,
        poolSize: embedded ? 1 : 5,
        port: opts.port,
        onNotice: info,
      }).catch(async (error: unknown) => {
        await embedded?.close();
        throw listenError(error, opts.port, "--port");
      });
      info(
        `Neon-protocol proxy for ${embedded ? `embedded Postgres in ${embedded.dataDir}` : redactDsn(upstreamDsn)}`,
      );
      if (embedded) info(`Postgres (PGlite, as its owner): ${embedded.dsn}`);
      info(proxy.url);
      await untilStopped();
      await proxy.close();
      await embedded?.close();
    });
}
