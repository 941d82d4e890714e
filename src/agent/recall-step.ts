/**
 * Conversation recall inside a turn (issue 16): before the first model call, the earlier
 * messages most relevant to the new user message, from the backend's recall source
 * (memory/recall/source.ts), for the `[이전 대화 발췌]` block (memory/prompt-recall.ts).
 *
 * - Nothing happens when `recall` is off or the backend gave the turn no source: no block.
 * - The window the prompt starts from (memory/prompt.ts `promptWindow`) is excluded, so
 *   recall never repeats what the model already gets.
 * - Once per turn: the tool loop's later model calls reuse the first answer (the question
 *   has not changed), so the prompt of one turn stays the same and recall costs one query.
 * - A failing source never fails the turn: it is logged and the turn goes on without a block.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { Logger } from "../log.ts";
import type { MemoryConfig } from "../memory/config.ts";
import { promptWindow, type RecalledItem } from "../memory/prompt.ts";
import { type RecallSource, recallForTurn } from "../memory/recall/index.ts";

export interface RecallStep {
  /** The recalled messages of this turn, best first ([] without a source). */
  items(thread: readonly BaseMessage[], question: string): Promise<readonly RecalledItem[]>;
}

export function createRecallStep(deps: {
  config: MemoryConfig;
  source: RecallSource | undefined;
  threadId: string;
  log: Logger;
}): RecallStep {
  let answer: Promise<readonly RecalledItem[]> | undefined;
  const { config, source } = deps;
  return {
    items(thread, question) {
      if (!config.recall || source === undefined) return Promise.resolve([]);
      answer ??= (async () => {
        const window = promptWindow({ thread, config });
        const exclude = new Set(window.messages.flatMap((m) => (m.id ? [m.id] : [])));
        try {
          return await recallForTurn(source, {
            threadId: deps.threadId,
            question,
            exclude,
            maxItems: config.recall_max_items,
          });
        } catch (error) {
          deps.log.warn("recall: the recall source failed; no recalled messages this turn", {
            error: error instanceof Error ? error.message : String(error),
          });
          return [];
        }
      })();
      return answer;
    },
  };
}
