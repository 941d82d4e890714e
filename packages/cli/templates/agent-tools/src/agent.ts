/**
 * The agent: instructions, tools and memory settings (MemoryConfig keys, as in the llamon
 * docs). src/index.ts serves it as a Worker over A2A.
 */
import { defineAgent } from "llamon";
import { tools } from "./tools.ts";

export const agent = defineAgent({
  name: "__PROJECT_NAME__",
  description: "An assistant with tools (calculator, clock) that remembers the conversation.",
  system:
    "You are a helpful assistant. Use the calculate tool for arithmetic and current_time for dates and times. Answer in the language the user writes in.",
  tools,
  // Memory mode, chosen with `--memory __MEMORY_FLAG__` (code spells it "in_memory", the CLI
  // "in-memory"). MEMORY_BACKEND in wrangler.toml / .dev.vars overrides it without a code change.
  memory: {
    backend: "__MEMORY_BACKEND__",
    window_size: 20,
    history_aware: true,
  },
});
