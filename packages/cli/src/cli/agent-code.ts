/**
 * The agent's definition as its project's code gives it (src/agent.ts), loaded with Node's own
 * type stripping (the Node the CLI requires has it on by default). `defineAgent` validates what
 * it is given, so an invalid definition throws here the error the Worker would fail to start
 * with (`invalid`); any other failure to load it
 * (an import only workerd has) is reported, not fatal. `llamon doctor` and `llamon run` read it;
 * `llamon run` also decides from it which backend to provide a database for.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isLlamonError, LlamonError } from "llamon/errors";
import { effectiveBackend, resolveMemoryConfig } from "llamon/node";
import type { Project } from "./project.ts";

const AGENT_FILES = ["src/agent.ts", "src/agent.js"];

export interface AgentCode {
  /** The agent's `memory` as written in code. */
  readonly memory?: unknown;
  readonly error?: string;
  /** The agent's definition itself is invalid (the Worker would fail to start). */
  readonly invalid?: boolean;
  readonly file?: string;
}

/** The exported agent's `memory` (`agent`, the default export, or the one AgentDefinition). */
export async function readAgentCode(dir: string): Promise<AgentCode | undefined> {
  const file = AGENT_FILES.find((f) => existsSync(join(dir, f)));
  if (file === undefined) return undefined;
  try {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    const candidates = [mod.agent, mod.default, ...Object.values(mod)];
    const agent = candidates.find(
      (v): v is { memory?: unknown } =>
        typeof v === "object" && v !== null && "name" in v && "system" in v,
    );
    if (agent === undefined) return { file, error: "it exports no agent (defineAgent(…))" };
    return { file, memory: agent.memory };
  } catch (error) {
    return {
      file,
      error: error instanceof Error ? error.message : String(error),
      invalid: isLlamonError(error, "CONFIG_INVALID"),
    };
  }
}

/**
 * The backend the Worker will run with: the agent's memory settings in code under the
 * project's variables (and MEMORY_BACKEND from this environment), validated as the Worker
 * validates them. A mistake there is the Worker's start-up error: it is reported here, with its
 * code, before anything starts.
 */
export async function projectBackend(project: Project): Promise<string> {
  const code = await readAgentCode(project.dir);
  if (code?.invalid) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `${code.file ?? "the agent"}: ${code.error ?? "invalid agent definition"}`,
    );
  }
  const envBackend = process.env.MEMORY_BACKEND;
  const env = {
    ...project.vars,
    ...(envBackend === undefined || envBackend === "" ? {} : { MEMORY_BACKEND: envBackend }),
  };
  try {
    return effectiveBackend(resolveMemoryConfig({ code: code?.memory, env }).config);
  } catch (error) {
    if (isLlamonError(error, "CONFIG_INVALID")) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `${error.message}\nFix it where it says (code: ${code?.file ?? "src/agent.ts"}; variables: wrangler.toml [vars] or .dev.vars); npx llamon doctor checks the whole project.`,
        { cause: error },
      );
    }
    throw error;
  }
}
