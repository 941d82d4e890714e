/**
 * defineFlow: a multi-step LangGraph workflow served like an agent (memory, A2A, the CLI
 * scaffold). A flow asks one question per step, checks each answer with its zod schema and
 * keeps its place — the step it waits for and the answers so far — in graph state (the `flow`
 * channel of turn/flow-graph.ts, saved by the checkpointer with the turn), never rebuilt from the
 * window. Between steps the A2A task is `input-required`; after the final step, `completed`.
 *
 * Why a state channel and not LangGraph's `interrupt()` + `Command({ resume })`: every llamon
 * turn is one complete graph run written once at its end (`durability: "exit"`), retried by
 * messageId and merged by compare-and-set on the thread head (turn/pipeline.ts). An interrupted run
 * would leave pending writes of an unfinished step between requests, which those savers and
 * the merge do not keep, and a resumed node runs again from its beginning. A channel is plain
 * checkpointed data: each turn runs prepare → the step's node → persist and ends, so retries,
 * concurrency, trim and the window work as for agents, and Studio can show the position.
 */
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { zodIssueLines } from "../zod-issues.ts";
import { type AgentDefinition, defineAgent } from "./define.ts";

/** What a step's question and branching see: the answers given so far. */
export type PartialAnswers = Readonly<Record<string, unknown>>;

export interface FlowStep<Id extends string = string, S extends z.ZodType = z.ZodType> {
  /** The answer's key (letters, digits, `_`, `-`; starts with a letter). */
  readonly id: Id;
  /** The question, or a function of the answers so far. */
  readonly ask: string | ((answers: PartialAnswers) => string);
  /** Checks the user's text (a string) and gives the stored answer (e.g. z.coerce.number()). */
  readonly answer: S;
  /** The reply to an answer the schema refuses (the question follows). Default: its issues. */
  readonly invalid?: string | ((issues: readonly string[]) => string) | undefined;
  /** The next step's id, from the answers so far; undefined: the final step. Default: in order. */
  readonly next?: ((answers: PartialAnswers) => string | undefined) | undefined;
}

/** The answers of a flow, typed from its steps: `{ [step id]: z.output<step.answer> }`. */
export type FlowAnswers<S extends readonly FlowStep[]> = {
  [K in S[number] as K["id"]]: z.output<K["answer"]>;
};

export interface FlowContext<A> {
  readonly answers: A;
  /** The text of this turn's user message. */
  readonly text: string;
  /**
   * Ask the agent's model (LLM_PROVIDER, or `createWorker(flow, { model })`) with the
   * conversation's memory prompt — window, summary, facts — and `instructions` appended to
   * the system text. Its answer's text.
   */
  chat(instructions?: string): Promise<string>;
}

export interface FlowDefinition<S extends readonly FlowStep[]>
  extends Omit<AgentDefinition, "tools"> {
  /** The steps, asked in order (or as each step's `next` says). At least one. */
  readonly steps: S;
  /** The final step, once every answer is in: its reply completes the task. */
  readonly finish: (ctx: FlowContext<FlowAnswers<S>>) => string | Promise<string>;
  /**
   * The reply to a message after the flow finished (the answers stay known). Default: the
   * flow starts over with its first question.
   */
  readonly done?: ((ctx: FlowContext<FlowAnswers<S>>) => string | Promise<string>) | undefined;
  /** Messages that start the flow over at any point (compared trimmed, case-insensitive). */
  readonly restart?: readonly string[] | undefined;
}

/** The untyped flow the graph runs (flow-graph.ts). */
export interface FlowSpec {
  readonly steps: readonly FlowStep[];
  readonly finish: (ctx: FlowContext<PartialAnswers>) => string | Promise<string>;
  readonly done?: ((ctx: FlowContext<PartialAnswers>) => string | Promise<string>) | undefined;
  readonly restart: readonly string[];
}

/** An agent whose turns run a flow. */
export interface FlowAgent<A = PartialAnswers> extends AgentDefinition {
  readonly flow: FlowSpec;
  /** Type only: the flow's answers. */
  readonly answers?: A;
}

const fn = (what: string) =>
  z.custom<(...args: never[]) => unknown>(
    (v) => typeof v === "function",
    `${what} must be a function`,
  );

const stepSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, "a step id is a letter, then letters, digits, _ or -"),
  ask: z.union([z.string().trim().min(1, "a question must not be empty"), fn("ask")]),
  answer: z.custom<z.ZodType>(
    (v) => v instanceof z.ZodType,
    "answer must be a zod schema (it checks the user's text)",
  ),
  invalid: z.union([z.string().min(1), fn("invalid")]).optional(),
  next: fn("next").optional(),
});

const flowSchema = z
  .object({
    steps: z.array(stepSchema).min(1, "a flow needs at least one step").max(100),
    finish: fn("finish"),
    done: fn("done").optional(),
    restart: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
    tools: z.undefined({ error: "a flow has no tools: its steps answer" }).optional(),
  })
  .superRefine((flow, ctx) => {
    const seen = new Set<string>();
    flow.steps.forEach((step, i) => {
      if (seen.has(step.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["steps", i, "id"],
          message: `two steps are named "${step.id}"`,
        });
      }
      seen.add(step.id);
    });
  });

export function defineFlow<const S extends readonly FlowStep[]>(
  definition: FlowDefinition<S>,
): FlowAgent<FlowAnswers<S>> {
  const parsed = flowSchema.safeParse(definition);
  if (!parsed.success) {
    const lines = zodIssueLines(parsed.error.issues);
    throw new LlamonError("CONFIG_INVALID", `invalid flow definition — ${lines.join("; ")}`);
  }
  const { steps, finish, done, restart, ...agentPart } = definition;
  const agent = defineAgent(agentPart);
  const flow: FlowSpec = Object.freeze({
    steps: Object.freeze([...steps]),
    finish: finish as FlowSpec["finish"],
    done: done as FlowSpec["done"],
    restart: Object.freeze((restart ?? []).map(normaliseCommand)),
  });
  return Object.freeze({ ...agent, flow });
}

export function isFlowAgent(agent: AgentDefinition): agent is FlowAgent {
  return (agent as Partial<FlowAgent>).flow !== undefined;
}

/** How a restart command is compared: trimmed, lower case, without a final `.` or `!`. */
export function normaliseCommand(text: string): string {
  return text
    .trim()
    .replace(/[.!]+$/, "")
    .trim()
    .toLowerCase();
}
