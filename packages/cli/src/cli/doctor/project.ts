/**
 * What `llamon doctor` reads from a project folder: wrangler.toml, .dev.vars, .gitignore,
 * whether the Worker entry exists, and the agent's memory settings in code (agent-code.ts).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { readAgentCode } from "../agent-code.ts";
import { readDevVars } from "../dev-vars.ts";
import { errorMessage, type ProjectFacts, type Toml } from "./types.ts";

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
    code: await readAgentCode(projectDir),
    mainExists: main !== undefined && existsSync(join(projectDir, main)),
    gitignore: existsSync(gitignorePath)
      ? (await readFile(gitignorePath, "utf8")).split(/\r?\n/)
      : undefined,
  };
}
