import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NeonProxy, startNeonProxy } from "../../packages/cli/src/dev/neon-http-proxy.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { atHost, startTestBackend, type TestBackend } from "../helpers/backend.ts";

let backend: TestBackend;
let second: NeonProxy;

beforeAll(async () => {
  backend = await startTestBackend({ migrate: false });
  second = await startNeonProxy({ upstreamDsn: backend.dsn, poolSize: 1 });
});

afterAll(async () => {
  await second.close();
  await backend.close();
});

describe("Neon fetch endpoints are chosen per database host", () => {
  it("sends each database's queries to its own endpoint, even though the driver setting is global", async () => {
    const a = createNeonDb({
      connectionString: atHost(backend.neonDsn, "alpha.local"),
      fetchEndpoint: backend.proxy.url,
    });
    const b = createNeonDb({
      connectionString: atHost(backend.neonDsn, "beta.local"),
      fetchEndpoint: second.url,
    });
    backend.proxy.resetStats();
    second.resetStats();
    await a.query("SELECT 1");
    await b.query("SELECT 1");
    await a.query("SELECT 1");
    expect(backend.proxy.stats.requests).toBe(2);
    expect(second.stats.requests).toBe(1);
  });

  it("rejects a DSN that is not a URL with a clear CONFIG_INVALID", () => {
    expect(() =>
      createNeonDb({ connectionString: "not a url", fetchEndpoint: second.url }),
    ).toThrow(/not a valid postgresql:\/\/ URL/);
  });
});
