/** The project templates and memory modes the scaffold offers (R1, R9.1). */
import { LlamonError } from "llamon/errors";
import type { MemoryBackend } from "llamon/node";

export type ProjectKind = "agent" | "flow";

export interface TemplateInfo {
  readonly id: string;
  readonly kind: ProjectKind;
  readonly title: string;
  /** One line for the prompt and the README. */
  readonly description: string;
  /** Packages the template's own code imports (versions: llamon's own ranges). */
  readonly imports: readonly string[];
}

export const TEMPLATES: readonly TemplateInfo[] = [
  {
    id: "agent-general",
    kind: "agent",
    title: "General assistant",
    description: "an assistant that remembers the conversation",
    imports: [],
  },
  {
    id: "agent-tools",
    kind: "agent",
    title: "Assistant with tools",
    description:
      "an assistant with tools (calculator, clock); tool calls are kept with their results",
    imports: ["@langchain/core", "zod"],
  },
  {
    id: "flow-intake",
    kind: "flow",
    title: "Intake workflow",
    description: "a LangGraph workflow that asks step by step and remembers the answers",
    imports: ["zod"],
  },
];

/** `--memory` values (CLI spelling, R1). */
export const MEMORY_MODES = ["off", "in-memory", "postgres", "sqlite"] as const;
export type MemoryMode = (typeof MEMORY_MODES)[number];

/** What the interactive prompt offers, default first. sqlite is legacy and never offered (R1.2). */
export const INTERACTIVE_MEMORY_MODES: readonly { mode: MemoryMode; hint: string }[] = [
  { mode: "postgres", hint: "운영 기본 권장 / production default, survives restarts" },
  { mode: "in-memory", hint: "짧은 실험용 / quick experiments, lost on restart" },
  { mode: "off", hint: "메모리 없음 / no memory, every request is new" },
];

export const DEFAULT_MEMORY_MODE: MemoryMode = "postgres";

export function templatesOf(kind: ProjectKind): TemplateInfo[] {
  return TEMPLATES.filter((t) => t.kind === kind);
}

export function findTemplate(kind: ProjectKind, id: string): TemplateInfo {
  const template = TEMPLATES.find((t) => t.id === id);
  if (template === undefined || template.kind !== kind) {
    const ids = templatesOf(kind).map((t) => t.id);
    const other =
      template === undefined
        ? ""
        : ` ("${id}" is ${template.kind === "agent" ? "an" : "a"} ${template.kind} template: use \`llamon ${template.kind} …\`)`;
    throw new LlamonError(
      "CONFIG_INVALID",
      `unknown ${kind} template "${id}"${other}: choose one of ${ids.join(", ")}`,
    );
  }
  return template;
}

export function parseMemoryMode(value: string): MemoryMode {
  if ((MEMORY_MODES as readonly string[]).includes(value)) return value as MemoryMode;
  const hint = value === "in_memory" ? ' (the CLI spells it "in-memory"; code uses in_memory)' : "";
  throw new LlamonError(
    "CONFIG_INVALID",
    `--memory must be one of off, in-memory, postgres (sqlite: legacy), got "${value}"${hint}`,
  );
}

/** CLI spelling → MemoryConfig.backend spelling. */
export function backendOf(mode: MemoryMode): MemoryBackend {
  return mode === "in-memory" ? "in_memory" : mode;
}
