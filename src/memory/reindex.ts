/**
 * Backfill of conversation recall's lexical index (migration 0008): transcript rows written
 * before it have NULL `search_terms` and are never recalled, and rows whose terms an older
 * TERMS_VERSION made no longer match the terms a question gets today. This computes their terms in JS
 * (recall/terms.ts through `indexTermsOf`, the same function the turn uses when it appends)
 * and writes them in bounded batches, one read and one write per batch, in key order, so it
 * can stop and resume at any point and never holds a long transaction.
 *
 * A row that is not indexed (a tool result, a reply with no text) gets `terms_version` with
 * NULL terms, so the next run does not visit it again. A row written or changed by a turn
 * meanwhile is never overwritten (the write only touches rows still unindexed or indexed by an
 * older version).
 */
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import type { Db } from "../store/db.ts";
import { fromTranscriptRows } from "../store/transcript.ts";
import { COUNT_UNINDEXED, SELECT_UNINDEXED, UPDATE_INDEX_TERMS } from "../store/vector-sql.ts";
import { indexTermsOf, TERMS_VERSION } from "./recall/index.ts";

export const DEFAULT_REINDEX_BATCH_SIZE = 500;
export const MAX_REINDEX_BATCH_SIZE = 10_000;

export interface ReindexProgress {
  /** Rows read and given terms so far. */
  readonly indexed: number;
  /** Of them, rows that are not indexed (no user or assistant text). */
  readonly skipped: number;
  readonly batches: number;
}

export interface ReindexOptions {
  readonly batchSize?: number | undefined;
  /** Stop after this many batches (default: until no row is left). */
  readonly maxBatches?: number | undefined;
  readonly onBatch?: ((progress: ReindexProgress) => void) | undefined;
}

/** Rows that the backfill would index (dry run). */
export async function countUnindexed(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(COUNT_UNINDEXED, [TERMS_VERSION]);
  return Number(rows[0]?.n ?? 0);
}

interface UnindexedRow {
  agent_id: string;
  thread_id: string;
  seq: string | number;
  message: unknown;
}

/** Index every unindexed transcript row (see the file header). */
export async function reindexTranscript(
  db: Db,
  options: ReindexOptions = {},
): Promise<ReindexProgress> {
  const batchSize = Math.min(
    Math.max(1, Math.floor(options.batchSize ?? DEFAULT_REINDEX_BATCH_SIZE)),
    MAX_REINDEX_BATCH_SIZE,
  );
  const serde = new JsonPlusSerializer();
  let after: { agent: string; thread: string; seq: number } | undefined;
  let indexed = 0;
  let skipped = 0;
  let batches = 0;
  while (options.maxBatches === undefined || batches < options.maxBatches) {
    const { rows } = await db.query<UnindexedRow>(SELECT_UNINDEXED, [
      after?.agent ?? null,
      after?.thread ?? null,
      after?.seq ?? null,
      batchSize,
      TERMS_VERSION,
    ]);
    if (rows.length === 0) break;
    const messages = await fromTranscriptRows(serde, rows);
    const payload = rows.map((row, i) => {
      const message = messages[i];
      const terms = message === undefined ? null : indexTermsOf(message);
      if (terms === null) skipped += 1;
      return {
        agent_id: row.agent_id,
        thread_id: row.thread_id,
        seq: Number(row.seq),
        terms,
        version: TERMS_VERSION,
      };
    });
    await db.query(UPDATE_INDEX_TERMS, [JSON.stringify(payload)]);
    indexed += rows.length;
    batches += 1;
    const last = rows[rows.length - 1] as UnindexedRow;
    after = { agent: last.agent_id, thread: last.thread_id, seq: Number(last.seq) };
    options.onBatch?.({ indexed, skipped, batches });
    if (rows.length < batchSize) break;
  }
  return { indexed, skipped, batches };
}
