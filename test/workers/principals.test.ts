/** Conversations owned by the caller, postgres backend (see principal-cases.ts). */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { apiKeys, bearer, instance, send } from "./auth-helpers.ts";
import { adminAddressesOnePrincipal, twoPrincipalsShareNothing } from "./principal-cases.ts";

describe("two principals, one contextId (postgres)", () => {
  it("no cross-read of history, facts, summary or tasks; the offline model's received= proves what it was sent", async () => {
    const db = createNeonDb({
      connectionString: env.POSTGRES_MEMORY_DSN,
      fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
    });
    await twoPrincipalsShareNothing({
      plantSummary: (threadId, text) =>
        createPostgresMemory(db, env.AGENT_ID).set(threadId, "summary", text),
    });
  });

  it("R11.3: memory off — nothing to share, and no task is kept, for its creator either", async () => {
    const worker = instance({
      MEMORY_BACKEND: "off",
      A2A_AUTH: "api_key",
      A2A_API_KEYS: await apiKeys({ alice: "alice-off-key", bob: "bob-off-key" }),
    });
    const contextId = `off-${crypto.randomUUID()}`;
    const a = await worker.rpc(send(contextId, "remember me"), bearer("alice-off-key"));
    const b = await worker.rpc(send(contextId, "remember me"), bearer("bob-off-key"));
    for (const r of [a, b]) expect(r.firstLine).toBe("offline-model: received=1 has_prior=false");
    const task = (a.body.result as { id: string }).id;
    const get = (key: string) =>
      worker.rpc({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: task } }, bearer(key));
    for (const key of ["bob-off-key", "alice-off-key"]) {
      expect(((await get(key)).body.error as { code: number }).code, key).toBe(-32001);
    }
  });

  it("the management API shows, filters and erases by principal; erase acts within one (agent, principal)", async () => {
    await adminAddressesOnePrincipal();
  });
});
