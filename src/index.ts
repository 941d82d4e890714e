/**
 * llamon's public API. Runs in Workers and in Node; Node-only tools (the CLI, the dev proxy,
 * node-postgres, migrations) are not exported from here.
 */
export { type A2ACaller, authenticate } from "./a2a/auth/authenticate.ts";
export { type AgentDefinition, defineAgent } from "./agent/define.ts";
export {
  defineFlow,
  type FlowAgent,
  type FlowAnswers,
  type FlowContext,
  type FlowDefinition,
  type FlowStep,
  isFlowAgent,
  type PartialAnswers,
} from "./agent/flow.ts";
export type { FlowPosition } from "./agent/turn/flow-graph.ts";
export { type ErrorCode, isLlamonError, LlamonError } from "./errors.ts";
export * from "./memory/index.ts";
export {
  type A2AAuthConfig,
  type A2AAuthMode,
  type A2AAuthSettings,
  parseApiKeys,
  resolveA2AAuth,
} from "./runtime/auth-config.ts";
export {
  ANONYMOUS_PRINCIPAL,
  decodeThreadKey,
  type ThreadOwner,
  threadKey,
} from "./runtime/thread-keys.ts";
export * from "./store/index.ts";
