/** The management API, the registry loader and the run-time config layer (docs/admin.md). */

export { settingsObjectName } from "../runtime/objects.ts";
export {
  DEFAULT_RUNTIME_CONFIG_TTL_SECONDS,
  DEPLOY_TIME_KEYS,
  loadRuntimeLayer,
  RUNTIME_CONFIG_TTL_VAR,
} from "../runtime/runtime-layer.ts";
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
export type { InspectedThread, ThreadIndexHost, ThreadInspectionHost } from "./threads.ts";
