/**
 * `llamon memory reindex`: give conversation recall's index terms to transcript rows written
 * before migration 0008 or by an older TERMS_VERSION (memory/reindex.ts), in bounded batches; without `--apply` it only
 * counts them. `--setup-vectors` runs migration 0009's pgvector setup again, for a database
 * where the `vector` extension was enabled after the migrations ran (idempotent).
 */
import type { Command } from "commander";
import { LlamonError } from "llamon/errors";
import type { Db } from "llamon/node";
import {
  countUnindexed,
  DEFAULT_REINDEX_BATCH_SIZE,
  MAX_REINDEX_BATCH_SIZE,
  NO_PGVECTOR_FIX,
  redactDsn,
  reindexTranscript,
  vectorsReady,
} from "llamon/node";
import { createPgDb } from "../../store/db-pg.ts";
import { loadMigrations } from "../../store/migrate.ts";
import { dbSettings, projectVars } from "../config.ts";
import { parsePositiveInt } from "../options.ts";
import { info } from "../output.ts";
import { withSpinner } from "../spinner.ts";

interface ReindexOptions {
  dsn?: string;
  apply?: boolean;
  batchSize?: number;
  setupVectors?: boolean;
  project: string;
  json?: boolean;
}

const VECTORS_MIGRATION = "0009_recall_vectors.sql";

/** Runs migration 0009's SQL again (it creates only what is missing); true when the table is there. */
export async function setupVectors(db: Db): Promise<boolean> {
  const file = (await loadMigrations()).find((f) => f.name === VECTORS_MIGRATION);
  if (file === undefined) {
    throw new LlamonError("INTERNAL", `the migrations folder has no ${VECTORS_MIGRATION}`);
  }
  await db.query(file.sql);
  return vectorsReady(db);
}

export function registerReindex(memory: Command): void {
  memory
    .command("reindex")
    .description(
      "index old transcript messages for conversation recall (dry run unless --apply), or set up semantic recall's table",
    )
    .option("--dsn <dsn>", "Postgres DSN; default: POSTGRES_MEMORY_DSN (environment, .dev.vars)")
    .option("--apply", "write the index terms; without it only the rows to index are counted")
    .option(
      "--batch-size <n>",
      `rows per batch, one read and one write each (default ${DEFAULT_REINDEX_BATCH_SIZE}, at most ${MAX_REINDEX_BATCH_SIZE})`,
      parsePositiveInt("--batch-size"),
    )
    .option(
      "--setup-vectors",
      "create semantic recall's table (pgvector must be available: on Neon run CREATE EXTENSION vector first)",
    )
    .option("--project <dir>", "project folder to read the DSN from", ".")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon memory reindex --dsn postgresql://postgres@localhost:5432/my_agent_memory
  $ npx llamon memory reindex --dsn postgresql://… --apply --batch-size 1000
  $ npx llamon memory reindex --dsn postgresql://… --setup-vectors

Every agent's rows are indexed (the terms depend only on the message). Safe to stop and run
again: each batch is its own short statement, and rows a turn indexed meanwhile are left alone.`,
    )
    .action(async (opts: ReindexOptions) => {
      if (opts.batchSize !== undefined && opts.batchSize > MAX_REINDEX_BATCH_SIZE) {
        throw new LlamonError(
          "CONFIG_INVALID",
          `--batch-size must be at most ${MAX_REINDEX_BATCH_SIZE}, got ${opts.batchSize}`,
        );
      }
      const vars = await projectVars(opts.project);
      const settings = dbSettings(opts.dsn, vars);
      const db = createPgDb({
        connectionString: settings.dsn,
        max: 1,
        statementCacheSize: settings.statementCacheSize,
      });
      const where = redactDsn(settings.dsn);
      try {
        if (opts.setupVectors) {
          const ready = await setupVectors(db);
          if (!ready) throw new LlamonError("CONFIG_INVALID", NO_PGVECTOR_FIX);
          if (opts.json) info(JSON.stringify({ database: where, vectors: true }));
          else info(`semantic recall's table llamon_message_vectors is ready in ${where}`);
          return;
        }
        const pending = await countUnindexed(db);
        if (!opts.apply) {
          if (opts.json)
            info(JSON.stringify({ database: where, unindexed: pending, applied: false }));
          else {
            info(`${pending} transcript message(s) in ${where} have no recall index terms.`);
            if (pending > 0) info("Run again with --apply to index them.");
          }
          return;
        }
        const result = await withSpinner(
          `indexing ${pending} transcript message(s)`,
          (progress) =>
            reindexTranscript(db, {
              batchSize: opts.batchSize,
              onBatch: (p) => progress.update(`batch ${p.batches}: ${p.indexed} row(s) done`),
            }),
          (r) => `indexed ${r.indexed} row(s) in ${r.batches} batch(es)`,
        );
        if (opts.json) info(JSON.stringify({ database: where, ...result, applied: true }));
        else
          info(
            `${result.indexed - result.skipped} message(s) indexed, ${result.skipped} without text to index (tool results and the like).`,
          );
      } finally {
        await db.close();
      }
    });
}
