/**
 * Running one turn from plain data (so it can cross into a Durable Object): the
 * registered agent, the request's MemoryConfig, the model from env, the history seed.
 *
 * Where a turn runs (R1, DESIGN "One turn"; dispatch in worker/turns.ts):
 * - postgres: statelessly in the Worker, NeonSaver over Neon HTTP (compare-and-set on the
 *   head; a turn that lost it runs again on the new head, R2.4);
 * - in_memory / sqlite: inside the conversation's Durable Object, under its turn lock;
 * - off: in the Worker with no checkpointer — every request is a fresh conversation.
 */

import type { BaseMessage } from "@langchain/core/messages";
import { type LlamonErrorData, llamonErrorData, llamonErrorFrom } from "../errors.ts";
import { createModelFromEnv } from "../llm/select.ts";
import type { MemoryConfig } from "../memory/config.ts";
import type { ArchivedPrefix } from "../memory/live-tail.ts";
import type { MultiturnSignals } from "../memory/prompt.ts";
import type { SeedReport } from "../memory/seed.ts";
import type { TurnContext } from "../runtime/context.ts";
import type { JsonValue } from "../store/persistent-memory.ts";
import type { ThreadStore } from "../store/thread-store.ts";
import { registeredAgent } from "./registry.ts";
import { runTurn, type TurnDeps } from "./turn/pipeline.ts";
import type { ReplyStream } from "./turn/reply-stream.ts";

export type { ReplyPiece, ReplyStream } from "./turn/reply-stream.ts";

/** One user message to answer; plain data, so it can cross into a Durable Object. */
export interface TurnInput {
  /**
   * The conversation's thread key (a2a/ made it from the caller's principal and contextId):
   * opaque here, and what the thread is stored and locked under.
   */
  readonly threadId: string;
  /** The client's contextId and principal, for log lines only. */
  readonly contextId: string;
  readonly principal?: string | undefined;
  readonly messageId: string;
  readonly text: string;
  /** `params.metadata.history` as received (validated here, R5). */
  readonly history?: unknown;
}

export interface TurnOutput {
  readonly reply: string;
  readonly signals: MultiturnSignals | undefined;
  readonly seedReport: SeedReport | undefined;
  readonly merges: number;
  /** Messages in the stored thread after the turn. */
  readonly messageCount: number;
  /** A flow waits for the user's next answer (the A2A task is input-required). */
  readonly inputRequired?: boolean | undefined;
  /** The turn ran a flow (defineFlow). */
  readonly flow?: boolean | undefined;
  /**
   * The generation of the conversation the turn read and wrote (store/thread-fence.ts), where
   * the backend keeps one: the turn's task record carries it (R11.1).
   */
  readonly generation?: string | undefined;
}

/**
 * A turn's outcome as plain data: Durable Object RPC keeps only an error's message, so a
 * LlamonError crosses as its data and is thrown again on the caller's side ({@link outputOf})
 * with its code (what the client is answered depends on it).
 */
export type TurnOutcome = { readonly output: TurnOutput } | { readonly error: LlamonErrorData };

/**
 * The conversation object's turn role (durable/thread-do.ts implements it): the Worker
 * hands it the turn and the config it resolved for the request.
 */
export interface TurnHost {
  /**
   * `replyStream`: the reply text as it arrives (a streaming send); over Durable Object RPC a
   * function is a stub, each call one message back to the Worker, delivered in order.
   */
  turnOutcome(
    input: TurnInput,
    config: MemoryConfig,
    replyStream?: ReplyStream,
  ): Promise<TurnOutcome>;
}

/** Run a turn, its LlamonError (if any) as data. Anything else is thrown as is. */
export async function outcomeOf(turn: () => Promise<TurnOutput>): Promise<TurnOutcome> {
  try {
    return { output: await turn() };
  } catch (error) {
    const data = llamonErrorData(error);
    if (data === undefined) throw error;
    return { error: data };
  }
}

/** The output of an outcome, or its LlamonError thrown again. */
export function outputOf(outcome: TurnOutcome): TurnOutput {
  if ("error" in outcome) throw llamonErrorFrom(outcome.error);
  return outcome.output;
}

/** What runs after a turn that added messages (the summary scheduler, R7.5). */
export type AfterTurn = (
  turn: {
    threadId: string;
    thread: readonly BaseMessage[];
    added: number;
    archived: ArchivedPrefix;
    /** The thread's memory rows the turn read (its summary row). */
    memory: Readonly<Record<string, JsonValue>> | undefined;
  },
  config: MemoryConfig,
) => Promise<unknown>;

export interface TurnHere {
  /** Where the thread lives (store/saver-thread-store.ts; OFF_THREAD_STORE keeps nothing). */
  readonly store: ThreadStore;
  /** The turn's config, or the guess its load is made with when `resolveConfig` is given. */
  readonly config: MemoryConfig;
  /** The config from the agent-level rows read with the thread (turn/pipeline.ts). */
  readonly resolveConfig?: TurnDeps["resolveConfig"];
  readonly afterTurn?: AfterTurn | undefined;
  /** Conversation recall over the thread the turn holds (the in_memory backend). */
  readonly conversationRecallOnThread?: TurnDeps["conversationRecallOnThread"];
  /** Semantic recall's embedder for a config (Postgres, `recall_semantic`). */
  readonly embedder?: TurnDeps["embedder"];
  /** The reply text as it arrives (a streaming send, R12.1). */
  readonly replyStream?: ReplyStream | undefined;
}

/** Run a turn in this isolate on the given store. */
export async function executeTurnHere(
  ctx: TurnContext,
  input: TurnInput,
  here: TurnHere,
): Promise<TurnOutput> {
  const { agent, model } = registeredAgent();
  const { afterTurn } = here;
  const result = await runTurn(
    {
      agent,
      config: here.config,
      resolveConfig: here.resolveConfig,
      model: model ? model(ctx.env) : createModelFromEnv(ctx.env).model,
      store: here.store,
      log: ctx.log,
      conversationRecallOnThread: here.conversationRecallOnThread,
      embedder: here.embedder,
      replyStream: here.replyStream,
    },
    {
      threadId: input.threadId,
      text: input.text,
      messageId: input.messageId,
      history: input.history,
    },
  );
  // A turn answered without memory (turned off at run time) schedules nothing.
  if (!result.replayed && result.config.enabled && afterTurn !== undefined) {
    // Only enqueues (or starts in the background); never waits for the summary itself.
    await afterTurn(
      {
        threadId: input.threadId,
        thread: result.thread,
        added: result.added.length,
        archived: result.archived,
        memory: result.memory?.thread,
      },
      result.config,
    );
  }
  return {
    reply: result.reply,
    signals: result.signals,
    seedReport: result.seedReport,
    merges: result.merges,
    messageCount: result.messageCount,
    ...(result.inputRequired ? { inputRequired: true } : {}),
    ...(result.flow ? { flow: true } : {}),
    ...(result.generation !== undefined ? { generation: result.generation } : {}),
  };
}
