/**
 * The database behind the `workers-semantic` project: an embedded PGlite with its pgvector
 * extension (the test server has none), migrated (0009 creates the vectors table), behind the
 * Neon-protocol proxy; plus the deterministic OpenAI-compatible embeddings server and the same
 * JWKS server as the other workerd projects. The Worker gets the same bindings as there, and
 * TEST_EMBEDDINGS_URL.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../packages/cli/src/dev/embedded-postgres.ts";
import { startNeonProxy } from "../../packages/cli/src/dev/neon-http-proxy.ts";
import { loadMigrations, migrate } from "../../packages/cli/src/store/migrate.ts";
import { createWorkerRole } from "../helpers/backend.ts";
import { startFakeEmbeddings } from "../helpers/fake-embeddings.ts";
import { startJwksServer } from "./global-setup.ts";

declare module "vitest" {
  export interface ProvidedContext {
    embeddingsUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "llamon-workers-vector-"));
  const embedded = await startEmbeddedPostgres({ dataDir: dir });
  await migrate({ connectionString: embedded.dsn });
  const role = await createWorkerRole(embedded.dsn, "embedded");
  const proxy = await startNeonProxy({ upstreamDsn: embedded.dsn, poolSize: 1 });
  const embeddings = await startFakeEmbeddings();
  const jwks = await startJwksServer();
  project.provide("neonProxyUrl", proxy.url);
  project.provide("neonStyleDsn", role.neonDsn);
  project.provide("backendKind", "embedded");
  project.provide("testDsn", embedded.dsn);
  project.provide("migrationCount", (await loadMigrations()).length);
  project.provide("jwksUrl", jwks.url);
  project.provide("jwtPrivateJwk", jwks.privateJwk);
  project.provide("embeddingsUrl", embeddings.baseUrl);
  return async () => {
    await jwks.close();
    await embeddings.close();
    await proxy.close();
    await embedded.close();
    await rm(dir, { recursive: true, force: true });
  };
}
