/** KvTaskStore: durable tasks over a minimal key/value backend, scoped by agent (R2.3). */
import { Task, TaskState } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { A2AUser, InMemoryKv, KvTaskStore } from "../../../src/a2a/index.ts";
import { isLlamonError } from "../../../src/errors.ts";
import { threadKey } from "../../../src/runtime/thread-keys.ts";

const ctx = new ServerCallContext();

function task(
  id: string,
  contextId: string,
  text = "hello",
  state = TaskState.TASK_STATE_COMPLETED,
): Task {
  const message = {
    messageId: `m-${id}`,
    contextId,
    taskId: id,
    role: 2,
    parts: [
      {
        content: { $case: "text" as const, value: text },
        mediaType: "text/plain",
        filename: "",
        metadata: undefined,
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return {
    id,
    contextId,
    status: { state, message, timestamp: "2026-01-01T00:00:00.000Z" },
    artifacts: [],
    history: [message],
    metadata: { seed_report: { seeded: 2 } },
  };
}

describe("KvTaskStore", () => {
  it("round-trips a task as a JSON string under an agent-scoped key", async () => {
    const kv = new InMemoryKv();
    const store = new KvTaskStore({ kv, agentId: "agent-a" });
    const original = task("t1", "ctx");
    await store.save(original, ctx);
    expect([...kv.entries.keys()]).toEqual(["a2a-task:agent-a:t1"]);
    expect(typeof kv.entries.get("a2a-task:agent-a:t1")).toBe("string");
    expect(await store.load("t1", ctx)).toEqual(original);
    expect(await store.load("t2", ctx)).toBeUndefined();
  });

  it("R2.3 one agent never reads another agent's tasks on a shared backend", async () => {
    const kv = new InMemoryKv();
    const a = new KvTaskStore({ kv, agentId: "agent-a" });
    const b = new KvTaskStore({ kv, agentId: "agent-b" });
    await a.save(task("shared-id", "ctx-a", "from a"), ctx);
    expect(await b.load("shared-id", ctx)).toBeUndefined();
    await b.save(task("shared-id", "ctx-b", "from b"), ctx);
    expect((await a.load("shared-id", ctx))?.contextId).toBe("ctx-a");
    expect((await b.load("shared-id", ctx))?.contextId).toBe("ctx-b");
    // A crafted task id cannot climb into another agent's prefix.
    expect(await a.load("../agent-b:shared-id", ctx)).toBeUndefined();
    expect(await b.list({} as never, ctx)).toMatchObject({ totalSize: 1 });
  });

  it("refuses agent ids that could break the key scoping", () => {
    for (const agentId of ["", "Agent", "a:b", "x".repeat(64)]) {
      expect(() => new KvTaskStore({ kv: new InMemoryKv(), agentId })).toThrow(/AGENT_ID/);
    }
  });

  it("ignores values it did not write and over-long ids", async () => {
    const kv = new InMemoryKv();
    const store = new KvTaskStore({ kv, agentId: "a" });
    await kv.put("a2a-task:a:junk", "{not json");
    await kv.put("a2a-task:a:obj", { id: "obj" });
    await kv.put("a2a-task:a:other", JSON.stringify({ v: 1, task: { id: "different" } }));
    for (const id of ["junk", "obj", "other", "x".repeat(300)]) {
      expect(await store.load(id, ctx)).toBeUndefined();
    }
  });

  it("drops the history of an oversized task, and refuses one still too large", async () => {
    const kv = new InMemoryKv();
    const store = new KvTaskStore({ kv, agentId: "a", maxTaskBytes: 2_000 });
    const big = task("t", "c", "가".repeat(400)); // ~1.2 KB per copy in UTF-8, two copies
    await store.save(big, ctx);
    const stored = await store.load("t", ctx);
    expect(stored?.history).toEqual([]);
    expect(stored?.status).toEqual(big.status);
    const huge = task("u", "c", "가".repeat(1_000));
    const error = await store.save(huge, ctx).catch((e: unknown) => e);
    expect(isLlamonError(error, "DB_PAYLOAD_TOO_LARGE")).toBe(true);
    expect(await store.load("u", ctx)).toBeUndefined();
  });

  it("lists with the SDK's filtering and pagination", async () => {
    const store = new KvTaskStore({ kv: new InMemoryKv(), agentId: "a" });
    for (let i = 0; i < 5; i++) {
      const t = task(`t${i}`, i % 2 === 0 ? "even" : "odd");
      if (t.status) t.status.timestamp = `2026-01-01T00:00:0${i}.000Z`;
      await store.save(t, ctx);
    }
    const page1 = await store.list({ contextId: "even", pageSize: 2 } as never, ctx);
    expect(page1.tasks.map((t) => t.id)).toEqual(["t4", "t2"]);
    expect(page1.totalSize).toBe(3);
    const page2 = await store.list(
      { contextId: "even", pageSize: 2, pageToken: page1.nextPageToken } as never,
      ctx,
    );
    expect(page2.tasks.map((t) => t.id)).toEqual(["t0"]);
  });
});

describe("task records carry their owner", () => {
  const as = (principal: string) =>
    new ServerCallContext({ user: new A2AUser(principal, principal !== "anonymous") });

  it("another principal's load and list see nothing; the owner's do; the record names the owner and indexes the task under the owner's thread key", async () => {
    const kv = new InMemoryKv();
    const puts: { threadId: string; owner: string }[] = [];
    const store = new KvTaskStore({
      kv: {
        get: (k) => kv.get(k),
        put: async (k, v, meta) => {
          if (meta) puts.push({ threadId: meta.threadId, owner: meta.owner });
          await kv.put(k, v);
        },
        list: (p) => kv.list(p),
      },
      agentId: "agent-a",
    });
    await store.save(task("t-alice", "shared"), as("alice"));
    await store.save(task("t-anon", "shared"), as("anonymous"));
    expect((await store.load("t-alice", as("alice")))?.id).toBe("t-alice");
    expect(await store.load("t-alice", as("bob"))).toBeUndefined();
    expect(await store.load("t-alice", as("anonymous"))).toBeUndefined();
    expect(await store.load("t-anon", as("alice"))).toBeUndefined();
    expect((await store.load("t-anon", ctx))?.id).toBe("t-anon"); // no user = anonymous
    const listed = (who: string) =>
      store
        .list({ tenant: "", contextId: "", pageSize: 50, pageToken: "" } as never, as(who))
        .then((r) => r.tasks.map((t) => t.id));
    expect(await listed("alice")).toEqual(["t-alice"]);
    expect(await listed("bob")).toEqual([]);
    expect(await listed("anonymous")).toEqual(["t-anon"]);
    const record = JSON.parse(String(await kv.get(store.keyOf("t-alice"))));
    expect(record.owner).toBe("alice");
    expect(puts).toEqual([
      { threadId: threadKey("alice", "shared"), owner: "alice" },
      { threadId: "shared", owner: "anonymous" },
    ]);
  });

  it("a record stored before owners existed (no owner field) is anonymous's", async () => {
    const kv = new InMemoryKv();
    const store = new KvTaskStore({ kv, agentId: "agent-a" });
    await kv.put(
      store.keyOf("t-old"),
      JSON.stringify({ v: 1, task: Task.toJSON(task("t-old", "old-context")) }),
    );
    expect((await store.load("t-old", as("anonymous")))?.contextId).toBe("old-context");
    expect(await store.load("t-old", as("alice"))).toBeUndefined();
  });
});
