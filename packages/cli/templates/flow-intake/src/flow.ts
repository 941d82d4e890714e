/**
 * The intake's steps for llamon's defineFlow (src/agent.ts): one question each, an answer
 * checked by a zod schema, then the final step that confirms the intake.
 *
 * llamon keeps the flow's place — the step it waits for and the answers — in the
 * conversation's LangGraph state (saved with each turn), not in the message window: the
 * intake is remembered however long the conversation gets. Between steps the A2A task is
 * `input-required`; the confirmation completes it. With `--memory off` every request starts
 * over at the first question.
 *
 * Add a step, change a question or a check here; `next` on a step branches on the answers
 * (see llamon's docs/flows.en.md).
 */
import type { PartialAnswers } from "llamon";
import { z } from "zod";

export const QUESTIONS = [
  { key: "name", ask: "안녕하세요! 문의 접수를 도와드릴게요. 성함이 어떻게 되세요? (Your name?)" },
  { key: "topic", ask: "어떤 일로 문의하셨나요? (What do you need help with?)" },
  { key: "contact", ask: "답변 받으실 이메일이나 전화번호를 알려 주세요. (Email or phone?)" },
] as const;

export const CONFIRMED = "접수되었습니다 (Received):";
export const ALREADY = "이미 접수된 문의입니다 (Already received):";
export const RESTART = ["다시", "처음부터", "restart", "start over"];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 -]{6,}[0-9]$/;

export const STEPS = [
  {
    id: QUESTIONS[0].key,
    ask: QUESTIONS[0].ask,
    answer: z.string().min(1).max(100),
    invalid: "성함을 100자 이내로 알려 주세요. (Please give a name of up to 100 characters.)",
  },
  {
    id: QUESTIONS[1].key,
    ask: QUESTIONS[1].ask,
    answer: z.string().min(2).max(2000),
    invalid: "문의 내용을 조금 더 알려 주세요. (Please say a bit more.)",
  },
  {
    id: QUESTIONS[2].key,
    ask: QUESTIONS[2].ask,
    answer: z.string().refine((v) => EMAIL.test(v) || PHONE.test(v)),
    invalid:
      "이메일(name@example.com)이나 전화번호(010-1234-5678) 형식으로 알려 주세요. (An email address or a phone number, please.)",
  },
] as const;

/** The lines that show the answers (the confirmation, and any later message). */
export function summary(answers: PartialAnswers): string {
  const lines = QUESTIONS.map((q) => `- ${q.key}: ${String(answers[q.key] ?? "")}`);
  return [...lines, "(다시 시작하려면 '다시' / say 'restart')"].join("\n");
}
