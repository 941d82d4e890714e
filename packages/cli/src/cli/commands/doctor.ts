/**
 * `llamon doctor [dir]`: checks a project's configuration, bindings, secrets and database and
 * says exactly what is missing and how to fix it; exit code 1 when something is wrong.
 */
import type { Command } from "commander";
import { nonEmpty } from "../config.ts";
import { authChecks } from "../doctor/auth.ts";
import { bindingChecks } from "../doctor/bindings.ts";
import { configChecks } from "../doctor/config.ts";
import { readProject } from "../doctor/project.ts";
import { formatReport, summarize } from "../doctor/report.ts";
import { secretChecks } from "../doctor/secrets.ts";
import { type Check, workerEnv } from "../doctor/types.ts";
import { info } from "../output.ts";

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .argument("[dir]", "project folder", ".")
    .description(
      "check a project's config, bindings, secrets and database, and say how to fix what is missing",
    )
    .option(
      "--dsn <dsn>",
      "the database to check (default: POSTGRES_MEMORY_DSN from the environment or the project's .dev.vars)",
    )
    .option("--json", "print the checks as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon doctor
  $ npx llamon doctor my-agent --json
  $ npx llamon doctor --dsn "postgresql://user:password@ep-xyz.eu-central-1.aws.neon.tech/neondb?sslmode=require"

Exit code 0 when ready, 1 when something must be fixed. Secrets set with wrangler secret put
are not visible here: doctor lists the ones the deployed Worker needs.`,
    )
    .action(async (dir: string, opts: { dsn?: string; json?: boolean }) => {
      const facts = await readProject(dir);
      const config = configChecks(facts);
      const checks: Check[] = [
        ...config.checks,
        ...bindingChecks(facts, config.memory),
        ...secretChecks(facts, config.memory),
        ...authChecks(facts),
      ];
      const env = workerEnv(facts);
      const dsn =
        nonEmpty(opts.dsn) ??
        nonEmpty(process.env.POSTGRES_MEMORY_DSN) ??
        nonEmpty(env.POSTGRES_MEMORY_DSN);
      if (config.memory?.enabled && config.memory.backend === "postgres" && dsn !== undefined) {
        const { databaseChecks } = await import("../doctor/database.ts");
        checks.push(
          ...(await databaseChecks(dsn, nonEmpty(env.AGENT_ID), config.memory.recall_semantic)),
        );
      }
      const report = summarize(facts.dir, checks);
      if (opts.json) info(JSON.stringify(report, null, 2));
      else for (const line of formatReport(report)) info(line);
      if (!report.ok) process.exitCode = 1;
    });
}
