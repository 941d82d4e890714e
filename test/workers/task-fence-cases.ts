/**
 * R11.1 for task records, on any backend: a turn saves its task record after its turn, so a
 * turn that read a conversation before it was erased (or pruned) may save the record after
 * the erase. The record carries the conversation generation the turn saw; the erase retires
 * it, and the owner's task list refuses a save of a retired generation (and drops the row).
 * The late save is made here the way the Worker makes it: the list object's upsertTaskRow
 * with the row and generation the turn's own save carried.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import type { TaskListRow } from "../../src/a2a/task-list-query.ts";
import type { TaskListHost } from "../../src/durable/task-list.ts";
import { taskListObjectName } from "../../src/runtime/objects.ts";
import { productDocumentBody, sendRaw } from "./a2a-helpers.ts";

const SECRET = "papaya-3301";

interface StoredRow extends TaskListRow {
  readonly generation: string | null;
}

export interface TaskFenceSetup {
  readonly fetch: typeof fetch;
  readonly agentId: string;
  readonly contextId: string;
  /** Erase (or prune and drain) the conversation. */
  readonly erase: () => Promise<unknown>;
  /** The generation the backend holds for the conversation now, where it can be read. */
  readonly storedGeneration?: () => Promise<string | undefined>;
}

function taskList(agentId: string) {
  return env.THREADS.getByName(taskListObjectName(agentId, "anonymous"));
}

async function storedRow(agentId: string, taskId: string): Promise<StoredRow | undefined> {
  const key = `a2a-task:${agentId}:${taskId}`;
  return runInDurableObject(taskList(agentId), async (_o, state) => {
    const [row] = state.storage.sql
      .exec<{
        key: string;
        context_id: string;
        state: number;
        ts: string;
        record: string;
        generation: string | null;
      }>(
        "SELECT key, context_id, state, ts, record, generation FROM a2a_task_list WHERE key = ?",
        key,
      )
      .toArray();
    return row === undefined
      ? undefined
      : {
          key: row.key,
          contextId: row.context_id,
          state: row.state,
          timestamp: row.ts,
          record: row.record,
          generation: row.generation,
        };
  });
}

async function listedText(agentId: string): Promise<string> {
  return runInDurableObject(taskList(agentId), async (_o, state) =>
    state.storage.sql
      .exec<{ record: string }>("SELECT record FROM a2a_task_list")
      .toArray()
      .map((r) => r.record)
      .join("\n"),
  );
}

async function send(setup: TaskFenceSetup, text: string): Promise<string> {
  const result = await sendRaw(productDocumentBody(setup.contextId, text), { fetch: setup.fetch });
  expect(result.status).toBe(200);
  return String((result.body.result as { id: string }).id);
}

async function getTask(setup: TaskFenceSetup, id: string) {
  const res = await setup.fetch("http://agent.local/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id } }),
  });
  return (await res.json()) as { result?: { id: string }; error?: { code: number } };
}

export async function lateTaskSaveIsRefused(setup: TaskFenceSetup): Promise<void> {
  const taskId = await send(setup, `my secret is ${SECRET}`);
  const row = await storedRow(setup.agentId, taskId);
  const generation = row?.generation;
  if (row === undefined || typeof generation !== "string") {
    throw new Error(`task ${taskId} was saved without the conversation's generation`);
  }
  if (setup.storedGeneration !== undefined) {
    expect(await setup.storedGeneration()).toBe(generation);
  }

  await setup.erase();
  expect((await getTask(setup, taskId)).error?.code).toBe(-32001);
  // The turn's save again, after the erase: refused, and nothing of it is kept.
  const list = taskList(setup.agentId) as unknown as TaskListHost;
  expect(await list.upsertTaskRow(row, generation)).toBe(false);
  expect((await getTask(setup, taskId)).error?.code).toBe(-32001);
  expect(await listedText(setup.agentId)).not.toContain(SECRET);

  // The conversation begun again has a new generation, and its tasks are kept.
  const fresh = await send(setup, "new words");
  expect((await getTask(setup, fresh)).result?.id).toBe(fresh);
  const freshRow = await storedRow(setup.agentId, fresh);
  expect(freshRow?.generation).toBeTypeOf("string");
  expect(freshRow?.generation).not.toBe(generation);
}
