/**
 * Settings a Node-side command reads from where a user keeps them: the command line, then
 * the environment, then the project folder (`.dev.vars` over `wrangler.toml` [vars]).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { LlamonError } from "llamon/errors";
import { statementCacheSizeFromEnv } from "../store/db-pg.ts";
import { readDevVars } from "./dev-vars.ts";
import { loadProject } from "./project.ts";

/** wrangler.toml [vars] overlaid by .dev.vars; {} when the folder is no project. */
export async function projectVars(dir: string): Promise<Record<string, string>> {
  const projectDir = resolve(dir);
  if (existsSync(join(projectDir, "wrangler.toml"))) return (await loadProject(projectDir)).vars;
  return readDevVars(projectDir);
}

export interface DbSettings {
  readonly dsn: string;
  readonly statementCacheSize: number;
}

/** The Postgres DSN and statement cache size for a Node tool (migrate, prune). */
export function dbSettings(flagDsn: string | undefined, vars: Record<string, string>): DbSettings {
  const dsn =
    nonEmpty(flagDsn) ??
    nonEmpty(process.env.POSTGRES_MEMORY_DSN) ??
    nonEmpty(vars.POSTGRES_MEMORY_DSN);
  if (dsn === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "no database given: pass --dsn postgresql://… or set POSTGRES_MEMORY_DSN (environment or the project's .dev.vars)",
    );
  }
  const cache =
    process.env.MEMORY_PG_STATEMENT_CACHE_SIZE ?? vars.MEMORY_PG_STATEMENT_CACHE_SIZE ?? undefined;
  return {
    dsn,
    statementCacheSize: statementCacheSizeFromEnv({ MEMORY_PG_STATEMENT_CACHE_SIZE: cache }),
  };
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
