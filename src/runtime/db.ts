/** The Worker's database: Neon HTTP (through the local proxy in dev), holding no connection. */
import { LlamonError } from "../errors.ts";
import type { Db } from "../store/db.ts";
import { createNeonDb } from "../store/db-neon.ts";
import { type Env, parseWorkerVars } from "./env.ts";

export function workerDb(env: Env): Db {
  const vars = parseWorkerVars(env);
  if (!vars.POSTGRES_MEMORY_DSN) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "POSTGRES_MEMORY_DSN is not set: the postgres memory backend needs it (.dev.vars locally; in production `wrangler secret put POSTGRES_MEMORY_DSN`)",
    );
  }
  return createNeonDb({
    connectionString: vars.POSTGRES_MEMORY_DSN,
    fetchEndpoint: vars.LLAMON_NEON_FETCH_ENDPOINT,
    timeoutMs: vars.MEMORY_DB_TIMEOUT_MS,
  });
}
