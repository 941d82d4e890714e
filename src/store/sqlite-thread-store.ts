/**
 * The Durable Object's SQLite thread store (store/thread-store.ts), with a SqliteSaver:
 *
 * - `load` reads the head checkpoint and, in the same synchronous read (SqliteSaver.readHead),
 *   the thread's and the agent's memory rows, conversation recall over the transcript (FTS5)
 *   and the incoming messageId's stored turn (R11.2);
 * - `commit` applies the turn's held writes; in the root checkpoint's transaction it adds
 *   what the turn staged — its messageId (a second copy rolls everything back:
 *   THREAD_CONFLICT), the transcript rows that left the live tail with their ids, a trim's
 *   deletion (counted in the thread's `trimmed` row), its memory rows.
 */

import { readSqliteMemory, writeSqliteMemory } from "./do-memory.ts";
import { LocalThreadStore, type StagedTurn } from "./local-thread-store.ts";
import { storedTurnOf } from "./message-ids.ts";
import type { MemoryRows } from "./persistent-memory.ts";
import { recallToRead } from "./recall-prefetch.ts";
import {
  findSqliteTurn,
  insertSqliteMessageId,
  recordSqliteTranscriptIds,
} from "./sqlite-message-ids.ts";
import type { SqliteSaver } from "./sqlite-saver.ts";
import { rows } from "./sqlite-sql.ts";
import { appendSqliteTranscript, searchSqliteTranscript } from "./sqlite-transcript.ts";
import { SQ_DELETE_THREAD_TRANSCRIPT, SQ_TRIM_TRANSCRIPT } from "./sqlite-transcript-sql.ts";
import type { TurnCommit, TurnQuery, TurnSnapshot } from "./thread-store.ts";
import { TRIMMED_KEY, trimmedCountOf } from "./transcript.ts";

class SqliteThreadStore extends LocalThreadStore<SqliteSaver> {
  readonly keepsTranscript = true;
  readonly recallInLoad = true;

  constructor(
    saver: SqliteSaver,
    private readonly generations: (threadId: string) => string | undefined,
  ) {
    super(saver);
  }

  async load(query: TurnQuery): Promise<TurnSnapshot> {
    const { threadId } = query;
    const { sql, agentId } = this.saver;
    this.startLoad(threadId);
    const recall = recallToRead(query.recall);
    const read = await this.saver.readHead(threadId, () => ({
      memory: readSqliteMemory(sql, agentId, threadId),
      recall:
        recall === undefined ? undefined : searchSqliteTranscript(sql, agentId, threadId, recall),
      turn: findSqliteTurn(sql, agentId, threadId, query.messageId),
    }));
    const { memory } = read.extra;
    this.loaded.set(threadId, memory);
    const storedTurn = await storedTurnOf(this.saver.serde, read.extra.turn);
    this.prime(threadId, read.tuple);
    return { threadId, memory, recall: read.extra.recall, storedTurn };
  }

  async commit(threadId: string, commit: TurnCommit): Promise<MemoryRows | undefined> {
    const staged = await this.takeStaged(threadId, commit);
    await this.saver.flushTurn(threadId, () => this.writeStaged(threadId, staged));
    return this.takeLoaded(threadId);
  }

  generation(threadId: string): string | undefined {
    return this.generations(threadId);
  }

  /** Inside the root checkpoint's transaction (see the file header). */
  private writeStaged(threadId: string, staged: StagedTurn): void {
    const { sql, agentId } = this.saver;
    // The turn's user message first: the rows appended record ids only where none is.
    if (staged.messageId !== undefined)
      insertSqliteMessageId(sql, agentId, threadId, staged.messageId);
    const { rows: transcript, trim } = staged.transcript;
    appendSqliteTranscript(sql, agentId, threadId, transcript);
    recordSqliteTranscriptIds(sql, agentId, threadId, transcript);
    if (trim?.all === true) {
      rows(sql, SQ_DELETE_THREAD_TRANSCRIPT, agentId, threadId);
      writeSqliteMemory(sql, agentId, threadId, TRIMMED_KEY, undefined);
    } else if (trim !== undefined) {
      const { before, keepGroups, archived } = trim;
      const gone = rows<{ conversation: number | null }>(
        sql,
        SQ_TRIM_TRANSCRIPT,
        agentId,
        threadId,
        before,
        keepGroups,
        archived,
      );
      if (gone.length > 0) this.countTrimmed(threadId, gone);
    }
    for (const [key, value] of staged.memory) {
      writeSqliteMemory(sql, agentId, threadId, key, value === null ? undefined : value);
    }
  }

  /**
   * Add rows a partial trim deleted to the thread's `trimmed` count, and to the rows the turn
   * loaded, so what it reports after the write (the thread index's message count) is the
   * stored thread's.
   */
  private countTrimmed(threadId: string, gone: readonly { conversation: number | null }[]): void {
    const { sql, agentId } = this.saver;
    const stored = readSqliteMemory(sql, agentId, threadId);
    const before = trimmedCountOf(stored.thread[TRIMMED_KEY]);
    const count = {
      messages: before.messages + gone.length,
      conversation: before.conversation + gone.filter((row) => Boolean(row.conversation)).length,
    };
    writeSqliteMemory(sql, agentId, threadId, TRIMMED_KEY, count);
    const loaded = this.loaded.get(threadId);
    if (loaded !== undefined) {
      this.loaded.set(threadId, { ...loaded, thread: { ...loaded.thread, [TRIMMED_KEY]: count } });
    }
  }
}

/** The Durable Object's SQLite; `generation`: the object's generations (thread-fence.ts). */
export function sqliteThreadStore(
  saver: SqliteSaver,
  generation: (threadId: string) => string | undefined = () => undefined,
): SqliteThreadStore {
  return new SqliteThreadStore(saver, generation);
}
