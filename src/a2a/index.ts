/** The A2A surface: JSON-RPC (v0.3 + v1.0) routes, agent card, durable task store. */
export { AGENT_CARD_PATHS, createA2AApp, DEFAULT_MAX_BODY_BYTES } from "./app.ts";
export {
  type A2ACaller,
  authenticate,
  CF_ACCESS_JWT_HEADER,
} from "./auth/authenticate.ts";
export { A2AUser, principalOf } from "./auth/user.ts";
export { AUTH_EXTENSION_URI, buildAgentCard, legacyAgentCard, wantsLegacyCard } from "./card.ts";
export {
  type DeletingTaskStore,
  GatedTaskStore,
  type GatedTaskStoreOptions,
  type TaskKeeping,
} from "./gated-task-store.ts";
export { type A2AGuardOptions, a2aGuard, refusal } from "./guard.ts";
export { describeTurnFailure, type TurnFailure } from "./rpc-errors.ts";
export {
  MAX_CONTEXT_ID_CHARS,
  MAX_ID_CHARS,
  MAX_MESSAGE_TEXT_CHARS,
  MAX_REFERENCE_TASK_IDS,
} from "./schemas.ts";
export {
  DEFAULT_MAX_TASK_BYTES,
  InMemoryKv,
  type KvBackend,
  KvTaskStore,
  type KvTaskStoreOptions,
  TASK_KEY_PREFIX,
} from "./task-store.ts";
export type {
  A2AAppOptions,
  A2ACardOptions,
  A2ASkillOptions,
  A2ATurnInput,
  A2ATurnOutput,
  ExecuteTurn,
} from "./types.ts";
