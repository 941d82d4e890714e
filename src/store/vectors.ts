/**
 * Semantic recall's storage (migration 0009, vector-sql.ts): the vectors of one thread's
 * transcript messages, written off the request path in bounded batches, and the clear error
 * for a database without pgvector. The embedding itself is the caller's (llm/embeddings.ts):
 * this layer only stores and reads numbers.
 */
import { LlamonError } from "../errors.ts";
import type { Db } from "./db.ts";
import { SELECT_UNEMBEDDED, SELECT_VECTORS_READY, UPSERT_VECTORS } from "./vector-sql.ts";

/** A vector in pgvector's text form. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;
}

/** What to say when semantic recall is on and the database has no pgvector. */
export const NO_PGVECTOR_FIX =
  "semantic recall (recall_semantic) needs the pgvector extension and the table llamon_message_vectors of migration 0009, which this database does not have. On Neon pgvector is available: run `CREATE EXTENSION vector;` as the database owner, then `llamon memory reindex --dsn … --setup-vectors` (creates the table), or switch recall_semantic off";

/** SQLSTATEs of a missing table, type or function: the vectors table or pgvector is not there. */
const MISSING = new Set(["42P01", "42704", "42883"]);

function sqlstateOf(error: unknown): string | undefined {
  if (!(error instanceof LlamonError)) return undefined;
  const details = error.details as { sqlstate?: unknown } | undefined;
  return typeof details?.sqlstate === "string" ? details.sqlstate : undefined;
}

/** `error` of a batch that read vectors: CONFIG_INVALID naming the fix when pgvector is missing. */
export function semanticRecallError(error: unknown): unknown {
  const sqlstate = sqlstateOf(error);
  if (sqlstate === undefined || !MISSING.has(sqlstate)) return error;
  return new LlamonError("CONFIG_INVALID", NO_PGVECTOR_FIX, {
    cause: error,
    details: { field: "recall_semantic", sqlstate },
  });
}

/** Whether the database has migration 0009's table (pgvector was there when it ran). */
export async function vectorsReady(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ ready: boolean }>(SELECT_VECTORS_READY);
  return rows[0]?.ready === true;
}

export interface EmbedThreadInput {
  readonly db: Db;
  readonly agentId: string;
  readonly threadId: string;
  /** The embedder's name (`provider:model`) the vectors are stored under. */
  readonly model: string;
  /** Texts → vectors, one per text (llm/embeddings.ts `Embedder.embed`). */
  readonly embed: (texts: readonly string[]) => Promise<number[][]>;
  /** Messages per batch (one provider call and one write each). */
  readonly batchSize: number;
  /** Batches at most (default 1: the job after a turn). */
  readonly maxBatches?: number | undefined;
  /** Characters of a message sent to the provider. */
  readonly maxChars: number;
}

/**
 * Embeds the thread's indexed transcript messages that have no vector of `model` yet, oldest
 * first, at most `batchSize × maxBatches` of them; returns how many were stored. A missing
 * table is CONFIG_INVALID with the fix ({@link NO_PGVECTOR_FIX}).
 */
export async function embedThreadMessages(input: EmbedThreadInput): Promise<number> {
  let stored = 0;
  for (let batch = 0; batch < (input.maxBatches ?? 1); batch++) {
    const { rows } = await input.db
      .query<{ seq: string | number; terms: string; text: string | null }>(SELECT_UNEMBEDDED, [
        input.agentId,
        input.threadId,
        input.model,
        input.batchSize,
        input.maxChars,
      ])
      .catch((error: unknown) => {
        throw semanticRecallError(error);
      });
    const todo = rows.filter((r) => (r.text ?? "").trim() !== "");
    if (todo.length > 0) {
      const vectors = await input.embed(todo.map((r) => r.text ?? ""));
      const payload = todo.map((r, i) => ({
        seq: Number(r.seq),
        terms: r.terms,
        embedding: vectorLiteral(vectors[i] ?? []),
      }));
      const result = await input.db.query(UPSERT_VECTORS, [
        input.agentId,
        input.threadId,
        input.model,
        JSON.stringify(payload),
      ]);
      stored += result.rowCount;
    }
    if (rows.length < input.batchSize) break;
    // Rows with no text (never sent) would be selected again: stop rather than loop on them.
    if (todo.length === 0) break;
  }
  return stored;
}
