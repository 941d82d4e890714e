/**
 * Reading, listing and erasing one agent's conversations wherever the backend keeps them
 * (SPEC R1). Every call is scoped to AGENT_ID (R2.3): Postgres rows are filtered by
 * agent_id / the `<agent>:` storage prefix, Durable Objects are named and asked per agent.
 *
 * A conversation belongs to (principal, contextId): the stores keep its thread key
 * (runtime/thread-keys.ts), which is made and decoded only here and in the routes; a list
 * shows both halves and can be limited to one principal's conversations.
 *
 * | backend     | list                          | read / erase                               |
 * |-------------|-------------------------------|--------------------------------------------|
 * | postgres    | llamon_threads, newest first  | NeonSaver (head + a page of the transcript)|
 * | sqlite      | the agent's index object      | ThreadDO RPC `inspect` / `erase`           |
 * | in_memory   | the agent's index object      | ThreadDO RPC `inspect` / `erase`           |
 * | off         | 501: nothing is stored        | 501                                        |
 */
import {
  type BaseMessage,
  mapStoredMessagesToChatMessages,
  type StoredMessage,
} from "@langchain/core/messages";
import type { MemoryBackend } from "../memory/config.ts";
import { type ArchivedPrefix, archivedPrefixOf, EMPTY_PREFIX } from "../memory/live-tail.ts";
import type { RequestContext } from "../runtime/context.ts";
import { threadIndexObjectName, threadObjectName, threadsObject } from "../runtime/objects.ts";
import {
  decodeThreadKey,
  type KeyScope,
  MAX_CONTEXT_ID_CHARS,
  MAX_PRINCIPAL_CHARS,
  principalKeyScope,
} from "../runtime/thread-keys.ts";
import { readThreadHead } from "../store/delta.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import { LIST_THREADS, SELECT_THREAD_ROW } from "../store/sql.ts";
import { assertThreadId } from "../store/thread-key.ts";
import { notAvailable } from "./errors.ts";

export interface ThreadSummary {
  /** Who owns the conversation (`anonymous` for A2A_AUTH=none and threads stored before). */
  principal: string;
  context_id: string;
  created_at: string;
  last_activity_at: string;
  message_count: number;
}

export interface ThreadPage {
  threads: ThreadSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

export interface StoredThread {
  checkpoint_id: string | null;
  /** The page asked for: positions [from, from + messages.length) of the stored thread. */
  messages: BaseMessage[];
  from: number;
  /** Whether stored messages come before the page. */
  older: boolean;
  /** The head checkpoint's messages (what the window is chosen from). */
  head: BaseMessage[];
  /** The stored messages before `head` (the transcript of a live tail). */
  archived: ArchivedPrefix;
  /** The thread's persistent_memory keys (summary, facts, last_turn, …). */
  memory: Record<string, unknown>;
  /** Postgres only: the registry row (created, last activity, message count). */
  registry: Omit<ThreadSummary, "context_id" | "principal"> | null;
  /** The head checkpoint's `flow` channel (a flow's position; undefined for other agents). */
  flow: unknown;
}

/** What the Worker asks a ThreadDO (RPC) on the object backends. */
export interface InspectedThread {
  checkpointId: string | null;
  messages: StoredMessage[];
  memory: Record<string, unknown>;
  /** The head checkpoint's `flow` channel, when it has one. */
  flow?: unknown;
}

export interface ThreadInspectionHost {
  inspect(agentId: string, threadId: string): Promise<InspectedThread>;
  erase(agentId: string, threadId: string): Promise<{ erased: boolean }>;
  /** Erase the conversation's A2A task records (indexed in its object); how many. */
  eraseTasks(before?: number): Promise<number>;
}

/** An index entry (durable/thread-index.ts): `context_id` holds the thread key. */
interface IndexEntry {
  context_id: string;
  created_at: string;
  last_activity_at: string;
  message_count: number;
}

/** What the API asks the agent's index object (durable/thread-index.ts) on those backends. */
export interface ThreadIndexHost {
  listThreads(
    cursor: CursorKey | undefined,
    limit: number,
    scope?: KeyScope,
  ): Promise<{ threads: IndexEntry[]; more: boolean }>;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Messages of one conversation per page (GET /memory/threads/:contextId `limit`). */
export const DEFAULT_MESSAGE_PAGE = 100;
export const MAX_MESSAGE_PAGE = 500;

/** Which messages of a conversation to read: the `limit` before position `before` (the end). */
export interface MessagePage {
  readonly before?: number | undefined;
  readonly limit: number;
}

/** The page's position range in a thread of `total` messages. */
function pageRange(page: MessagePage, total: number): { from: number; to: number } {
  const to = Math.min(page.before ?? total, total);
  return { from: Math.max(0, to - page.limit), to };
}

interface CursorKey {
  at: string;
  id: string;
}

export function encodeCursor(key: CursorKey): string {
  const bytes = new TextEncoder().encode(JSON.stringify([key.at, key.id]));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * A microsecond UTC timestamp that names a real instant (a forged "2024-13-45T99:…" would
 * reach the database and fail there, as a 5xx instead of the client's 400).
 */
function realTimestamp(text: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z$/.exec(text);
  if (match === null) return false;
  const ms = Date.parse(`${match[1]}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === `${match[1]}Z`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Within a thread key's length, well-formed UTF-16, and no NUL (which Postgres text refuses). */
function plausibleThreadKey(text: string): boolean {
  return (
    text.length <= MAX_PRINCIPAL_CHARS + MAX_CONTEXT_ID_CHARS + 2 &&
    !text.includes("\u0000") &&
    !LONE_SURROGATE.test(text)
  );
}

/** The cursor's key, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): CursorKey | undefined {
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      realTimestamp(value[0]) &&
      typeof value[1] === "string" &&
      plausibleThreadKey(value[1])
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // not base64 / not JSON
  }
  return undefined;
}

const MEMORY_OFF =
  "memory is off (MEMORY_BACKEND=off): conversations are not stored, so there is nothing to list, show or erase";
const NO_BINDING = "the THREADS Durable Object binding is missing in wrangler.toml";
const NO_RPC =
  "this deployment's ThreadDO cannot be inspected (it lacks the inspect/erase RPC methods): update llamon and redeploy";

type Row = {
  thread_id: string;
  created_at: string;
  last_activity_at: string;
  message_count: number;
};

function summaryOf(row: Row): ThreadSummary {
  const owner = decodeThreadKey(row.thread_id);
  return {
    principal: owner.principal,
    context_id: owner.contextId,
    created_at: row.created_at,
    last_activity_at: row.last_activity_at,
    message_count: Number(row.message_count),
  };
}

export async function listThreads(
  ctx: RequestContext,
  backend: MemoryBackend,
  page: { limit: number; cursor: CursorKey | undefined; principal?: string | undefined },
): Promise<ThreadPage> {
  const { env, agentId } = ctx;
  const scope = page.principal === undefined ? undefined : principalKeyScope(page.principal);
  if (backend === "off") throw notAvailable(MEMORY_OFF);
  if (backend !== "postgres") {
    if (env.THREADS === undefined) throw notAvailable(NO_BINDING);
    // The index object (durable/thread-index.ts): written after each turn on these backends.
    const index = threadsObject<ThreadIndexHost>(
      env,
      threadIndexObjectName(agentId),
      "the conversation list",
    );
    const found = await viaRpc(() => index.listThreads(page.cursor, page.limit, scope));
    const last = found.threads.at(-1);
    return {
      threads: found.threads.map((t) => summaryOf({ ...t, thread_id: t.context_id })),
      next_cursor:
        found.more && last !== undefined
          ? encodeCursor({ at: last.last_activity_at, id: last.context_id })
          : null,
    };
  }
  const { rows } = await ctx
    .db()
    .query<Row>(LIST_THREADS, [
      agentId,
      page.cursor?.at ?? null,
      page.cursor?.id ?? "",
      page.limit + 1,
      scope?.prefix ?? null,
      scope?.notPrefix ?? null,
    ]);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    threads: shown.map(summaryOf),
    next_cursor:
      rows.length > page.limit && last !== undefined
        ? encodeCursor({ at: last.last_activity_at, id: last.thread_id })
        : null,
  };
}

function inspectionHost(ctx: RequestContext, threadId: string): ThreadInspectionHost {
  if (ctx.env.THREADS === undefined) throw notAvailable(NO_BINDING);
  return threadsObject<ThreadInspectionHost>(
    ctx.env,
    threadObjectName(ctx.agentId, threadId),
    "the memory inspector",
  );
}

async function viaRpc<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/does not (implement|have)|not a function|no such method/i.test(message)) {
      throw notAvailable(NO_RPC);
    }
    throw error;
  }
}

/**
 * One stored conversation (its thread key), one page of its messages, or undefined when
 * nothing of it is stored. Postgres reads the head checkpoint and only the page's transcript
 * rows (by position); the object backends return their whole thread, which is paged here.
 */
export async function readThread(
  ctx: RequestContext,
  backend: MemoryBackend,
  threadId: string,
  page: MessagePage = { limit: DEFAULT_MESSAGE_PAGE },
): Promise<StoredThread | undefined> {
  const { agentId } = ctx;
  assertThreadId(threadId);
  if (backend === "off") throw notAvailable(MEMORY_OFF);
  if (backend === "postgres") {
    const db = ctx.db();
    const saver = new NeonSaver({ db, agentId });
    const [{ tuple, messages: head, offset }, registry] = await Promise.all([
      readThreadHead(saver, { configurable: { thread_id: threadId } }),
      db.query<Row>(SELECT_THREAD_ROW, [agentId, threadId]),
    ]);
    const memory = saver.memoryOf(threadId)?.thread ?? {};
    const row = registry.rows[0];
    if (tuple === undefined && row === undefined && Object.keys(memory).length === 0) {
      return undefined;
    }
    const { from, to } = pageRange(page, offset + head.length);
    const end = Math.min(to, offset);
    const older = end > from ? await saver.readTranscript(threadId, from, end) : [];
    // A trim deletes the transcript's oldest rows only: fewer rows mean the page starts it.
    const start = end > from ? end - older.length : from;
    return {
      checkpoint_id: tuple?.checkpoint.id ?? null,
      messages: [...older, ...head.slice(Math.max(0, from - offset), Math.max(0, to - offset))],
      from: start,
      older: start > 0 && start === from,
      head,
      archived: archivedPrefixOf(tuple?.checkpoint.channel_values.archived),
      memory,
      flow: tuple?.checkpoint.channel_values?.flow,
      registry:
        row === undefined
          ? null
          : {
              created_at: row.created_at,
              last_activity_at: row.last_activity_at,
              message_count: Number(row.message_count),
            },
    };
  }
  const inspected = await viaRpc(() => inspectionHost(ctx, threadId).inspect(agentId, threadId));
  if (
    inspected.checkpointId === null &&
    inspected.messages.length === 0 &&
    Object.keys(inspected.memory).length === 0
  ) {
    return undefined;
  }
  const all = mapStoredMessagesToChatMessages(inspected.messages);
  const { from, to } = pageRange(page, all.length);
  return {
    checkpoint_id: inspected.checkpointId,
    messages: all.slice(from, to),
    from,
    older: from > 0,
    head: all,
    archived: EMPTY_PREFIX,
    memory: inspected.memory,
    registry: null,
    flow: inspected.flow,
  };
}

/**
 * Erase everything of one conversation of this agent: checkpoints, blobs, pending writes,
 * persistent_memory rows (summary, facts, …) and the registry row (postgres), or the
 * thread kept in its Durable Object; then the conversation's A2A task records (each holds a
 * user message and its reply). Idempotent. Returns how many task records were erased.
 */
export async function eraseThread(
  ctx: RequestContext,
  backend: MemoryBackend,
  threadId: string,
): Promise<{ tasksErased: number }> {
  const { agentId } = ctx;
  assertThreadId(threadId);
  if (backend === "off") throw notAvailable(MEMORY_OFF);
  if (backend === "postgres") {
    await new NeonSaver({ db: ctx.db(), agentId }).deleteThread(threadId);
  } else {
    await viaRpc(() => inspectionHost(ctx, threadId).erase(agentId, threadId));
  }
  if (ctx.env.THREADS === undefined) return { tasksErased: 0 };
  const tasksErased = await viaRpc(() => inspectionHost(ctx, threadId).eraseTasks());
  return { tasksErased };
}
