/**
 * The task index of a conversation (kept in the conversation's object, `thread:<agent>:<ctx>`):
 * which A2A task records belong to it. Each record lives in its own object; the index lets
 * erasing the conversation erase them too (right to be forgotten, R10.2).
 */
import type { Env } from "../runtime/env.ts";
import { taskRecordObjectName, threadsObject } from "../runtime/objects.ts";
import type { TaskRecordHost } from "./kv-slot.ts";

/** Storage keys of the index (the task-store keys follow the prefix). */
export const TASK_INDEX_PREFIX = "task-index:";

/** What the Worker asks the conversation's object about its tasks. */
export interface TaskIndexHost {
  indexTask(key: string): Promise<void>;
  eraseTasks(): Promise<number>;
}

export class TaskIndex implements TaskIndexHost {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
  ) {}

  /** Remember that the task record `key` belongs to this conversation. */
  async indexTask(key: string): Promise<void> {
    await this.storage.put(`${TASK_INDEX_PREFIX}${key}`, 1);
  }

  /**
   * Erase every task record indexed here (each holds the task's user message and reply),
   * then the index. Returns how many records were erased.
   */
  async eraseTasks(): Promise<number> {
    const indexed = await this.storage.list({ prefix: TASK_INDEX_PREFIX });
    if (indexed.size === 0) return 0;
    let erased = 0;
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
