/** `llamon dev proxy`: serve Neon's SQL-over-HTTP protocol in front of a Postgres. */
import type { Command } from "commander";
import { LlamonError } from "../../errors.ts";
import { redactDsn } from "../../store/dsn.ts";
import { parsePort } from "../options.ts";
import { info, untilStopped } from "../output.ts";

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
    .option("--port <port>", "port to listen on (127.0.0.1); default: a free port", parsePort)
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon dev proxy --dsn postgresql://postgres@localhost:5432/postgres --port 4444
  $ npx llamon dev proxy --embedded .llamon/pgdata

Point the Neon driver at the printed URL:
  neonConfig.fetchEndpoint = () => "http://127.0.0.1:4444/sql"

As on Neon, the connection string the driver sends must name a role with a password, and the
statements run as that role: the proxy checks the password against the role's SCRAM verifier
(so --dsn must be a superuser's) and refuses an Authorization header. Make the role with the
printed Postgres DSN, e.g. CREATE ROLE app LOGIN PASSWORD '…' and its GRANTs.`,
    )
    .action(async (opts: { dsn?: string; embedded?: string; port?: number }) => {
      if ((opts.dsn === undefined) === (opts.embedded === undefined)) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "give exactly one of --dsn <postgres DSN> or --embedded <dir>",
        );
      }
      // Imported here, not at the top: the embedded Postgres is heavy (CLI start-up time).
      const { startEmbeddedPostgres } = await import("../../dev/embedded-postgres.ts");
      const { startNeonProxy } = await import("../../dev/neon-http-proxy.ts");
      const embedded = opts.embedded
        ? await startEmbeddedPostgres({ dataDir: opts.embedded })
        : undefined;
      const upstreamDsn = embedded?.dsn ?? (opts.dsn as string);
      const proxy = await startNeonProxy({
        upstreamDsn,
        poolSize: embedded ? 1 : 5,
        port: opts.port,
        onNotice: info,
      }).catch(async (error: unknown) => {
        await embedded?.close();
        throw error;
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
