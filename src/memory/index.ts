/**
 * `llamon/memory`: the pure memory layer — MemoryConfig (schema, env, precedence), message
 * groups, the window sent to the model, prompt assembly (system prompt, history note,
 * prompt-context modes), the persist-trim selection, the token estimate and the external
 * history seed (R5).
 * Nothing here touches Node, Workers, HTTP or a database.
 */
export {
  FACTS_MODES,
  type FactsMode,
  MEMORY_BACKENDS,
  MEMORY_CONFIG_DEFAULTS,
  MEMORY_CONFIG_KEYS,
  MEMORY_ENV_VARS,
  type MemoryBackend,
  type MemoryConfig,
  type MemoryConfigErrorDetails,
  type MemoryConfigInput,
  type MemoryConfigKey,
  type MemoryConfigLayers,
  type MemoryConfigPatch,
  type MemoryConfigSource,
  type MemoryEnvVar,
  memoryConfigFromEnv,
  memoryConfigPatchSchema,
  memoryConfigSchema,
  PROMPT_CONTEXT_MODES,
  type PromptContextMode,
  parseMemoryConfig,
  parseMemoryConfigPatch,
  type ResolvedMemoryConfig,
  resolveMemoryConfig,
  summaryPeriod,
} from "./config.ts";
export {
  groupMessages,
  isSystemMessage,
  isWellFormed,
  type MalformedGroupKind,
  type MessageGroup,
  type MessageGroupKind,
  type TrimResult,
  trimToLastGroups,
  type WellFormedGroupKind,
} from "./groups.ts";
export {
  type AssembledPrompt,
  type AssembleInput,
  assemblePrompt,
  FACTS_HEADER,
  HISTORY_NOTE,
  isRuntimeContextMessage,
  KNOWLEDGE_HEADER,
  type MultiturnSignals,
  multiturnLogLine,
  type PromptParts,
  RUNTIME_CONTEXT_FLAG,
  RUNTIME_CONTEXT_ID_PREFIX,
  RUNTIME_CONTEXT_MARKER,
  RUNTIME_CONTEXT_NOTE,
  SUMMARY_HEADER,
} from "./prompt.ts";
export { claimsSystemRole, conversationMessages, hasPriorTurn } from "./prompt-thread.ts";
export {
  parseHistorySeed,
  SEED_MAX_TEXT_CHARS,
  SEED_MAX_TOTAL_CHARS,
  type SeedOptions,
  type SeedReport,
  type SeedResult,
} from "./seed.ts";
export {
  alignSummaryBoundary,
  effectiveCovers,
  evictedBoundary,
  isConversationMessage,
  newSummaryCache,
  parseSummaryCache,
  SUMMARY_KEY,
  type SummaryCache,
  type SummaryConfig,
  type SummaryDue,
  type SummaryStanding,
  summaryDue,
  summaryStanding,
  summaryTextOf,
} from "./summary.ts";
export {
  EVICTED_HEADER,
  evictedTranscript,
  messageText,
  NO_PREVIOUS_SUMMARY,
  PREVIOUS_SUMMARY_HEADER,
  SUMMARIZER_INSTRUCTION,
  SUMMARIZER_SYSTEM_PROMPT,
  SUMMARY_MAX_CHARS,
  SUMMARY_MESSAGE_MAX_CHARS,
  summarizerInput,
} from "./summary-input.ts";
export {
  estimateTokens,
  MEDIA_BLOCK_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
} from "./tokens.ts";
export { selectWindow, type WindowOptions, type WindowSelection } from "./window.ts";
