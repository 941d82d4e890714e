/**
 * The product document's debugging table, as hints the inspector shows when they apply:
 *
 * | signal                                   | check                                   |
 * |------------------------------------------|-----------------------------------------|
 * | `has_prior=false` but multi-turn expected | is `contextId` the same on every turn?  |
 * | `thread_msgs > sent_to_llm`              | the window (`window_size`) cut messages  |
 * | `has_prior=true` but earlier talk ignored | check the prompt / agent instructions   |
 *
 * Each hint carries its text in Korean and English (the API is read with curl too).
 */
import type { MultiturnSignals } from "../memory/prompt.ts";

export type HintId = "check_context_id" | "window_cut" | "check_prompt";

export interface Hint {
  id: HintId;
  ko: string;
  en: string;
}

export interface HintContext {
  historyAware: boolean;
  hasSystemText: boolean;
  windowSize: number;
  maxHistoryTokens: number | undefined;
  droppedGroups: number;
  malformedGroups: number;
}

export function hintsFor(signals: MultiturnSignals, context: HintContext): Hint[] {
  const hints: Hint[] = [];
  if (!signals.has_prior) {
    hints.push({
      id: "check_context_id",
      ko: "has_prior=false: 이 대화에는 답변된 이전 turn이 없습니다. 멀티턴을 기대했다면 매 요청의 message.contextId가 같은지 확인하세요.",
      en: "has_prior=false: this conversation has no earlier answered turn. If you expected multi-turn, check that every request sends the same message.contextId.",
    });
  }
  if (signals.thread_msgs > signals.sent_to_llm) {
    const cut = signals.thread_msgs - signals.sent_to_llm;
    const tokens =
      context.maxHistoryTokens === undefined
        ? ""
        : ` / max_history_tokens=${context.maxHistoryTokens}`;
    const malformedKo =
      context.malformedGroups > 0
        ? ` 깨진 tool 묶음 ${context.malformedGroups}개도 제외됐습니다.`
        : "";
    const malformedEn =
      context.malformedGroups > 0
        ? ` ${context.malformedGroups} malformed tool group(s) were left out too.`
        : "";
    hints.push({
      id: "window_cut",
      ko: `thread_msgs(${signals.thread_msgs}) > sent_to_llm(${signals.sent_to_llm}): window_size=${context.windowSize}${tokens} 때문에 오래된 메시지 ${cut}개가 모델 입력에서 잘렸습니다(저장본은 그대로).${malformedKo} 더 보내려면 window_size를 늘리거나 summarize를 켜세요.`,
      en: `thread_msgs (${signals.thread_msgs}) > sent_to_llm (${signals.sent_to_llm}): window_size=${context.windowSize}${tokens} cut ${cut} older message(s) from the model input (the stored thread is unchanged).${malformedEn} Raise window_size or turn on summarize to keep more.`,
    });
  }
  if (signals.has_prior) {
    const why: { ko: string; en: string }[] = [];
    if (!context.historyAware) {
      why.push({
        ko: "history_aware=false라 이전 대화 안내가 system prompt에 붙지 않습니다.",
        en: "history_aware is false, so no history note is added to the system prompt.",
      });
    } else if (!context.hasSystemText) {
      why.push({
        ko: "agent의 system 지시문이 없어 이전 대화 안내가 붙지 않습니다.",
        en: "the agent has no system text, so no history note is added.",
      });
    }
    hints.push({
      id: "check_prompt",
      ko: `has_prior=true: 이전 대화가 답변에 반영되지 않는다면 prompt 또는 agent 지시문을 확인하세요.${why.map((w) => ` ${w.ko}`).join("")}`,
      en: `has_prior=true: if replies ignore the earlier conversation, check the prompt or the agent's instructions.${why.map((w) => ` ${w.en}`).join("")}`,
    });
  }
  return hints;
}
