/**
 * Starts the database behind workerd tests (real server or embedded PGlite, migrated) and
 * the Neon-protocol proxy; the Worker under test gets the proxy URL as a binding.
 */
import type { TestProject } from "vitest/node";
import { loadMigrations } from "../../src/store/migrate.ts";
import { NEON_STYLE_DSN, startTestBackend } from "../helpers/backend.ts";

declare module "vitest" {
  export interface ProvidedContext {
    neonProxyUrl: string;
    neonStyleDsn: string;
    backendKind: string;
    testDsn: string;
    migrationCount: number;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const backend = await startTestBackend();
  project.provide("neonProxyUrl", backend.proxy.url);
  project.provide("neonStyleDsn", NEON_STYLE_DSN);
  project.provide("backendKind", backend.kind);
  project.provide("testDsn", backend.dsn);
  project.provide("migrationCount", (await loadMigrations()).length);
  return () => backend.close();
}
