/**
 * llamon's public API. Runs in Workers and in Node; Node-only tools (the CLI, the dev proxy,
 * node-postgres, migrations) are not exported from here.
 */
export { type AgentDefinition, defineAgent } from "./agent/define.ts";
export { type ErrorCode, isLlamonError, LlamonError } from "./errors.ts";
export * from "./memory/index.ts";
export * from "./store/index.ts";
