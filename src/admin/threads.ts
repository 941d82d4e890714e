/**
 * Reading, listing and erasing one agent's conversations wherever the backend keeps them
 * (R1). Every call is scoped to AGENT_ID (R2.3): Postgres rows are filtered by
 * agent_id / the `<agent>:` storage prefix, Durable Objects are named and asked per agent.
 *
 * A conversation belongs to (principal, contextId): the stores keep its thread key
 * (runtime/thread-keys.ts), which is made and decoded only here and in the routes; a list
 * shows both halves and can be limited to one principal's conversations.
 *
 * | backend     | list                          | read / erase                               |
 * |-------------|-------------------------------|--------------------------------------------|
 * | postgres    | llamon_threads, newest first  | NeonSaver (head + a page of the transcript)|
 * | sqlite      | the agent's index object      | ThreadDO RPC `inspect` (a page) / `erase`  |
 * | in_memory   | the agent's index object      | ThreadDO RPC `inspect` (a page) / `erase`  |
 * | off         | 501: nothing is kept (R11.3)  | 501                                        |
 */
import {
  type BaseMessage,
  mapStoredMessagesToChatMessages,
  type StoredMessage,
} from "@langchain/core/messages";
import type { MemoryBackend } from "../memory/config.ts";
import type { ArchivedPrefix } from "../memory/live-tail.ts";
import type { RequestContext } from "../runtime/context.ts";
import { threadIndexObjectName, threadObjectName, threadsObject } from "../runtime/objects.ts";
import {
  decodeThreadKey,
  type KeyScope,
  MAX_CONTEXT_ID_CHARS,
  MAX_PRINCIPAL_CHARS,
  principalKeyScope,
} from "../runtime/thread-keys.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import { toMemoryRows } from "../store/persistent-memory.ts";
import { LIST_THREADS, SELECT_THREAD_ROW } from "../store/sql.ts";
import { SELECT_LIVE_MEMORY_ROWS } from "../store/thread-head-sql.ts";
import { assertThreadId } from "../store/thread-key.ts";
import { notAvailable } from "./errors.ts";
import { eraseConversationTasks } from "./task-erasure.ts";
import { type MessagePage, pageMessages, readThreadPage } from "./thread-page.ts";

export type { MessagePage } from "./thread-page.ts";

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

/** What the Worker asks a ThreadDO (RPC) on the object backends: one page (thread-page.ts). */
export interface InspectedThread {
  checkpointId: string | null;
  /** The page's messages before the head, from position `from`. */
  before: StoredMessage[];
  /** The head's messages; the page goes on with `head.slice(headFrom, headTo)`. */
  head: StoredMessage[];
  headFrom: number;
  headTo: number;
  from: number;
  older: boolean;
  /** The stored messages before `head`, counted. */
  archived: ArchivedPrefix;
  memory: Record<string, unknown>;
  /** The head checkpoint's `flow` channel, when it has one. */
  flow?: unknown;
}

/** The page an object reads for the view; `window_size` splits an in_memory thread. */
export interface InspectQuery extends MessagePage {
  readonly window_size?: number | undefined;
}

export interface ThreadInspectionHost {
  inspect(agentId: string, threadId: string, query?: InspectQuery): Promise<InspectedThread>;
  erase(agentId: string, threadId: string): Promise<{ erased: boolean; generation?: string }>;
  /** Erase the A2A task records an earlier release indexed in the object; how many. */
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
  "memory is off (MEMORY_BACKEND=off): nothing of a conversation is kept after its request, A2A task records included, so there is nothing to list, show or erase";
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
 * nothing of it is stored. Every backend reads the head checkpoint and only the page's older
 * messages, by position (thread-page.ts): Postgres here, the object backends inside their
 * Durable Object, which returns the page and the head only. `windowSize` (the view's
 * window_size) lets an in_memory object send a tail of the thread as its head.
 */
export async function readThread(
  ctx: RequestContext,
  backend: MemoryBackend,
  threadId: string,
  page: MessagePage = { limit: DEFAULT_MESSAGE_PAGE },
  windowSize?: () => Promise<number>,
): Promise<StoredThread | undefined> {
  const { agentId } = ctx;
  assertThreadId(threadId);
  if (backend === "off") throw notAvailable(MEMORY_OFF);
  if (backend === "postgres") {
    const db = ctx.db();
    const saver = new NeonSaver({ db, agentId });
    // The registry row and the thread's memory rows in one read, beside the page's.
    const [read, [registry, memoryRows]] = await Promise.all([
      readThreadPage(saver, threadId, page),
      db.batch(
        [
          { text: SELECT_THREAD_ROW, params: [agentId, threadId] },
          { text: SELECT_LIVE_MEMORY_ROWS, params: [agentId, threadId] },
        ],
        { readOnly: true },
      ),
    ]);
    const memory = toMemoryRows(
      (memoryRows?.rows ?? []) as { thread_id: string; key: string; value: unknown }[],
    ).thread;
    const row = registry?.rows[0] as Row | undefined;
    if (read.tuple === undefined && row === undefined && Object.keys(memory).length === 0) {
      return undefined;
    }
    return {
      checkpoint_id: read.tuple?.checkpoint.id ?? null,
      messages: pageMessages(read),
      from: read.from,
      older: read.older,
      head: read.head,
      archived: read.archived,
      memory,
      flow: read.tuple?.checkpoint.channel_values?.flow,
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
  const query: InspectQuery = { ...page, window_size: await windowSize?.() };
  const inspected = await viaRpc(() =>
    inspectionHost(ctx, threadId).inspect(agentId, threadId, query),
  );
  if (
    inspected.checkpointId === null &&
    inspected.head.length === 0 &&
    inspected.before.length === 0 &&
    Object.keys(inspected.memory).length === 0
  ) {
    return undefined;
  }
  // Revived once each: the page's messages in the head are the head's own objects.
  const head = mapStoredMessagesToChatMessages(inspected.head);
  return {
    checkpoint_id: inspected.checkpointId,
    messages: pageMessages({
      before: mapStoredMessagesToChatMessages(inspected.before),
      head,
      headFrom: inspected.headFrom,
      headTo: inspected.headTo,
    }),
    from: inspected.from,
    older: inspected.older,
    head,
    archived: inspected.archived,
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
  // The generation the erase retired: a turn that read it cannot save its task record after.
  let generation: string | undefined;
  if (backend === "postgres") {
    generation = await new NeonSaver({ db: ctx.db(), agentId }).eraseThread(threadId);
  } else {
    ({ generation } = await viaRpc(() => inspectionHost(ctx, threadId).erase(agentId, threadId)));
  }
  if (ctx.env.THREADS === undefined) return { tasksErased: 0 };
  const tasksErased = await viaRpc(() =>
    eraseConversationTasks(
      ctx.env,
      agentId,
      threadId,
      "erasing a conversation's task records",
      undefined,
      generation === undefined ? [] : [generation],
    ),
  );
  return { tasksErased };
}
