/** What `llamon doctor` reads from a project and what each of its checks reports. */
import type { AgentCode } from "../agent-code.ts";

export type Status = "ok" | "problem" | "warning" | "info";
export type Section = "config" | "bindings" | "secrets" | "auth" | "database";

export interface Check {
  readonly section: Section;
  readonly name: string;
  readonly status: Status;
  readonly message: string;
  /** What to do, when status is problem or warning. */
  readonly fix?: string;
}

/** What doctor read from the project folder. */
export interface ProjectFacts {
  readonly dir: string;
  /** wrangler.toml parsed; undefined when missing (see tomlError). */
  readonly toml: Record<string, unknown> | undefined;
  readonly tomlError?: string | undefined;
  /** The project's .dev.vars ({} when there is none). */
  readonly devVars: Record<string, string>;
  readonly hasDevVars: boolean;
  /** The agent's MemoryConfig in code (src/agent.ts), when it could be loaded. */
  readonly code?: AgentCode | undefined;
  readonly mainExists: boolean;
  /** The lines of the project's .gitignore, if any. */
  readonly gitignore?: readonly string[] | undefined;
}

export type Toml = Record<string, unknown>;

export const ok = (section: Section, name: string, message: string): Check => ({
  section,
  name,
  status: "ok",
  message,
});
export const problem = (section: Section, name: string, message: string, fix: string): Check => ({
  section,
  name,
  status: "problem",
  message,
  fix,
});
export const warning = (section: Section, name: string, message: string, fix: string): Check => ({
  section,
  name,
  status: "warning",
  message,
  fix,
});

export function tomlVars(toml: Toml | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  const raw = toml?.vars;
  if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) vars[k] = typeof v === "string" ? v : String(v);
  }
  return vars;
}

/** The environment the Worker sees locally: wrangler.toml [vars] overlaid by .dev.vars. */
export function workerEnv(facts: ProjectFacts): Record<string, string> {
  return { ...tomlVars(facts.toml), ...facts.devVars };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function tables(toml: Toml | undefined, key: string): Record<string, unknown>[] {
  const value = toml?.[key];
  return Array.isArray(value) ? (value.filter((v) => v && typeof v === "object") as Toml[]) : [];
}
