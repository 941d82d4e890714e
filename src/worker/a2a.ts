/**
 * The Worker's A2A endpoint: the A2A app (src/a2a) with the turn executor of this agent and
 * a task store kept in Durable Objects (each task in its owner's task list), so `tasks/get`
 * works from any isolate — except with memory off, which keeps no task (R11.3). Built once
 * per isolate, at createWorker (in-isolate cancel needs one executor); everything that
 * depends on the env comes per request from the request context: the auth config (A2A_AUTH
 * over `defineAgent({ auth })`), the rate limiter (the A2A_RATE_LIMITER binding), and the
 * caller's principal, which the request context carries from there on.
 */
import type { TaskStore } from "@a2a-js/sdk/server";
import type { Hono } from "hono";
import pkg from "../../package.json" with { type: "json" };
import { createA2AApp, GatedTaskStore, type KvBackend, KvTaskStore } from "../a2a/index.ts";
import type { AgentDefinition } from "../agent/define.ts";
import type { TaskRecordHost } from "../durable/kv-slot.ts";
import type { TaskListHost } from "../durable/task-list.ts";
import type { Logger } from "../log.ts";
import { effectiveBackend, type MemoryConfig } from "../memory/config.ts";
import { resolveA2AAuth } from "../runtime/auth-config.ts";
import { type RequestContext, turnContext, withPrincipal } from "../runtime/context.ts";
import { requestContextOf } from "../runtime/http.ts";
import { taskListObjectName, taskRecordObjectName, threadsObject } from "../runtime/objects.ts";
import { runScenario, scenarioOf } from "./scenarios.ts";
import { executeTurn } from "./turns.ts";

export function createWorkerA2AApp(agent: AgentDefinition, log: Logger): Hono {
  return createA2AApp<RequestContext>({
    card: { name: agent.name, description: agent.description, version: pkg.version },
    // A2A_AUTH (env over the agent's code settings), checked before anything is read.
    auth: (c) => resolveA2AAuth(requestContextOf(c).vars, agent.auth),
    rateLimit: (c) => {
      const ctx = requestContextOf(c);
      const binding = ctx.env.A2A_RATE_LIMITER;
      return binding === undefined
        ? undefined
        : { binding, periodSeconds: ctx.vars.A2A_RATE_LIMIT_PERIOD_SECONDS };
    },
    guardLog: (c) => requestContextOf(c).log,
    request: (c, caller) => withPrincipal(requestContextOf(c), caller.principal),
    requestLog: (ctx) => ctx.log,
    log,
    taskStore: taskStoreOf,
    execute: async (input, signal, ctx) => {
      const scenario = scenarioOf(ctx.vars.LLAMON_A2A_SCENARIOS, input);
      if (scenario !== undefined) return runScenario(scenario, input, signal);
      const out = await executeTurn(
        turnContext(ctx, input),
        {
          threadId: input.threadId,
          contextId: input.contextId,
          principal: input.principal,
          messageId: input.messageId,
          text: input.text,
          history: input.history,
        },
        input.replyText,
      );
      if (out.generation !== undefined) turnGenerations.set(ctx, out.generation);
      // A task waits for the user's answer only where it is kept: with memory off, no later
      // request could continue it (a flow then starts over, as its conversation does).
      const waits = out.inputRequired === true && (await keepsTasks(ctx));
      return {
        reply: out.reply,
        seedReport: out.seedReport,
        ...(waits ? { inputRequired: true } : {}),
        ...(out.flow ? { flow: true } : {}),
      };
    },
  });
}

/**
 * The task store of one request (a2a/gated-task-store.ts). A task holds the user's message
 * and the reply, so with memory off nothing of it is kept after the request (R11.3): off at
 * deploy time, no task is read or written in storage; turned off at run time (`enabled:
 * false` in the effective config, which the request resolves once and its turn uses too),
 * this request's tasks are not kept, while tasks kept before stay readable like their
 * conversations. The decision costs no read: a turn resolves the config anyway (on postgres
 * from its own read batch), and a streaming send's working task, saved before its turn, is
 * saved provisionally and deleted after the turn if memory turns out to be off.
 */
/**
 * The conversation generation each request's turn read and wrote (store/thread-fence.ts): its
 * task saves carry it, and the task list refuses one that an erase retired meanwhile, so a
 * turn racing an erase cannot bring the erased conversation back as a task record (R11.1).
 */
const turnGenerations = new WeakMap<RequestContext, string>();

function taskStoreOf(ctx: RequestContext): TaskStore {
  if (ctx.deployConfig.backend === "off") return new GatedTaskStore({});
  return new GatedTaskStore({
    durable: new KvTaskStore({
      kv: durableKv(ctx),
      agentId: ctx.agentId,
      generation: () => turnGenerations.get(ctx),
    }),
    keeps: {
      now: () => {
        const config = ctx.configIfResolved();
        return config === undefined ? undefined : memoryOn(config);
      },
      decide: async () => memoryOn(await ctx.config()),
    },
  });
}

/** Whether the request's tasks are kept after it (its turn has resolved the config). */
async function keepsTasks(ctx: RequestContext): Promise<boolean> {
  return ctx.deployConfig.backend !== "off" && memoryOn(await ctx.config());
}

function memoryOn(config: MemoryConfig): boolean {
  return effectiveBackend(config) !== "off";
}

/**
 * Task records in Durable Object storage: each in its owner's task list object only (read by
 * key for tasks/get, by page for ListTasks: one round trip either way; a save is one call).
 * Erasing a conversation finds its rows there by contextId (admin/task-erasure.ts), since the
 * thread key names the owner. Earlier releases also wrote each record to an object of its own
 * (`task:<key>`, a new Durable Object for every message) and indexed it in the conversation's
 * object (a second call per save, and an object per conversation even on the postgres
 * backend); a record not in the owner's list is still read from its own object, and erasing
 * still deletes what they indexed.
 */
function durableKv(ctx: RequestContext): KvBackend {
  const purpose = "the A2A task store";
  const record = (key: string) =>
    threadsObject<TaskRecordHost>(ctx.env, taskRecordObjectName(key), purpose);
  const listObject = (owner: string) =>
    threadsObject<TaskListHost>(ctx.env, taskListObjectName(ctx.agentId, owner), purpose);
  return {
    get: async (key, owner) => {
      if (owner !== undefined) {
        const listed = await listObject(owner).getTaskRecord(key);
        if (listed !== undefined) return listed;
      }
      return record(key).kvGet(key);
    },
    delete: (key, owner) => listObject(owner).deleteTaskRows([key]),
    put: async (key, value, meta) => {
      if (meta === undefined || typeof value !== "string") {
        await record(key).kvPut(key, value);
        return;
      }
      const saved = await listObject(meta.owner).upsertTaskRow(meta.row, meta.generation);
      if (!saved) {
        ctx.log.warn("a2a: a task of an erased conversation was not saved (R11.1)", {
          context_id: meta.row.contextId,
        });
      }
    },
    query: (owner, query) => listObject(owner).queryTasks(query),
    follow: (key, owner, signal) => {
      // Asked now (the subscription follows before it reads the snapshot); a subscription that
      // ends before reading it (a terminal or unknown task) still releases the object's stream.
      const stream = listObject(owner).followTask(key);
      const release = () =>
        void Promise.resolve(stream)
          .then((s) => s.cancel())
          .catch(() => undefined);
      if (signal.aborted) release();
      else signal.addEventListener("abort", release, { once: true });
      return followLines(stream, signal);
    },
  };
}

/**
 * The records a task list object streams to a subscription (durable/task-followers.ts): one
 * JSON text per line, until the object ends the stream or `signal` aborts.
 */
async function* followLines(
  stream: ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>,
  signal: AbortSignal,
): AsyncGenerator<string, void, undefined> {
  const reader = (await stream).pipeThrough(new TextDecoderStream()).getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener("abort", stop, { once: true });
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line !== "") yield line;
      }
    }
  } finally {
    signal.removeEventListener("abort", stop);
    stop();
  }
}
