/**
 * `llamon migrate`: apply migrations/ to a Postgres (idempotent, safe to run concurrently).
 * `--adopt` then registers the threads other LangGraph savers wrote for this agent.
 */
import type { Command } from "commander";
import { LlamonError } from "llamon/errors";
import { adoptThreads, redactDsn } from "llamon/node";
import { createPgDb } from "../../store/db-pg.ts";
import { migrate } from "../../store/migrate.ts";
import { dbSettings, nonEmpty, projectVars } from "../config.ts";
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
    .option(
      "--adopt",
      "then register this agent's threads written by other LangGraph savers (thread_id <AGENT_ID>:<thread>)",
    )
    .option(
      "--agent-id <id>",
      "with --adopt: whose threads; default: AGENT_ID (environment, then ./.dev.vars / wrangler.toml)",
    )
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon migrate --dsn postgresql://postgres@localhost:5432/my_agent_memory
  $ npx llamon migrate --create-db        # POSTGRES_MEMORY_DSN from ./.dev.vars
  $ npx llamon migrate --adopt --agent-id support   # threads the official PostgresSaver wrote

Runs in one transaction under a transaction-scoped advisory lock, so it is safe behind
PgBouncer in transaction mode and when several processes start at once. One connection.`,
    )
    .action(
      async (opts: { dsn?: string; createDb?: boolean; adopt?: boolean; agentId?: string }) => {
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
        if (opts.adopt) await adopt(dsn, opts.agentId);
      },
    );
}

/** `--adopt`: register the agent's threads other savers wrote, and say what was found. */
async function adopt(dsn: string, flagAgentId: string | undefined): Promise<void> {
  const vars = await projectVars(".");
  const agentId =
    nonEmpty(flagAgentId) ?? nonEmpty(process.env.AGENT_ID) ?? nonEmpty(vars.AGENT_ID);
  if (agentId === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "--adopt needs an agent id: pass --agent-id <id>, or run this in the project folder (AGENT_ID in .dev.vars or wrangler.toml)",
    );
  }
  const settings = dbSettings(dsn, vars);
  const db = createPgDb({
    connectionString: settings.dsn,
    max: 1,
    statementCacheSize: settings.statementCacheSize,
  });
  try {
    const report = await adoptThreads(db, agentId);
    const list = (ids: readonly string[]) => (ids.length === 0 ? "" : `: ${ids.join(", ")}`);
    info(`adopt (agent ${agentId}, thread_id "${agentId}:<thread>"):`);
    info(
      `  registered ${report.registered.length} thread(s) written by another saver${list(report.registered)}`,
    );
    info(
      `  repaired ${report.repaired.length} thread(s) whose head another saver moved${list(report.repaired)}`,
    );
    if (report.skipped.length > 0)
      info(
        `  skipped ${report.skipped.length} thread id(s) llamon cannot serve (empty or too long)`,
      );
    info(
      `  ${report.gone} registered thread(s) were deleted by another saver; their next turn starts afresh`,
    );
  } finally {
    await db.close();
  }
}
