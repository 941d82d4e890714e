/**
 * The Worker: A2A JSON-RPC at POST /, the agent card at /.well-known/agent-card.json and
 * /health. The flow's steps answer; a model (LLM_* in .dev.vars) is only used if a step calls
 * `chat()`. Run it locally with `npx llamon run .`.
 */
import { createWorker, ThreadDO } from "llamon/worker";
import { agent } from "./agent.ts";

// One Durable Object per conversation (binding THREADS in wrangler.toml): it serialises the
// turns of a conversation and, for the in_memory and sqlite backends, holds it.
export { ThreadDO };
export default createWorker(agent);
