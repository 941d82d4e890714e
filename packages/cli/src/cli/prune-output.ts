/** What `llamon memory prune` prints: the plan table, the result, and the JSON forms. */
import {
  ANONYMOUS_PRINCIPAL,
  decodeThreadKey,
  PRUNE_TABLES,
  type PrunePlan,
  type PruneResult,
  redactDsn,
  sumCounts,
  type TableCounts,
} from "llamon/node";
import { info } from "./output.ts";
import { formatBytes, formatTable } from "./table.ts";

const SHORT: Record<(typeof PRUNE_TABLES)[number], string> = {
  checkpoints: "checkpoints",
  checkpoint_blobs: "blobs",
  checkpoint_writes: "writes",
  persistent_memory: "memory",
  llamon_threads: "registry",
  llamon_messages: "transcript",
  llamon_message_ids: "message ids",
};

function when(date: Date | null): string {
  return date === null ? "unknown" : `${date.toISOString().slice(0, 16).replace("T", " ")}`;
}

/** "chat-1" for an anonymous conversation, "chat-1 (principal alice)" otherwise. */
function shown(key: string): string {
  const { principal, contextId } = decodeThreadKey(key);
  return principal === ANONYMOUS_PRINCIPAL ? contextId : `${contextId} (principal ${principal})`;
}

function describeFilter(plan: PrunePlan, principal: string | undefined): string {
  const parts: string[] = [];
  if (principal !== undefined) parts.push(`principal ${principal}`);
  if (plan.threadIds !== undefined) parts.push(`thread ${plan.threadIds.map(shown).join(", ")}`);
  if (plan.cutoff !== null) parts.push(`last activity before ${when(plan.cutoff)} UTC`);
  return parts.length === 0 ? "all threads" : parts.join(", ");
}

function totalsLine(counts: TableCounts): string {
  const sum = sumCounts(counts);
  return `${PRUNE_TABLES.map((t) => `${t} ${counts[t].rows}`).join(" · ")} · ${formatBytes(sum.bytes)}`;
}

export function printPlan(
  plan: PrunePlan,
  dsn: string,
  applying: boolean,
  principal: string | undefined,
): void {
  info(`database: ${redactDsn(dsn)}`);
  info(`agent: ${plan.agentId} — ${describeFilter(plan, principal)}`);
  for (const id of plan.notMatched) {
    info(
      `(no thread "${shown(id)}" of agent ${plan.agentId} matches: not found, or active too recently)`,
    );
  }
  if (plan.threads.length === 0) {
    info("nothing to prune.");
    return;
  }
  info("");
  const headers = [
    "context_id",
    "principal",
    "last activity (UTC)",
    ...PRUNE_TABLES.map((t) => SHORT[t]),
    "size",
  ];
  const rows = plan.threads.map((t) => {
    const owner = decodeThreadKey(t.threadId);
    return [
      owner.contextId,
      owner.principal,
      when(t.lastActivityAt) + (t.registered ? "" : " *"),
      ...PRUNE_TABLES.map((table) => String(t.tables[table].rows)),
      formatBytes(t.bytes),
    ];
  });
  // The row counts, right-aligned.
  const counts = PRUNE_TABLES.map((_, i) => 3 + i);
  for (const line of formatTable(headers, rows, counts)) info(line);
  if (plan.threads.some((t) => !t.registered)) {
    info("* not in the thread registry: last activity taken from its newest stored row");
  }
  info("");
  info(`total: ${plan.threads.length} thread(s) · ${totalsLine(plan.totals)}`);
  if (!applying) {
    info("dry run: nothing was deleted. Add --apply to delete these threads.");
  }
}

export function printResult(result: PruneResult): void {
  info(
    `deleted ${result.deleted.length} thread(s) of agent ${result.agentId}: ${totalsLine(result.tables)}`,
  );
  info("deleted threads:");
  for (const id of result.deleted) info(`  ${shown(id)}`);
  if (result.skipped.length > 0) {
    info("kept (active again since the listing):");
    for (const id of result.skipped) info(`  ${shown(id)}`);
  }
}

/** The (principal, context_id) of a thread key, for JSON output. */
function ownerJson(key: string) {
  const { principal, contextId } = decodeThreadKey(key);
  return { principal, context_id: contextId };
}

function countsJson(counts: TableCounts) {
  return Object.fromEntries(PRUNE_TABLES.map((t) => [t, counts[t]]));
}

export function planJson(plan: PrunePlan, dsn: string) {
  return {
    database: redactDsn(dsn),
    agent_id: plan.agentId,
    cutoff: plan.cutoff?.toISOString() ?? null,
    dry_run: true,
    threads: plan.threads.map((t) => ({
      thread_id: t.threadId,
      ...ownerJson(t.threadId),
      last_activity_at: t.lastActivityAt?.toISOString() ?? null,
      registered: t.registered,
      tables: countsJson(t.tables),
      rows: t.rows,
      bytes: t.bytes,
    })),
    not_matched: plan.notMatched,
    not_matched_conversations: plan.notMatched.map(ownerJson),
    totals: countsJson(plan.totals),
  };
}

export function resultJson(plan: PrunePlan, result: PruneResult, dsn: string) {
  return {
    ...planJson(plan, dsn),
    dry_run: false,
    deleted: result.deleted,
    deleted_conversations: result.deleted.map(ownerJson),
    skipped: result.skipped,
    batches: result.batches,
    deleted_totals: countsJson(result.tables),
  };
}
