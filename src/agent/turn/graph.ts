/**
 * The LangGraph graph of one llamon agent:
 *
 *   START → prepare → agent ⇄ tools → persist → END     (an agent with tools)
 *   START → turn → END                                   (without: the same three, one step)
 *
 * - prepare: the incoming message arrives in its own ephemeral channel, so nothing reaches the
 *   stored thread before this node decides: a retried message (its messageId already in the
 *   live tail, or stored earlier in the thread: `storedAnswer`, R11.2) adds nothing — answered,
 *   it ends the turn here (no model call; idempotency by messageId), and a resend under the
 *   same id with another text never rewrites what was stored; otherwise it is appended, after
 *   the `metadata.history` seed when the thread is empty (R5.1);
 * - agent: rebuilds the model input on every call (window, system prompt, history note,
 *   summary/facts slots, recalled earlier messages — conversation-recall.ts; R3, R6), logs the
 *   `multiturn:` line right before the call (R3.4); for a streaming send the model streams and
 *   its reply text is handed on as it arrives (reply-stream.ts, R12.1);
 * - tools: LangGraph's ToolNode when the agent has tools;
 * - persist: trims the stored thread to its last N groups when configured (R4.2); with
 *   summarize on, only what the summary already covers is trimmed.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { EphemeralValue } from "@langchain/langgraph/channels";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { textOf } from "../../llm/offline.ts";
import type { Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import {
  type ArchivedPrefix,
  EMPTY_PREFIX,
  extendPrefix,
  liveTailStart,
} from "../../memory/live-tail.ts";
import { type AssembledPrompt, assemblePrompt, multiturnLogLine } from "../../memory/prompt.ts";
import { withoutFactSources } from "../../memory/prompt-recall.ts";
import { parseSummaryCache, SUMMARY_KEY, summaryTextOf } from "../../memory/summary.ts";
import { planTrim } from "../../memory/trim.ts";
import { messagesChannel } from "../../store/delta.ts";
import type { JsonValue, MemoryRows } from "../../store/persistent-memory.ts";
import { storedPrefix, type TranscriptTrim } from "../../store/transcript.ts";
import { type AgentDefinition, currentSkills } from "../define.ts";
import type { ConversationRecallStep } from "./conversation-recall.ts";
import { createFactRecallStep } from "./fact-recall.ts";
import { type ReplyStream, streamedReply } from "./reply-stream.ts";
import { uniqueToolCallIds } from "./tool-call-ids.ts";

/**
 * The channels of a turn. `messages` is the stored thread, kept as deltas (store/delta.ts);
 * with trim every update snapshots, since only the newest checkpoint is kept. A flow's graph
 * (flow-graph.ts) adds its own channel to these.
 */
export function turnChannels(options: { trim: boolean; storage: MessagesStorage }) {
  return {
    messages:
      options.storage === "delta"
        ? messagesChannel(options)
        : (MessagesAnnotation.spec.messages as unknown as ReturnType<typeof messagesChannel>),
    /** The transcript before the live tail (`tail` storage; memory/live-tail.ts). */
    archived: Annotation<ArchivedPrefix>({
      reducer: (_, next) => next,
      default: () => EMPTY_PREFIX,
    }),
    /** This turn's user message; never stored as such (ephemeral) — prepare adds it. */
    incoming: new EphemeralValue<BaseMessage>(false),
    /** History to seed an empty thread with; never stored (ephemeral). */
    seed: new EphemeralValue<BaseMessage[]>(false),
  };
}

function turnState(options: { trim: boolean; storage: MessagesStorage }) {
  return Annotation.Root(turnChannels(options));
}
type TurnState = ReturnType<typeof turnState>;

/**
 * How the thread's messages are stored: `tail` (a saver with a transcript, NeonSaver or
 * SqliteSaver: the checkpoint holds a bounded live tail as a plain list, older messages move
 * to the transcript after each turn — memory/live-tail.ts), `delta` (each turn writes what it
 * added, store/delta.ts) or `full` (LangGraph's classic messages channel: the whole list in
 * every checkpoint — for checkpointers without a fast ancestor walk, and for comparisons).
 */
export type MessagesStorage = "tail" | "delta" | "full";

export interface GraphDeps {
  readonly agent: AgentDefinition;
  readonly config: MemoryConfig;
  readonly model: BaseChatModel;
  readonly checkpointer?: BaseCheckpointSaver | undefined;
  readonly log: Logger;
  /** The persistent_memory rows of the thread (summary, facts), read with the checkpoint. */
  readonly memory: () => MemoryRows | undefined;
  /** Called with what was sent to the model on each call (inspector, tests). */
  readonly onModelCall?: ((prompt: AssembledPrompt) => void) | undefined;
  /** The id of this turn's user message (the A2A messageId). */
  readonly userMessageId: string;
  /** Stage a persistent_memory write of this thread, saved with the turn's checkpoint. */
  readonly stageMemory?: ((key: string, value: JsonValue) => void) | undefined;
  /** Default `delta`. */
  readonly messagesStorage?: MessagesStorage | undefined;
  /** Conversation recall; undefined = no recalled messages. */
  readonly conversationRecall?: ConversationRecallStep | undefined;
  /**
   * `tail` storage: stage messages leaving the live tail for the transcript at positions
   * `from`, … (saved with the turn's checkpoint, store/transcript.ts).
   */
  readonly archive?: ((from: number, messages: readonly BaseMessage[]) => void) | undefined;
  /**
   * A saver with a transcript: stage what a trim deletes of it, saved with the turn's
   * checkpoint (memory/trim.ts). Without it a trim changes only the checkpoint.
   */
  readonly trimTranscript?: ((trim: TranscriptTrim) => void) | undefined;
  /**
   * R11.2: the stored turn of this messageId when the thread stored it but the live tail does
   * not hold it (it left for the transcript), or undefined for a new message. Throws
   * MESSAGE_ALREADY_ANSWERED when that turn was trimmed away.
   */
  readonly storedAnswer?:
    | ((state: TurnStateView) => readonly BaseMessage[] | undefined)
    | undefined;
  /** Called when prepare appends this turn's user message to the thread (a new message). */
  readonly onUserMessageAdded?: (() => void) | undefined;
  /** The reply text as the model writes it (a streaming send); undefined = not streamed. */
  readonly replyStream?: ReplyStream | undefined;
}

/** The user message is already in the thread with a reply after it: a retry. */
export function isAnsweredRetry(messages: readonly BaseMessage[], userMessageId: string): boolean {
  const index = messages.findIndex((m) => m.id === userMessageId);
  return index >= 0 && messages.slice(index + 1).some((m) => AIMessage.isInstance(m));
}

/** What the prepare and persist nodes read of a turn's state. */
export interface TurnStateView {
  readonly messages: BaseMessage[];
  readonly incoming?: BaseMessage | undefined;
  readonly seed?: BaseMessage[] | undefined;
  /** The transcript before the live tail (`tail` storage). */
  readonly archived?: ArchivedPrefix | undefined;
}

/**
 * The nodes every turn graph shares (the agent's and a flow's): prepare, persist, the facts
 * step and the model call with the memory prompt (window, summary, facts; R3, R6, R8).
 */
export function turnNodes(deps: GraphDeps) {
  const tools = deps.agent.tools ?? [];
  const model: Runnable<BaseMessage[], AIMessage> =
    tools.length > 0 && deps.model.bindTools ? deps.model.bindTools([...tools]) : deps.model;
  const facts = createFactRecallStep({
    config: deps.config,
    memory: deps.memory,
    stage: deps.stageMemory,
  });
  /** The turn's messageId was answered before: in the live tail, or earlier (R11.2). */
  const answeredBefore = (state: TurnStateView): boolean =>
    state.messages.some((m) => m.id === deps.userMessageId)
      ? isAnsweredRetry(state.messages, deps.userMessageId)
      : deps.storedAnswer?.(state) !== undefined;
  return {
    facts,
    answeredBefore,
    prepare: async (state: TurnStateView) => {
      const incoming = state.incoming;
      if (incoming === undefined || state.messages.some((m) => m.id === incoming.id)) return {};
      if (deps.storedAnswer?.(state) !== undefined) return {};
      deps.onUserMessageAdded?.();
      const seed = state.seed ?? [];
      const seeding = seed.length > 0 && state.messages.length === 0;
      // Provenance of the facts it states: its id and position in the stored thread (R8.3).
      await facts.update(textOf(incoming), {
        messageId: incoming.id,
        position:
          (state.archived?.messages ?? 0) + state.messages.length + (seeding ? seed.length : 0),
      });
      if (!seeding) return { messages: [incoming] };
      // Seed ids are scoped to this turn's message id, so a client messageId can never
      // collide with (and, through the id-merging reducer, replace) a seeded message.
      const scoped = seed.map((m, i) => {
        const Ctor = AIMessage.isInstance(m) ? AIMessage : HumanMessage;
        return new Ctor({ content: m.content, id: `${incoming.id}:seed-${i}` });
      });
      return { messages: [...scoped, incoming] };
    },
    /**
     * One model call on the thread; `extraSystem` is appended to the agent's system text;
     * `archived`: the transcript before the thread (a live tail), counted, never sent.
     * `streamed`: the reply text goes to `replyStream` as it arrives (when the turn has one);
     * false for a text that is not the reply (a flow step's `chat()`).
     */
    callModel: async (
      thread: BaseMessage[],
      extraSystem?: string,
      archived?: ArchivedPrefix,
      streamed = true,
    ): Promise<AIMessage> => {
      const rows = deps.memory();
      const summary = summaryTextOf(rows?.thread[SUMMARY_KEY]);
      const question = latestUserText(thread);
      const shown = facts.shown(question);
      const recalled = withoutFactSources(
        (await deps.conversationRecall?.items(thread, question, archived?.messages)) ?? [],
        shown.sources,
      );
      const own = deps.agent.system;
      const prompt = assemblePrompt({
        systemText:
          extraSystem === undefined ? own : own ? `${own}\n\n${extraSystem}` : extraSystem,
        skills: currentSkills(deps.agent),
        summary,
        facts: shown.lines,
        recalled,
        thread,
        config: deps.config,
        // Counted as stored: partial trims deleted some of the transcript (thread_msgs).
        archived: archived === undefined ? undefined : storedPrefix(archived, rows?.thread),
      });
      deps.log.line("info", multiturnLogLine(prompt.signals), { ...prompt.signals });
      deps.onModelCall?.(prompt);
      const stream = streamed ? deps.replyStream : undefined;
      if (stream === undefined) return model.invoke(prompt.messages);
      return streamedReply(model, prompt.messages, stream);
    },
    persist: (state: TurnStateView) => {
      const keep = deps.config.persist_trim_keep_groups;
      if (keep === undefined) {
        return deps.messagesStorage === "tail" ? moveToTranscript(state, deps) : {};
      }
      const summary = deps.config.summarize
        ? (parseSummaryCache(deps.memory()?.thread[SUMMARY_KEY]) ?? null)
        : undefined;
      // The transcript's part of the trim needs a saver that can stage it; without one the
      // archived count must stay (its rows are still there).
      const archived = deps.trimTranscript === undefined ? EMPTY_PREFIX : state.archived;
      const plan = planTrim(state.messages, keep, archived, summary);
      if (plan.transcript !== undefined) deps.trimTranscript?.(plan.transcript);
      return {
        messages: plan.removed
          .filter((m) => m.id)
          .map((m) => new RemoveMessage({ id: m.id as string })),
        ...(plan.archived === undefined ? {} : { archived: plan.archived }),
      };
    },
  };
}

/** The node of an agent without tools: its whole turn is one LangGraph step. */
export const TURN_NODE = "turn";

/**
 * The turn of an agent without tools as one node: prepare, the model call and persist, in that
 * order, returning one update (the user message, the reply, and what persist removes) — the
 * same messages as the three-node graph, with one Pregel step instead of three (each step
 * costs LangGraph's task preparation, config merging and an in-memory checkpoint).
 */
async function oneStepTurn(
  state: TurnStateView,
  nodes: ReturnType<typeof turnNodes>,
): Promise<{ messages?: BaseMessage[]; archived?: ArchivedPrefix }> {
  const prepared = await nodes.prepare(state);
  const added = prepared.messages ?? [];
  const thread = added.length === 0 ? state.messages : [...state.messages, ...added];
  if (nodes.answeredBefore({ ...state, messages: thread })) return prepared;
  const reply = uniqueToolCallIds(await nodes.callModel(thread, undefined, state.archived), thread);
  const after: TurnStateView = { ...state, messages: [...thread, reply] };
  const persisted = nodes.persist(after) as { messages?: BaseMessage[]; archived?: ArchivedPrefix };
  return {
    messages: [...added, reply, ...(persisted.messages ?? [])],
    ...(persisted.archived === undefined ? {} : { archived: persisted.archived }),
  };
}

export function buildAgentGraph(deps: GraphDeps) {
  const tools = deps.agent.tools ?? [];
  const nodes = turnNodes(deps);
  const State = turnState({
    trim: deps.config.persist_trim_keep_groups !== undefined,
    storage: deps.messagesStorage ?? "delta",
  });
  if (tools.length === 0) {
    // One step: prepare, the model call and persist in one node (see oneStepTurn).
    return new StateGraph(State)
      .addNode(TURN_NODE, (state: TurnState["State"]) => oneStepTurn(state, nodes))
      .addEdge(START, TURN_NODE)
      .addEdge(TURN_NODE, END)
      .compile(deps.checkpointer ? { checkpointer: deps.checkpointer } : {});
  }
  const graph = new StateGraph(State)
    .addNode("prepare", nodes.prepare)
    .addNode("agent", async (state: TurnState["State"]) => {
      const reply = await nodes.callModel(state.messages, undefined, state.archived);
      return { messages: [uniqueToolCallIds(reply, state.messages)] };
    })
    .addNode("persist", nodes.persist)
    .addEdge(START, "prepare")
    .addConditionalEdges("prepare", (state: TurnState["State"]) =>
      nodes.answeredBefore(state) ? END : "agent",
    )
    .addEdge("persist", END);

  if (tools.length > 0) {
    graph
      .addNode("tools", new ToolNode([...tools]))
      .addConditionalEdges("agent", (state: TurnState["State"]) => {
        const last = state.messages.at(-1);
        return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0
          ? "tools"
          : "persist";
      })
      .addEdge("tools", "agent");
  } else {
    graph.addEdge("agent", "persist");
  }
  return graph.compile(deps.checkpointer ? { checkpointer: deps.checkpointer } : {});
}

/**
 * `tail` storage: the messages older than the live tail leave the checkpoint (RemoveMessage)
 * and are staged for the transcript, in the same write (memory/live-tail.ts).
 */
function moveToTranscript(state: TurnStateView, deps: GraphDeps) {
  const cut = liveTailStart(state.messages, deps.config);
  if (cut === 0 || deps.archive === undefined) return {};
  const moved = state.messages.slice(0, cut);
  if (moved.some((m) => !m.id)) return {};
  const before = state.archived ?? EMPTY_PREFIX;
  deps.archive(before.messages, moved);
  return {
    messages: moved.map((m) => new RemoveMessage({ id: m.id as string })),
    archived: extendPrefix(before, moved),
  };
}

export function latestUserText(messages: readonly BaseMessage[]): string {
  const last = [...messages].reverse().find((m) => HumanMessage.isInstance(m));
  return last ? textOf(last) : "";
}
