/**
 * Fact recall inside a turn (R8): before the model call, the user's new message updates the
 * thread's facts (heuristic; `llm` mode asks the model and falls back to the heuristic on
 * any failure, R8.1); the updated facts are staged to persistent_memory so they are saved
 * with the turn's checkpoint (same round trip); the facts that match the question are
 * recalled for the prompt (R8.2). Scope: the thread (same contextId) only.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import {
  applyRetractions,
  extractRetractions,
  FACT_EXTRACTION_PROMPT,
  FACTS_MEMORY_KEY,
  type Fact,
  factsToJson,
  factTexts,
  mergeFacts,
  parseModelFacts,
  parseStoredFacts,
  recallFacts,
  updateFacts,
} from "../../memory/facts/index.ts";
import type { JsonValue, MemoryRows } from "../../store/persistent-memory.ts";

export interface FactRecallStep {
  /** Update the thread's facts with the user's message; returns the facts now known. */
  update(utterance: string): Promise<readonly Fact[]>;
  /** Texts of the facts that match the question (at most fact_recall_max_items). */
  recall(question: string): string[];
}

export function createFactRecallStep(deps: {
  config: MemoryConfig;
  model: BaseChatModel;
  memory: () => MemoryRows | undefined;
  stage: ((key: string, value: JsonValue) => void) | undefined;
  log: Logger;
}): FactRecallStep {
  let known: readonly Fact[] = [];
  return {
    async update(utterance) {
      const mode = deps.config.facts_mode;
      if (mode === "off") {
        known = [];
        return known;
      }
      const stored = parseStoredFacts(deps.memory()?.thread[FACTS_MEMORY_KEY]);
      let next = updateFacts(stored, utterance);
      if (mode === "llm") {
        try {
          const answer = await deps.model.invoke([
            new SystemMessage(FACT_EXTRACTION_PROMPT),
            new HumanMessage(utterance),
          ]);
          const fromModel = parseModelFacts(answer.content, utterance);
          next = mergeFacts(applyRetractions(stored, extractRetractions(utterance)), fromModel);
        } catch (error) {
          deps.log.warn("facts: model extraction failed; using the heuristic", {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      known = next;
      if (JSON.stringify(factsToJson(next)) !== JSON.stringify(factsToJson(stored))) {
        deps.stage?.(FACTS_MEMORY_KEY, factsToJson(next));
      }
      return known;
    },
    recall(question) {
      if (deps.config.facts_mode === "off") return [];
      return factTexts(recallFacts(known, question, deps.config.fact_recall_max_items));
    },
  };
}
