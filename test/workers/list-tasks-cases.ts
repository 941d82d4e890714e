/**
 * The ListTasks case every backend that keeps tasks runs (list-tasks.test.ts:
 * postgres; backends/list-tasks.test.ts: sqlite and in_memory; off keeps none, R11.3): filters (contextId, status,
 * statusTimestampAfter), paging (pageSize, pageToken), the spec's limits, scoped to the
 * caller's principal; erasing a conversation takes its tasks out of the list.
 */
import { expect } from "vitest";
import { ADMIN_TOKEN, apiKeys, bearer, type Instance, instance, send } from "./auth-helpers.ts";

const V1 = { "A2A-Version": "1.0" };

interface Listed {
  tasks: { id: string; contextId: string; status: { state: string; timestamp: string } }[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

async function list(
  worker: Instance,
  key: string,
  params: Record<string, unknown>,
): Promise<{ result?: Listed; error?: { code: number; message: string } }> {
  const res = await worker.rpc(
    { jsonrpc: "2.0", id: 1, method: "ListTasks", params },
    { ...bearer(key), ...V1 },
  );
  return res.body as { result?: Listed; error?: { code: number; message: string } };
}

async function sendAs(worker: Instance, key: string, contextId: string): Promise<string> {
  const res = await worker.rpc(send(contextId, `hello ${contextId}`), bearer(key));
  const id = (res.body.result as { id?: string } | undefined)?.id;
  if (id === undefined) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  return id;
}

/** Two principals of their own (fresh names: their task lists start empty) on a Worker with `vars`. */
export async function listTasksCase(vars: Record<string, unknown>): Promise<void> {
  const run = crypto.randomUUID().slice(0, 8);
  const keys = { alice: `alice-${run}-key`, bob: `bob-${run}-key`, alicePrincipal: `alice-${run}` };
  const worker = instance({
    ...vars,
    A2A_AUTH: "api_key",
    A2A_API_KEYS: await apiKeys({ [`alice-${run}`]: keys.alice, [`bob-${run}`]: keys.bob }),
  });
  const a = `ctx-a-${crypto.randomUUID()}`;
  const b = `ctx-b-${crypto.randomUUID()}`;
  const aliceA: string[] = [];
  for (let i = 0; i < 3; i++) aliceA.push(await sendAs(worker, keys.alice, a));
  const aliceB = [await sendAs(worker, keys.alice, b), await sendAs(worker, keys.alice, b)];
  const bobA = await sendAs(worker, keys.bob, a);

  const all = await list(worker, keys.alice, {});
  expect(all.error).toBeUndefined();
  expect(all.result?.totalSize).toBe(5);
  expect(all.result?.pageSize).toBe(50);
  expect(all.result?.nextPageToken).toBe("");
  const ids = all.result?.tasks.map((t) => t.id) ?? [];
  expect(new Set(ids)).toEqual(new Set([...aliceA, ...aliceB]));
  // Newest status first.
  const stamps = all.result?.tasks.map((t) => t.status.timestamp) ?? [];
  expect([...stamps].sort().reverse()).toEqual(stamps);
  expect(all.result?.tasks.every((t) => t.status.state === "TASK_STATE_COMPLETED")).toBe(true);

  // Bob sees only his own task, though it shares alice's contextId.
  const bob = await list(worker, keys.bob, { contextId: a });
  expect(bob.result?.tasks.map((t) => t.id)).toEqual([bobA]);

  const byContext = await list(worker, keys.alice, { contextId: a });
  expect(new Set(byContext.result?.tasks.map((t) => t.id))).toEqual(new Set(aliceA));
  expect(byContext.result?.totalSize).toBe(3);
  const completed = await list(worker, keys.alice, { status: "TASK_STATE_COMPLETED" });
  expect(completed.result?.totalSize).toBe(5);
  const working = await list(worker, keys.alice, { status: "TASK_STATE_WORKING" });
  expect(working.result).toMatchObject({ tasks: [], totalSize: 0, nextPageToken: "" });
  const future = await list(worker, keys.alice, {
    statusTimestampAfter: new Date(Date.now() + 60_000).toISOString(),
  });
  expect(future.result?.totalSize).toBe(0);

  // Pages of 2: 2 + 2 + 1, every task once, in the same order as the whole list.
  const paged: string[] = [];
  let token = "";
  for (let page = 0; page < 3; page++) {
    const res = await list(worker, keys.alice, { pageSize: 2, pageToken: token });
    expect(res.result?.totalSize).toBe(5);
    paged.push(...(res.result?.tasks.map((t) => t.id) ?? []));
    token = res.result?.nextPageToken ?? "";
    expect(token === "", `page ${page}`).toBe(page === 2);
  }
  expect(paged).toEqual(ids);

  // The spec's limits and forged tokens are the client's error, never a 5xx.
  for (const params of [
    { pageSize: 0 },
    { pageSize: 101 },
    { pageToken: "not a token!" },
    { pageToken: btoa("no separator") },
  ]) {
    const res = await list(worker, keys.alice, params);
    expect(res.error?.code, JSON.stringify(params)).toBe(-32602);
  }

  // Erasing conversation A (alice's) takes its tasks out of alice's list only.
  const erased = await worker.fetch(
    `https://agent.example/api/v1/memory/threads/${encodeURIComponent(a)}?principal=${keys.alicePrincipal}`,
    { method: "DELETE", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  );
  expect(erased.status).toBe(200);
  expect(((await erased.json()) as { tasks_erased: number }).tasks_erased).toBe(3);
  const after = await list(worker, keys.alice, {});
  expect(new Set(after.result?.tasks.map((t) => t.id))).toEqual(new Set(aliceB));
  expect((await list(worker, keys.bob, {})).result?.totalSize).toBe(1);
}
