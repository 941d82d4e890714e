/**
 * ThreadDO inside workerd: the object backends of R1, ownership (R2.3) and the turn
 * lock (R2.4).
 *
 * Choosing the backend: the Worker under test gets MEMORY_BACKEND=postgres from
 * wrangler.toml, and every object of a Worker shares one env, so a binding cannot select a
 * backend per object. Inside `runInDurableObject` we therefore construct a ThreadDO over the
 * object's real `DurableObjectState` with `{ ...env, MEMORY_BACKEND: "sqlite" | "in_memory" }`
 * — the same constructor the runtime calls, on the same storage. For in_memory, the
 * constructed object is kept in a WeakMap keyed by the runtime's instance, so it lives
 * exactly as long as that instance: `evictDurableObject` tears the instance down, as a
 * restart would.
 */

import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { durableObjectSqlite, ThreadDO } from "../../src/durable/thread-do.ts";
import { isLlamonError } from "../../src/errors.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { createSqliteMemory, type ThreadSaver } from "../../src/store/do-memory.ts";
import { SqliteSaver } from "../../src/store/sqlite-saver.ts";
import { SQLITE_SCHEMA_VERSION } from "../../src/store/sqlite-sql.ts";
import { sqliteThreadStore } from "../../src/store/sqlite-thread-store.ts";

type LocalBackend = "sqlite" | "in_memory";

const inMemoryObjects = new WeakMap<ThreadDO, ThreadDO>();

// The test env types THREADS precisely; src/runtime/env.ts's Env does not, so leave it out
// (ThreadDO does not use it).
const { THREADS: _threads, ...vars } = env;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The object's ThreadDO as it would be with MEMORY_BACKEND=backend (see file header). */
function objectWith(backend: LocalBackend, runtime: ThreadDO, state: DurableObjectState) {
  const make = () => new ThreadDO(state, { ...vars, MEMORY_BACKEND: backend });
  if (backend === "sqlite") return make();
  const known = inMemoryObjects.get(runtime) ?? make();
  inMemoryObjects.set(runtime, known);
  return known;
}

/** Runs fn in the object `name` with the given backend; also reports the runtime instance. */
function inObject<R>(
  name: string,
  backend: LocalBackend,
  fn: (object: ThreadDO, state: DurableObjectState, runtime: ThreadDO) => Promise<R>,
): Promise<R> {
  return runInDurableObject(env.THREADS.getByName(name), (runtime: ThreadDO, state) =>
    fn(objectWith(backend, runtime, state), state, runtime),
  );
}

/** Saves one turn (a checkpoint holding `texts` as messages) like a turn runner would. */
async function saveTurn(saver: ThreadSaver, threadId: string, texts: string[], parent?: string) {
  const messages = texts.map((t, i) => (i % 2 === 0 ? new HumanMessage(t) : new AIMessage(t)));
  const checkpoint = {
    ...emptyCheckpoint(),
    id: uuid6(-1),
    channel_values: { messages },
    channel_versions: { messages: texts.length },
  };
  const config = {
    configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: parent },
  };
  const saved = await saver.put(
    config,
    checkpoint,
    { source: "loop", step: 1, parents: {} },
    {
      messages: texts.length,
    },
  );
  return String(saved.configurable?.checkpoint_id);
}

const AGENT = env.AGENT_ID;

describe("ThreadDO backends (R1)", () => {
  it("R1 sqlite keeps the thread and its memory when the object is evicted", async () => {
    const name = `${AGENT}:r1-sqlite`;
    const before = await inObject(name, "sqlite", async (object, _state, runtime) => {
      expect(object.backend()).toBe("sqlite");
      const saver = object.saver as ThreadSaver;
      await object.memory?.set("r1-sqlite", "summary", "the user likes tea");
      const id = await saveTurn(saver, "r1-sqlite", ["hi", "hello", "tea?"]);
      expect(await object.threadState(AGENT, "r1-sqlite")).toEqual({
        checkpointId: id,
        messageCount: 3,
      });
      return { id, runtime };
    });
    await evictDurableObject(env.THREADS.getByName(name));
    await inObject(name, "sqlite", async (object, state, runtime) => {
      expect(runtime).not.toBe(before.runtime); // a fresh instance after eviction
      expect(await object.threadState(AGENT, "r1-sqlite")).toEqual({
        checkpointId: before.id,
        messageCount: 3,
      });
      const saver = object.saver;
      if (saver === undefined) throw new Error("the sqlite object has no saver");
      const { messages } = await readThreadMessages(saver, {
        configurable: { thread_id: "r1-sqlite" },
      });
      expect(messages.map((m) => m.content)).toEqual(["hi", "hello", "tea?"]);
      expect(messages[0]).toBeInstanceOf(HumanMessage);
      expect(await object.memory?.get("r1-sqlite", "summary")).toBe("the user likes tea");
      // Every schema version, each applied once (v5: message ids, R11.2).
      expect(state.storage.sql.exec("SELECT v FROM llamon_schema").toArray()).toEqual([
        { v: 1 },
        { v: 2 },
        { v: 3 },
        { v: 4 },
        { v: 5 },
      ]);
      expect(SQLITE_SCHEMA_VERSION).toBe(5);
    });
  });

  it("R1 in_memory loses the thread when the object is evicted", async () => {
    const name = `${AGENT}:r1-memory`;
    const first = await inObject(name, "in_memory", async (object, _state, runtime) => {
      expect(object.backend()).toBe("in_memory");
      await object.memory?.set("r1-memory", "summary", "kept in memory");
      return {
        id: await saveTurn(object.saver as ThreadSaver, "r1-memory", ["hi", "hello"]),
        runtime,
      };
    });
    // While the object lives, later requests see the thread (it is the object's memory).
    await inObject(name, "in_memory", async (object, _state, runtime) => {
      expect(runtime).toBe(first.runtime);
      expect(await object.threadState(AGENT, "r1-memory")).toEqual({
        checkpointId: first.id,
        messageCount: 2,
      });
    });
    await evictDurableObject(env.THREADS.getByName(name));
    await inObject(name, "in_memory", async (object, _state, runtime) => {
      expect(runtime).not.toBe(first.runtime);
      expect(await object.threadState(AGENT, "r1-memory")).toEqual({
        checkpointId: null,
        messageCount: 0,
      });
      expect(await object.memory?.get("r1-memory", "summary")).toBeUndefined();
    });
  });

  it("R1 postgres: the object stores nothing itself", async () => {
    const stub = env.THREADS.getByName(`${AGENT}:r1-postgres`);
    expect(await stub.backend()).toBe("postgres"); // RPC
    await runInDurableObject(stub, async (object: ThreadDO) => {
      expect(object.saver).toBeUndefined();
      expect(object.memory).toBeUndefined();
      // Called in the object: an RPC method that throws is reported by the test pool as an
      // unhandled rejection even when the caller handles it.
      const error = await object.threadState(AGENT, "r1-postgres").catch((e: unknown) => e);
      expect(isLlamonError(error, "INPUT_INVALID")).toBe(true);
      expect(String(error)).toMatch(/MEMORY_BACKEND=postgres/);
    });
  });

  it("R11.1 a refused turn's staged memory rows go with it; they land only with its checkpoint (one transaction)", async () => {
    await inObject(`${AGENT}:atomic`, "sqlite", async (_object, state) => {
      const sql = durableObjectSqlite(state.storage);
      const saver = new SqliteSaver({ sql, agentId: AGENT, guardHead: true });
      const memory = createSqliteMemory(sql, AGENT);
      const store = sqliteThreadStore(saver);
      const head = await saveTurn(saver, "atomic", ["hi", "hello"]);
      /** A turn through the store: load, a memory row staged, its put (held), commit. */
      const turn = async (texts: string[], parent?: string) => {
        const end = store.begin();
        try {
          await store.load({ threadId: "atomic", messageId: crypto.randomUUID() });
          store.stage("atomic").memory?.("facts", ["likes tea"]);
          await saveTurn(saver, "atomic", texts, parent);
          return await store.commit("atomic", { messageCount: texts.length, messages: [] });
        } catch (error) {
          store.discard("atomic");
          throw error;
        } finally {
          end();
        }
      };
      // A turn that started before `head` was saved: compare-and-set fails, nothing lands.
      const stale = await turn(["hi", "other"]).catch((error: unknown) => error);
      expect(isLlamonError(stale, "THREAD_CONFLICT")).toBe(true);
      const tuple = await saver.getTuple({ configurable: { thread_id: "atomic" } });
      expect(tuple?.checkpoint.id).toBe(head);
      expect((await memory.load("atomic")).thread).toEqual({});
      // The refused turn's rows are gone with it; the next good turn stages and writes them.
      await turn(["hi", "hello", "more"], head);
      expect((await memory.load("atomic")).thread).toEqual({ facts: ["likes tea"] });
    });
  });
});

describe("ownership inside one object's storage (R2.3)", () => {
  it("R2.3 two agent ids on the same SQLite storage never see each other's threads", async () => {
    await inObject(`${AGENT}:shared`, "sqlite", async (object, state) => {
      const sql = durableObjectSqlite(state.storage);
      const a = new SqliteSaver({ sql, agentId: "agent-a" });
      const b = new SqliteSaver({ sql, agentId: "agent-b" });
      const id = await saveTurn(a, "same-context", ["hi", "hello"]);
      await createSqliteMemory(sql, "agent-a").set("same-context", "summary", "a's summary");
      await saveTurn(a, "same-context", ["hi", "hello", "again"], id);

      expect(await b.getTuple({ configurable: { thread_id: "same-context" } })).toBeUndefined();
      expect(await collect(b.list({}))).toEqual([]);
      expect(await collect(a.list({}))).toHaveLength(2);
      expect((await object.threadState("agent-b", "same-context")).checkpointId).toBeNull();
      expect((await object.threadState("agent-a", "same-context")).messageCount).toBe(3);

      await b.deleteThread("same-context"); // b erasing "its" thread touches nothing of a's
      expect(await collect(a.list({ configurable: { thread_id: "same-context" } }))).toHaveLength(
        2,
      );
      expect((await createSqliteMemory(sql, "agent-a").load("same-context")).thread).toEqual({
        summary: "a's summary",
      });
      expect((await createSqliteMemory(sql, "agent-b").load("same-context")).thread).toEqual({});
    });
  });

  it("R2.3 another agent id sees nothing of an in_memory object's threads", async () => {
    await inObject(`${AGENT}:shared-memory`, "in_memory", async (object) => {
      await saveTurn(object.saver as ThreadSaver, "ctx", ["hi"]);
      expect((await object.threadState(AGENT, "ctx")).messageCount).toBe(1);
      expect(await object.threadState("someone-else", "ctx")).toEqual({
        checkpointId: null,
        messageCount: 0,
      });
    });
  });
});

describe.each(["sqlite", "in_memory"] as const)(
  "persistent_memory in the object (%s)",
  (backend) => {
    it("R4.1 get/set/delete/load keep one row per key, thread and agent keys apart", async () => {
      await inObject(`${AGENT}:memory-${backend}`, backend, async (object, state) => {
        const memory = object.memory;
        if (memory === undefined) throw new Error("no memory store");
        await memory.set("t1", "summary", "first");
        await memory.set("t1", "summary", "second");
        await memory.set("t1", "facts", [{ text: "likes tea" }]);
        await memory.set(null, "settings", { window_size: 10 });
        await memory.set("t2", "summary", "other thread");
        expect(await memory.get("t1", "summary")).toBe("second");
        expect(await memory.get(null, "settings")).toEqual({ window_size: 10 });
        expect(await memory.load("t1")).toEqual({
          thread: { summary: "second", facts: [{ text: "likes tea" }] },
          agent: { settings: { window_size: 10 } },
        });
        if (backend === "sqlite") {
          const count = state.storage.sql
            .exec(
              "SELECT count(*) AS n FROM persistent_memory WHERE thread_id = 't1' AND key = 'summary'",
            )
            .one();
          expect(count.n).toBe(1);
        }
        const loaded = await memory.load("t1");
        (loaded.thread.facts as { text: string }[]).push({ text: "mutated" });
        expect(await memory.get("t1", "facts")).toEqual([{ text: "likes tea" }]);
        await memory.delete("t1", "summary");
        await memory.set("t1", "nothing", null);
        expect(await memory.get("t1", "summary")).toBeUndefined();
        expect(await memory.get("t1", "nothing")).toBeNull();
        expect((await memory.load("t2")).thread).toEqual({ summary: "other thread" });
        await object.saver?.deleteThread("t1");
        expect(await memory.load("t1")).toEqual({
          thread: {},
          agent: { settings: { window_size: 10 } },
        });
      });
    });
  },
);

describe("the turn lock (R2.4)", () => {
  // Two separate requests into one object. They share only the plain `log` array; each
  // side polls it with timers of its own (a promise resolved across objects would carry
  // the other object's I/O context). The polls only wait; nothing depends on their timing.
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
  };

  it("R2.4 two concurrent withLock calls on one object never interleave", async () => {
    const stub = env.THREADS.getByName(`${AGENT}:lock`);
    const log: string[] = [];
    const first = runInDurableObject(stub, (object: ThreadDO) =>
      object.withLock(async () => {
        log.push("first:start");
        // Like awaiting the model: the second request gets into the object meanwhile.
        await until(() => log.includes("second:asks"));
        await new Promise((resolve) => setTimeout(resolve, 10));
        log.push("first:end");
      }),
    );
    await until(() => log.includes("first:start"));
    const second = runInDurableObject(stub, (object: ThreadDO) => {
      log.push("second:asks");
      return object.withLock(async () => {
        log.push("second:start");
        log.push("second:end");
      });
    });
    await Promise.all([first, second]);
    expect(log).toEqual(["first:start", "second:asks", "first:end", "second:start", "second:end"]);
  });
});
