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
/** The proxy counts requests per application_name of the connection string: this file's Worker has its own. */
const USER = `resend-${crypto.randomUUID().slice(0, 8)}`;
const STATS_URL = env.LLAMON_NEON_FETCH_ENDPOINT.replace(/\/sql$/, "/stats");

async function roundTrips(): Promise<number> {
  const stats = (await (await fetch(STATS_URL)).json()) as {
    by_application: Record<string, { requests: number }>;
  };
  return stats.by_application[USER]?.requests ?? 0;
}

describe("R11.2 exactly once per messageId through A2A (postgres)", () => {
  resendCases(
    async (agentId, contextId, id) => {
      const saver = new NeonSaver({ db, agentId });
      const { messages } = await readThreadMessages(saver, {
        configurable: { thread_id: contextId },
      });
      return { messages: messages.length, copies: messages.filter((m) => m.id === id).length };
    },
    {
      vars: { POSTGRES_MEMORY_DSN: `${env.POSTGRES_MEMORY_DSN}?application_name=${USER}` },
      roundTrips,
    },
  );
});
