/**
 * What `llamon doctor` reads from a project folder: wrangler.toml, .dev.vars, .gitignore,
 * whether the Worker entry exists, and the agent's memory settings in code (src/agent.ts,
 * loaded as the CLI loads TypeScript; a failure is reported, not fatal).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parse as parseToml } from "smol-toml";
import { isLlamonError } from "../../errors.ts";
import { readDevVars } from "../dev-vars.ts";
import { errorMessage, type ProjectFacts, type Toml } from "./types.ts";

const AGENT_FILES = ["src/agent.ts", "src/agent.js"];

export async function readProject(dir: string): Promise<ProjectFacts> {
  const projectDir = resolve(dir);
  const tomlPath = join(projectDir, "wrangler.toml");
  let toml: Toml | undefined;
  let tomlError: string | undefined;
  if (!existsSync(tomlPath)) {
    tomlError = `no wrangler.toml in ${projectDir}`;
  } else {
    try {
      toml = parseToml(await readFile(tomlPath, "utf8")) as Toml;
    } catch (error) {
      tomlError = `wrangler.toml is not valid TOML: ${errorMessage(error)}`;
    }
  }
  let devVars: Record<string, string> = {};
  let devVarsError: string | undefined;
  try {
    devVars = await readDevVars(projectDir);
  } catch (error) {
    devVarsError = errorMessage(error);
  }
  const main = typeof toml?.main === "string" ? toml.main : undefined;
  const gitignorePath = join(projectDir, ".gitignore");
  return {
    dir: projectDir,
    toml,
    tomlError,
    devVars,
    hasDevVars: existsSync(join(projectDir, ".dev.vars")) && devVarsError === undefined,
    code: await agentCode(projectDir),
    mainExists: main !== undefined && existsSync(join(projectDir, main)),
    gitignore: existsSync(gitignorePath)
      ? (await readFile(gitignorePath, "utf8")).split(/\r?\n/)
      : undefined,
  };
}

/** The exported agent's `memory` (`agent`, the default export, or the one AgentDefinition). */
async function agentCode(dir: string): Promise<ProjectFacts["code"]> {
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
    // defineAgent validates what it is given: that error is the Worker's own start-up error.
    return { file, error: errorMessage(error), invalid: isLlamonError(error, "CONFIG_INVALID") };
  }
}
