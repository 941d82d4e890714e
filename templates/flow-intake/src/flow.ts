/**
 * The workflow: a LangGraph StateGraph that takes a customer inquiry step by step —
 * name, topic, contact — and then confirms it. It reads the answers from the conversation
 * llamon gives it, so the intake continues across requests that share a contextId; with
 * `--memory off` every request starts over at the first question.
 *
 *   START → collect → (ask | confirm) → END
 *
 * The steps are plain functions: replace one with a model call, add a step, or branch on
 * an answer (see the LangGraph.js docs).
 */
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";

export const QUESTIONS = [
  { key: "name", ask: "안녕하세요! 문의 접수를 도와드릴게요. 성함이 어떻게 되세요? (Your name?)" },
  { key: "topic", ask: "어떤 일로 문의하셨나요? (What do you need help with?)" },
  { key: "contact", ask: "답변 받으실 이메일이나 전화번호를 알려 주세요. (Email or phone?)" },
] as const;

export type IntakeKey = (typeof QUESTIONS)[number]["key"];
export const CONFIRMED = "접수되었습니다 (Received):";
const RESTART = /^\s*(다시|처음부터|restart|start over)\s*[.!]?\s*$/i;

export const IntakeState = Annotation.Root({
  /** The conversation as llamon passes it: the window of the stored thread. */
  conversation: Annotation<BaseMessage[]>(),
  answers: Annotation<Partial<Record<IntakeKey, string>>>(),
  reply: Annotation<string>(),
});
type State = typeof IntakeState.State;

function textOf(message: BaseMessage): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.map((p) => ("text" in p ? String(p.text) : "")).join("");
}

/** An answer is the user message that follows the agent's question. */
function collect(state: State): Partial<State> {
  let answers: Partial<Record<IntakeKey, string>> = {};
  let pending: IntakeKey | undefined;
  for (const message of state.conversation) {
    // llamon's runtime context (summary, facts in stable_tail mode) is not a user answer.
    if (message.additional_kwargs?.llamon_runtime_context === true) continue;
    const text = textOf(message).trim();
    if (AIMessage.isInstance(message)) {
      pending = QUESTIONS.find((q) => text.includes(q.ask))?.key;
    } else if (HumanMessage.isInstance(message)) {
      if (RESTART.test(text)) answers = {};
      else if (pending !== undefined) answers = { ...answers, [pending]: text };
      pending = undefined;
    }
  }
  return { answers };
}

function nextQuestion(state: State) {
  return QUESTIONS.find((q) => !state.answers[q.key]);
}

function ask(state: State): Partial<State> {
  return { reply: nextQuestion(state)?.ask ?? "" };
}

function confirm(state: State): Partial<State> {
  const lines = QUESTIONS.map((q) => `- ${q.key}: ${state.answers[q.key]}`);
  return { reply: [CONFIRMED, ...lines, "(다시 시작하려면 '다시' / say 'restart')"].join("\n") };
}

export const intakeFlow = new StateGraph(IntakeState)
  .addNode("collect", collect)
  .addNode("ask", ask)
  .addNode("confirm", confirm)
  .addEdge(START, "collect")
  .addConditionalEdges("collect", (state) => (nextQuestion(state) ? "ask" : "confirm"), [
    "ask",
    "confirm",
  ])
  .addEdge("ask", END)
  .addEdge("confirm", END)
  .compile();
