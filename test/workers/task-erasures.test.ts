/**
 * The A2A task records of pruned conversations, inside workerd (postgres backend): a prune
 * (store/prune.ts, as `llamon memory prune --apply` runs it) queues them in
 * llamon_task_erasures in its own transaction; the Worker erases them from every Durable
 * Object that holds them — the owner's task list (found by contextId), and what earlier
 * releases kept: record objects and the conversation's index — through
 * `POST /api/v1/memory/erasures/drain` or its cron trigger (`scheduled`).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TASK_INDEX_PREFIX } from "../../src/durable/task-index.ts";
import {
  taskListObjectName,
  taskRecordObjectName,
  threadObjectName,
} from "../../src/runtime/objects.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { applyPrune, planPrune } from "../../src/store/prune.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { productDocumentBody, sendRaw } from "./a2a-helpers.ts";
import { lateTaskSaveIsRefused } from "./task-fence-cases.ts";

const TOKEN = "test-admin-token-erasures-5c2d";

const db = () =>
  createNeonDb({
    connectionString: env.POSTGRES_MEMORY_DSN,
    fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
  });

const CTX = {
  waitUntil: () => {},
  passThroughOnException: () => {},
  props: {},
} as unknown as ExecutionContext;

function instance(vars: Record<string, unknown> = {}) {
  const worker = createWorker(referenceAgent);
  const agentId = `erase-${crypto.randomUUID().slice(0, 8)}`;
  const instanceEnv: Record<string, unknown> = {
    ...env,
    LLAMON_ADMIN_TOKEN: TOKEN,
    AGENT_ID: agentId,
    ...vars,
  };
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(
      worker.fetch?.(new Request(input, init) as never, instanceEnv as never, CTX) as Response,
    )) as typeof fetch;
  return {
    agentId,
    fetch: fetcher,
    scheduled: () =>
      worker.scheduled?.(
        { cron: "*/15 * * * *", scheduledTime: Date.now(), noRetry() {} } as never,
        instanceEnv as never,
        CTX,
      ),
    async drain() {
      const res = await fetcher("http://agent.local/api/v1/memory/erasures/drain", {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async sayTask(contextId: string, text: string): Promise<string> {
      const result = await sendRaw(productDocumentBody(contextId, text), { fetch: fetcher });
      expect(result.status).toBe(200);
      return String((result.body.result as { id: string }).id);
    },
    async getTask(id: string) {
      const res = await fetcher("http://agent.local/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id } }),
      });
      return (await res.json()) as { result?: { id: string }; error?: { code: number } };
    },
  };
}

async function prune(agentId: string, contextIds: string[]) {
  const plan = await planPrune(db(), { agentId, threadIds: contextIds });
  return applyPrune(db(), plan);
}

/** The conversation's generation in the registry (migration 0014), or undefined. */
async function generation(agentId: string, contextId: string): Promise<string | undefined> {
  const { rows } = await db().query<{ generation: string }>(
    "SELECT generation::text AS generation FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
    [agentId, contextId],
  );
  return rows[0]?.generation;
}

async function queued(agentId: string): Promise<string[]> {
  const { rows } = await db().query<{ thread_id: string }>(
    "SELECT thread_id FROM llamon_task_erasures WHERE agent_id = $1 ORDER BY thread_id",
    [agentId],
  );
  return rows.map((r) => r.thread_id);
}

/** The task index entries in the conversation's object (only earlier releases wrote them). */
async function indexEntries(agentId: string, contextId: string): Promise<number> {
  const object = env.THREADS.getByName(threadObjectName(agentId, contextId));
  return runInDurableObject(
    object,
    async (_o, state) => (await state.storage.list({ prefix: TASK_INDEX_PREFIX })).size,
  );
}

/** Everything Durable Object storage still holds of these tasks, as one text. */
async function storedText(agentId: string, contextId: string, taskIds: string[]) {
  const parts: string[] = [];
  const index = env.THREADS.getByName(threadObjectName(agentId, contextId));
  parts.push(
    ...(await runInDurableObject(index, async (_o, state) => [
      ...(await state.storage.list({ prefix: TASK_INDEX_PREFIX })).keys(),
    ])),
  );
  for (const id of taskIds) {
    const key = `a2a-task:${agentId}:${id}`;
    const record = env.THREADS.getByName(taskRecordObjectName(key));
    parts.push(
      ...(await runInDurableObject(record, async (_o, state) =>
        [...(await state.storage.list()).values()].map((v) => JSON.stringify(v)),
      )),
    );
  }
  const list = env.THREADS.getByName(taskListObjectName(agentId, "anonymous"));
  parts.push(
    ...(await runInDurableObject(list, async (_o, state) => {
      try {
        return state.storage.sql
          .exec<{ record: string }>("SELECT record FROM a2a_task_list")
          .toArray()
          .map((r) => r.record);
      } catch {
        return []; // no table: nothing listed
      }
    })),
  );
  return parts.join("\n");
}

describe("task records of pruned conversations", () => {
  it("a prune queues them in its transaction; the drain erases them from every object (tasks/get -32001), and no other conversation's", async () => {
    const worker = instance();
    const agent = worker.agentId;
    const tasks = [
      await worker.sayTask("gone", "my secret is pumpkin-7731"),
      await worker.sayTask("gone", "and also tangerine-0042"),
    ];
    const kept = await worker.sayTask("kept", "keep this one");
    const before = await storedText(agent, "gone", tasks);
    expect(before).toContain("pumpkin-7731");
    expect(before).toContain("tangerine-0042");

    const result = await prune(agent, ["gone"]);
    expect(result.deleted).toEqual(["gone"]);
    expect(result.erasuresQueued).toBe(1);
    expect(await queued(agent)).toEqual(["gone"]);
    // Postgres is pruned, the Durable Objects not yet: that is what the queue is for.
    expect((await worker.getTask(tasks[0] as string)).result?.id).toBe(tasks[0]);

    const drained = await worker.drain();
    expect(drained).toEqual({
      status: 200,
      body: { agent_id: agent, conversations: 1, tasks_erased: 2, pending: 0 },
    });
    for (const id of tasks) expect((await worker.getTask(id)).error?.code).toBe(-32001);
    const after = await storedText(agent, "gone", tasks);
    expect(after).not.toContain("pumpkin-7731");
    expect(after).not.toContain("tangerine-0042");
    expect(after).toContain("keep this one"); // the task list still lists the other task
    expect((await worker.getTask(kept)).result?.id).toBe(kept);
    expect(await queued(agent)).toEqual([]);
    // Nothing left: a second drain does nothing.
    expect((await worker.drain()).body).toMatchObject({ conversations: 0, pending: 0 });
  });

  it("a conversation begun again under the same contextId before the drain keeps its new tasks", async () => {
    const worker = instance();
    const old = await worker.sayTask("again", "old words");
    await prune(worker.agentId, ["again"]);
    await new Promise((r) => setTimeout(r, 5)); // the new task is written after queued_at
    const fresh = await worker.sayTask("again", "new words");
    expect((await worker.drain()).body).toMatchObject({ conversations: 1, tasks_erased: 1 });
    expect((await worker.getTask(old)).error?.code).toBe(-32001);
    expect((await worker.getTask(fresh)).result?.id).toBe(fresh);
  });

  it("R11.1 a task record saved after its conversation was erased (by a turn that read it before) is refused", async () => {
    const worker = instance();
    await lateTaskSaveIsRefused({
      fetch: worker.fetch,
      agentId: worker.agentId,
      contextId: "fenced",
      storedGeneration: () => generation(worker.agentId, "fenced"),
      erase: async () => {
        const res = await worker.fetch("http://agent.local/api/v1/memory/threads/fenced", {
          method: "DELETE",
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(res.status).toBe(200);
      },
    });
  });

  it("R11.1 a task record saved after its conversation was pruned and drained is refused", async () => {
    const worker = instance();
    await lateTaskSaveIsRefused({
      fetch: worker.fetch,
      agentId: worker.agentId,
      contextId: "pruned",
      storedGeneration: () => generation(worker.agentId, "pruned"),
      erase: async () => {
        await prune(worker.agentId, ["pruned"]);
        expect((await worker.drain()).body).toMatchObject({ conversations: 1 });
      },
    });
  });

  it("the cron trigger (scheduled) drains the queue", async () => {
    const worker = instance();
    const task = await worker.sayTask("cron", "erase me on schedule");
    await prune(worker.agentId, ["cron"]);
    await worker.scheduled();
    expect((await worker.getTask(task)).error?.code).toBe(-32001);
    expect(await queued(worker.agentId)).toEqual([]);
  });

  it("on a Durable Object backend the drain says there is nothing of the kind (501), and scheduled does nothing", async () => {
    const worker = instance({ MEMORY_BACKEND: "sqlite" });
    const res = await worker.drain();
    expect(res.status).toBe(501);
    expect(String(res.body.message)).toMatch(/only the postgres backend queues/);
    await expect(worker.scheduled()).resolves.toBeUndefined();
  });
});

describe("where task records are kept", () => {
  it("R4.3 a new record lives in its owner's task list, not in an object of its own; one an earlier release wrote to its own object is still read, and erased with the conversation", async () => {
    const worker = instance();
    const agent = worker.agentId;
    const id = await worker.sayTask("layout", "words of this release");
    const key = `a2a-task:${agent}:${id}`;
    const ownObject = (k: string) => env.THREADS.getByName(taskRecordObjectName(k));
    // A record lives in the owner's task list only: the object of its own stays empty.
    expect(
      await runInDurableObject(
        ownObject(key),
        async (_o, state) => (await state.storage.list()).size,
      ),
    ).toBe(0);
    expect((await worker.getTask(id)).result?.id).toBe(id);
    // Nor an index entry in the conversation's object: the list row carries the contextId.
    expect(await indexEntries(agent, "layout")).toBe(0);

    // A record as an earlier release left it: in an object of its own, indexed by the list
    // object's name, and not in the task list.
    const list = env.THREADS.getByName(taskListObjectName(agent, "anonymous"));
    const record = await runInDurableObject(list, async (_o, state) =>
      state.storage.sql
        .exec<{ record: string }>("SELECT record FROM a2a_task_list WHERE key = ?", key)
        .one(),
    );
    const legacyId = crypto.randomUUID();
    const legacyKey = `a2a-task:${agent}:${legacyId}`;
    const parsed = JSON.parse(record.record) as { task: { id: string; status: unknown } };
    parsed.task.id = legacyId;
    const legacy = JSON.stringify(parsed).replace("words of this release", "an older secret-5521");
    await runInDurableObject(ownObject(legacyKey), async (_o, state) => {
      await state.storage.put(legacyKey, legacy);
    });
    await runInDurableObject(
      env.THREADS.getByName(threadObjectName(agent, "layout")),
      async (_o, state) => {
        await state.storage.put(
          `${TASK_INDEX_PREFIX}${legacyKey}`,
          taskListObjectName(agent, "anonymous"),
        );
      },
    );
    expect((await worker.getTask(legacyId)).result?.id).toBe(legacyId);

    await prune(agent, ["layout"]);
    expect((await worker.drain()).body).toMatchObject({ conversations: 1, tasks_erased: 2 });
    for (const gone of [id, legacyId])
      expect((await worker.getTask(gone)).error?.code).toBe(-32001);
    const left = await storedText(agent, "layout", [id, legacyId]);
    expect(left).not.toContain("words of this release");
    expect(left).not.toContain("secret-5521");
  });

  it("R4.3 a record the previous release saved (a list row without written_ms, named in the conversation's index) is still read and erased; the list gains the column on first use", async () => {
    const source = instance();
    const sourceId = await source.sayTask("source", "a template record");
    const template = await runInDurableObject(
      env.THREADS.getByName(taskListObjectName(source.agentId, "anonymous")),
      async (_o, state) =>
        state.storage.sql
          .exec<{ record: string }>(
            "SELECT record FROM a2a_task_list WHERE key = ?",
            `a2a-task:${source.agentId}:${sourceId}`,
          )
          .one().record,
    );

    const worker = instance();
    const agent = worker.agentId;
    const oldId = crypto.randomUUID();
    const oldKey = `a2a-task:${agent}:${oldId}`;
    const parsed = JSON.parse(template) as { task: { id: string; contextId: string } };
    parsed.task.id = oldId;
    parsed.task.contextId = "upgraded";
    const oldRecord = JSON.stringify(parsed).replace("a template record", "old-secret-8812");
    const listName = taskListObjectName(agent, "anonymous");
    // The previous release's table (no written_ms) and index entry (list, time, no own object).
    await runInDurableObject(env.THREADS.getByName(listName), async (_o, state) => {
      const sql = state.storage.sql;
      sql.exec(
        "CREATE TABLE a2a_task_list (key TEXT PRIMARY KEY, context_id TEXT NOT NULL, state INTEGER NOT NULL, ts TEXT NOT NULL, record TEXT NOT NULL)",
      );
      sql.exec(
        "INSERT INTO a2a_task_list (key, context_id, state, ts, record) VALUES (?, ?, ?, ?, ?)",
        oldKey,
        "upgraded",
        3,
        "2026-01-01T00:00:00.000Z",
        oldRecord,
      );
    });
    await runInDurableObject(
      env.THREADS.getByName(threadObjectName(agent, "upgraded")),
      async (_o, state) => {
        await state.storage.put(`${TASK_INDEX_PREFIX}${oldKey}`, {
          list: listName,
          at: Date.now() - 60_000,
          own: false,
        });
      },
    );

    const fresh = await worker.sayTask("upgraded", "words after the upgrade");
    const columns = await runInDurableObject(env.THREADS.getByName(listName), async (_o, state) =>
      state.storage.sql
        .exec<{ key: string; written: number | null }>(
          "SELECT key, written_ms AS written FROM a2a_task_list ORDER BY written_ms",
        )
        .toArray(),
    );
    expect(columns).toEqual([
      { key: oldKey, written: null },
      { key: `a2a-task:${agent}:${fresh}`, written: expect.any(Number) },
    ]);
    expect((await worker.getTask(oldId)).result?.id).toBe(oldId);

    await prune(agent, ["upgraded"]);
    expect((await worker.drain()).body).toMatchObject({ conversations: 1, tasks_erased: 2 });
    for (const gone of [oldId, fresh]) {
      expect((await worker.getTask(gone)).error?.code).toBe(-32001);
    }
    expect(await indexEntries(agent, "upgraded")).toBe(0);
    const left = await storedText(agent, "upgraded", [oldId, fresh]);
    expect(left).not.toContain("old-secret-8812");
    expect(left).not.toContain("words after the upgrade");
  });
});
