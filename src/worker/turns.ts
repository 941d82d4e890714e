/**
 * Dispatch of a turn to where it runs: postgres and off in this isolate, in_memory and
 * sqlite in the conversation's Durable Object (R1).
 *
 * Postgres reads first: the turn's load (checkpoint + persistent_memory rows, which include
 * the agent's run-time `settings` row) runs before the config is resolved, and the config is
 * resolved from that row (runtime/runtime-layer.ts, agent/turn/pipeline.ts `resolveConfig`).
 * A turn is then the load and the commit — two round trips, cold isolate or warm — and it
 * always sees the latest PATCH.
 */
import {
  executeTurnHere,
  outputOf,
  type ReplyStream,
  type TurnHost,
  type TurnInput,
  type TurnOutput,
} from "../agent/execute.ts";
import { embedderFromEnv } from "../llm/embeddings.ts";
import { effectiveBackend, type MemoryConfig } from "../memory/config.ts";
import { embedAfterTurn } from "../queue/embed.ts";
import { summaryAfterTurn } from "../queue/enqueue.ts";
import { factsAfterTurn } from "../queue/enqueue-facts.ts";
import type { TurnContext } from "../runtime/context.ts";
import { threadObjectName, threadsObject } from "../runtime/objects.ts";
import { RUNTIME_SETTINGS_KEY, runtimeStoreKind } from "../runtime/runtime-layer.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import { OFF_THREAD_STORE, postgresThreadStore } from "../store/saver-thread-store.ts";

/**
 * Run a turn on the configured backend. `replyStream`: the reply text as it arrives (a
 * streaming send); a turn in a conversation object sends it back over RPC.
 */
export async function executeTurn(
  ctx: TurnContext,
  input: TurnInput,
  replyStream?: ReplyStream,
): Promise<TurnOutput> {
  const postgres = runtimeStoreKind(ctx) === "postgres";
  if (postgres && ctx.deployConfig.enabled) return postgresTurn(ctx, input, replyStream);
  // Memory off at deploy time (a run-time layer may still turn it on) or kept in objects.
  const config = await ctx.config();
  const backend = effectiveBackend(config);
  if (backend === "off") {
    return executeTurnHere(ctx, input, { store: OFF_THREAD_STORE, config, replyStream });
  }
  if (backend === "postgres") return postgresTurn(ctx, input, replyStream, config);
  const host = threadsObject<TurnHost>(
    ctx.env,
    threadObjectName(ctx.agentId, input.threadId),
    `MEMORY_BACKEND=${backend}`,
  );
  return outputOf(await host.turnOutcome(input, config, replyStream));
}

/**
 * A turn on Postgres. `known`: the config when it was resolved already; otherwise it is
 * resolved from the agent's rows read with the thread (the turn's load, agent/turn/load.ts).
 */
async function postgresTurn(
  ctx: TurnContext,
  input: TurnInput,
  replyStream: ReplyStream | undefined,
  known?: MemoryConfig,
): Promise<TurnOutput> {
  const saver = new NeonSaver({
    db: ctx.db(),
    agentId: ctx.agentId,
    guardHead: true,
    // The turn's graph keeps a live tail as a plain list; older threads stored as deltas
    // are read as one (memory/live-tail.ts).
    materializeMessages: true,
  });
  // The question's embedding (semantic recall) is one provider call before the read.
  const embedderFor = (config: MemoryConfig) =>
    config.recall && config.recall_semantic ? embedderFromEnv(config, ctx.env) : undefined;
  return executeTurnHere(ctx, input, {
    replyStream,
    store: postgresThreadStore(saver),
    config: known ?? ctx.deployConfig,
    resolveConfig:
      known === undefined
        ? (agentRows) => ctx.configWith(agentRows[RUNTIME_SETTINGS_KEY])
        : undefined,
    embedder: embedderFor,
    afterTurn: (turn, config) => {
      const embedder = embedderFor(config);
      if (embedder !== undefined) {
        void embedAfterTurn({
          db: saver.db,
          agentId: ctx.agentId,
          threadId: turn.threadId,
          embedder,
          waitUntil: ctx.waitUntil,
          log: ctx.log,
        });
      }
      const after = { env: ctx.env, config, saver, waitUntil: ctx.waitUntil, log: ctx.log };
      return Promise.all([summaryAfterTurn(turn, after), factsAfterTurn(turn, after)]);
    },
  });
}
