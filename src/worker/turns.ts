/**
 * Dispatch of a turn to where it runs: postgres and off in this isolate, in_memory and
 * sqlite in the conversation's Durable Object (SPEC R1).
 *
 * Postgres reads first: the turn's read batch (checkpoint + persistent_memory rows, which
 * include the agent's run-time `settings` row) runs before the config is resolved, and the
 * config is resolved from that row (runtime/runtime-layer.ts). A turn is then the read and
 * the write — two round trips, cold isolate or warm — and it always sees the latest PATCH.
 */
import {
  executeTurnHere,
  outputOf,
  type TurnHost,
  type TurnInput,
  type TurnOutput,
} from "../agent/execute.ts";
import { prefetchRecall } from "../agent/run-turn.ts";
import { embedderFromEnv } from "../llm/embeddings.ts";
import { effectiveBackend, type MemoryConfig } from "../memory/config.ts";
import { embedAfterTurn } from "../queue/embed.ts";
import { summaryAfterTurn } from "../queue/enqueue.ts";
import type { TurnContext } from "../runtime/context.ts";
import { threadObjectName, threadsObject } from "../runtime/objects.ts";
import { RUNTIME_SETTINGS_KEY, runtimeStoreKind } from "../runtime/runtime-layer.ts";
import { ReadFirstNeonSaver } from "../store/read-first-saver.ts";

/** Run a turn on the configured backend. */
export async function executeTurn(ctx: TurnContext, input: TurnInput): Promise<TurnOutput> {
  const postgres = runtimeStoreKind(ctx) === "postgres";
  if (postgres && ctx.deployConfig.enabled) return postgresTurn(ctx, input);
  // Memory off at deploy time (a run-time layer may still turn it on) or kept in objects.
  const config = await ctx.config();
  const backend = effectiveBackend(config);
  if (backend === "off") return executeTurnHere(ctx, input, { checkpointer: undefined, config });
  if (backend === "postgres") return postgresTurn(ctx, input, config);
  const host = threadsObject<TurnHost>(
    ctx.env,
    threadObjectName(ctx.agentId, input.threadId),
    `MEMORY_BACKEND=${backend}`,
  );
  return outputOf(await host.turnOutcome(input, config));
}

/** `known`: the config when it was resolved already (no read-first needed). */
async function postgresTurn(
  ctx: TurnContext,
  input: TurnInput,
  known?: MemoryConfig,
): Promise<TurnOutput> {
  const saver = new ReadFirstNeonSaver({
    db: ctx.db(),
    agentId: ctx.agentId,
    guardHead: true,
    // The turn's graph keeps a live tail as a plain list; older threads stored as deltas
    // are read as one (memory/live-tail.ts).
    materializeMessages: true,
  });
  // Recall is read in the same batch; with the config still unknown (it depends on the row
  // read), it is read in case the run-time layer has it on.
  const guess = known ?? ctx.deployConfig;
  // The question's embedding (semantic recall) is one provider call before the read.
  const semantic = (config: MemoryConfig) =>
    config.recall && config.recall_semantic ? embedderFromEnv(config, ctx.env) : undefined;
  if (known === undefined || known.recall) {
    await prefetchRecall(saver, input.threadId, input.text, guess, {
      embedder: semantic(guess),
      log: ctx.log,
    });
  }
  let config = known;
  if (config === undefined) {
    // The turn's messageId is looked up in the same batch (R11.2: a resend is answered from it).
    saver.lookupMessageId(input.threadId, input.messageId);
    const rows = await saver.readFirst(input.threadId);
    config = await ctx.configWith(rows?.agent[RUNTIME_SETTINGS_KEY]);
  }
  if (!config.enabled) {
    // Turned off at run time: answer without memory (the read above is all it cost).
    return executeTurnHere(ctx, input, { checkpointer: undefined, config });
  }
  saver.keepLatestOnly = config.persist_trim_keep_groups !== undefined;
  const embedder = semantic(config);
  const out = await executeTurnHere(ctx, input, {
    checkpointer: saver,
    config,
    embedder,
    afterTurn: (turn, config) => {
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
      return summaryAfterTurn(turn, {
        env: ctx.env,
        config,
        saver,
        waitUntil: ctx.waitUntil,
        log: ctx.log,
      });
    },
  });
  // The generation the turn read and wrote: its task record carries it (R11.1).
  return { ...out, generation: saver.generationOf(input.threadId) };
}
