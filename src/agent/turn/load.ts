/**
 * Load, the turn's first step: the thread as one read (store/thread-store.ts TurnSnapshot) —
 * head, memory rows, the turn stored for this messageId, and conversation recall over the
 * transcript when the store searches it with the head (the query is made here, its
 * embedding first when semantic recall is on). Every run of a turn loads again: a run after a
 * lost race reads what the winner (or an erase) left.
 */
import type { Embedder } from "../../llm/embeddings.ts";
import type { Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import type { ThreadStore, TurnSnapshot } from "../../store/thread-store.ts";
import { conversationRecallQuery } from "./recall-query.ts";

export interface LoadRequest {
  readonly threadId: string;
  readonly messageId: string;
  readonly text: string;
}

export async function loadThread(
  store: ThreadStore,
  request: LoadRequest,
  options: {
    readonly config: MemoryConfig;
    /** Ask conversation recall with the read (the config has it on, or may have it). */
    readonly recall: boolean;
    readonly embedder: Embedder | undefined;
    readonly log: Logger;
  },
): Promise<TurnSnapshot> {
  const recall =
    options.recall && store.recallInLoad
      ? await conversationRecallQuery(request.text, options.config, {
          embedder: options.embedder,
          log: options.log,
        })
      : undefined;
  return store.load({ threadId: request.threadId, messageId: request.messageId, recall });
}
