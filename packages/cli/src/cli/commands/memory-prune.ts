/**
 * `llamon memory prune`: list (default) or delete (`--apply`) old conversations of one
 * agent across checkpoints, checkpoint_blobs, checkpoint_writes, persistent_memory and
 * llamon_threads (R4.3). Another agent's threads are never touched.
 *
 * A conversation belongs to (principal, contextId) — the A2A caller and its contextId — and is
 * stored under the thread key of both (runtime/thread-keys.ts). `--principal P` limits the
 * prune to P's conversations; `--thread-id X` names P's contextId X (P default `anonymous`:
 * A2A_AUTH=none, and conversations stored before authentication existed).
 *
 * The conversations' A2A task records live in the Worker's Durable Objects: the delete queues
 * their erasure in Postgres, and `--url` asks the Worker to erase them at once; without it the
 * output says how many are pending (the Worker's cron erases them). `llamon memory drain`
 * asks the Worker to erase whatever is queued.
 */
import type { Command } from "commander";
import { LlamonError } from "llamon/errors";
import type { Db } from "llamon/node";
import {
  ANONYMOUS_PRINCIPAL,
  applyPrune,
  assertAgentId,
  contextIdProblem,
  DEFAULT_PRUNE_BATCH_SIZE,
  pendingTaskErasures,
  planPrune,
  principalKeyScope,
  principalProblem,
  threadKey,
} from "llamon/node";
import { createPgDb } from "../../store/db-pg.ts";
import { dbSettings, nonEmpty, projectVars } from "../config.ts";
import { parsePositiveInt } from "../options.ts";
import { info } from "../output.ts";
import { planJson, printPlan, printResult, resultJson } from "../prune-output.ts";
import { withSpinner } from "../spinner.ts";
import {
  adminTokenOf,
  drainJson,
  drainViaWorker,
  printDrain,
  printPending,
  workerUrl,
} from "../task-erasures.ts";
import { registerReindex } from "./memory-reindex.ts";

interface PruneOptions {
  dsn?: string;
  agentId?: string;
  olderThanDays?: number;
  threadId?: string[];
  principal?: string;
  all?: boolean;
  apply?: boolean;
  batchSize?: number;
  project: string;
  json?: boolean;
  url?: string;
  token?: string;
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
  registerReindex(memory);
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
    .option(
      "--thread-id <id>",
      "only this conversation (the A2A contextId, of --principal); repeatable",
      collect,
    )
    .option(
      "--principal <name>",
      "only this caller's conversations (default for --thread-id: anonymous)",
    )
    .option("--all", "every thread of the agent (when no other filter is given)")
    .option("--apply", "delete; without it nothing is changed")
    .option(
      "--batch-size <n>",
      `threads per transaction when deleting (default ${DEFAULT_PRUNE_BATCH_SIZE})`,
      parsePositiveInt("--batch-size"),
    )
    .option(
      "--url <worker>",
      "with --apply: the deployed Worker, asked to erase the pruned conversations' A2A task records now",
    )
    .option("--token <token>", "the Worker's admin token; default: LLAMON_ADMIN_TOKEN")
    .option("--project <dir>", "project folder to read AGENT_ID and the DSN from", ".")
    .option("--json", "print the plan / result as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon memory prune --dsn postgresql://postgres@localhost:5432/my_agent_memory --older-than-days 30
  $ npx llamon memory prune --dsn postgresql://… --older-than-days 30 --apply
  $ npx llamon memory prune --dsn postgresql://… --thread-id user-session-abc --apply
  $ npx llamon memory prune --dsn postgresql://… --principal alice --thread-id chat-1 --apply
  $ npx llamon memory prune --dsn postgresql://… --older-than-days 30 --apply --url https://my-agent.example.workers.dev

Without --apply it only prints a table of the threads, rows and bytes that would be deleted.
With --apply it deletes them in batches (one transaction each) and reports what it did.
A2A task records (tasks/get) live in the Worker's Durable Objects: the delete queues them, and
the Worker erases them on its cron trigger, or at once with --url (admin token: --token or
LLAMON_ADMIN_TOKEN); the output says how many are still pending.
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
      const principal = opts.principal;
      const principalError = principal === undefined ? undefined : principalProblem(principal);
      if (principalError !== undefined) {
        throw new LlamonError("CONFIG_INVALID", `--principal ${principalError}`);
      }
      for (const id of opts.threadId ?? []) {
        const problem = contextIdProblem(id);
        if (problem !== undefined) {
          throw new LlamonError("CONFIG_INVALID", `--thread-id "${id}" ${problem}`);
        }
      }
      const hasFilter =
        opts.olderThanDays !== undefined ||
        (opts.threadId?.length ?? 0) > 0 ||
        principal !== undefined;
      if (opts.all && hasFilter) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "--all means every thread of the agent: leave out --older-than-days, --thread-id and --principal, or drop --all",
        );
      }
      if (!opts.all && !hasFilter) {
        throw new LlamonError(
          "CONFIG_INVALID",
          "say which threads: --older-than-days N, --thread-id X, --principal P, or --all (every thread of the agent)",
        );
      }
      const owner = principal ?? ANONYMOUS_PRINCIPAL;
      // Checked before anything is deleted: a bad --url must not leave a half-done prune.
      const worker =
        opts.url === undefined
          ? undefined
          : { url: workerUrl(opts.url), token: adminTokenOf(opts.token, vars) };
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
          threadIds: opts.threadId?.map((id) => threadKey(owner, id)),
          keyScope: principal === undefined ? undefined : principalKeyScope(principal),
        });
        if (!opts.apply) {
          if (opts.json) info(JSON.stringify(planJson(plan, settings.dsn), null, 2));
          else printPlan(plan, settings.dsn, false, principal);
          return;
        }
        if (!opts.json) printPlan(plan, settings.dsn, true, principal);
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
        if (!opts.json) printResult(result);
        const erasures = await eraseTaskRecords(db, agentId, worker, opts.json === true);
        if (opts.json) {
          info(
            JSON.stringify(
              { ...resultJson(plan, result, settings.dsn), task_erasures: erasures },
              null,
              2,
            ),
          );
        }
      } finally {
        await db.close();
      }
    });
  registerDrain(memory);
}

/**
 * After a prune: ask the Worker to erase the queued task records (`worker`), or say how many
 * are pending. A failed request exits non-zero and says the records stay queued.
 */
async function eraseTaskRecords(
  db: Db,
  agentId: string,
  worker: { url: string; token: string } | undefined,
  json: boolean,
) {
  if (worker !== undefined) {
    try {
      const drain = await drainViaWorker(worker.url, worker.token, agentId);
      if (!json) printDrain(drain);
      return drainJson(drain);
    } catch (error) {
      if (!json) printPending(await pendingTaskErasures(db, agentId), agentId);
      throw error;
    }
  }
  const pending = await pendingTaskErasures(db, agentId);
  if (!json) printPending(pending, agentId);
  return { conversations: 0, tasks_erased: 0, pending };
}

/** `llamon memory drain`: ask the Worker to erase the task records every prune queued. */
export function registerDrain(memory: Command): void {
  memory
    .command("drain")
    .description(
      "ask the deployed Worker to erase the A2A task records of conversations prune deleted",
    )
    .requiredOption("--url <worker>", "the Worker (e.g. https://my-agent.example.workers.dev)")
    .option("--token <token>", "the Worker's admin token; default: LLAMON_ADMIN_TOKEN")
    .option("--agent-id <id>", "expected agent; default: AGENT_ID of the project")
    .option("--project <dir>", "project folder to read AGENT_ID and the token from", ".")
    .option("--json", "print the result as JSON")
    .action(
      async (opts: {
        url: string;
        token?: string;
        agentId?: string;
        project: string;
        json?: boolean;
      }) => {
        const vars = await projectVars(opts.project);
        const url = workerUrl(opts.url);
        const token = adminTokenOf(opts.token, vars);
        const expected =
          nonEmpty(opts.agentId) ?? nonEmpty(process.env.AGENT_ID) ?? nonEmpty(vars.AGENT_ID);
        const drain = await drainViaWorker(url, token, expected);
        if (opts.json) info(JSON.stringify({ agent_id: drain.agentId, ...drainJson(drain) }));
        else printDrain(drain);
      },
    );
}
