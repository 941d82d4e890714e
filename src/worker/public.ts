/**
 * `llamon/worker`: what a Worker script needs — createWorker(agent) and the ThreadDO class
 * it must export (Workers only: ThreadDO imports `cloudflare:workers`).
 */
export { type AgentDefinition, defineAgent } from "../agent/define.ts";
export { ThreadDO } from "../durable/thread-do.ts";
export { createWorker, type WorkerOptions } from "./create-worker.ts";
