/**
 * Running one turn from plain data (so it can cross into a Durable Object): the
 * registered agent, the effective MemoryConfig, the model from env, the history seed.
 *
 * Where a turn runs (SPEC R1, DESIGN "One turn"; dispatch in worker/turns.ts):
 * - postgres: statelessly in the Worker, NeonSaver over Neon HTTP (compare-and-set merge
 *   on concurrent turns, R2.4);
 * - in_memory / sqlite: inside the conversation's Durable Object, under its turn lock;
 * - off: in the Worker with no checkpointer — every request is a fresh conversation.
 */

import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createModelFromEnv } from "../llm/select.ts";
import { createLogger } from "../log.ts";
import {
  type MemoryConfig,
  type MemoryConfigPatch,
  resolveMemoryConfig,
} from "../memory/config.ts";
import type { MultiturnSignals } from "../memory/prompt.ts";
import { parseHistorySeed, type SeedReport } from "../memory/seed.ts";
import { registeredAgent } from "./registry.ts";
import { runTurn } from "./run-turn.ts";

type Env = Readonly<Record<string, unknown>>;

/** One user message to answer; plain data, so it can cross into a Durable Object. */
export interface TurnInput {
  readonly contextId: string;
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
}

/**
 * The agent's MemoryConfig: code → env → registry → runtime (resolveMemoryConfig). The
 * caller passes the run-time layer (the Worker loads it with loadRuntimeLayer from
 * src/admin, cached per isolate), so this stays synchronous and storage-free.
 */
export function effectiveMemoryConfig(env: Env, runtime?: MemoryConfigPatch): MemoryConfig {
  const { agent, registryLayer } = registeredAgent();
  const registry = registryLayer?.(String(env.AGENT_ID ?? ""));
  return resolveMemoryConfig({ code: agent.memory, env, registry, runtime }).config;
}

/** Durable Object names: threads and task records never collide (agent ids have no ':'). */
export function threadObjectName(agentId: string, contextId: string): string {
  return `thread:${agentId}:${contextId}`;
}

/** The object listing an agent's conversations on the Durable Object backends. */
export function threadIndexObjectName(agentId: string): string {
  return `index:${agentId}`;
}

/** The object holding one A2A task record, by its task-store key (`a2a-task:<agent>:<task>`). */
export function taskRecordObjectName(key: string): string {
  return `task:${key}`;
}

/** What runs after a turn that added messages (the summary scheduler, R7.5). */
export type AfterTurn = (
  turn: { threadId: string; thread: readonly BaseMessage[]; added: number },
  config: MemoryConfig,
) => Promise<unknown>;

/** Run a turn in this isolate with the given checkpointer (undefined = no memory). */
export async function executeTurnHere(
  env: Env,
  input: TurnInput,
  checkpointer: BaseCheckpointSaver | undefined,
  afterTurn?: AfterTurn,
  config: MemoryConfig = effectiveMemoryConfig(env),
): Promise<TurnOutput> {
  const { agent, model } = registeredAgent();
  const seed =
    input.history === undefined
      ? undefined
      : parseHistorySeed(input.history, { maxMessages: config.a2a_history_max_messages });
  const result = await runTurn(
    {
      agent,
      config,
      model: model ? model(env) : createModelFromEnv(env).model,
      checkpointer,
      log: createLogger(),
    },
    {
      threadId: input.contextId,
      text: input.text,
      messageId: input.messageId,
      seed: seed?.messages,
    },
  );
  if (!result.replayed && afterTurn !== undefined) {
    // Only enqueues (or starts in the background); never waits for the summary itself.
    await afterTurn(
      { threadId: input.contextId, thread: result.thread, added: result.added.length },
      config,
    );
  }
  return {
    reply: result.reply,
    signals: result.signals,
    seedReport: seed?.report,
    merges: result.merges,
    messageCount: result.thread.length,
  };
}
