/** `llamon migrate`: apply migrations/ to a Postgres (idempotent, safe to run concurrently). */
import type { Command } from "commander";
import { LlamonError } from "../../errors.ts";
import { redactDsn } from "../../store/dsn.ts";
import { migrate } from "../../store/migrate.ts";
import { nonEmpty } from "../config.ts";
import { readDevVars } from "../dev-vars.ts";
import { info } from "../output.ts";
import { createDatabase, databaseNameOf, probeDatabase } from "../pg-database.ts";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description(
      "create or update llamon's tables (LangGraph checkpoints, persistent_memory, thread registry)",
    )
    .option(
      "--dsn <dsn>",
      "Postgres DSN; default: POSTGRES_MEMORY_DSN from the environment or ./.dev.vars",
    )
    .option("--create-db", "create the database first when the server does not have it")
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon migrate --dsn postgresql://postgres@localhost:5432/my_agent_memory
  $ npx llamon migrate --create-db        # POSTGRES_MEMORY_DSN from ./.dev.vars

Runs in one transaction under a transaction-scoped advisory lock, so it is safe behind
PgBouncer in transaction mode and when several processes start at once. One connection.`,
    )
    .action(async (opts: { dsn?: string; createDb?: boolean }) => {
      const dsn =
        nonEmpty(opts.dsn) ??
        nonEmpty(process.env.POSTGRES_MEMORY_DSN) ??
        nonEmpty((await readDevVars(process.cwd())).POSTGRES_MEMORY_DSN);
      if (!dsn) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "no database given: pass --dsn postgresql://… or set POSTGRES_MEMORY_DSN (environment or .dev.vars)",
        );
      }
      if ((await probeDatabase(dsn)) === "missing-database") {
        if (!opts.createDb) {
          throw new LlamonError(
            "CONFIG_INVALID",
            `database "${databaseNameOf(dsn)}" does not exist on ${redactDsn(dsn)}: add --create-db to create it, or create it yourself`,
          );
        }
        await createDatabase(dsn);
        info(`created database ${databaseNameOf(dsn)} (${redactDsn(dsn)})`);
      }
      const result = await migrate({ connectionString: dsn, log: (line) => info(line) });
      info(
        result.applied.length === 0
          ? `${redactDsn(dsn)} is up to date (${result.alreadyApplied.length} migrations applied earlier)`
          : `applied ${result.applied.length} migration(s) to ${redactDsn(dsn)}`,
      );
    });
}
