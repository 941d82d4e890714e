/**
 * defineAgent: what an llamon agent is — its instructions, skills, tools and the memory
 * settings written in code (the `code` layer of MemoryConfig's precedence).
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { LlamonError } from "../errors.ts";
import { type MemoryConfigPatch, parseMemoryConfigPatch } from "../memory/config.ts";
import { type A2AAuthSettings, parseA2AAuthSettings } from "../runtime/auth-config.ts";
import { zodIssueLines } from "../zod-issues.ts";

export interface AgentDefinition {
  /** Shown in the A2A agent card. */
  readonly name: string;
  readonly description: string;
  /** The agent's own system text (operator instructions). */
  readonly system?: string | undefined;
  /** Skill / guardrail texts; a function is called on every model call (current values). */
  readonly skills?: readonly string[] | (() => readonly string[]) | undefined;
  readonly tools?: readonly StructuredToolInterface[] | undefined;
  /** MemoryConfig keys set in code (snake_case, as in the product document). */
  readonly memory?: MemoryConfigPatch | undefined;
  /**
   * Who may call over A2A, in code (`mode`, and the JWT settings). The env's A2A_AUTH and
   * A2A_JWT_* win over these; API keys come only from the A2A_API_KEYS secret.
   */
  readonly auth?: A2AAuthSettings | undefined;
}

const definitionSchema = z.object({
  name: z.string().trim().min(1, "name must not be empty").max(100),
  description: z.string().max(2000),
  system: z.string().max(100_000).optional(),
});

export function defineAgent(definition: AgentDefinition): AgentDefinition {
  const parsed = definitionSchema.safeParse(definition);
  if (!parsed.success) {
    const lines = zodIssueLines(parsed.error.issues);
    throw new LlamonError("CONFIG_INVALID", `invalid agent definition — ${lines.join("; ")}`);
  }
  const memory =
    definition.memory === undefined ? undefined : parseMemoryConfigPatch(definition.memory, "code");
  const auth = definition.auth === undefined ? undefined : parseA2AAuthSettings(definition.auth);
  const names = new Set<string>();
  for (const tool of definition.tools ?? []) {
    if (names.has(tool.name)) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `two tools are named "${tool.name}": tool names must be unique`,
      );
    }
    names.add(tool.name);
  }
  return Object.freeze({ ...definition, memory, auth });
}

export function currentSkills(agent: AgentDefinition): readonly string[] {
  const skills = agent.skills;
  return typeof skills === "function" ? skills() : (skills ?? []);
}
