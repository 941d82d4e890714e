/**
 * R11.2 through the Worker's A2A endpoint on the postgres backend (resend-cases.ts).
 */
import { env } from "cloudflare:test";
import { describe } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { resendCases } from "./resend-cases.ts";

const db = createNeonDb({
  connectionString: env.POSTGRES_MEMORY_DSN,
  fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
});

describe("R11.2 exactly once per messageId through A2A (postgres)", () => {
  resendCases(async (agentId, contextId, id) => {
    const saver = new NeonSaver({ db, agentId });
    const { messages } = await readThreadMessages(saver, {
      configurable: { thread_id: contextId },
    });
    return { messages: messages.length, copies: messages.filter((m) => m.id === id).length };
  });
});
