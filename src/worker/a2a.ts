/**
 * The Worker's A2A endpoint: the A2A app (src/a2a) with the turn executor of this agent and
 * a task store kept in Durable Objects, one object per task (`task:<agent>:<task key>`), so
 * `tasks/get` works from any isolate. Created once per isolate (in-isolate cancel needs one
 * executor); the Worker's env is fixed for an isolate.
 */
import type { Hono } from "hono";
import pkg from "../../package.json" with { type: "json" };
import { createA2AApp, KvTaskStore } from "../a2a/index.ts";
import type { KvBackend } from "../a2a/task-store.ts";
import type { AgentDefinition } from "../agent/define.ts";
import { taskRecordObjectName, threadObjectName } from "../agent/execute.ts";
import { LlamonError } from "../errors.ts";
import { type Env, parseWorkerVars } from "./env.ts";
import { executeTurn } from "./turns.ts";

const apps = new WeakMap<object, Hono>();

export function a2aAppFor(agent: AgentDefinition, env: Env): Hono {
  let app = apps.get(env);
  if (app === undefined) {
    const { AGENT_ID: agentId } = parseWorkerVars(env);
    app = createA2AApp({
      card: { name: agent.name, description: agent.description, version: pkg.version },
      taskStore: new KvTaskStore({ kv: durableKv(env, agentId), agentId }),
      execute: async (input) => {
        const out = await executeTurn(
          env,
          {
            contextId: input.contextId,
            messageId: input.messageId,
            text: input.text,
            history: input.history,
          },
          { waitUntil: input.waitUntil },
        );
        return { reply: out.reply, seedReport: out.seedReport };
      },
    });
    apps.set(env, app);
  }
  return app;
}

/**
 * Task records in Durable Object storage: each key in its own object (no hot spot), indexed
 * in the conversation's object (in parallel, no added latency) so erasing the conversation
 * erases its tasks too.
 */
function durableKv(env: Env, agentId: string): KvBackend {
  const threads = () => {
    if (env.THREADS === undefined) {
      throw new LlamonError(
        "CONFIG_INVALID",
        "the A2A task store needs the THREADS Durable Object binding in wrangler.toml",
      );
    }
    return env.THREADS;
  };
  return {
    get: (key) => threads().getByName(taskRecordObjectName(key)).kvGet(key),
    put: async (key, value, meta) => {
      await Promise.all([
        threads().getByName(taskRecordObjectName(key)).kvPut(key, value),
        meta === undefined
          ? undefined
          : threads().getByName(threadObjectName(agentId, meta.contextId)).indexTask(key),
      ]);
    },
  };
}
