/**
 * The task index of a conversation, as earlier releases kept it (in the conversation's
 * object, `thread:<agent>:<ctx>`): which A2A task records belong to it, so erasing the
 * conversation erases them too (right to be forgotten, R10.2). Saving a task does not write
 * here: its row in the owner's task list (task-list.ts) carries the contextId, and the owner
 * is in the conversation's thread key, so erasing finds new records there
 * (admin/task-erasure.ts). What earlier releases indexed is still erased from here: the
 * records in task lists and those in objects of their own (`task:<key>`). `indexTask` stays
 * for a Worker of an earlier release that still runs during a gradual deployment.
 */
import type { Env } from "../runtime/env.ts";
import { taskRecordObjectName, threadsObject } from "../runtime/objects.ts";
import type { TaskRecordHost } from "./kv-slot.ts";
import type { TaskListHost } from "./task-list.ts";

/** Storage keys of the index (the task-store keys follow the prefix). */
export const TASK_INDEX_PREFIX = "task-index:";

/** What the Worker asks the conversation's object about its tasks. */
export interface TaskIndexHost {
  /**
   * `listObject`: the task list object that holds the record (task-list.ts); `ownObject`:
   * whether the record was also written to an object of its own (earlier releases did).
   */
  indexTask(key: string, listObject?: string, ownObject?: boolean): Promise<void>;
  /** `before` (epoch ms): only the records last written before then (see eraseTasks). */
  eraseTasks(before?: number): Promise<number>;
}

/**
 * An index entry's value: `{ list, at, own }` (the task list object holding the record, or
 * null; when the record was last written; `own: false` when no object of the record's own was
 * ever written); entries made by earlier releases have no `own` (the record has its own
 * object), or hold the list object's name, or 1 (before task lists existed), and no time.
 */
type IndexValue = { list: string | null; at: number; own?: false } | string | number;

/** Whether the record may have an object of its own (`task:<key>`) to erase. */
function hasOwnObject(value: IndexValue | undefined): boolean {
  return !(typeof value === "object" && value !== null && value.own === false);
}

function listObjectOf(value: IndexValue): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && typeof value.list === "string") {
    return value.list;
  }
  return undefined;
}

/** When the entry was last written, or undefined for an entry of an earlier release. */
function writtenAt(value: IndexValue): number | undefined {
  return typeof value === "object" && value !== null && typeof value.at === "number"
    ? value.at
    : undefined;
}

export class TaskIndex implements TaskIndexHost {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
  ) {}

  /**
   * Remember that the task record `key` belongs to this conversation: the task list object
   * holding its copy, and when it was written (each write of the record writes it again).
   */
  async indexTask(key: string, listObject?: string, ownObject = true): Promise<void> {
    const name = `${TASK_INDEX_PREFIX}${key}`;
    // A record an earlier write put in an object of its own keeps that mark until erased.
    const before = ownObject ? undefined : await this.storage.get<IndexValue>(name);
    const own = ownObject || (before !== undefined && hasOwnObject(before));
    const value: IndexValue = own
      ? { list: listObject ?? null, at: Date.now() }
      : { list: listObject ?? null, at: Date.now(), own: false };
    await this.storage.put(name, value);
  }

  /**
   * Erase every task record indexed here (each holds the task's user message and reply),
   * then the index. Returns how many records were erased. With `before` (epoch ms), a record
   * written at or after it is kept: it belongs to a conversation begun again under the same
   * contextId after a prune queued the erasure (entries without a time are always erased).
   */
  async eraseTasks(before?: number): Promise<number> {
    const all = await this.storage.list<IndexValue>({ prefix: TASK_INDEX_PREFIX });
    const indexed = new Map<string, IndexValue>();
    for (const [name, value] of all) {
      const at = writtenAt(value);
      if (before === undefined || at === undefined || at < before) indexed.set(name, value);
    }
    if (indexed.size === 0) return 0;
    let erased = 0;
    const listed = new Map<string, string[]>();
    for (const [name, value] of indexed) {
      const listObject = listObjectOf(value);
      if (listObject === undefined) continue;
      const keys = listed.get(listObject) ?? [];
      keys.push(name.slice(TASK_INDEX_PREFIX.length));
      listed.set(listObject, keys);
    }
    for (const [listObject, keys] of listed) {
      await threadsObject<TaskListHost>(
        this.env,
        listObject,
        "erasing task records",
      ).deleteTaskRows(keys, before);
    }
    for (const [name, value] of indexed) {
      const key = name.slice(TASK_INDEX_PREFIX.length);
      if (hasOwnObject(value)) {
        const record = threadsObject<TaskRecordHost>(
          this.env,
          taskRecordObjectName(key),
          "erasing task records",
        );
        await record.kvDelete(key);
      }
      await this.storage.delete(name);
      erased += 1;
    }
    return erased;
  }
}
