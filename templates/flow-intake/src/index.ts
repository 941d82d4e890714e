/**
 * The Worker: A2A JSON-RPC at POST /, the agent card at /.well-known/agent-card.json and
 * /health. The workflow answers instead of an LLM. Run it locally with `npx llamon run .`.
 */
import { createWorker, ThreadDO } from "llamon/worker";
import { agent } from "./agent.ts";
import { IntakeFlowModel } from "./flow-model.ts";

// One Durable Object per conversation (binding THREADS in wrangler.toml): it serialises the
// turns of a conversation and, for the in_memory and sqlite backends, holds it.
export { ThreadDO };
export default createWorker(agent, { model: () => new IntakeFlowModel() });
