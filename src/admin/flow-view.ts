/**
 * Where a flow (defineFlow) stands in one conversation, for the management API's thread view
 * and Studio: read from the `flow` channel of the conversation's head checkpoint (the flow's
 * state lives in graph state, agent/turn/flow-graph.ts), never rebuilt from the messages.
 */
import { z } from "zod";
import type { AgentDefinition } from "../agent/define.ts";
import { isFlowAgent } from "../agent/flow.ts";

export interface FlowView {
  /** The flow's (agent's) name. */
  readonly name: string;
  /** The step whose answer the flow waits for; null before the first turn and once finished. */
  readonly step: string | null;
  /** That step's question, as the flow asks it now; null when no step waits. */
  readonly question: string | null;
  /** The answers given so far, by step id. */
  readonly answers: Record<string, unknown>;
  /** not_started: no turn yet; awaiting: a step waits for its answer; finished. */
  readonly status: "not_started" | "awaiting" | "finished";
}

const positionSchema = z.object({
  awaiting: z.string().nullable(),
  answers: z.record(z.string(), z.unknown()),
});

/** The flow view of a stored `flow` channel value; null for an agent that is not a flow. */
export function flowView(agent: AgentDefinition, stored: unknown): FlowView | null {
  if (!isFlowAgent(agent)) return null;
  const parsed = positionSchema.safeParse(stored);
  if (!parsed.success) {
    return { name: agent.name, step: null, question: null, answers: {}, status: "not_started" };
  }
  const { awaiting, answers } = parsed.data;
  if (awaiting === null) {
    return { name: agent.name, step: null, question: null, answers, status: "finished" };
  }
  const step = agent.flow.steps.find((s) => s.id === awaiting);
  let question: string | null = null;
  if (step !== undefined) {
    try {
      question = typeof step.ask === "string" ? step.ask : step.ask(answers);
    } catch {
      question = null; // the flow's own question function failed: show the step only
    }
  }
  return { name: agent.name, step: awaiting, question, answers, status: "awaiting" };
}
