/**
 * The request path's side of the `llm` mode's facts (R8.1): after a turn is saved, a facts
 * job for its user message goes on the summary queue (`SUMMARY_QUEUE`) — one small `send`,
 * never waited for beyond the send. Without a queue (Node tools, tests) the job runs in the
 * background through the local runner, handed to `waitUntil`, as summaries do. Never fails
 * the turn: a failure here is logged and the heuristic facts keep serving.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createLogger, type Logger } from "../log.ts";
import type { MemoryConfig } from "../memory/config.ts";
import { type Env, parseWorkerVars } from "../runtime/env.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import { createPostgresMemory, type PersistentMemory } from "../store/persistent-memory.ts";
import { postgresFence, type ThreadFence } from "../store/thread-fence.ts";
import { factsHere } from "./host.ts";
import type { FactsJob } from "./jobs.ts";

export type FactsScheduleConfig = Pick<MemoryConfig, "enabled" | "backend" | "facts_mode">;

/** What the turn runner knows right after a turn was saved. */
export interface FactsTurn {
  readonly threadId: string;
  /** The stored thread after the turn (its live tail, or the whole thread). */
  readonly thread: readonly BaseMessage[];
  /** Messages the turn added (its user message first). */
  readonly added: number;
  /** Messages before `thread` in the transcript. */
  readonly archived?: { readonly messages: number } | undefined;
}

/** The facts job for the turn's user message, or undefined (mode not llm, no user message). */
export function factsJobFor(
  turn: FactsTurn,
  config: FactsScheduleConfig,
  agentId: string,
): FactsJob | undefined {
  if (config.facts_mode !== "llm" || !config.enabled || config.backend === "off") return undefined;
  const start = turn.thread.length - turn.added;
  const user = turn.thread[start];
  if (turn.added <= 0 || user === undefined || user.getType() !== "human") return undefined;
  if (typeof user.id !== "string" || user.id === "") return undefined;
  const position = (turn.archived?.messages ?? 0) + start;
  return {
    type: "facts",
    agent_id: agentId,
    thread_id: turn.threadId,
    messages: [{ id: user.id, position }],
  };
}

export interface FactsAfterTurnOptions {
  readonly env: Env;
  readonly config: FactsScheduleConfig;
  /** The turn's checkpointer (its agent id; the local runner reads the thread with it). */
  readonly saver: BaseCheckpointSaver | undefined;
  /** persistent_memory for the local runner; derived from a NeonSaver when omitted. */
  readonly memory?: PersistentMemory | undefined;
  /** The thread's fence for the local runner (R11.1); derived from a NeonSaver when omitted. */
  readonly fence?: ThreadFence | undefined;
  readonly waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
  /** The local runner's model; default: the agent's. */
  readonly model?: BaseChatModel | undefined;
  readonly log?: Logger | undefined;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Enqueue (or start in the background) the facts job of a saved turn. Never rejects. */
export async function factsAfterTurn(
  turn: FactsTurn,
  options: FactsAfterTurnOptions,
): Promise<FactsJob | undefined> {
  const { env, saver } = options;
  const log = options.log ?? createLogger();
  if (options.config.facts_mode !== "llm" || saver === undefined) return undefined;
  let job: FactsJob | undefined;
  try {
    // Our savers (NeonSaver, SqliteSaver, InMemorySaver) know their agent.
    const own = (saver as { agentId?: unknown }).agentId;
    const agentId = typeof own === "string" ? own : parseWorkerVars(env).AGENT_ID;
    job = factsJobFor(turn, options.config, agentId);
  } catch (error) {
    log.error(`facts: could not make the job: ${reason(error)}`, { code: "INTERNAL" });
    return undefined;
  }
  if (job === undefined) return undefined;
  const where = `agent=${job.agent_id} thread=${job.thread_id} message=${job.messages[0]?.id}`;
  const queue = env.SUMMARY_QUEUE;
  if (queue !== undefined) {
    try {
      await queue.send(job);
      log.info(`facts: enqueued ${where}`);
      return job;
    } catch (error) {
      log.error(`facts: enqueue failed (${where}); the heuristic facts stay: ${reason(error)}`, {
        code: "NOT_AVAILABLE",
      });
      return undefined;
    }
  }
  const memory =
    options.memory ??
    (saver instanceof NeonSaver ? createPostgresMemory(saver.db, job.agent_id) : undefined);
  const fence =
    options.fence ??
    (saver instanceof NeonSaver ? postgresFence(saver.db, job.agent_id) : undefined);
  if (memory === undefined || fence === undefined) {
    log.warn(
      `facts: no SUMMARY_QUEUE binding and no local runner (${where}); the heuristic facts stay`,
    );
    return undefined;
  }
  const local = job;
  const background = Promise.resolve()
    .then(() =>
      factsHere(env, local, saver, memory, fence, {
        log,
        ...(options.model ? { model: options.model } : {}),
      }),
    )
    .then(
      (outcome) => log.info(`facts: ran in the background ${where}: ${outcome.status}`),
      (error: unknown) =>
        log.error(
          `facts: background run failed (${where}); the heuristic facts stay: ${reason(error)}`,
          {
            code: error instanceof Error && "code" in error ? String(error.code) : "INTERNAL",
          },
        ),
    );
  options.waitUntil?.(background);
  return job;
}
