/**
 * Conversation recall inside a turn: before the first model call, the earlier
 * messages most relevant to the new user message, from the backend's recall source
 * (memory/recall/source.ts), for the `[이전 대화 발췌]` block (memory/prompt-recall.ts).
 *
 * - Nothing happens when `recall` is off or the backend gave the turn no source: no block.
 * - The window the prompt starts from (memory/prompt.ts `promptWindow`) is excluded, so
 *   recall never repeats what the model already gets.
 * - Once per run of the turn: the tool loop's later model calls reuse the first answer (the
 *   question has not changed), so the prompt of one turn stays the same and recall costs one
 *   query. A turn that lost the head runs again on a new read and forgets it ({@link
 *   ConversationRecallStep.reset}): an erase may have run meanwhile (R11.1).
 * - A failing source never fails the turn: it is logged and the turn goes on without a block.
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import { promptWindow, type RecalledItem } from "../../memory/prompt.ts";
import { type RecallSource, recallForTurn, type StoredMessage } from "../../memory/recall/index.ts";

export interface ConversationRecallStep {
  /**
   * The recalled messages of this turn, best first ([] without a source). `from`: the
   * position of `thread[0]` in the whole conversation (the live tail's start; default 0).
   */
  items(
    thread: readonly BaseMessage[],
    question: string,
    from?: number,
  ): Promise<readonly RecalledItem[]>;
  /** Forget the answer: the turn runs again on a new read of the thread. */
  reset(): void;
}

export function createConversationRecallStep(deps: {
  config: MemoryConfig;
  source: RecallSource | undefined;
  /** A source built on the turn's thread (a backend whose search needs the live tail). */
  sourceFor?: ((tail: readonly StoredMessage[]) => RecallSource | undefined) | undefined;
  threadId: string;
  log: Logger;
}): ConversationRecallStep {
  let answer: Promise<readonly RecalledItem[]> | undefined;
  const { config } = deps;
  return {
    reset() {
      answer = undefined;
    },
    items(thread, question, from = 0) {
      if (!config.recall) return Promise.resolve([]);
      if (answer !== undefined) return answer;
      const source =
        deps.source ?? deps.sourceFor?.(thread.map((message, i) => ({ seq: from + i, message })));
      if (source === undefined) return Promise.resolve([]);
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
