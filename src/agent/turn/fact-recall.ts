/**
 * Fact recall inside a turn (R8): before the model call, the user's new message updates the
 * thread's facts (heuristic; `llm` mode asks the model and falls back to the heuristic on
 * any failure, R8.1); the updated facts are staged to persistent_memory so they are saved
 * with the turn's checkpoint (same round trip); the facts that match the question are
 * recalled for the prompt (R8.2). Scope: the thread (same contextId) only.
 *
 * Each new fact carries the message it came from, its position and the date; a fact the
 * message replaced or took back is kept as retired and shown only as "earlier" (R8.3,
 * memory/facts/history.ts).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Logger } from "../../log.ts";
import type { MemoryConfig } from "../../memory/config.ts";
import {
  applyRetractions,
  EMPTY_FACT_STATE,
  extractRetractions,
  FACT_EXTRACTION_PROMPT,
  FACTS_MEMORY_KEY,
  type Fact,
  type FactState,
  factLines,
  factsToJson,
  mergeFacts,
  parseFactState,
  parseModelFacts,
  recallFacts,
  reviseFacts,
  updateFacts,
} from "../../memory/facts/index.ts";
import type { JsonValue, MemoryRows } from "../../store/persistent-memory.ts";

/** Where the user's message sits in the thread (provenance of the facts it states). */
export interface UtteranceSource {
  /** The A2A messageId of the user message. */
  readonly messageId?: string | undefined;
  /** Its position in the stored thread (0-based). */
  readonly position?: number | undefined;
}

export interface FactRecallStep {
  /** Update the thread's facts with the user's message; returns the facts now current. */
  update(utterance: string, source?: UtteranceSource): Promise<readonly Fact[]>;
  /** Lines of the facts that match the question (at most fact_recall_max_items). */
  recall(question: string): string[];
}

/** Far above any stored list: reviseFacts caps the list after it knows what was retired. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

export function createFactRecallStep(deps: {
  config: MemoryConfig;
  model: BaseChatModel;
  memory: () => MemoryRows | undefined;
  stage: ((key: string, value: JsonValue) => void) | undefined;
  log: Logger;
  /** The clock for the facts' dates (default: now). */
  now?: (() => Date) | undefined;
}): FactRecallStep {
  let known: FactState = EMPTY_FACT_STATE;
  return {
    async update(utterance, source) {
      const mode = deps.config.facts_mode;
      if (mode === "off") {
        known = EMPTY_FACT_STATE;
        return known.facts;
      }
      const stored = parseFactState(deps.memory()?.thread[FACTS_MEMORY_KEY]);
      const provenance = {
        messageId: source?.messageId,
        position: source?.position,
        date: (deps.now?.() ?? new Date()).toISOString(),
      };
      let derive = (current: readonly Fact[]): readonly Fact[] =>
        updateFacts(current, utterance, { max: UNCAPPED });
      if (mode === "llm") {
        try {
          const answer = await deps.model.invoke([
            new SystemMessage(FACT_EXTRACTION_PROMPT),
            new HumanMessage(utterance),
          ]);
          const fromModel = parseModelFacts(answer.content, utterance);
          derive = (current) =>
            mergeFacts(applyRetractions(current, extractRetractions(utterance)), fromModel, {
              max: UNCAPPED,
            });
        } catch (error) {
          deps.log.warn("facts: model extraction failed; using the heuristic", {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      known = reviseFacts(stored, utterance, provenance, derive);
      const next = JSON.stringify(factsToJson(known.facts, known.retired));
      if (next !== JSON.stringify(factsToJson(stored.facts, stored.retired))) {
        deps.stage?.(FACTS_MEMORY_KEY, factsToJson(known.facts, known.retired));
      }
      return known.facts;
    },
    recall(question) {
      if (deps.config.facts_mode === "off") return [];
      const recalled = recallFacts(known.facts, question, deps.config.fact_recall_max_items);
      return factLines(recalled, known.retired);
    },
  };
}
