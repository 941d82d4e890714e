/** GatedTaskStore: a request's tasks are kept only when its memory keeps conversations (R11.3). */
import { type ListTasksRequest, type Task, TaskState } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import {
  GatedTaskStore,
  InMemoryKv,
  KvTaskStore,
  type TaskKeeping,
} from "../../../src/a2a/index.ts";

const ctx = new ServerCallContext();

function task(id: string, state: TaskState, text = "my secret"): Task {
  const message = {
    messageId: `m-${id}`,
    contextId: "ctx",
    taskId: id,
    role: 1,
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
    contextId: "ctx",
    status: { state, message: undefined, timestamp: "2026-01-01T00:00:00.000Z" },
    artifacts: [],
    history: [message],
    metadata: undefined,
  };
}

const LIST_ALL: ListTasksRequest = {
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: 50,
  pageToken: "",
  statusTimestampAfter: undefined,
  historyLength: 0,
  includeArtifacts: false,
};

/** A keeping answer that is unknown until `known` is set; counts the reads it needed. */
function keeping(initial?: boolean) {
  const state = { known: initial, decided: 0 };
  const keeps: TaskKeeping = {
    now: () => state.known,
    decide: async () => {
      state.decided += 1;
      return state.known ?? false;
    },
  };
  return { state, keeps };
}

function durableStore() {
  const kv = new InMemoryKv();
  return { kv, store: new KvTaskStore({ kv, agentId: "agent-a" }) };
}

describe("GatedTaskStore", () => {
  it("R11.3 without a durable store, a task lives for the request only and nothing is listed", async () => {
    const request = new GatedTaskStore({});
    await request.save(task("t1", TaskState.TASK_STATE_COMPLETED), ctx);
    expect((await request.load("t1", ctx))?.history).toHaveLength(1);
    expect(await new GatedTaskStore({}).load("t1", ctx)).toBeUndefined();
    expect(await request.list(LIST_ALL, ctx)).toMatchObject({ tasks: [], totalSize: 0 });
    await expect(request.list({ ...LIST_ALL, pageToken: "not a token!" }, ctx)).rejects.toThrow(
      /pageToken/,
    );
  });

  it("R11.3 memory known off: nothing reaches the durable store, which is still read", async () => {
    const { kv, store } = durableStore();
    await store.save(task("old", TaskState.TASK_STATE_COMPLETED), ctx);
    const { keeps } = keeping(false);
    const request = new GatedTaskStore({ durable: store, keeps });
    await request.save(task("t1", TaskState.TASK_STATE_WORKING), ctx);
    await request.save(task("t1", TaskState.TASK_STATE_COMPLETED), ctx);
    expect([...kv.entries.keys()]).toEqual(["a2a-task:agent-a:old"]);
    expect((await request.load("t1", ctx))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await request.load("old", ctx))?.id).toBe("old");
  });

  it("R11.3 a working task saved before the answer is known is kept provisionally, then deleted when memory is off", async () => {
    const { kv, store } = durableStore();
    const { state, keeps } = keeping();
    const request = new GatedTaskStore({ durable: store, keeps });
    await request.save(task("t1", TaskState.TASK_STATE_WORKING), ctx);
    // Other requests can see it while its turn runs.
    expect((await store.load("t1", ctx))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    state.known = false; // the turn resolved its config: memory off
    await request.save(task("t1", TaskState.TASK_STATE_COMPLETED), ctx);
    expect(kv.entries.size).toBe(0);
    expect((await request.load("t1", ctx))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(state.decided).toBe(0);
  });

  it("a provisional task is kept when memory is on; a final save with the answer unknown asks for it once", async () => {
    const on = keeping();
    const { kv, store } = durableStore();
    const request = new GatedTaskStore({ durable: store, keeps: on.keeps });
    await request.save(task("t1", TaskState.TASK_STATE_WORKING), ctx);
    on.state.known = true;
    await request.save(task("t1", TaskState.TASK_STATE_COMPLETED), ctx);
    expect(JSON.stringify([...kv.entries.values()])).toContain("TASK_STATE_COMPLETED");

    const unknown = keeping();
    const second = durableStore();
    const asked = new GatedTaskStore({ durable: second.store, keeps: unknown.keeps });
    await asked.save(task("t2", TaskState.TASK_STATE_COMPLETED), ctx);
    await asked.save(task("t3", TaskState.TASK_STATE_COMPLETED), ctx);
    expect(unknown.state.decided).toBe(1);
    expect(second.kv.entries.size).toBe(0);
  });

  it("with a durable store and no keeping rule, every task is kept", async () => {
    const { kv, store } = durableStore();
    await new GatedTaskStore({ durable: store }).save(
      task("t1", TaskState.TASK_STATE_WORKING),
      ctx,
    );
    expect([...kv.entries.keys()]).toEqual(["a2a-task:agent-a:t1"]);
  });
});
