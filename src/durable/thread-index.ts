/**
 * The per-agent list of conversations on the Durable Object backends (in_memory, sqlite),
 * where no table lists them: one object per agent (`index:<agent_id>`) keeps an entry per
 * conversation, written in the background after each turn and dropped when the conversation
 * is erased. The management API pages through it like through `llamon_threads` on postgres:
 * newest activity first, keyset cursor on (last activity, context id).
 *
 * Listing reads every entry of the agent (these backends are for experiments and small
 * deployments; postgres keeps a real index). On in_memory a listed conversation may have lost
 * its messages with its object (that is what in_memory means); the entry stays until erased.
 */
import { inKeyScope, type KeyScope } from "../runtime/thread-keys.ts";

/**
 * A conversation as the index keeps it. `context_id` holds the conversation's thread key
 * (opaque here; the management API decodes it into principal and contextId). The field
 * keeps its stored name: entries written before thread keys existed are anonymous ones.
 */
export interface IndexedThread {
  readonly context_id: string;
  readonly created_at: string;
  readonly last_activity_at: string;
  readonly message_count: number;
}

/** Storage keys of the entries (the context id follows). */
export const THREAD_INDEX_PREFIX = "thread-index:";

/** The time as the API prints it: ISO 8601 UTC with microseconds, like Postgres's. */
export function indexTime(date = new Date()): string {
  return date.toISOString().replace(/Z$/, "000Z");
}

/** The entry after a turn: created once, then activity and length updated. */
export function touchedEntry(
  previous: IndexedThread | undefined,
  contextId: string,
  messageCount: number,
  at: string,
): IndexedThread {
  return {
    context_id: contextId,
    created_at: previous?.created_at ?? at,
    last_activity_at: at,
    message_count: messageCount,
  };
}

/**
 * One page, newest activity first (ties: greater key first), after `cursor` (the last entry
 * of the previous page), of the keys in `scope` (one principal's; all when undefined).
 * `more`: there is a next page.
 */
export function pageOfThreads(
  entries: Iterable<IndexedThread>,
  cursor: { at: string; id: string } | undefined,
  limit: number,
  scope?: KeyScope,
): { threads: IndexedThread[]; more: boolean } {
  const after = (e: IndexedThread) =>
    inKeyScope(e.context_id, scope) &&
    (cursor === undefined ||
      e.last_activity_at < cursor.at ||
      (e.last_activity_at === cursor.at && e.context_id < cursor.id));
  const sorted = [...entries]
    .filter(after)
    .sort((a, b) =>
      a.last_activity_at !== b.last_activity_at
        ? a.last_activity_at < b.last_activity_at
          ? 1
          : -1
        : a.context_id < b.context_id
          ? 1
          : a.context_id > b.context_id
            ? -1
            : 0,
    );
  return { threads: sorted.slice(0, limit), more: sorted.length > limit };
}

/** What the conversation objects and the management API ask an agent's index object. */
export interface ThreadIndexHost {
  noteThread(contextId: string, messageCount: number): Promise<void>;
  dropThread(contextId: string): Promise<void>;
  listThreads(
    cursor: { at: string; id: string } | undefined,
    limit: number,
    scope?: KeyScope,
  ): Promise<{ threads: IndexedThread[]; more: boolean }>;
}

/** The index role of an `index:<agent>` object: one storage entry per conversation. */
export class ThreadIndex implements ThreadIndexHost {
  constructor(private readonly storage: DurableObjectStorage) {}

  /** A turn of `contextId` was saved with this many messages. */
  async noteThread(contextId: string, messageCount: number): Promise<void> {
    const key = `${THREAD_INDEX_PREFIX}${contextId}`;
    const previous = await this.storage.get<IndexedThread>(key);
    await this.storage.put(key, touchedEntry(previous, contextId, messageCount, indexTime()));
  }

  /** The conversation was erased. */
  async dropThread(contextId: string): Promise<void> {
    await this.storage.delete(`${THREAD_INDEX_PREFIX}${contextId}`);
  }

  /** One page of the agent's conversations, newest activity first. */
  async listThreads(
    cursor: { at: string; id: string } | undefined,
    limit: number,
    scope?: KeyScope,
  ): Promise<{ threads: IndexedThread[]; more: boolean }> {
    const entries = await this.storage.list<IndexedThread>({ prefix: THREAD_INDEX_PREFIX });
    return pageOfThreads(entries.values(), cursor, limit, scope);
  }
}
