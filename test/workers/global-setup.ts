/**
 * Starts the database behind workerd tests (real server or embedded PGlite, migrated) and
 * the Neon-protocol proxy; the Worker under test gets the proxy URL as a binding. Also a
 * tiny JWKS server (one RS256 key made here): the Worker verifies JWTs against it, and the
 * tests sign with the private key they are given. And a fake streaming chat model server
 * (TEST_FAKE_LLM_URL) for the streaming tests.
 */
import { createServer } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import type { TestProject } from "vitest/node";
import { loadMigrations } from "../../packages/cli/src/store/migrate.ts";
import { startTestBackend } from "../helpers/backend.ts";
import { startFakeLlm } from "../helpers/fake-llm.ts";

declare module "vitest" {
  export interface ProvidedContext {
    neonProxyUrl: string;
    neonStyleDsn: string;
    backendKind: string;
    testDsn: string;
    migrationCount: number;
    jwksUrl: string;
    jwtPrivateJwk: string;
    fakeLlmUrl: string;
  }
}

/** Serves one public key as a JWKS at /jwks.json on 127.0.0.1. */
export async function startJwksServer() {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = "test-key-1";
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }],
  });
  const server = createServer((req, res) => {
    if (req.url !== "/jwks.json") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(jwks);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    privateJwk: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: "RS256" }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const backend = await startTestBackend();
  project.provide("neonProxyUrl", backend.proxy.url);
  project.provide("neonStyleDsn", backend.neonDsn);
  project.provide("backendKind", backend.kind);
  project.provide("testDsn", backend.dsn);
  project.provide("migrationCount", (await loadMigrations()).length);
  const jwks = await startJwksServer();
  project.provide("jwksUrl", jwks.url);
  project.provide("jwtPrivateJwk", jwks.privateJwk);
  // The streaming tests' model (test/helpers/fake-llm.ts).
  const llm = await startFakeLlm();
  project.provide("fakeLlmUrl", llm.url);
  return async () => {
    await llm.close();
    await jwks.close();
    await backend.close();
  };
}
