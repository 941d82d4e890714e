/**
 * One turn of a conversation, whatever the backend (docs/architecture.md "One turn"):
 *
 *   load (load.ts)  → seed (seed.ts) → conversation recall (conversation-recall.ts) and fact
 *   recall (fact-recall.ts) → prompt (memory/prompt.ts, `multiturn:` logged) → graph: model,
 *   tools, flow (graph.ts, flow-graph.ts) → commit (commit.ts)
 *
 * The turn talks to its thread only through a ThreadStore (store/thread-store.ts) and never
 * asks which backend it runs on. `durability: "exit"` makes LangGraph read the head once (the
 * load's read answers it) and write only at the end; the store holds those writes and commits
 * them with the memory rows, transcript and message id staged during the graph as one atomic
 * write, or drops them all when the turn failed: a failed turn leaves the thread as it was.
 *
 * When another turn on the conversation committed first, or an erase moved the thread's
 * generation (THREAD_CONFLICT from the commit), this turn loads again — recall and the stored
 * answer included, since everything the lost run read belongs to a head that is gone — and
 * runs again (R2.4, R11.1): its reply is computed from every turn committed before it, and a
 * resend the new head already answers is answered from it. The model (and the agent's tools)
 * run again for a turn that lost the race.
 *
 * Exactly once per messageId (R11.2): the load reads the incoming id's stored turn, so a
 * resend whose turn left the live tail is answered from storage (stored-answer.ts) like one
 * still in it, with no model call and nothing written; a new message's id is committed with
 * its turn.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { isLlamonError, LlamonError } from "../../errors.ts";
import type { Embedder } from "../../llm/embeddings.ts";
import { textOf } from "../../llm/offline.ts";
import { createLogger, type Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import { type ArchivedPrefix, archivedPrefixOf, EMPTY_PREFIX } from "../../memory/live-tail.ts";
import type { AssembledPrompt, MultiturnSignals } from "../../memory/prompt.ts";
import {
  indexTermsOf,
  type RecallSource,
  type StoredMessage,
  TERMS_VERSION,
  withTail,
} from "../../memory/recall/index.ts";
import type { SeedReport } from "../../memory/seed.ts";
import { isConversationMessage } from "../../memory/summary.ts";
import type { JsonValue, MemoryRows } from "../../store/persistent-memory.ts";
import { OFF_THREAD_STORE, threadStoreOf } from "../../store/saver-thread-store.ts";
import { assertThreadId } from "../../store/thread-key.ts";
import type { ThreadStore, TurnSnapshot } from "../../store/thread-store.ts";
import type { AgentDefinition } from "../define.ts";
import { isFlowAgent } from "../flow.ts";
import { commitTurn, storedCount, turnSpan } from "./commit.ts";
import { createConversationRecallStep } from "./conversation-recall.ts";
import { awaitsInput, buildFlowGraph, type FlowPosition } from "./flow-graph.ts";
import { buildAgentGraph, type GraphDeps, type MessagesStorage } from "./graph.ts";
import { loadThread } from "./load.ts";
import type { ReplyStream } from "./reply-stream.ts";
import { seedOf, type TurnSeed } from "./seed.ts";
import { storedAnswer } from "./stored-answer.ts";

export interface TurnDeps {
  readonly agent: AgentDefinition;
  /**
   * The turn's config — or, with {@link TurnDeps.resolveConfig}, the guess its first load is
   * made with (whether to ask conversation recall, and how).
   */
  readonly config: MemoryConfig;
  /**
   * The config depends on the agent-level rows read with the thread (the run-time layer's
   * `settings`, runtime/runtime-layer.ts): resolved from the first load, so reading them
   * costs no round trip of its own. A config with memory off answers without memory.
   */
  readonly resolveConfig?:
    | ((agentRows: Readonly<Record<string, JsonValue>>) => Promise<MemoryConfig>)
    | undefined;
  readonly model: BaseChatModel;
  /** Where the thread lives (store/saver-thread-store.ts). Default: `checkpointer`'s store. */
  readonly store?: ThreadStore | undefined;
  /** A LangGraph checkpointer, when no store is given; neither = `off` (nothing kept). */
  readonly checkpointer?: BaseCheckpointSaver | undefined;
  readonly log?: Logger | undefined;
  /** How the thread's messages are stored (see graph.ts). Default `tail` with a transcript. */
  readonly messagesStorage?: MessagesStorage | undefined;
  /** How many times to re-apply a turn after a concurrent turn won the head. Default 50. */
  readonly maxMergeAttempts?: number;
  /** A conversation recall source of the caller's; undefined = the store's, if any. */
  readonly conversationRecall?: RecallSource | undefined;
  /**
   * Conversation recall over the thread the turn holds (an object's whole thread: the
   * in_memory backend, durable/object-recall.ts), for a store that does not search in its load.
   */
  readonly conversationRecallOnThread?:
    | ((thread: readonly StoredMessage[]) => RecallSource)
    | undefined;
  /** Semantic recall's embedder (`recall_semantic`, Postgres), or one per resolved config. */
  readonly embedder?: Embedder | ((config: MemoryConfig) => Embedder | undefined) | undefined;
  /**
   * The reply text as the model writes it (a streaming send, R12.1). What is stored does not
   * change: the turn still commits once, after the model has finished.
   */
  readonly replyStream?: ReplyStream | undefined;
}

export interface TurnRequest {
  /** The A2A contextId. */
  readonly threadId: string;
  readonly text: string;
  /** The A2A messageId; becomes the stored user message's id. */
  readonly messageId?: string | undefined;
  /** `metadata.history` as received: validated with the turn's config (seed.ts, R5). */
  readonly history?: unknown;
  /** Validated seed messages for an empty thread (R5), when `history` is not given. */
  readonly seed?: readonly BaseMessage[] | undefined;
}

export interface TurnResult {
  readonly threadId: string;
  /** The config the turn ran with (resolved from its load with `resolveConfig`). */
  readonly config: MemoryConfig;
  /** The text of the final AI message. */
  readonly reply: string;
  /** The messages this turn added to the thread (user message first). */
  readonly added: readonly BaseMessage[];
  /** Signals of the last model call of the turn. */
  readonly signals: MultiturnSignals | undefined;
  /** What was sent to the model on the last call. */
  readonly lastPrompt: AssembledPrompt | undefined;
  /** Times the turn ran again because another turn moved the head first (it lost the race). */
  readonly merges: number;
  /** The thread as this turn saw it at the end (its last run). */
  readonly thread: readonly BaseMessage[];
  /** A retried messageId that was already answered: the stored reply, nothing new written. */
  readonly replayed: boolean;
  /** A flow (defineFlow) waits for the user's next answer: the A2A task is input-required. */
  readonly inputRequired: boolean;
  /** The turn ran a flow. */
  readonly flow: boolean;
  /** The transcript before `thread` (`tail` storage; otherwise empty). */
  readonly archived: ArchivedPrefix;
  /**
   * Messages stored after the turn: `archived` less what partial trims deleted, plus
   * `thread`, as far as the turn knows (a trim of this turn is counted by the store).
   */
  readonly messageCount: number;
  /** The seed's validation report (`history` given). */
  readonly seedReport: SeedReport | undefined;
  /** The thread's generation the turn read and wrote, where the backend keeps one (R11.1). */
  readonly generation: string | undefined;
  /** The thread's and the agent's memory rows after the commit, as the store knows them. */
  readonly memory: MemoryRows | undefined;
}

/** The part of a compiled graph a turn uses (an agent's graph or a flow's). */
type TurnGraph = Pick<ReturnType<typeof buildAgentGraph>, "stream">;

function buildTurnGraph(agent: AgentDefinition, onRespond: () => void, deps: GraphDeps): TurnGraph {
  if (!isFlowAgent(agent)) return buildAgentGraph(deps);
  // The flow graph has one channel more (`flow`); the turn reads it from the streamed values.
  return buildFlowGraph({ ...deps, flow: agent.flow, onRespond }) as unknown as TurnGraph;
}

export async function runTurn(deps: TurnDeps, request: TurnRequest): Promise<TurnResult> {
  assertThreadId(request.threadId);
  const store = deps.store ?? threadStoreOf(deps.checkpointer);
  // The object backends' stores hold a turn's writes only while it runs (held-writes.ts).
  const end = store.begin();
  try {
    return await loadAndRun(deps, store, request);
  } finally {
    end();
  }
}

/** The turn's config, store and first snapshot (load), then its seed and its runs. */
async function loadAndRun(
  deps: TurnDeps,
  store: ThreadStore,
  request: TurnRequest,
): Promise<TurnResult> {
  const log = deps.log ?? createLogger();
  const messageId = request.messageId ?? crypto.randomUUID();
  const embedderFor = (config: MemoryConfig) =>
    typeof deps.embedder === "function" ? deps.embedder(config) : deps.embedder;
  const load = (config: MemoryConfig, recall: boolean) =>
    loadThread(
      store,
      { threadId: request.threadId, messageId, text: request.text },
      {
        config,
        recall: recall && deps.conversationRecall === undefined,
        embedder: embedderFor(config),
        log,
      },
    );
  if (deps.resolveConfig === undefined) {
    const { config } = deps;
    // A bad seed is refused before anything is read.
    const seed = seedOf(request, config);
    const reload = () => load(config, config.recall);
    return runLoaded(deps, store, { ...request, messageId }, { config, seed, reload, log });
  }
  // The config is read with the thread: recall is asked in case the run-time layer has it on.
  let snapshot: TurnSnapshot;
  try {
    snapshot = await load(deps.config, true);
  } catch (error) {
    store.discard(request.threadId);
    throw error;
  }
  let config: MemoryConfig;
  let seed: TurnSeed;
  try {
    config = await deps.resolveConfig(snapshot.memory?.agent ?? {});
    seed = seedOf(request, config);
  } catch (error) {
    // A bad run-time layer or a bad seed: nothing of the load stays behind.
    store.discard(request.threadId);
    throw error;
  }
  if (!config.enabled) {
    // Turned off at run time: answered without memory (the read is all it cost).
    store.discard(request.threadId);
    const off = OFF_THREAD_STORE;
    const reload = () => off.load({ threadId: request.threadId, messageId });
    return runLoaded(deps, off, { ...request, messageId }, { config, seed, reload, log });
  }
  const reload = () => load(config, config.recall);
  return runLoaded(
    deps,
    store,
    { ...request, messageId },
    { config, seed, first: snapshot, reload, log },
  );
}

/** The runs of a turn: the graph on a snapshot, then commit; load and run again on a conflict. */
async function runLoaded(
  deps: TurnDeps,
  store: ThreadStore,
  request: TurnRequest & { readonly messageId: string },
  turn: {
    readonly config: MemoryConfig;
    readonly seed: TurnSeed;
    /** The first run's snapshot, when the config was read with it. */
    readonly first?: TurnSnapshot | undefined;
    /** Load the thread (again): every run reads afresh what the one before lost against. */
    readonly reload: () => Promise<TurnSnapshot>;
    readonly log: Logger;
  },
): Promise<TurnResult> {
  const { config, log } = turn;
  const { threadId } = request;
  let lastPrompt: AssembledPrompt | undefined;
  /** The turn was answered (a model call, or a flow step), not a retry answered before. */
  let answered = false;
  /** This run appended the user message (a new messageId, committed with the turn). */
  let userAdded = false;
  /** A resend whose turn left the live tail: that turn, from storage (R11.2). */
  let replay: readonly BaseMessage[] | undefined;
  let snapshot: TurnSnapshot | undefined;
  /** The thread's memory rows after the commit (a trim the store counted itself). */
  let committed: MemoryRows | undefined;
  const current = (): TurnSnapshot => {
    if (snapshot === undefined) throw new LlamonError("INTERNAL", "the turn ran before its load");
    return snapshot;
  };
  const userMessage = new HumanMessage({ content: request.text, id: request.messageId });
  const trim = config.persist_trim_keep_groups !== undefined;
  const storage: MessagesStorage =
    deps.messagesStorage ?? (store.keepsTranscript && !trim ? "tail" : "delta");
  const liveTail = storage === "tail" && store.keepsTranscript;
  // A live tail's older checkpoints hold nothing the thread needs (the tail is the head's, the
  // rest is in the transcript), and a trim must not survive in an older checkpoint: both keep
  // only the newest, so storage per thread stays flat.
  store.configure({ liveTail, keepLatestOnly: liveTail || trim });
  const stage = store.stage(threadId);
  const conversationRecall = createConversationRecallStep({
    config,
    source: deps.conversationRecall,
    sourceFor: store.recallInLoad
      ? (tail) => withTail(current().recall, tail)
      : deps.conversationRecallOnThread,
    threadId,
    log,
  });
  const graph = buildTurnGraph(
    deps.agent,
    () => {
      answered = true;
    },
    {
      agent: deps.agent,
      config,
      model: deps.model,
      checkpointer: store.checkpointer,
      log,
      memory: () => current().memory,
      onModelCall: (prompt) => {
        answered = true;
        lastPrompt = prompt;
        stage.memory?.("last_turn", {
          at: new Date().toISOString(),
          signals: { ...prompt.signals },
          sent_ids: prompt.window.messages.flatMap((m) => (m.id ? [m.id] : [])),
          config: {
            window_size: config.window_size,
            max_history_tokens: config.max_history_tokens ?? null,
          },
        });
      },
      userMessageId: request.messageId,
      messagesStorage: storage,
      archive:
        liveTail && stage.archive !== undefined
          ? (from, messages) =>
              stage.archive?.(from, messages, {
                version: TERMS_VERSION,
                terms: messages.map(indexTermsOf),
                conversation: messages.map(isConversationMessage),
              })
          : undefined,
      trimTranscript: trim ? stage.trimTranscript : undefined,
      conversationRecall,
      stageMemory: stage.memory,
      storedAnswer: (state) => {
        const found = current().storedTurn;
        if (found === undefined) return undefined;
        replay = storedAnswer(
          request.messageId,
          found,
          archivedPrefixOf(state.archived),
          state.messages,
        );
        return replay;
      },
      onUserMessageAdded: () => {
        userAdded = true;
      },
      replyStream: deps.replyStream,
    },
  );
  const flow = isFlowAgent(deps.agent);
  const runConfig = { configurable: { thread_id: threadId }, durability: "exit" as const };

  // Stream values so the turn's messages are known even if the commit loses the race.
  let finalMessages: BaseMessage[] = [];
  let position: FlowPosition | undefined;
  let archived: ArchivedPrefix = EMPTY_PREFIX;
  /** One run: the graph on the current snapshot, then the commit. */
  const run = async () => {
    answered = false;
    userAdded = false;
    replay = undefined;
    committed = undefined;
    conversationRecall.reset();
    const stream = await graph.stream(
      { incoming: userMessage, seed: [...turn.seed.messages] },
      { ...runConfig, streamMode: "values" },
    );
    for await (const values of stream) {
      const state = values as { messages: BaseMessage[]; flow?: FlowPosition; archived?: unknown };
      finalMessages = state.messages;
      position = state.flow;
      archived = archivedPrefixOf(state.archived);
    }
    // A retry that was already answered changes nothing: its held writes are dropped.
    if (!answered) store.discard(threadId);
    else
      committed = await commitTurn(store, current(), {
        messages: finalMessages,
        archived,
        user: userAdded ? userMessage : undefined,
      });
  };

  let merges = 0;
  for (let runs = 1; ; runs += 1) {
    try {
      snapshot = runs === 1 && turn.first !== undefined ? turn.first : await turn.reload();
      await run();
      break;
    } catch (error) {
      store.discard(threadId);
      // Nothing to run again against without a checkpointer, or past the limit.
      if (!isLlamonError(error, "THREAD_CONFLICT") || store.checkpointer === undefined) throw error;
      if (runs >= (deps.maxMergeAttempts ?? 50)) throw error;
      merges += 1;
      if (runs > 1) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * runs)));
    }
  }
  const added = replay === undefined ? turnMessages(finalMessages, userMessage) : [...replay];
  const last = [...added].reverse().find((m) => AIMessage.isInstance(m));
  return {
    threadId,
    config,
    reply: last ? textOf(last) : "",
    added,
    signals: lastPrompt?.signals,
    lastPrompt,
    merges,
    thread: finalMessages,
    replayed: !answered,
    inputRequired: flow && awaitsInput({ flow: position }),
    flow,
    archived,
    messageCount: storedCount(committed ?? current().memory, archived, finalMessages),
    seedReport: turn.seed.report,
    generation: store.generation(threadId),
    memory: committed ?? current().memory,
  };
}

/**
 * The messages of this turn: the user message and what answered it, up to the next user
 * message (a retried messageId finds its earlier answer in the middle of the thread).
 */
function turnMessages(messages: readonly BaseMessage[], user: HumanMessage): BaseMessage[] {
  const span = turnSpan(messages, user.id as string);
  if (span === undefined) {
    throw new LlamonError("INTERNAL", "the turn's user message is missing from the graph state");
  }
  return messages.slice(span.start, span.end);
}
