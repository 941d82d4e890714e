/**
 * Setup of the Worker projects whose files share one workerd (`shareWorkerd` in
 * vitest.workers.config.mts): a file that registers an agent of its own (`createWorker(flow)`,
 * a scripted model) would leave it registered for the files after it in the same isolate,
 * and the Durable Objects and queue handlers run whichever agent is registered. After each
 * file the reference Worker's agent is registered again, as a fresh workerd would have it.
 */
import { afterAll } from "vitest";
import { findRegisteredAgent, registerAgent } from "../../src/agent/registry.ts";
// The reference Worker registers its agent when it loads (once per isolate).
import "../../src/worker/index.ts";

const reference = findRegisteredAgent();

afterAll(() => {
  if (reference !== undefined) registerAgent(reference);
});
