/**
 * ListTasks over a task store backend that can query (the Worker's task list objects,
 * durable/task-list.ts): the SDK's request (already checked by the SDK: pageSize 1–100,
 * default 50; a known status; a valid statusTimestampAfter) becomes a {@link TaskListQuery},
 * and the rows become the SDK's response.
 *
 * Page tokens are opaque to clients: base64url of `<status timestamp>|<task id>` of the last
 * task of the page. A token that does not decode to that is -32602 (never a 5xx); a well-formed
 * token of a task that has since changed still pages on from its position.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import { LegacyA2AError } from "@a2a-js/sdk/compat/v0_3/server";

/** One row of a task list: the record plus what ListTasks filters and orders by. */
export interface TaskListRow {
  /** The task-store key (`a2a-task:<agent>:<task id>`). */
  readonly key: string;
  readonly contextId: string;
  /** The v1.0 TaskState number. */
  readonly state: number;
  /** The status timestamp, ISO 8601 UTC ("" when the task has none). */
  readonly timestamp: string;
  /** The encoded record, as the task store keeps it. */
  readonly record: string;
}

export interface TaskListQuery {
  readonly contextId?: string;
  readonly state?: number;
  /** Only tasks whose status timestamp is later (ISO 8601 UTC). */
  readonly after?: string;
  /** The page starts after this (ts, key), in newest-first order. */
  readonly cursor?: { readonly ts: string; readonly key: string };
  readonly limit: number;
}

export interface TaskListPage {
  readonly values: string[];
  readonly total: number;
  readonly more: boolean;
}

const DEFAULT_PAGE_SIZE = 50;
const MAX_TOKEN_CHARS = 1024;

/** A timestamp in the one format rows are ordered by (toISOString), or "" . */
export function normaliseTimestamp(timestamp: string | undefined): string {
  if (timestamp === undefined || timestamp === "") return "";
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? "" : new Date(ms).toISOString();
}

export function encodePageToken(ts: string, taskId: string): string {
  const bytes = new TextEncoder().encode(`${ts}|${taskId}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function invalidToken(): Error {
  return LegacyA2AError.invalidParams("pageToken is not a token this agent issued");
}

export function decodePageToken(token: string): { ts: string; taskId: string } {
  if (token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalidToken();
  let text: string;
  try {
    const binary = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
  } catch {
    throw invalidToken();
  }
  const bar = text.indexOf("|");
  const ts = text.slice(0, Math.max(bar, 0));
  const taskId = text.slice(bar + 1);
  if (bar < 0 || taskId === "" || (ts !== "" && normaliseTimestamp(ts) !== ts)) {
    throw invalidToken();
  }
  return { ts, taskId };
}

/** The query of a ListTasks request; `keyOf` makes the task-store key of a task id. */
export function taskListQuery(
  params: ListTasksRequest,
  keyOf: (taskId: string) => string,
): TaskListQuery {
  const token = params.pageToken ? decodePageToken(params.pageToken) : undefined;
  const after = params.statusTimestampAfter
    ? normaliseTimestamp(params.statusTimestampAfter)
    : undefined;
  return {
    ...(params.contextId ? { contextId: params.contextId } : {}),
    ...(params.status ? { state: params.status } : {}),
    ...(after ? { after } : {}),
    ...(token ? { cursor: { ts: token.ts, key: keyOf(token.taskId) } } : {}),
    limit: params.pageSize ?? DEFAULT_PAGE_SIZE,
  };
}

/** The SDK's response for a page of decoded tasks. */
export function listTasksResponse(
  params: ListTasksRequest,
  tasks: Task[],
  page: { total: number; more: boolean },
): ListTasksResponse {
  const last = tasks.at(-1);
  return {
    tasks: tasks.map((task) => (params.includeArtifacts ? task : { ...task, artifacts: [] })),
    nextPageToken:
      page.more && last !== undefined
        ? encodePageToken(normaliseTimestamp(last.status?.timestamp), last.id)
        : "",
    pageSize: params.pageSize ?? DEFAULT_PAGE_SIZE,
    totalSize: page.total,
  };
}
