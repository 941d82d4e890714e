/**
 * The agent around the workflow: its card text and memory settings (MemoryConfig keys, as
 * in the llamon docs). src/index.ts serves it with the workflow in place of a model.
 */
import { defineAgent } from "llamon";

export const agent = defineAgent({
  name: "__PROJECT_NAME__",
  description:
    "A step-by-step intake workflow (LangGraph) that remembers the answers of the conversation.",
  system: "Intake workflow: ask for name, topic and contact, then confirm.",
  // Memory mode, chosen with `--memory __MEMORY_FLAG__` (code spells it "in_memory", the CLI
  // "in-memory"). MEMORY_BACKEND in wrangler.toml / .dev.vars overrides it without a code change.
  // The window must hold a whole intake (7 messages): keep window_size well above that.
  memory: {
    backend: "__MEMORY_BACKEND__",
    window_size: 20,
    history_aware: true,
  },
});
