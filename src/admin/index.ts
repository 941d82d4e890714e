/** The management API, the registry loader and the run-time config layer (docs/admin.md). */
export { createAdminApp } from "./app.ts";
export { ADMIN_TOKEN_VAR, adminToken, secretsEqual } from "./auth.ts";
export { type Hint, type HintId, hintsFor } from "./hints.ts";
export { inspectThread, LAST_TURN_KEY, type ThreadView } from "./inspect.ts";
export {
  loadRegistry,
  type MemoryEntity,
  memoryEntityFor,
  REGISTRY_VERSION,
  type Registry,
  registryLayerFor,
} from "./registry.ts";
export {
  DEFAULT_RUNTIME_CONFIG_TTL_SECONDS,
  DEPLOY_TIME_KEYS,
  loadRuntimeLayer,
  RUNTIME_CONFIG_TTL_VAR,
  settingsObjectName,
} from "./runtime-config.ts";
export type { InspectedThread, ThreadInspectionHost } from "./threads.ts";
