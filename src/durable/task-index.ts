/**
 * The task index of a conversation (kept in the conversation's object, `thread:<agent>:<ctx>`):
 * which A2A task records belong to it. Each record lives in its own object; the index lets
 * erasing the conversation erase them too (right to be forgotten, R10.2).
 */
import type { Env } from "../runtime/env.ts";
import { taskRecordObjectName, threadsObject } from "../runtime/objects.ts";
import type { TaskRecordHost } from "./kv-slot.ts";
import type { TaskListHost } from "./task-list.ts";

/** Storage keys of the index (the task-store keys follow the prefix). */
export const TASK_INDEX_PREFIX = "task-index:";

/** What the Worker asks the conversation's object about its tasks. */
export interface TaskIndexHost {
  /** `listObject`: the task list object that also holds the record (task-list.ts). */
  indexTask(key: string, listObject?: string): Promise<void>;
  eraseTasks(): Promise<number>;
}

export class TaskIndex implements TaskIndexHost {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
  ) {}

  /**
   * Remember that the task record `key` belongs to this conversation (the value names the
   * task list object holding its copy; 1 in entries made before task lists existed).
   */
  async indexTask(key: string, listObject?: string): Promise<void> {
    await this.storage.put(`${TASK_INDEX_PREFIX}${key}`, listObject ?? 1);
  }

  /**
   * Erase every task record indexed here (each holds the task's user message and reply),
   * then the index. Returns how many records were erased.
   */
  async eraseTasks(): Promise<number> {
    const indexed = await this.storage.list({ prefix: TASK_INDEX_PREFIX });
    if (indexed.size === 0) return 0;
    let erased = 0;
    const listed = new Map<string, string[]>();
    for (const [name, listObject] of indexed) {
      if (typeof listObject !== "string") continue;
      const keys = listed.get(listObject) ?? [];
      keys.push(name.slice(TASK_INDEX_PREFIX.length));
      listed.set(listObject, keys);
    }
    for (const [listObject, keys] of listed) {
      await threadsObject<TaskListHost>(
        this.env,
        listObject,
        "erasing task records",
      ).deleteTaskRows(keys);
    }
    for (const name of indexed.keys()) {
      const key = name.slice(TASK_INDEX_PREFIX.length);
      const record = threadsObject<TaskRecordHost>(
        this.env,
        taskRecordObjectName(key),
        "erasing task records",
      );
      await record.kvDelete(key);
      await this.storage.delete(name);
      erased += 1;
    }
    return erased;
  }
}
