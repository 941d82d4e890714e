/**
 * `llamon memory prune`: list (default) or delete (`--apply`) old conversations of one
 * agent across checkpoints, checkpoint_blobs, checkpoint_writes, persistent_memory and
 * llamon_threads (SPEC R4.3). Another agent's threads are never touched.
 */
import type { Command } from "commander";
import { LlamonError } from "../../errors.ts";
import { createPgDb } from "../../store/db-pg.ts";
import { redactDsn } from "../../store/dsn.ts";
import {
  applyPrune,
  DEFAULT_PRUNE_BATCH_SIZE,
  PRUNE_TABLES,
  type PrunePlan,
  type PruneResult,
  planPrune,
  sumCounts,
  type TableCounts,
} from "../../store/prune.ts";
import { assertAgentId } from "../../store/thread-key.ts";
import { dbSettings, nonEmpty, projectVars } from "../config.ts";
import { parsePositiveInt } from "../options.ts";
import { info } from "../output.ts";
import { withSpinner } from "../spinner.ts";
import { formatBytes, formatTable } from "../table.ts";

interface PruneOptions {
  dsn?: string;
  agentId?: string;
  olderThanDays?: number;
  threadId?: string[];
  all?: boolean;
  apply?: boolean;
  batchSize?: number;
  project: string;
  json?: boolean;
}

function parseDays(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `--older-than-days must be a whole number of days ≥ 0, got "${value}"`,
    );
  }
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerMemory(program: Command): void {
  const memory = program
    .command("memory")
    .description("maintain stored conversations (Postgres backend)")
    .addHelpText(
      "after",
      "\nExample:\n  $ npx llamon memory prune --dsn postgresql://postgres@localhost:5432/my_agent_memory --older-than-days 30",
    );
  memory
    .command("prune")
    .description("list (dry run) or delete old conversations of one agent across all memory tables")
    .option("--dsn <dsn>", "Postgres DSN; default: POSTGRES_MEMORY_DSN (environment, .dev.vars)")
    .option(
      "--agent-id <id>",
      "whose threads; default: AGENT_ID (environment, then the project's .dev.vars / wrangler.toml)",
    )
    .option(
      "--older-than-days <n>",
      "only threads with no activity for more than N days",
      parseDays,
    )
    .option("--thread-id <id>", "only this thread (the A2A contextId); repeatable", collect)
    .option("--all", "every thread of the agent (when no other filter is given)")
    .option("--apply", "delete; without it nothing is changed")
    .option(
      "--batch-size <n>",
      `threads per transaction when deleting (default ${DEFAULT_PRUNE_BATCH_SIZE})`,
      parsePositiveInt("--batch-size"),
    )
    .option("--project <dir>", "project folder to read AGENT_ID and the DSN from", ".")
    .option("--json", "print the plan / result as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon memory prune --dsn postgresql://postgres@localhost:5432/my_agent_memory --older-than-days 30
  $ npx llamon memory prune --dsn postgresql://… --older-than-days 30 --apply
  $ npx llamon memory prune --dsn postgresql://… --thread-id user-session-abc --apply

Without --apply it only prints a table of the threads, rows and bytes that would be deleted.
With --apply it deletes them in batches (one transaction each) and reports what it did.
Threads live in the Postgres backend; in_memory / sqlite threads live in Durable Objects.
Safe behind PgBouncer in transaction mode; uses one connection
(MEMORY_PG_STATEMENT_CACHE_SIZE=0, the default, prepares no named statements).`,
    )
    .action(async (opts: PruneOptions) => {
      const vars = await projectVars(opts.project);
      const agentId =
        nonEmpty(opts.agentId) ?? nonEmpty(process.env.AGENT_ID) ?? nonEmpty(vars.AGENT_ID);
      if (agentId === undefined) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "no agent id: pass --agent-id <id>, or run this in the project folder (AGENT_ID in .dev.vars or wrangler.toml)",
        );
      }
      assertAgentId(agentId);
      const hasFilter = opts.olderThanDays !== undefined || (opts.threadId?.length ?? 0) > 0;
      if (opts.all && hasFilter) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "--all means every thread of the agent: leave out --older-than-days and --thread-id, or drop --all",
        );
      }
      if (!opts.all && !hasFilter) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "say which threads: --older-than-days N, --thread-id X, or --all (every thread of the agent)",
        );
      }
      const settings = dbSettings(opts.dsn, vars);
      const db = createPgDb({
        connectionString: settings.dsn,
        max: 1,
        statementCacheSize: settings.statementCacheSize,
      });
      try {
        const plan = await planPrune(db, {
          agentId,
          olderThanDays: opts.olderThanDays,
          threadIds: opts.threadId,
        });
        if (!opts.apply) {
          if (opts.json) info(JSON.stringify(planJson(plan, settings.dsn), null, 2));
          else printPlan(plan, settings.dsn, false);
          return;
        }
        if (!opts.json) printPlan(plan, settings.dsn, true);
        if (plan.threads.length === 0) {
          if (opts.json) info(JSON.stringify({ ...planJson(plan, settings.dsn), deleted: [] }));
          return;
        }
        const batchSize = opts.batchSize ?? DEFAULT_PRUNE_BATCH_SIZE;
        const result = await withSpinner(
          `deleting ${plan.threads.length} thread(s) in batches of up to ${batchSize}`,
          (progress) =>
            applyPrune(db, plan, {
              batchSize,
              onBatch: (p) =>
                progress.update(`batch ${p.batch}/${p.batches}: ${p.deleted} thread(s) deleted`),
            }),
          (r) => `deleted ${r.deleted.length} thread(s) in ${r.batches} batch(es)`,
        );
        if (opts.json) info(JSON.stringify(resultJson(plan, result, settings.dsn), null, 2));
        else printResult(result);
      } finally {
        await db.close();
      }
    });
}

const SHORT: Record<(typeof PRUNE_TABLES)[number], string> = {
  checkpoints: "checkpoints",
  checkpoint_blobs: "blobs",
  checkpoint_writes: "writes",
  persistent_memory: "memory",
  llamon_threads: "registry",
};

function when(date: Date | null): string {
  return date === null ? "unknown" : `${date.toISOString().slice(0, 16).replace("T", " ")}`;
}

function describeFilter(plan: PrunePlan): string {
  const parts: string[] = [];
  if (plan.threadIds !== undefined) parts.push(`thread ${plan.threadIds.join(", ")}`);
  if (plan.cutoff !== null) parts.push(`last activity before ${when(plan.cutoff)} UTC`);
  return parts.length === 0 ? "all threads" : parts.join(", ");
}

function totalsLine(counts: TableCounts): string {
  const sum = sumCounts(counts);
  return `${PRUNE_TABLES.map((t) => `${t} ${counts[t].rows}`).join(" · ")} · ${formatBytes(sum.bytes)}`;
}

function printPlan(plan: PrunePlan, dsn: string, applying: boolean): void {
  info(`database: ${redactDsn(dsn)}`);
  info(`agent: ${plan.agentId} — ${describeFilter(plan)}`);
  for (const id of plan.notMatched) {
    info(`(no thread "${id}" of agent ${plan.agentId} matches: not found, or active too recently)`);
  }
  if (plan.threads.length === 0) {
    info("nothing to prune.");
    return;
  }
  info("");
  const headers = [
    "thread_id",
    "last activity (UTC)",
    ...PRUNE_TABLES.map((t) => SHORT[t]),
    "size",
  ];
  const rows = plan.threads.map((t) => [
    t.threadId,
    when(t.lastActivityAt) + (t.registered ? "" : " *"),
    ...PRUNE_TABLES.map((table) => String(t.tables[table].rows)),
    formatBytes(t.bytes),
  ]);
  for (const line of formatTable(headers, rows, [2, 3, 4, 5, 6, 7])) info(line);
  if (plan.threads.some((t) => !t.registered)) {
    info("* not in the thread registry: last activity taken from its newest stored row");
  }
  info("");
  info(`total: ${plan.threads.length} thread(s) · ${totalsLine(plan.totals)}`);
  if (!applying) {
    info("dry run: nothing was deleted. Add --apply to delete these threads.");
  }
}

function printResult(result: PruneResult): void {
  info(
    `deleted ${result.deleted.length} thread(s) of agent ${result.agentId}: ${totalsLine(result.tables)}`,
  );
  info("deleted threads:");
  for (const id of result.deleted) info(`  ${id}`);
  if (result.skipped.length > 0) {
    info("kept (active again since the listing):");
    for (const id of result.skipped) info(`  ${id}`);
  }
}

function countsJson(counts: TableCounts) {
  return Object.fromEntries(PRUNE_TABLES.map((t) => [t, counts[t]]));
}

function planJson(plan: PrunePlan, dsn: string) {
  return {
    database: redactDsn(dsn),
    agent_id: plan.agentId,
    cutoff: plan.cutoff?.toISOString() ?? null,
    dry_run: true,
    threads: plan.threads.map((t) => ({
      thread_id: t.threadId,
      last_activity_at: t.lastActivityAt?.toISOString() ?? null,
      registered: t.registered,
      tables: countsJson(t.tables),
      rows: t.rows,
      bytes: t.bytes,
    })),
    not_matched: plan.notMatched,
    totals: countsJson(plan.totals),
  };
}

function resultJson(plan: PrunePlan, result: PruneResult, dsn: string) {
  return {
    ...planJson(plan, dsn),
    dry_run: false,
    deleted: result.deleted,
    skipped: result.skipped,
    batches: result.batches,
    deleted_totals: countsJson(result.tables),
  };
}
