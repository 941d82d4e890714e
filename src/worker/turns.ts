/**
 * Dispatch of a turn to where it runs: postgres and off in this isolate, in_memory and
 * sqlite in the conversation's Durable Object (SPEC R1).
 */

import { loadRuntimeLayer } from "../admin/runtime-config.ts";
import {
  effectiveMemoryConfig,
  executeTurnHere,
  type TurnInput,
  type TurnOutput,
  threadObjectName,
} from "../agent/execute.ts";
import { LlamonError } from "../errors.ts";
import { summaryAfterTurn } from "../queue/enqueue.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import { ThreadMessagesCache } from "../store/thread-cache.ts";
import { workerDb } from "./db.ts";
import { type Env, parseWorkerVars } from "./env.ts";

/**
 * Threads this isolate saved recently, per deployment env (store/thread-cache.ts): the next
 * turn of a conversation that lands here again skips reviving its stored messages.
 */
const threadCaches = new WeakMap<Env, ThreadMessagesCache>();

function threadCacheFor(env: Env): ThreadMessagesCache {
  let cache = threadCaches.get(env);
  if (cache === undefined) {
    cache = new ThreadMessagesCache();
    threadCaches.set(env, cache);
  }
  return cache;
}

/**
 * Run a turn on the configured backend. `waitUntil` (the request's `ctx.waitUntil`) keeps the
 * isolate alive for a summary run in the background when no SUMMARY_QUEUE is bound.
 */
export async function executeTurn(
  env: Env,
  input: TurnInput,
  request: { waitUntil?: ((promise: Promise<unknown>) => void) | undefined } = {},
): Promise<TurnOutput> {
  const config = effectiveMemoryConfig(env, await loadRuntimeLayer(env));
  const backend = config.enabled ? config.backend : "off";
  const { AGENT_ID: agentId } = parseWorkerVars(env);
  if (backend === "off") return executeTurnHere(env, input, undefined, undefined, config);
  if (backend === "postgres") {
    const saver = new NeonSaver({
      db: workerDb(env),
      agentId,
      guardHead: true,
      keepLatestOnly: config.persist_trim_keep_groups !== undefined,
      cache: threadCacheFor(env),
    });
    return executeTurnHere(
      env,
      input,
      saver,
      (turn, config) =>
        summaryAfterTurn(turn, { env, config, saver, waitUntil: request.waitUntil }),
      config,
    );
  }
  const threads = env.THREADS;
  if (threads === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `MEMORY_BACKEND=${backend} needs the THREADS Durable Object binding (class ThreadDO) in wrangler.toml`,
    );
  }
  return threads.getByName(threadObjectName(agentId, input.contextId)).turn(input, config);
}
