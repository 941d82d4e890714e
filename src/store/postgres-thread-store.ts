/**
 * The Postgres thread store (store/thread-store.ts), over Neon HTTP with a NeonSaver:
 *
 * - `load` is one read-only batch (NeonSaver.readHead): the head checkpoint with its delta
 *   history and the thread's registry row, then the statements built here — the thread's and
 *   the agent's persistent_memory rows, conversation recall over the transcript (BM25, and the
 *   nearest messages for semantic recall) and the incoming messageId's stored turn (R11.2);
 * - `commit` is one atomic batch (NeonSaver.flushTurn): the head compare-and-set, the blobs
 *   and the checkpoint, then what the turn staged — its messageId, the transcript rows that
 *   left the live tail, a trim's deletion, its memory rows.
 *
 * A thread whose registry head is gone (erased by another saver) starts afresh: its old
 * transcript and message ids (deleted by the turn's write) are never quoted or answered.
 */

import type { SqlStatement } from "./db.ts";
import { LocalThreadStore, type StagedTurn } from "./local-thread-store.ts";
import { type StoredTurn, storedTurnOf } from "./message-ids.ts";
import { INSERT_MESSAGE_ID, MAX_TURN_ROWS, SELECT_MESSAGE_TURN } from "./message-ids-sql.ts";
import type { NeonSaver } from "./neon-saver.ts";
import { type MemoryRows, toMemoryRows } from "./persistent-memory.ts";
import {
  type PrefetchedRecall,
  parseRecallRow,
  parseVectorRows,
  recallToRead,
} from "./recall-prefetch.ts";
import {
  APPEND_TRANSCRIPT,
  DELETE_MEMORY_KEYS,
  DELETE_THREAD_TRANSCRIPT,
  DELETE_TRIMMED_COUNT,
  SELECT_RECALL,
  TRIM_TRANSCRIPT,
  UPSERT_MEMORY,
} from "./sql.ts";
import { SELECT_LIVE_MEMORY_ROWS } from "./thread-head-sql.ts";
import type { TurnCommit, TurnQuery, TurnSnapshot } from "./thread-store.ts";
import { SELECT_RECALL_VECTORS } from "./vector-sql.ts";
import { semanticRecallError, vectorLiteral } from "./vectors.ts";

class PostgresThreadStore extends LocalThreadStore<NeonSaver> {
  readonly keepsTranscript = true;
  readonly recallInLoad = true;
  /** The registry generation of each thread, as its load read it or its commit wrote it. */
  readonly #generations = new Map<string, string>();

  async load(query: TurnQuery): Promise<TurnSnapshot> {
    const { threadId } = query;
    const { agentId } = this.saver;
    this.startLoad(threadId);
    const extra: SqlStatement[] = [{ text: SELECT_LIVE_MEMORY_ROWS, params: [agentId, threadId] }];
    const recall = recallToRead(query.recall);
    if (recall !== undefined) {
      extra.push({ text: SELECT_RECALL, params: [agentId, threadId, recall.terms, recall.limit] });
      const v = recall.vector;
      if (v !== undefined) {
        extra.push({
          text: SELECT_RECALL_VECTORS,
          params: [agentId, threadId, vectorLiteral(v.embedding), v.model, v.limit],
        });
      }
    }
    // The incoming messageId (R11.2): a primary-key probe, and a resend's stored turn.
    extra.push({
      text: SELECT_MESSAGE_TURN,
      params: [agentId, threadId, query.messageId, MAX_TURN_ROWS],
    });
    const read = await this.saver.readHead(threadId, extra).catch((error: unknown) => {
      throw recall?.vector !== undefined ? semanticRecallError(error) : error;
    });
    const [memoryRows, ...rest] = read.extra;
    const memory = toMemoryRows(
      (memoryRows?.rows ?? []) as { thread_id: string; key: string; value: unknown }[],
    );
    this.loaded.set(threadId, memory);
    if (read.registry === undefined) this.#generations.delete(threadId);
    else this.#generations.set(threadId, read.registry.generation);
    // A thread another saver deleted starts fresh: its old transcript and message ids (deleted
    // by the next write) belong to the old conversation.
    const gone = read.registry?.gone === true;
    let prefetched: PrefetchedRecall | undefined;
    if (recall !== undefined) {
      const bm25 = rest.shift();
      const vectors = recall.vector !== undefined ? rest.shift() : undefined;
      const found = gone ? parseRecallRow(undefined) : parseRecallRow(bm25?.rows[0]?.recall);
      const semantic = vectors !== undefined && !gone ? parseVectorRows(vectors.rows) : undefined;
      prefetched = semantic === undefined ? found : { ...found, semantic };
    }
    const turnRow = gone
      ? undefined
      : (rest.shift()?.rows[0] as Parameters<typeof storedTurnOf>[1] | undefined);
    const storedTurn: StoredTurn | undefined = await storedTurnOf(this.saver.serde, turnRow);
    this.prime(threadId, read.tuple);
    return { threadId, memory, recall: prefetched, storedTurn };
  }

  async commit(threadId: string, commit: TurnCommit): Promise<MemoryRows | undefined> {
    const staged = await this.takeStaged(threadId, commit);
    const written = await this.saver.flushTurn(threadId, {
      messageCount: commit.messageCount,
      after: stagedStatements(this.saver.agentId, threadId, staged),
    });
    if (written?.generation !== undefined) this.#generations.set(threadId, written.generation);
    return this.takeLoaded(threadId);
  }

  generation(threadId: string): string | undefined {
    return this.#generations.get(threadId);
  }
}

/** Postgres over Neon HTTP: the head, memory rows, recall and messageId in one read batch. */
export function postgresThreadStore(saver: NeonSaver): PostgresThreadStore {
  return new PostgresThreadStore(saver);
}

/**
 * What the turn staged, as the statements after the head compare-and-set: its user message's
 * id (R11.2) first — the transcript rows appended after it record ids only where none is —
 * then the transcript rows, a trim's deletion, and the thread's memory rows.
 */
function stagedStatements(agentId: string, threadId: string, staged: StagedTurn): SqlStatement[] {
  const statements: SqlStatement[] = [];
  const entry = staged.messageId;
  if (entry !== undefined) {
    statements.push({
      text: INSERT_MESSAGE_ID,
      params: [agentId, threadId, entry.id, entry.seq, entry.end],
    });
  }
  const { rows, trim } = staged.transcript;
  if (rows.length > 0) {
    statements.push({ text: APPEND_TRANSCRIPT, params: [agentId, threadId, JSON.stringify(rows)] });
  }
  if (trim?.all === true) {
    statements.push(
      { text: DELETE_THREAD_TRANSCRIPT, params: [agentId, threadId] },
      { text: DELETE_TRIMMED_COUNT, params: [agentId, threadId] },
    );
  } else if (trim !== undefined) {
    statements.push({
      text: TRIM_TRANSCRIPT,
      params: [agentId, threadId, trim.before, trim.keepGroups, trim.archived],
    });
  }
  const upserts = staged.memory
    .filter(([, value]) => value !== null)
    .map(([key, value]) => ({ thread_id: threadId, key, value }));
  const deletes = staged.memory.filter(([, value]) => value === null).map(([key]) => key);
  if (upserts.length > 0) {
    statements.push({ text: UPSERT_MEMORY, params: [agentId, JSON.stringify(upserts)] });
  }
  if (deletes.length > 0) {
    statements.push({ text: DELETE_MEMORY_KEYS, params: [agentId, threadId, deletes] });
  }
  return statements;
}
