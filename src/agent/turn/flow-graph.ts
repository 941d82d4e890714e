/**
 * The LangGraph graph of a flow (flow.ts):
 *
 *   START → prepare → begin | step_<id> | done → (finish) → persist → END
 *
 * `prepare` and `persist` are the agent graph's own (graph.ts: messageId idempotency, the
 * history seed, facts, trim). The flow's position lives in the `flow` channel — a LastValue
 * channel saved with the turn's checkpoint, so it is never rebuilt from the window: the step
 * whose answer the flow waits for (`awaiting`) and the answers so far.
 *
 * - begin: a new conversation, a restart command, or a position whose step no longer exists
 *   (the definition changed): forget the answers, ask the first step;
 * - step_<id>: the user's text is the answer to `id`; its zod schema refuses it (the reply says
 *   why and asks again) or takes it; then the next step's question (`Command` to persist), or
 *   the final step (`Command` to finish);
 * - finish: the flow's final reply; the position becomes `awaiting: null` (finished);
 * - done: a message after the flow finished: the flow's `done` reply, or it starts over.
 */
import { AIMessage } from "@langchain/core/messages";
import { Annotation, Command, END, START, StateGraph } from "@langchain/langgraph";
import { LlamonError } from "../../errors.ts";
import { textOf } from "../../llm/offline.ts";
import type { FlowContext, FlowSpec, FlowStep, PartialAnswers } from "../flow.ts";
import { normaliseCommand } from "../flow.ts";
import { type GraphDeps, latestUserText, turnChannels, turnNodes } from "./graph.ts";

/** Where a conversation is in its flow (graph state, channel `flow`). */
export interface FlowPosition {
  /** The step whose answer the flow waits for; null once the final step ran. */
  readonly awaiting: string | null;
  readonly answers: PartialAnswers;
}

export interface FlowGraphDeps extends GraphDeps {
  readonly flow: FlowSpec;
  /** Called when the turn is answered by a flow node (not a retry that was answered before). */
  readonly onRespond?: (() => void) | undefined;
}

function flowState(options: Parameters<typeof turnChannels>[0]) {
  return Annotation.Root({
    ...turnChannels(options),
    flow: Annotation<FlowPosition | undefined>(),
  });
}
type FlowState = ReturnType<typeof flowState>["State"];

const stepNode = (id: string) => `step_${id}`;

export function question(step: FlowStep, answers: PartialAnswers): string {
  return typeof step.ask === "string" ? step.ask : step.ask(answers);
}

function invalidReply(step: FlowStep, issues: readonly string[]): string {
  if (typeof step.invalid === "string") return step.invalid;
  if (typeof step.invalid === "function") return step.invalid(issues);
  return issues.join("\n");
}

export function buildFlowGraph(deps: FlowGraphDeps) {
  const { flow } = deps;
  const nodes = turnNodes(deps);
  const byId = new Map(flow.steps.map((s) => [s.id, s]));
  const first = flow.steps[0];
  if (first === undefined)
    throw new LlamonError("CONFIG_INVALID", "a flow needs at least one step");

  const reply = (text: string, position: FlowPosition) => {
    deps.onRespond?.();
    return {
      messages: [new AIMessage({ content: text, id: crypto.randomUUID() })],
      flow: position,
    };
  };
  const context = (state: FlowState, answers: PartialAnswers): FlowContext<PartialAnswers> => ({
    answers,
    text: latestUserText(state.messages),
    chat: async (instructions) =>
      textOf(await nodes.callModel(state.messages, instructions, state.archived, false)),
  });
  const nextOf = (step: FlowStep, answers: PartialAnswers): FlowStep | undefined => {
    const id = step.next ? step.next(answers) : flow.steps[flow.steps.indexOf(step) + 1]?.id;
    if (id === undefined) return undefined;
    const next = byId.get(id);
    if (next === undefined) {
      throw new LlamonError("CONFIG_INVALID", `step "${step.id}": next() named no step "${id}"`);
    }
    return next;
  };
  const begin = () => reply(question(first, {}), { awaiting: first.id, answers: {} });

  const State = flowState({
    trim: deps.config.persist_trim_keep_groups !== undefined,
    storage: deps.messagesStorage ?? "delta",
  });
  const graph = new StateGraph(State)
    .addNode("prepare", nodes.prepare)
    .addNode("begin", begin)
    .addNode("finish", async (state: FlowState) => {
      const answers = state.flow?.answers ?? {};
      return reply(await flow.finish(context(state, answers)), { awaiting: null, answers });
    })
    .addNode("done", async (state: FlowState) => {
      const position = state.flow ?? { awaiting: null, answers: {} };
      if (flow.done === undefined) return begin();
      return reply(await flow.done(context(state, position.answers)), position);
    })
    .addNode("persist", nodes.persist)
    .addEdge(START, "prepare")
    .addEdge("begin", "persist")
    .addEdge("finish", "persist")
    .addEdge("done", "persist")
    .addEdge("persist", END);

  for (const step of flow.steps) {
    graph.addNode(
      stepNode(step.id),
      (state: FlowState) => {
        const answers = state.flow?.answers ?? {};
        const parsed = step.answer.safeParse(latestUserText(state.messages).trim());
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => i.message);
          const text = `${invalidReply(step, issues)}\n${question(step, answers)}`;
          return new Command({
            update: reply(text, { awaiting: step.id, answers }),
            goto: "persist",
          });
        }
        if (!isJsonValue(parsed.data)) {
          throw new LlamonError(
            "CONFIG_INVALID",
            `step "${step.id}": its answer schema gave a value that is not JSON (answers are stored in the checkpoint: use strings, numbers, booleans, arrays or objects)`,
          );
        }
        const taken = { ...answers, [step.id]: parsed.data };
        const next = nextOf(step, taken);
        if (next === undefined) {
          return new Command({
            update: { flow: { awaiting: step.id, answers: taken } },
            goto: "finish",
          });
        }
        const asked = reply(question(next, taken), { awaiting: next.id, answers: taken });
        return new Command({ update: asked, goto: "persist" });
      },
      { ends: ["finish", "persist"] },
    );
  }

  graph.addConditionalEdges("prepare", (state: FlowState) => {
    if (nodes.answeredBefore(state)) return END;
    const position = state.flow;
    const text = normaliseCommand(latestUserText(state.messages));
    if (position === undefined || flow.restart.includes(text)) return "begin";
    if (position.awaiting === null) return "done";
    return byId.has(position.awaiting) ? stepNode(position.awaiting) : "begin";
  });
  return graph.compile(deps.checkpointer ? { checkpointer: deps.checkpointer } : {});
}

/** Plain JSON: what a checkpoint stores and gives back unchanged. */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((v) => isJsonValue(v, depth + 1));
}

/** Whether a turn's final state leaves the flow waiting for an answer (A2A input-required). */
export function awaitsInput(values: { flow?: FlowPosition | undefined }): boolean {
  return values.flow !== undefined && values.flow.awaiting !== null;
}
