/**
 * The summary queue consumer inside workerd (R7.5): the reference Worker's `queue` handler
 * with batches from `createMessageBatch`, its ack/retry decisions read with
 * `getQueueResult`. The thread lives in Postgres (Neon driver → proxy), as in production.
 *
 * wrangler.toml ships MEMORY_SUMMARIZE=false, so most tests hand the handler the same env
 * with MEMORY_SUMMARIZE=true (a Worker's env is per deployment; this is that deployment).
 * Dead-lettering after `max_retries` is done by the platform, not by our code: here we assert
 * that a failing job is retried (with a delay) and that nothing was written.
 */
import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  runInDurableObject,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { ThreadDO } from "../../src/durable/thread-do.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { parseSummaryCache, SUMMARY_KEY } from "../../src/memory/summary.ts";
import { summarizeHere } from "../../src/queue/host.ts";
import type { SummarizeJob } from "../../src/queue/jobs.ts";
import { loadThreadMessages } from "../../src/queue/summarize.ts";
import { workerDb } from "../../src/runtime/db.ts";
import type { Env } from "../../src/runtime/env.ts";
import { threadObjectName } from "../../src/runtime/objects.ts";
import { threadKey } from "../../src/runtime/thread-keys.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { Generations } from "../../src/store/thread-fence.ts";
import worker from "../../src/worker/index.ts";

const AGENT = env.AGENT_ID;
const QUEUE = "llamon-summaries";
/** The Worker's env as src/ types it (the test env's interface has no index signature). */
const base: Env = { ...env };
const on: Env = { ...base, MEMORY_SUMMARIZE: "true" };
/** A provider that cannot be reached: every summarizer call fails. */
const failingModelEnv = {
  ...on,
  LLM_PROVIDER: "openai-compatible",
  LLM_MODEL: "unreachable",
  LLM_BASE_URL: "http://127.0.0.1:9/v1",
  LLM_TIMEOUT_MS: "2000",
};

const agent = defineAgent({ name: "q", description: "queue test", system: "Be brief." });
const memory = () => createPostgresMemory(workerDb(base), AGENT);

/** A stored thread of `turns` user/AI turns on the postgres backend. */
async function storedThread(turns: number, threadId = `q-${crypto.randomUUID()}`): Promise<string> {
  const config = resolveMemoryConfig({ env: base }).config;
  for (let t = 1; t <= turns; t++) {
    await runTurn(
      {
        agent,
        config,
        model: new OfflineChatModel(),
        checkpointer: new NeonSaver({ db: workerDb(base), agentId: AGENT, guardHead: true }),
        log: createMemoryLogger(),
      },
      { threadId, text: `message ${t}` },
    );
  }
  return threadId;
}

function job(threadId: string, upto: number): SummarizeJob {
  return { type: "summarize", agent_id: AGENT, thread_id: threadId, upto };
}

async function deliver(bodies: unknown[], handlerEnv: Env) {
  const batch = createMessageBatch(
    QUEUE,
    bodies.map((body, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue?.(batch, handlerEnv, ctx);
  return getQueueResult(batch, ctx);
}

describe("summary queue consumer in workerd (R7.5)", () => {
  it("R7.5 a valid job is acked and writes the thread's one summary row; a duplicate in the same batch is acked without a second summary", async () => {
    const threadId = await storedThread(20);
    const result = await deliver([job(threadId, 20), job(threadId, 20)], on);
    expect(result.explicitAcks).toEqual(["msg-0", "msg-1"]);
    expect(result.retryMessages).toEqual([]);
    const cache = parseSummaryCache(await memory().get(threadId, SUMMARY_KEY));
    expect(cache).toMatchObject({ covers: 20, version: 1 });
    expect(cache?.text).toMatch(/^offline-model:/); // made with the agent's (offline) model
    const { rows } = await workerDb(base).query<{ n: number }>(
      "SELECT count(*)::int AS n FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2 AND key = $3",
      [AGENT, threadId, SUMMARY_KEY],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("a job carries the conversation's thread key: the summary of alice's conversation is written for it alone, not for the same contextId of anonymous", async () => {
    const contextId = `q-shared-${crypto.randomUUID()}`;
    const aliceKey = threadKey("alice", contextId);
    await storedThread(20, aliceKey);
    await storedThread(20, contextId); // anonymous's conversation with the same contextId
    const result = await deliver([job(aliceKey, 20)], on);
    expect(result.explicitAcks).toEqual(["msg-0"]);
    expect(parseSummaryCache(await memory().get(aliceKey, SUMMARY_KEY))).toMatchObject({
      covers: 20,
    });
    expect(await memory().get(contextId, SUMMARY_KEY)).toBeUndefined();
  });

  it("R7.5 a failing model: the job is retried with a delay and the previous summary is kept", async () => {
    const threadId = await storedThread(20);
    const previous = {
      text: "earlier summary",
      covers: 2,
      updated_at: "2026-01-01T00:00:00.000Z",
      version: 1,
    };
    await memory().set(threadId, SUMMARY_KEY, previous);
    const result = await deliver([job(threadId, 20)], failingModelEnv);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["msg-0"]); // delay: retryDelaySeconds
    expect(await memory().get(threadId, SUMMARY_KEY)).toEqual(previous);
  });

  it("R7.5 a database failure is retried too", async () => {
    const result = await deliver([job("q-no-db", 2)], {
      ...on,
      LLAMON_NEON_FETCH_ENDPOINT: "http://127.0.0.1:9/sql",
    });
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["msg-0"]);
  });

  it("acks (drops, logged) invalid jobs, jobs of another agent (R2.3) and jobs while summarize is off", async () => {
    const threadId = await storedThread(20);
    const result = await deliver(
      [
        { type: "summarize", thread_id: threadId }, // invalid: retrying cannot fix it
        "not even an object",
        { ...job(threadId, 20), agent_id: "someone-else" },
      ],
      on,
    );
    expect(result.explicitAcks).toEqual(["msg-0", "msg-1", "msg-2"]);
    expect(result.retryMessages).toEqual([]);
    const off = await deliver([job(threadId, 20)], base); // wrangler.toml: MEMORY_SUMMARIZE=false
    expect(off.explicitAcks).toEqual(["msg-0"]);
    expect(await memory().get(threadId, SUMMARY_KEY)).toBeUndefined();
  });

  it("R7.5 object backends: the job goes to the conversation's Durable Object (summarize RPC)", async () => {
    const calls: { name: string; job: SummarizeJob }[] = [];
    const threads = {
      getByName: (name: string) => ({
        kvGet: async () => undefined,
        summarize: async (j: SummarizeJob) => {
          calls.push({ name, job: j });
          if (j.upto === 99) throw new Error("object failed");
          return { status: "summarized", threadId: j.thread_id, from: 0, covers: j.upto };
        },
      }),
    };
    // A stand-in for the THREADS namespace: only getByName(name).summarize(job) is used.
    const sqliteEnv: Env = {
      ...on,
      MEMORY_BACKEND: "sqlite",
      THREADS: threads as unknown as Env["THREADS"],
    };
    const result = await deliver([job("ctx-do", 4), job("ctx-do", 99)], sqliteEnv);
    expect(calls.map((c) => c.name)).toEqual([
      threadObjectName(AGENT, "ctx-do"),
      threadObjectName(AGENT, "ctx-do"),
    ]);
    expect(result.explicitAcks).toEqual(["msg-0"]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["msg-1"]);
  });

  it("R7.5 sqlite object backend: summarizeHere with the object's own saver and memory (the body of ThreadDO.summarize)", async () => {
    const { THREADS: _threads, ...vars } = env;
    const objectEnv = { ...vars, MEMORY_BACKEND: "sqlite", MEMORY_SUMMARIZE: "true" };
    await runInDurableObject(
      env.THREADS.getByName(threadObjectName(AGENT, "ctx-sqlite")),
      async (_runtime: ThreadDO, state) => {
        const object = new ThreadDO(state, objectEnv);
        for (let t = 1; t <= 20; t++) {
          await object.turn({
            threadId: "ctx-sqlite",
            contextId: "ctx-sqlite",
            messageId: `m-${t}`,
            text: `message ${t}`,
          });
        }
        const saver = object.saver;
        const store = object.memory;
        if (saver === undefined || store === undefined)
          throw new Error("sqlite object keeps no thread");
        const before = await object.threadState(AGENT, "ctx-sqlite");
        const fence = new Generations().fence(store);
        const outcome = await summarizeHere(objectEnv, job("ctx-sqlite", 20), saver, store, fence);
        expect(outcome).toMatchObject({ status: "summarized", from: 0, covers: 20 });
        const stored = await loadThreadMessages(saver, "ctx-sqlite");
        expect(stored[18]?.id).toBe("m-10"); // [0, 20) ends with turn 10's reply
        expect(parseSummaryCache(await store.get("ctx-sqlite", SUMMARY_KEY))).toMatchObject({
          covers: 20,
          covers_id: stored[19]?.id,
        });
        expect(await object.threadState(AGENT, "ctx-sqlite")).toEqual(before); // R7.4
      },
    );
  });
});
