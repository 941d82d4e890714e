/**
 * Starts the database behind workerd tests (real server or embedded PGlite, migrated) and
 * the Neon-protocol proxy; the Worker under test gets the proxy URL as a binding.
 */
import type { TestProject } from "vitest/node";
import { NEON_STYLE_DSN, startTestBackend } from "../helpers/backend.ts";

declare module "vitest" {
  export interface ProvidedContext {
    neonProxyUrl: string;
    neonStyleDsn: string;
    backendKind: string;
    testDsn: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const backend = await startTestBackend();
  project.provide("neonProxyUrl", backend.proxy.url);
  project.provide("neonStyleDsn", NEON_STYLE_DSN);
  project.provide("backendKind", backend.kind);
  project.provide("testDsn", backend.dsn);
  return () => backend.close();
}
