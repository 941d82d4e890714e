/** Read a project's `.dev.vars` (dotenv format: KEY=value, optional quotes, # comments). */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1] as string;
    let value = (match[2] as string).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\"/g, '"');
    } else {
      value = value.replace(/\s+#.*$/, "");
    }
    vars[key] = value;
  }
  return vars;
}

/** The project's .dev.vars, or {} when there is none. */
export async function readDevVars(projectDir: string): Promise<Record<string, string>> {
  try {
    return parseDevVars(await readFile(join(projectDir, ".dev.vars"), "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
}
