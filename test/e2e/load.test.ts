/**
 * Load, sized for CI: 20 concurrent conversations × 10 turns against the
 * reference agent started as users start it (`llamon run .`: wrangler dev, postgres backend on
 * a fresh database of the local server — or the embedded PGlite when no server is reachable —
 * offline model). The full size (50 × 20) is `npx tsx bench/load.ts`.
 *
 * Asserted: every turn answered, and every message of every conversation stored exactly once,
 * in order. Printed, never asserted: throughput and p50/p95/p99 turn latency.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAgent, startReferenceAgent } from "../../bench/lib/agent-process.ts";
import { formatSummary, runLoad, summarize, verifyStored } from "../../bench/lib/load.ts";

const CONVERSATIONS = 20;
const TURNS = 10;

let agent: RunningAgent;
beforeAll(async () => {
  agent = await startReferenceAgent();
}, 240_000);
afterAll(async () => {
  await agent?.stop();
}, 60_000);

describe(`load: ${CONVERSATIONS} concurrent conversations × ${TURNS} turns on llamon run .`, () => {
  it("R2.1 every turn is answered and every message of every conversation is stored exactly once", async () => {
    const result = await runLoad({ url: agent.url, conversations: CONVERSATIONS, turns: TURNS });
    console.info(
      `${formatSummary(summarize(result), `${CONVERSATIONS} × ${TURNS}`)}\n  database: ${agent.database}`,
    );
    expect(result.errors).toEqual([]);
    expect(await verifyStored(agent, "llamon-reference", result.conversations)).toEqual([]);
  }, 300_000);
});
