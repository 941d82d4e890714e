/**
 * Fact recall inside a turn (R8): before the model call, the user's new message updates the
 * thread's facts with the heuristic; the updated facts are staged to persistent_memory so they
 * are saved with the turn's checkpoint (same round trip); the facts that match the question
 * are recalled for the prompt (R8.2). Scope: the thread (same contextId) only.
 *
 * `llm` mode makes no model call here (R8.1): the turn extracts with the heuristic like
 * `heuristic` mode, and serves the state the facts jobs left (key `facts_llm`, written off the
 * request path by queue/facts.ts) with the heuristic's facts of the messages no job has
 * applied yet laid over it (memory/facts/served.ts). The job enqueued after this turn
 * replaces them when it lands; if it fails, they stay.
 *
 * Each new fact carries the message it came from, its position and the date; a fact the
 * message replaced or took back is kept as retired and shown only as "earlier" (R8.3,
 * memory/facts/history.ts).
 */
import type { MemoryConfig } from "../../memory/config.ts";
import {
  EMPTY_FACT_STATE,
  FACTS_MEMORY_KEY,
  type Fact,
  type FactState,
  factLines,
  factsToJson,
  MODEL_FACTS_MEMORY_KEY,
  parseFactState,
  parseModelFactState,
  recallFacts,
  reviseFacts,
  servedFacts,
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
  /**
   * The same lines and the positions of the user messages the shown facts came from:
   * conversation recall does not quote those messages again (prompt-recall.ts
   * `withoutFactSources`).
   */
  shown(question: string): { lines: string[]; sources: ReadonlySet<number> };
}

/** Far above any stored list: reviseFacts caps the list after it knows what was retired. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

export function createFactRecallStep(deps: {
  config: MemoryConfig;
  memory: () => MemoryRows | undefined;
  stage: ((key: string, value: JsonValue) => void) | undefined;
  /** The clock for the facts' dates (default: now). */
  now?: (() => Date) | undefined;
}): FactRecallStep {
  /** The facts served to this turn (in `llm` mode: with the jobs' state). */
  let known: FactState = EMPTY_FACT_STATE;
  const shown = (question: string): { lines: string[]; sources: ReadonlySet<number> } => {
    if (deps.config.facts_mode === "off") return { lines: [], sources: new Set() };
    const recalled = recallFacts(known.facts, question, deps.config.fact_recall_max_items);
    const sources = new Set(
      recalled.flatMap((f) => (f.position === undefined ? [] : [f.position])),
    );
    return { lines: factLines(recalled, known.retired), sources };
  };
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
      const revised = reviseFacts(stored, utterance, provenance, (current) =>
        updateFacts(current, utterance, { max: UNCAPPED }),
      );
      const next = JSON.stringify(factsToJson(revised.facts, revised.retired));
      if (next !== JSON.stringify(factsToJson(stored.facts, stored.retired))) {
        deps.stage?.(FACTS_MEMORY_KEY, factsToJson(revised.facts, revised.retired));
      }
      known =
        mode === "llm"
          ? servedFacts(revised, parseModelFactState(deps.memory()?.thread[MODEL_FACTS_MEMORY_KEY]))
          : revised;
      return known.facts;
    },
    recall: (question) => shown(question).lines,
    shown,
  };
}
