/** The reference Worker (wrangler.toml `main`): the reference agent with llamon's runtime. */
import { ThreadDO } from "../durable/thread-do.ts";
import { createWorker } from "./create-worker.ts";
import { referenceAgent } from "./reference-agent.ts";

export { ThreadDO };
export default createWorker(referenceAgent);
