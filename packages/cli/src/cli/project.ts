/** What the CLI needs to know about a llamon project folder (wrangler.toml + .dev.vars). */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { LlamonError } from "llamon/errors";
import { zodIssueLines } from "llamon/node";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { readDevVars } from "./dev-vars.ts";

const wranglerSchema = z.looseObject({
  name: z.string(),
  main: z.string(),
  vars: z.record(z.string(), z.unknown()).optional(),
});

export interface Project {
  readonly dir: string;
  readonly name: string;
  /** wrangler.toml [vars] overlaid by .dev.vars, as wrangler dev sees them (strings). */
  readonly vars: Record<string, string>;
}

export async function loadProject(dir: string): Promise<Project> {
  const projectDir = resolve(dir);
  const tomlPath = join(projectDir, "wrangler.toml");
  if (!existsSync(tomlPath)) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `no wrangler.toml in ${projectDir}: run this inside a llamon project (create one with \`npx llamon-cli agent <name> --template agent-general --memory postgres --yes\`)`,
    );
  }
  let raw: unknown;
  try {
    raw = parseToml(await readFile(tomlPath, "utf8"));
  } catch (error) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `${tomlPath} is not a valid Worker config: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const checked = wranglerSchema.safeParse(raw);
  if (!checked.success) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `${tomlPath} is not a valid Worker config: ${zodIssueLines(checked.error.issues).join("; ")}`,
    );
  }
  const parsed: z.infer<typeof wranglerSchema> = checked.data;
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed.vars ?? {}))
    vars[k] = typeof v === "string" ? v : JSON.stringify(v);
  Object.assign(vars, await readDevVars(projectDir));
  return { dir: projectDir, name: parsed.name, vars };
}

/** The wrangler CLI script: the project's own, else the one llamon depends on. */
export function resolveWranglerBin(projectDir: string): string {
  for (const base of [join(projectDir, "package.json"), import.meta.filename]) {
    try {
      const pkgPath = createRequire(base).resolve("wrangler/package.json");
      return join(dirname(pkgPath), "bin", "wrangler.js");
    } catch {
      // try the next place
    }
  }
  throw new LlamonError(
    "CONFIG_INVALID",
    "wrangler is not installed: run `npm install` in the project first",
  );
}
