/**
 * The management API's thread view shows where a flow stands (name, step, pending question,
 * answers), read from the checkpointed `flow` channel (postgres); other agents' views have
 * `flow: null`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlow } from "../../src/agent/flow.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { productDocumentBody, sendRaw } from "./a2a-helpers.ts";

const TOKEN = "test-admin-token-flow-view-91b2";

const flow = defineFlow({
  name: "trip flow",
  description: "for tests",
  steps: [
    { id: "city", ask: "Which city?", answer: z.string().min(2) },
    {
      id: "nights",
      ask: (a) => `How many nights in ${String(a.city)}?`,
      answer: z.coerce.number().int().min(1).max(30),
    },
  ],
  finish: ({ answers }) => `Booked ${answers.nights} nights in ${answers.city}.`,
});

const ctx = {
  waitUntil: () => {},
  passThroughOnException: () => {},
  props: {},
} as unknown as ExecutionContext;

function worker(agent: Parameters<typeof createWorker>[0], vars: Record<string, unknown>) {
  const instanceEnv = {
    ...env,
    AGENT_ID: `flowview-${crypto.randomUUID().slice(0, 8)}`,
    LLAMON_ADMIN_TOKEN: TOKEN,
    ...vars,
  };
  // Registered per request: the test isolate also loads the reference Worker's agent.
  const fetcher = ((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(
      createWorker(agent).fetch?.(new Request(input, init) as never, instanceEnv as never, ctx),
    )) as typeof fetch;
  return {
    fetch: fetcher,
    say: (contextId: string, text: string) =>
      sendRaw(productDocumentBody(contextId, text), { fetch: fetcher }),
    async view(contextId: string) {
      const res = await fetcher(`http://flow.local/api/v1/memory/threads/${contextId}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { flow: unknown }).flow;
    },
  };
}

describe("a flow's position in the thread view", () => {
  // postgres only: on the object backends the turn runs in the conversation's Durable Object,
  // which in this test pool serves the reference Worker's agent, not this flow.
  for (const backend of ["postgres"]) {
    it(`shows the step, its question and the answers so far, then finished (${backend})`, async () => {
      const w = worker(flow, { MEMORY_BACKEND: backend });
      const contextId = `trip-${crypto.randomUUID()}`;
      const first = await w.say(contextId, "hello");
      expect(first.replyText, JSON.stringify(first.body)).toBe("Which city?");
      expect(await w.view(contextId)).toEqual({
        name: "trip flow",
        step: "city",
        question: "Which city?",
        answers: {},
        status: "awaiting",
      });
      await w.say(contextId, "Busan");
      expect(await w.view(contextId)).toEqual({
        name: "trip flow",
        step: "nights",
        question: "How many nights in Busan?",
        answers: { city: "Busan" },
        status: "awaiting",
      });
      await w.say(contextId, "3");
      expect(await w.view(contextId)).toMatchObject({
        step: null,
        question: null,
        answers: { city: "Busan", nights: 3 },
        status: "finished",
      });
    });
  }

  it("an agent that is not a flow shows flow: null", async () => {
    const w = worker(referenceAgent, {});
    const contextId = `plain-${crypto.randomUUID()}`;
    await w.say(contextId, "hi");
    expect(await w.view(contextId)).toBeNull();
  });
});
