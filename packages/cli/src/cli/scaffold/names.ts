/**
 * Project names become the Worker name, AGENT_ID, the npm package name and (with
 * underscores) the Postgres database `<name>_memory`, so one rule satisfies all four:
 * lowercase letters, digits and single '-' between them, starting with a letter, at most
 * 56 characters (`_memory` makes 63, Postgres' identifier limit).
 */
import { LlamonError } from "llamon/errors";

export const MAX_PROJECT_NAME_LENGTH = 56;
const NAME_RE = /^[a-z](?:[a-z0-9]|-(?=[a-z0-9]))*$/;

/** Names the generated package.json cannot take (npm refuses a package depending on itself). */
const RESERVED = new Set([
  "llamon",
  "node",
  "wrangler",
  "vitest",
  "typescript",
  "zod",
  "test",
  "node_modules",
  "favicon.ico",
]);

/** The database a postgres project uses: my-agent → my_agent_memory. */
export function databaseName(projectName: string): string {
  return `${projectName.replaceAll("-", "_")}_memory`;
}

/** A valid name close to `raw` (for the error message), or undefined. */
export function suggestName(raw: string): string | undefined {
  const slug = raw
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-+$/, "")
    .slice(0, MAX_PROJECT_NAME_LENGTH)
    .replace(/-+$/, "");
  return NAME_RE.test(slug) && !RESERVED.has(slug) ? slug : undefined;
}

/** Why `name` cannot be a project name, or undefined when it can. */
export function projectNameProblem(name: string): string | undefined {
  if (name.length === 0) return "the name is empty";
  if (name.length > MAX_PROJECT_NAME_LENGTH) {
    return `it is ${name.length} characters long; at most ${MAX_PROJECT_NAME_LENGTH} fit (the database name ${databaseName("x".repeat(MAX_PROJECT_NAME_LENGTH))} has Postgres' 63-character limit)`;
  }
  if (!NAME_RE.test(name)) {
    return "use lowercase letters, digits and '-' (not at the start or end, not doubled), starting with a letter: it names the Worker, AGENT_ID and the database";
  }
  if (RESERVED.has(name)) return `"${name}" is the name of a package the project depends on`;
  return undefined;
}

/**
 * The name the interactive scaffold offers (Enter takes it): the folder's name when `--dir`
 * was given and it makes a valid name, else `base` ("my-agent"), or `base-2`, `base-3`, … when
 * a folder of that name is already taken (`isFree` says whether the folder for a name is free).
 */
export function defaultProjectName(
  base: string,
  dirName: string | undefined,
  isFree: (name: string) => boolean,
): string {
  const fromDir = dirName === undefined ? undefined : suggestName(dirName);
  if (fromDir !== undefined) return fromDir;
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (isFree(name)) return name;
  }
  return base;
}

/** The valid name to offer after `bad` was refused (Enter takes it), if there is one. */
export function retryProjectName(bad: string): string | undefined {
  const suggestion = suggestName(bad);
  return suggestion !== undefined && suggestion !== bad ? suggestion : undefined;
}

export function checkProjectName(name: string): void {
  const problem = projectNameProblem(name);
  if (problem === undefined) return;
  const suggestion = suggestName(name);
  throw new LlamonError(
    "CONFIG_INVALID",
    `"${name}" cannot be a project name: ${problem}.${suggestion && suggestion !== name ? ` Try "${suggestion}".` : ""}`,
  );
}
