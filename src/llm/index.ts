/** Model adapters: OpenAI-compatible, Anthropic, Workers AI, offline; chosen by env. */
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_VERSION,
  AnthropicChatModel,
  type AnthropicChatModelFields,
  anthropicUsage,
  parseAnthropicMessage,
  toAnthropicMessages,
} from "./anthropic.ts";
export { type LlamonChatCallOptions, type ToolSpec, toolSpecs } from "./common.ts";
export {
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  MODEL_FAILURE_CODE,
  type ModelErrorDetails,
  type ModelFailureReason,
} from "./http.ts";
export {
  OFFLINE_MODEL_LABEL,
  type OfflineCall,
  OfflineChatModel,
  offlineReply,
} from "./offline.ts";
export {
  OPENAI_DEFAULT_BASE_URL,
  OpenAICompatibleChatModel,
  type OpenAICompatibleChatModelFields,
  parseOpenAIChatCompletion,
  toOpenAIMessages,
} from "./openai-compatible.ts";
export {
  createModelFromEnv,
  LLM_PROVIDERS,
  type LlmProvider,
  MODEL_ENV_VARS,
  type ModelConfigErrorDetails,
  type ModelEnvVar,
  OFFLINE_UNCONFIGURED_LABEL,
  parseModelEnv,
  type SelectedModel,
} from "./select.ts";
export {
  parseWorkersAIOutput,
  toWorkersAIMessages,
  WORKERS_AI_DEFAULT_MAX_TOKENS,
  type WorkersAIBinding,
  WorkersAIChatModel,
  type WorkersAIChatModelFields,
} from "./workers-ai.ts";
