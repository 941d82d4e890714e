/**
 * The systems the bench compares, all on the same llamon graph (prepare → agent → persist,
 * offline model, window 20, history note) and the same messages:
 *
 * - `llamon`: runTurn + NeonSaver over the Neon HTTP driver → the Neon-protocol proxy (in its
 *   own process) → Postgres; exactly what the Worker does per request (`guardHead: true`).
 * - `llamon-trim20`: the same with `persist_trim_keep_groups: 20` (R4.2, keeps only the newest
 *   checkpoint): what a bounded thread costs. It deletes history, so it is shown for context,
 *   not as the answer to the growth target.
 * - `postgres-saver`: the official `@langchain/langgraph-checkpoint-postgres` PostgresSaver
 *   (node-postgres pool straight to Postgres) with LangGraph's default durability — how the
 *   official checkpointer is normally used.
 * - `postgres-saver-exit`: the official PostgresSaver under runTurn itself (durability "exit",
 *   like llamon), so the difference to `llamon` is the saver and the transport alone.
 */
import { type BaseMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import { type BaseCheckpointSaver, REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { currentSkills } from "../../src/agent/define.ts";
import { buildAgentGraph, type MessagesStorage, TURN_NODE } from "../../src/agent/turn/graph.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { createLogger, type Logger, silentSink } from "../../src/log.ts";
import type { MemoryConfig } from "../../src/memory/config.ts";
import {
  FACTS_MEMORY_KEY,
  type Fact,
  factsToJson,
  parseStoredFacts,
  updateFacts,
} from "../../src/memory/facts/index.ts";
import { trimToLastGroups } from "../../src/memory/groups.ts";
import { archivedPrefixOf, extendPrefix, liveTailStart } from "../../src/memory/live-tail.ts";
import { assemblePrompt } from "../../src/memory/prompt.ts";
import { indexTermsOf, TERMS_VERSION } from "../../src/memory/recall/index.ts";
import { isConversationMessage } from "../../src/memory/summary.ts";
import type { Db } from "../../src/store/db.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { threadStoreOf } from "../../src/store/saver-thread-store.ts";
import { storageThreadId } from "../../src/store/thread-key.ts";
import type { TurnSnapshot, TurnStage } from "../../src/store/thread-store.ts";
import type { ArchivedPrefix } from "../../src/store/transcript.ts";
import { agent, memoryConfig } from "./bench-agent.ts";
import {
  countingPool,
  cpuMicros,
  SaverCpu,
  storedBytes,
  TimedOfflineModel,
  userText,
} from "./measure.ts";
import type { ChildProxy } from "./proxy.ts";
import { summarizeWhileDue } from "./summaries.ts";

export const AGENT_ID = "bench-agent";
export { agent, memoryConfig } from "./bench-agent.ts";

export interface TurnSample {
  roundTrips: number;
  statements: number;
  bytesSent: number;
  /** Bytes the turn received from the database; NaN where not measured. */
  bytesRead: number;
  /** Milliseconds the database spent on the turn's requests (at the proxy); NaN where not measured. */
  databaseMs: number;
  /** CPU of the turn in this process, model excluded (µs). */
  ownCpuMicros: number;
  /** CPU inside the checkpointer's methods (µs): the memory layer's share. */
  memoryCpuMicros: number;
  /** CPU inside the model (µs), for the record. */
  modelCpuMicros: number;
}

export interface BenchSystem {
  readonly name: string;
  /** Run turn `i` (1-based) of conversation `threadId`. */
  turn(threadId: string, i: number): Promise<TurnSample>;
  /**
   * Bring the conversation from after turn `from - 1` to after turn `to` without running the
   * turns: the same messages (the offline model is deterministic) in one state write.
   */
  prefill(threadId: string, from: number, to: number): Promise<void>;
  /** Bytes the thread occupies in Postgres now. */
  stored(threadId: string, admin: pg.Client): Promise<number>;
  close(): Promise<void>;
}

/** Silent: the `multiturn:` line would cost console I/O in every system alike. */
const quietLog: Logger = createLogger({ sink: silentSink });

/**
 * What turns `from`…`to` would add to the thread, written as one state update: for each turn
 * the user message, the prompt the agent node would assemble (window, system, history note)
 * and the offline model's answer to it — the agent node's work without the graph run and the
 * checkpoint per turn. With `persist_trim_keep_groups` the kept groups, as the persist node
 * leaves them; with fact recall on, the facts the turns' messages would have left (staged with
 * the same write).
 */
/** Turns per prefill write with the live tail (about 1 MB of transcript rows). */
const PREFILL_TAIL_CHUNK = 1000;

export async function prefillThread(
  checkpointer: BaseCheckpointSaver,
  model: TimedOfflineModel,
  config: MemoryConfig,
  threadId: string,
  from: number,
  to: number,
  messagesStorage: MessagesStorage = "delta",
): Promise<void> {
  // The live tail moves older messages to the transcript in the prefill's write: keep each
  // write well under Neon's 10 MB request limit.
  if (messagesStorage === "tail" && to - from >= PREFILL_TAIL_CHUNK) {
    for (let start = from; start <= to; start += PREFILL_TAIL_CHUNK) {
      const end = Math.min(to, start + PREFILL_TAIL_CHUNK - 1);
      await prefillThread(checkpointer, model, config, threadId, start, end, messagesStorage);
    }
    return;
  }
  const graph = buildAgentGraph({
    messagesStorage,
    agent,
    config,
    model,
    checkpointer,
    log: quietLog,
    memory: () => undefined,
    userMessageId: `${threadId}-prefill`,
  });
  const runConfig = { configurable: { thread_id: threadId } };
  // Written as a turn writes: its thread store's load, stage and commit (store/thread-store.ts).
  const store = threadStoreOf(checkpointer);
  const end = store.begin();
  try {
    const snapshot = await store.load({ threadId, messageId: `${threadId}-prefill` });
    const stage = store.stage(threadId);
    const state = await graph.getState(runConfig);
    const { archived, kept } = await prefillMessages(state.values, snapshot, stage, {
      model,
      config,
      threadId,
      from,
      to,
      messagesStorage,
    });
    await graph.updateState(
      runConfig,
      { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...kept], archived },
      TURN_NODE,
    );
    await store.commit(threadId, { messageCount: archived.messages + kept.length, messages: kept });
  } catch (error) {
    store.discard(threadId);
    throw error;
  } finally {
    end();
  }
  // The summaries the queue consumer would have made of the prefilled messages.
  if (checkpointer instanceof NeonSaver) {
    await summarizeWhileDue(checkpointer.db, AGENT_ID, threadId, config, model);
  }
}

/** The prefill's turns on the thread as read: what the head keeps, the transcript's prefix. */
async function prefillMessages(
  values: unknown,
  snapshot: TurnSnapshot,
  stage: TurnStage,
  turns: {
    model: TimedOfflineModel;
    config: MemoryConfig;
    threadId: string;
    from: number;
    to: number;
    messagesStorage: MessagesStorage;
  },
): Promise<{ archived: ArchivedPrefix; kept: BaseMessage[] }> {
  const { model, config, threadId, from, to, messagesStorage } = turns;
  let thread: BaseMessage[] = [...((values as { messages?: BaseMessage[] }).messages ?? [])];
  const prior = archivedPrefixOf((values as { archived?: unknown }).archived);
  const storedFacts = parseStoredFacts(snapshot.memory?.thread[FACTS_MEMORY_KEY]);
  let facts: readonly Fact[] = storedFacts;
  for (let i = from; i <= to; i++) {
    thread.push(new HumanMessage({ content: userText(i), id: `${threadId}-m${i}` }));
    if (config.facts_mode !== "off") facts = updateFacts(facts, userText(i));
    const prompt = assemblePrompt({
      systemText: agent.system,
      skills: currentSkills(agent),
      summary: undefined,
      facts: undefined,
      thread,
      config,
    });
    const reply = await model.invoke(prompt.messages);
    reply.id ??= crypto.randomUUID();
    thread.push(reply);
    const keep = config.persist_trim_keep_groups;
    if (keep !== undefined) thread = trimToLastGroups(thread, keep).kept;
  }
  if (JSON.stringify(factsToJson(facts)) !== JSON.stringify(factsToJson(storedFacts))) {
    stage.memory?.(FACTS_MEMORY_KEY, factsToJson(facts));
  }
  let kept = thread;
  let archived = prior;
  if (messagesStorage === "tail" && stage.archive !== undefined) {
    // The live tail, as a turn leaves it: older messages go to the transcript.
    let cut = 0;
    for (let more = liveTailStart(thread, config); more > 0; ) {
      cut += more;
      more = liveTailStart(thread.slice(cut), config);
    }
    // With the recall index entries a turn writes (run-turn.ts), so recall searches the
    // prefilled history as it would a real one.
    const moved = thread.slice(0, cut);
    stage.archive(prior.messages, moved, {
      version: TERMS_VERSION,
      terms: moved.map(indexTermsOf),
      conversation: moved.map(isConversationMessage),
    });
    archived = extendPrefix(prior, thread.slice(0, cut));
    kept = thread.slice(cut);
  }
  return { archived, kept };
}

/** A NeonSaver of the bench's agent, as the Worker makes one per request. */
export function benchSaver(db: Db, keepLatestOnly = false): NeonSaver {
  return new NeonSaver({ db, agentId: AGENT_ID, guardHead: true, keepLatestOnly });
}

/** Bytes a llamon thread of the bench's agent occupies in Postgres. */
export function llamonStoredBytes(threadId: string, admin: pg.Client): Promise<number> {
  return storedBytes(admin, storageThreadId(AGENT_ID, threadId), { agentId: AGENT_ID, threadId });
}

/** llamon: a fresh Neon db handle and NeonSaver per turn, as the Worker makes per request. */
export function llamonSystem(
  proxy: ChildProxy,
  neonDsn: string,
  options: { name?: string; trimKeepGroups?: number } = {},
): BenchSystem {
  // Every turn runs as on a fresh isolate: a new db handle and saver, nothing kept.
  const model = new TimedOfflineModel();
  const summarizer = new TimedOfflineModel();
  const saverCpu = new SaverCpu();
  const config = memoryConfig(
    options.trimKeepGroups === undefined
      ? {}
      : { persist_trim_keep_groups: options.trimKeepGroups },
  );
  return {
    name: options.name ?? "llamon",
    async turn(threadId, i) {
      const before = await proxy.counters();
      const modelBefore = model.cpuMicros;
      const memoryBefore = saverCpu.micros;
      const start = process.cpuUsage();
      const saver = saverCpu.wrap(
        benchSaver(
          createNeonDb({ connectionString: neonDsn, fetchEndpoint: proxy.url }),
          options.trimKeepGroups !== undefined,
        ),
      );
      await runTurn(
        { agent, config, model, checkpointer: saver, log: quietLog },
        { threadId, text: userText(i), messageId: `${threadId}-m${i}` },
      );
      const cpu = cpuMicros(start);
      const after = await proxy.counters();
      if (after.failed !== before.failed) throw new Error(`turn ${i}: a database request failed`);
      const modelCpu = model.cpuMicros - modelBefore;
      // The queue consumer's work, off the turn (not counted).
      await summarizeWhileDue(saver.db, AGENT_ID, threadId, config, summarizer);
      return {
        roundTrips: after.requests - before.requests,
        statements: after.statements - before.statements,
        bytesSent: after.requestBytes - before.requestBytes,
        bytesRead: after.responseBytes - before.responseBytes,
        databaseMs: after.databaseMs - before.databaseMs,
        ownCpuMicros: cpu - modelCpu,
        memoryCpuMicros: saverCpu.micros - memoryBefore,
        modelCpuMicros: modelCpu,
      };
    },
    prefill: (threadId, from, to) =>
      prefillThread(
        benchSaver(
          createNeonDb({ connectionString: neonDsn, fetchEndpoint: proxy.url }),
          options.trimKeepGroups !== undefined,
        ),
        model,
        config,
        threadId,
        from,
        to,
        options.trimKeepGroups === undefined ? "tail" : "delta",
      ),
    stored: llamonStoredBytes,
    async close() {},
  };
}

/**
 * The floor: runTurn with memory off (no checkpointer; every turn a fresh conversation) — the
 * CPU of the LangGraph run and prompt assembly alone, for context.
 */
export function noMemorySystem(): BenchSystem {
  const model = new TimedOfflineModel();
  const config = memoryConfig({ enabled: false });
  return {
    name: "no-memory",
    async turn(threadId, i) {
      const modelBefore = model.cpuMicros;
      const start = process.cpuUsage();
      await runTurn(
        { agent, config, model, log: quietLog },
        { threadId, text: userText(i), messageId: `${threadId}-m${i}` },
      );
      const cpu = cpuMicros(start);
      const modelCpu = model.cpuMicros - modelBefore;
      return {
        roundTrips: 0,
        statements: 0,
        bytesSent: 0,
        bytesRead: 0,
        databaseMs: 0,
        ownCpuMicros: cpu - modelCpu,
        memoryCpuMicros: 0,
        modelCpuMicros: modelCpu,
      };
    },
    prefill: async () => {},
    stored: async () => 0,
    async close() {},
  };
}

/** The official PostgresSaver on the same graph. */
export async function postgresSaverSystem(
  dsn: string,
  durability: "default" | "exit",
): Promise<BenchSystem> {
  const counting = countingPool(dsn);
  const saver = new PostgresSaver(counting.pool);
  await saver.setup();
  const saverCpu = new SaverCpu();
  saverCpu.wrap(saver);
  const model = new TimedOfflineModel();
  const config = memoryConfig();
  const run = async (threadId: string, i: number) => {
    const messageId = `${threadId}-m${i}`;
    if (durability === "exit") {
      await runTurn(
        {
          agent,
          config,
          model,
          checkpointer: saver as BaseCheckpointSaver,
          log: quietLog,
          messagesStorage: "full",
        },
        { threadId, text: userText(i), messageId },
      );
      return;
    }
    const graph = buildAgentGraph({
      agent,
      config,
      model,
      checkpointer: saver as BaseCheckpointSaver,
      log: quietLog,
      memory: () => undefined,
      userMessageId: messageId,
      messagesStorage: "full",
    });
    await graph.invoke(
      { incoming: new HumanMessage({ content: userText(i), id: messageId }), seed: [] },
      { configurable: { thread_id: threadId } },
    );
  };
  return {
    name: durability === "exit" ? "postgres-saver-exit" : "postgres-saver",
    async turn(threadId, i) {
      const before = counting.counters();
      const modelBefore = model.cpuMicros;
      const memoryBefore = saverCpu.micros;
      const start = process.cpuUsage();
      await run(threadId, i);
      const cpu = cpuMicros(start);
      const after = counting.counters();
      const modelCpu = model.cpuMicros - modelBefore;
      const statements = after.statements - before.statements;
      return {
        roundTrips: statements,
        statements,
        bytesSent: after.bytesWritten - before.bytesWritten,
        bytesRead: Number.NaN,
        databaseMs: Number.NaN,
        ownCpuMicros: cpu - modelCpu,
        memoryCpuMicros: saverCpu.micros - memoryBefore,
        modelCpuMicros: modelCpu,
      };
    },
    prefill: (threadId, from, to) =>
      prefillThread(saver as BaseCheckpointSaver, model, config, threadId, from, to, "full"),
    stored: (threadId, admin) => storedBytes(admin, threadId),
    close: () => counting.pool.end(),
  };
}
