/**
 * Erasing one conversation's A2A task records (each holds a user message and its reply) from
 * the Durable Objects that keep them — what `DELETE /api/v1/memory/threads/…` and the drain of
 * a prune's queued erasures (erasures.ts) both do.
 *
 * - The rows in the owner's task list (`tasks:<agent>:<principal>`): the owner and the
 *   contextId are in the conversation's thread key, so the list to look in is known without
 *   an index, and its rows are found by contextId.
 * - What earlier releases indexed in the conversation's own object (durable/task-index.ts):
 *   rows written before the list recorded when it wrote them, and records kept in objects of
 *   their own (`task:<key>`). Erased first, so a record named in both is counted once.
 */

import type { Env } from "../runtime/env.ts";
import { taskListObjectName, threadObjectName, threadsObject } from "../runtime/objects.ts";
import { decodeThreadKey } from "../runtime/thread-keys.ts";

/** The conversation's object, as earlier releases indexed tasks there (task-index.ts). */
interface IndexedTasks {
  eraseTasks(before?: number): Promise<number>;
}

/** The owner's task list (durable/task-list.ts). */
interface ListedTasks {
  eraseContextTasks(contextId: string, before?: number, generation?: string): Promise<string[]>;
}

/**
 * Erase the task records of conversation `threadId` (a thread key) of `agentId`; with
 * `before` (epoch ms), only those last written before then (a conversation begun again under
 * the same contextId after a prune queued the erasure keeps its new tasks). Returns how many
 * were erased. `purpose` names the caller in the error a missing binding gives. `generations`:
 * the conversation's generations the erase retired (store/thread-fence.ts): a turn that read
 * one of them cannot save its task record afterwards (R11.1).
 */
export async function eraseConversationTasks(
  env: Env,
  agentId: string,
  threadId: string,
  purpose: string,
  before?: number,
  generations: readonly string[] = [],
): Promise<number> {
  const indexed = await threadsObject<IndexedTasks>(
    env,
    threadObjectName(agentId, threadId),
    purpose,
  ).eraseTasks(before);
  const { principal, contextId } = decodeThreadKey(threadId);
  const list = threadsObject<ListedTasks>(env, taskListObjectName(agentId, principal), purpose);
  // Each retired generation is remembered by the list; the rows go with the first call.
  const erased = new Set(await list.eraseContextTasks(contextId, before, generations[0]));
  for (const generation of generations.slice(1)) {
    for (const key of await list.eraseContextTasks(contextId, before, generation)) erased.add(key);
  }
  return indexed + erased.size;
}
