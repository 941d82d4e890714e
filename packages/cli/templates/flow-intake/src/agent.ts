/**
 * The intake workflow (llamon defineFlow): its card text, its steps (src/flow.ts) and its
 * memory settings (MemoryConfig keys, as in the llamon docs). src/index.ts serves it.
 */
import { defineFlow } from "llamon";
import { ALREADY, CONFIRMED, RESTART, STEPS, summary } from "./flow.ts";

export const agent = defineFlow({
  name: "__PROJECT_NAME__",
  description:
    "A step-by-step intake workflow (LangGraph) that remembers the answers of the conversation.",
  system: "Intake workflow: ask for name, topic and contact, then confirm.",
  steps: STEPS,
  restart: RESTART,
  // The final step: every answer is in (and checked). Its reply completes the A2A task.
  finish: ({ answers }) => `${CONFIRMED}\n${summary(answers)}`,
  // Any later message: the answers stay known. (`chat()` here would ask the model instead.)
  done: ({ answers }) => `${ALREADY}\n${summary(answers)}`,
  // Memory mode, chosen with `--memory __MEMORY_FLAG__` (code spells it "in_memory", the CLI
  // "in-memory"). MEMORY_BACKEND in wrangler.toml / .dev.vars overrides it without a code change.
  // The flow's answers live in the conversation's graph state, not in the window.
  memory: {
    backend: "__MEMORY_BACKEND__",
    window_size: 20,
    history_aware: true,
  },
});
