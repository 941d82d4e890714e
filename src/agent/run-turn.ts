/**
 * One turn of a conversation, whatever the backend (DESIGN.md "One turn"):
 *
 *   load (checkpoint + persistent_memory, one round trip) → seed an empty thread →
 *   assemble the model input and log `multiturn:` → model (tool loop) → persist (checkpoint
 *   + memory rows + trim, one atomic round trip).
 *
 * `durability: "exit"` makes LangGraph read once (getTuple, with the messages' delta history)
 * and write only at the end (the turn's message writes and its checkpoint); a saver with
 * turn write control (NeonSaver `deferWrites`) sends those as one atomic batch, and drops
 * them if the turn failed — a failed turn leaves the thread exactly as it was.
 * When another turn on the same conversation saved first (THREAD_CONFLICT from the head
 * compare-and-set), this turn runs again on the new head instead of overwriting it (R2.4):
 * no message of either turn is lost, and the reply is computed from every turn committed
 * before it (a reply appended from the stale read would ignore them) — unless the new head
 * already answers this messageId (a late commit of an earlier attempt), whose answer is then
 * taken. The model (and the agent's tools) run again for a turn that lost the race.
 *
 * Exactly once per messageId (R11.2): a saver with a message id index (store/message-ids.ts)
 * looks the incoming id up in the turn's read batch, so a resend whose turn left the live tail
 * is answered from storage (stored-answer.ts) like one still in it; a new message's id is
 * recorded with the turn's write.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { isLlamonError, LlamonError } from "../errors.ts";
import type { Embedder } from "../llm/embeddings.ts";
import { textOf } from "../llm/offline.ts";
import { createLogger, type Logger } from "../log.ts";
import type { MemoryConfig } from "../memory/config.ts";
import { type ArchivedPrefix, archivedPrefixOf, EMPTY_PREFIX } from "../memory/live-tail.ts";
import type { AssembledPrompt, MultiturnSignals } from "../memory/prompt.ts";
import {
  indexTermsOf,
  type RecallSource,
  type StoredMessage,
  TERMS_VERSION,
  withTail,
} from "../memory/recall/index.ts";
import { isConversationMessage } from "../memory/summary.ts";
import { hasMessageIdIndex, type MessageIdIndex } from "../store/message-ids.ts";
import { NeonSaver } from "../store/neon-saver.ts";
import {
  hasTurnMemoryAccess,
  hasTurnWriteControl,
  holdsTurnWrites,
} from "../store/persistent-memory.ts";
import { hasRecallPrefetch } from "../store/recall-prefetch.ts";
import { SqliteSaver } from "../store/sqlite-saver.ts";
import { assertThreadId } from "../store/thread-key.ts";
import { hasTranscript, storedPrefix } from "../store/transcript.ts";
import type { AgentDefinition } from "./define.ts";
import { isFlowAgent } from "./flow.ts";
import { awaitsInput, buildFlowGraph, type FlowPosition } from "./flow-graph.ts";
import { buildAgentGraph, type GraphDeps, type MessagesStorage } from "./graph.ts";
import { prefetchRecall } from "./recall-query.ts";
import { createRecallStep } from "./recall-step.ts";
import { storedAnswer } from "./stored-answer.ts";

export { prefetchRecall } from "./recall-query.ts";

export interface TurnDeps {
  readonly agent: AgentDefinition;
  readonly config: MemoryConfig;
  readonly model: BaseChatModel;
  /** undefined for the `off` backend: every request is a fresh conversation. */
  readonly checkpointer?: BaseCheckpointSaver | undefined;
  readonly log?: Logger | undefined;
  /** How the thread's messages are stored (see graph.ts). Default `delta`. */
  readonly messagesStorage?: MessagesStorage | undefined;
  /** How many times to re-apply a turn after a concurrent turn won the head. Default 50. */
  readonly maxMergeAttempts?: number;
  /** The backend's conversation search (issue 16); undefined = no recall block. */
  readonly recall?: RecallSource | undefined;
  /** A backend whose search runs over the thread the turn holds (an object's whole thread). */
  readonly recallOnThread?: ((thread: readonly StoredMessage[]) => RecallSource) | undefined;
  /** Semantic recall's embedder (config `recall_semantic`, Postgres); undefined = lexical only. */
  readonly embedder?: Embedder | undefined;
}

export interface TurnRequest {
  /** The A2A contextId. */
  readonly threadId: string;
  readonly text: string;
  /** The A2A messageId; becomes the stored user message's id. */
  readonly messageId?: string | undefined;
  /** Validated seed messages for an empty thread (R5). */
  readonly seed?: readonly BaseMessage[] | undefined;
}

export interface TurnResult {
  readonly threadId: string;
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
   * `thread`, as far as the saver knows (a SqliteSaver counts its own trim; on Postgres this
   * turn's trim is counted in the database, in llamon_threads).
   */
  readonly messageCount: number;
}

/** The part of a compiled graph a turn uses (an agent's graph or a flow's). */
type TurnGraph = Pick<ReturnType<typeof buildAgentGraph>, "stream" | "getState" | "updateState">;

function buildTurnGraph(agent: AgentDefinition, onRespond: () => void, deps: GraphDeps): TurnGraph {
  if (!isFlowAgent(agent)) return buildAgentGraph(deps);
  // The flow graph has one channel more (`flow`); the turn reads it from the streamed values.
  return buildFlowGraph({ ...deps, flow: agent.flow, onRespond }) as unknown as TurnGraph;
}

export async function runTurn(deps: TurnDeps, request: TurnRequest): Promise<TurnResult> {
  // The object backends' savers hold a turn's writes only while a turn runs (held-writes.ts):
  // flushed when it succeeded, dropped when it failed.
  const saver = deps.checkpointer;
  const holds = holdsTurnWrites(saver);
  if (holds) saver.turnWrites.holding = true;
  try {
    return await runHeldTurn(deps, request);
  } finally {
    if (holds) saver.turnWrites.holding = false;
  }
}

async function runHeldTurn(deps: TurnDeps, request: TurnRequest): Promise<TurnResult> {
  assertThreadId(request.threadId);
  const log = deps.log ?? createLogger();
  const saver = deps.checkpointer;
  let lastPrompt: AssembledPrompt | undefined;
  /** The turn was answered (a model call, or a flow step), not a retry answered before. */
  let answered = false;
  /** This run appended the user message (a new messageId, recorded with the write). */
  let userAdded = false;
  /** A resend whose turn left the live tail: that turn, from storage (R11.2). */
  let replay: readonly BaseMessage[] | undefined;
  const ids = hasMessageIdIndex(saver) ? saver : undefined;
  const userMessage = new HumanMessage({
    content: request.text,
    id: request.messageId ?? crypto.randomUUID(),
  });
  const storage: MessagesStorage =
    deps.messagesStorage ??
    (hasTranscript(saver) && deps.config.persist_trim_keep_groups === undefined ? "tail" : "delta");
  if (storage === "tail" && hasTranscript(saver)) {
    saver.plainMessages = true;
    // Older checkpoints hold nothing the thread needs (the tail is the head's, the rest is
    // in the transcript): each turn's write keeps only the new head, so storage per thread
    // stays flat too.
    if (saver instanceof NeonSaver || saver instanceof SqliteSaver) saver.keepLatestOnly = true;
  }
  // Trim keeps only the newest checkpoint (what it cut must not survive in an older one);
  // the Worker sets it from the config it resolved, a Node caller may not have.
  const trim = deps.config.persist_trim_keep_groups !== undefined;
  if (trim && (saver instanceof NeonSaver || saver instanceof SqliteSaver))
    saver.keepLatestOnly = true;
  const onRespond = () => {
    answered = true;
  };
  const recallStep = createRecallStep({
    config: deps.config,
    source: deps.recall,
    sourceFor: hasRecallPrefetch(saver)
      ? (tail) => withTail(saver.prefetchedRecall(request.threadId), tail)
      : deps.recallOnThread,
    threadId: request.threadId,
    log,
  });
  const memoryOf = () =>
    hasTurnMemoryAccess(saver) ? saver.memoryOf(request.threadId) : undefined;
  const graph = buildTurnGraph(deps.agent, onRespond, {
    agent: deps.agent,
    config: deps.config,
    model: deps.model,
    checkpointer: saver,
    log,
    memory: memoryOf,
    onModelCall: (prompt) => {
      answered = true;
      lastPrompt = prompt;
      if (hasTurnMemoryAccess(saver)) {
        saver.stageMemory(request.threadId, "last_turn", {
          at: new Date().toISOString(),
          signals: { ...prompt.signals },
          sent_ids: prompt.window.messages.flatMap((m) => (m.id ? [m.id] : [])),
          config: {
            window_size: deps.config.window_size,
            max_history_tokens: deps.config.max_history_tokens ?? null,
          },
        });
      }
    },
    userMessageId: userMessage.id as string,
    messagesStorage: storage,
    archive:
      storage === "tail" && hasTranscript(saver)
        ? (from, messages) =>
            saver.stageTranscript(request.threadId, from, messages, {
              version: TERMS_VERSION,
              terms: messages.map(indexTermsOf),
              conversation: messages.map(isConversationMessage),
            })
        : undefined,
    trimTranscript:
      trim && hasTranscript(saver)
        ? (plan) => saver.stageTranscriptTrim(request.threadId, plan)
        : undefined,
    recall: recallStep,
    stageMemory: hasTurnMemoryAccess(saver)
      ? (key, value) => saver.stageMemory(request.threadId, key, value)
      : undefined,
    storedAnswer: ids
      ? (state) => {
          const found = ids.storedTurn(request.threadId);
          if (found === undefined) return undefined;
          const archived = archivedPrefixOf(state.archived);
          replay = storedAnswer(userMessage.id as string, found, archived, state.messages);
          return replay;
        }
      : undefined,
    onUserMessageAdded: () => {
      userAdded = true;
    },
  });
  const flow = isFlowAgent(deps.agent);
  // Conversation recall read with the turn's read batch (a saver that prefetches it).
  const requestRecall = async () => {
    if (!deps.config.recall || deps.recall !== undefined) return;
    await prefetchRecall(saver, request.threadId, request.text, deps.config, {
      embedder: deps.embedder,
      log,
    });
  };
  await requestRecall();
  const runConfig = { configurable: { thread_id: request.threadId }, durability: "exit" as const };
  // With a saver that holds the turn's writes (NeonSaver deferWrites), the whole turn is
  // written in one atomic batch at the end, or not at all.
  const flush = async (messages: readonly BaseMessage[], before: ArchivedPrefix) => {
    if (userAdded && ids !== undefined)
      recordMessageId(ids, request.threadId, userMessage, messages, before);
    if (hasTurnWriteControl(saver)) {
      // What earlier partial trims deleted is not stored any more (this turn's own trim
      // takes its rows off the count in the database, store/sql.ts TRIM_TRANSCRIPT).
      const messageCount = storedPrefix(before, memoryOf()?.thread).messages + messages.length;
      await saver.flushTurn(request.threadId, { messageCount, messages });
    }
  };
  const discard = () => {
    if (hasTurnWriteControl(saver)) saver.discardTurn(request.threadId);
  };

  // Stream values so the turn's messages are known even if the final save loses the race.
  let finalMessages: BaseMessage[] = [];
  let position: FlowPosition | undefined;
  let archived: ArchivedPrefix = EMPTY_PREFIX;
  let conflict: LlamonError | undefined;
  const attempt = async () => {
    answered = false;
    recallStep.reset();
    userAdded = false;
    replay = undefined;
    // Every run reads again: a run after a lost race may find this id stored by the winner.
    ids?.lookupMessageId(request.threadId, userMessage.id as string);
    const stream = await graph.stream(
      { incoming: userMessage, seed: [...(request.seed ?? [])] },
      { ...runConfig, streamMode: "values" },
    );
    for await (const values of stream) {
      const state = values as { messages: BaseMessage[]; flow?: FlowPosition; archived?: unknown };
      finalMessages = state.messages;
      position = state.flow;
      archived = archivedPrefixOf(state.archived);
    }
    // A retry that was already answered changes nothing: its held writes are dropped.
    if (!answered) discard();
    else await flush(finalMessages, archived);
  };
  try {
    await attempt();
  } catch (error) {
    discard();
    if (!isLlamonError(error, "THREAD_CONFLICT")) throw error;
    conflict = error;
  }
  // A turn that lost the head (another turn on the conversation saved first) runs again on
  // the new head, so its answer is computed from every turn committed before it: appending
  // a reply made on the stale thread would answer as if those turns never happened. A retry
  // the new head already answers is found by the graph (not answered again, nothing written).
  let merges = 0;
  for (let runs = 1; conflict !== undefined && saver !== undefined; runs += 1) {
    if (runs >= (deps.maxMergeAttempts ?? 50)) throw conflict;
    merges += 1;
    try {
      conflict = undefined;
      // Everything the lost attempt read belongs to a head that is gone — an erase may have
      // run meanwhile (R11.1) — so recall is read again with the new head, like the rest.
      await requestRecall();
      await attempt();
    } catch (error) {
      discard();
      if (!isLlamonError(error, "THREAD_CONFLICT")) throw error;
      conflict = error;
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5 * runs)));
    }
  }
  if (conflict !== undefined) throw conflict;
  const added = replay === undefined ? turnMessages(finalMessages, userMessage) : [...replay];

  const last = [...added].reverse().find((m) => AIMessage.isInstance(m));
  return {
    threadId: request.threadId,
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
    messageCount: storedPrefix(archived, memoryOf()?.thread).messages + finalMessages.length,
  };
}

/**
 * Stage the turn's user message for the write (R11.2): its position in the whole thread
 * (transcript ++ `messages`, the tail as the turn ends) and the end of its turn.
 */
function recordMessageId(
  ids: MessageIdIndex,
  threadId: string,
  user: HumanMessage,
  messages: readonly BaseMessage[],
  before: ArchivedPrefix,
): void {
  const index = messages.findIndex((m) => m.id === user.id);
  if (index < 0 || user.id === undefined) return;
  const next = messages.findIndex((m, i) => i > index && HumanMessage.isInstance(m));
  ids.stageMessageId(threadId, {
    id: user.id,
    seq: before.messages + index,
    end: before.messages + (next < 0 ? messages.length : next),
  });
}

/**
 * The messages of this turn: the user message and what answered it, up to the next user
 * message (a retried messageId finds its earlier answer in the middle of the thread).
 */
function turnMessages(messages: readonly BaseMessage[], user: HumanMessage): BaseMessage[] {
  const index = messages.findIndex((m) => m.id === user.id);
  if (index < 0) {
    throw new LlamonError("INTERNAL", "the turn's user message is missing from the graph state");
  }
  const next = messages.findIndex((m, i) => i > index && HumanMessage.isInstance(m));
  return messages.slice(index, next < 0 ? undefined : next);
}
