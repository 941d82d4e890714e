/**
 * The agent and memory settings every bench system shares, the Node ones (./systems.ts) and
 * the official saver inside workerd (./official-worker-entry.ts): the llamon reference
 * agent's shape.
 */
import { defineAgent } from "../../src/agent/define.ts";
import { type MemoryConfig, resolveMemoryConfig } from "../../src/memory/config.ts";

export const agent = defineAgent({
  name: "Bench agent",
  description: "the llamon reference agent's shape",
  system:
    "You are a helpful assistant. Answer in the language the user writes in. Keep answers short.",
});

/**
 * The reference agent's settings with every feature that runs inside a turn: window 20, the
 * history note, heuristic fact recall (facts staged with the checkpoint), conversation recall
 * (on by default) and summaries (threshold 40): the summary cache is read in the same read
 * batch and placed in the prompt; summarising itself runs in the queue consumer, off the
 * turn — the bench runs those jobs between turns, unmeasured (./summaries.ts).
 */
export function memoryConfig(patch: Record<string, unknown> = {}): MemoryConfig {
  return resolveMemoryConfig({
    code: {
      window_size: 20,
      history_aware: true,
      facts_mode: "heuristic",
      summarize: true,
      ...patch,
    },
  }).config;
}
