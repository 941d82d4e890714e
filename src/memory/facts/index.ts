/**
 * Fact recall (R8): pure functions, no I/O — extraction (heuristic, Korean and English),
 * merging with corrections, recall for a follow-up question, persistent_memory encoding,
 * and the `llm` mode's contract: its prompt, operations, their validation and application.
 */

export {
  type AppliedOperations,
  applyOperations,
} from "./apply-operations.ts";
export type { Candidate, CandidateForm, Retraction } from "./build.ts";
export { factText } from "./build.ts";
export {
  analyseUtterance,
  type ExtractOptions,
  extractFacts,
  extractRetractions,
  MAX_CLAUSE_CHARS,
  MAX_CLAUSES,
  MAX_EXTRACT_CHARS,
  warmUpFactRules,
} from "./extract.ts";
export {
  boundRetired,
  EMPTY_FACT_STATE,
  type FactState,
  isoDate,
  MAX_RETIRED,
  MAX_RETIRED_PER_SLOT,
  type Provenance,
  reviseFacts,
} from "./history.ts";
export { factLines } from "./lines.ts";
export {
  applyRetractions,
  DEFAULT_MAX_FACTS,
  type MergeOptions,
  mergeFacts,
  sameValue,
  type UpdateOptions,
  updateFacts,
} from "./merge.ts";
export {
  decodeOperations,
  FACT_OPERATIONS_HEADLINE,
  FACT_OPERATIONS_PROMPT,
  factOperationsInput,
} from "./model.ts";
export {
  type AppliedMessage,
  hasApplied,
  MAX_APPLIED,
  MODEL_FACTS_MEMORY_KEY,
  type ModelFactState,
  modelFactStateToJson,
  parseModelFactState,
} from "./model-state.ts";
export { type FactSlot, type SlotCheck, slotForOperation, valueMisfit } from "./operation-slot.ts";
export {
  type FactOperation,
  type JobMessage,
  MAX_OPERATIONS,
  type OperationName,
  type OperationsVerdict,
  type RejectedOperation,
  validateOperations,
} from "./operations.ts";
export { MIN_SCORE, recallFacts, scoreFacts } from "./recall.ts";
export { cueRetiredIds, RETRACTION_CUES, type RetractionCue } from "./retraction-cues.ts";
export { factsBefore, servedFacts } from "./served.ts";
export {
  FACTS_MEMORY_KEY,
  FACTS_STORAGE_VERSION,
  factsToJson,
  factTexts,
  parseFactState,
  parseStoredFacts,
  storedFactSchema,
  storedRetiredFactSchema,
} from "./storage.ts";
export {
  FACT_CATEGORIES,
  type Fact,
  type FactCategory,
  type FactLang,
  factId,
  type RetiredFact,
  SINGLE_VALUED,
  valueKey,
} from "./types.ts";
