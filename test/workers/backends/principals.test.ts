/**
 * Conversations owned by the caller on the Durable Object backends (this file runs
 * in `workers-sqlite` and `workers-in-memory`; see ../principal-cases.ts).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, it } from "vitest";
import type { ThreadDO } from "../../../src/durable/thread-do.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import { adminAddressesOnePrincipal, twoPrincipalsShareNothing } from "../principal-cases.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;

describe(`two principals, one contextId (${backend})`, () => {
  it("no cross-read of history, facts, summary or tasks; each principal's conversation has its own object", async () => {
    await twoPrincipalsShareNothing({
      plantSummary: (threadId, text) =>
        runInDurableObject(
          env.THREADS.getByName(threadObjectName(env.AGENT_ID, threadId)),
          async (object: ThreadDO) => {
            if (object.memory === undefined) throw new Error("this object keeps no memory");
            await object.memory.set(threadId, "summary", text);
          },
        ),
    });
  });

  it("the management API shows, filters and erases by principal; erase acts within one (agent, principal)", async () => {
    await adminAddressesOnePrincipal();
  });
});
