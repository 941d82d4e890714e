/**
 * The agent: its instructions and its memory settings (MemoryConfig keys, as in the llamon
 * docs). src/index.ts serves it as a Worker over A2A.
 */
import { defineAgent } from "llamon";

export const agent = defineAgent({
  name: "__PROJECT_NAME__",
  description:
    "A general assistant that remembers the conversation (send the same contextId to continue it).",
  system:
    "You are a helpful assistant. Answer in the language the user writes in. Keep answers short.",
  // Memory mode, chosen with `--memory __MEMORY_FLAG__` (code spells it "in_memory", the CLI
  // "in-memory"). MEMORY_BACKEND in wrangler.toml / .dev.vars overrides it without a code change.
  memory: {
    backend: "__MEMORY_BACKEND__",
    window_size: 20,
    history_aware: true,
  },
});
