/**
 * Each turn sees the turns committed before it, under contention, through the Worker
 * (postgres backend, offline model): 30 parallel `message/send` on one contextId, spread
 * over three Worker instances (each with its own per-isolate state, as three isolates of one
 * deployment). The offline model's reply names how many messages it was sent and the
 * previous user message it saw, so the replies must form one chain: histories of 1, 3, …, 59
 * messages, each turn's "previous user message" being the turn just before it, and the
 * stored thread 60 messages with no loss and no duplicate.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { productDocumentBody, sendRaw } from "./a2a-helpers.ts";

const TURNS = 30;
const AGENT = `contention-${crypto.randomUUID().slice(0, 8)}`;

function instance(): { fetch: typeof fetch } {
  const worker = createWorker(referenceAgent);
  // The whole thread fits the window, so a reply's count is the history it saw.
  const instanceEnv = { ...env, AGENT_ID: AGENT, MEMORY_WINDOW_SIZE: "100" };
  const ctx = {
    waitUntil: () => {},
    passThroughOnException: () => {},
    props: {},
  } as unknown as ExecutionContext;
  return {
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      Promise.resolve(
        worker.fetch?.(new Request(input, init) as never, instanceEnv as never, ctx) as Response,
      )) as typeof fetch,
  };
}

function parse(reply: string): { received: number; previous: string } {
  const received = Number(/received=(\d+)/.exec(reply)?.[1] ?? Number.NaN);
  const previous = /previous user message: (.*)/.exec(reply)?.[1] ?? "";
  return { received, previous };
}

describe("contention through the Worker", () => {
  it(`${TURNS} parallel sends on one contextId: every turn saw exactly the turns committed before it`, async () => {
    const workers = [instance(), instance(), instance()];
    const contextId = `contended-${crypto.randomUUID()}`;
    const text = (i: number) => `parallel message ${i}`;
    const results = await Promise.all(
      Array.from({ length: TURNS }, (_, i) =>
        sendRaw(productDocumentBody(contextId, text(i)), workers[i % workers.length]),
      ),
    );
    const turns = results.map((r, i) => {
      expect(r.status).toBe(200);
      return { text: text(i), ...parse(r.replyText) };
    });
    // Every history length from 1 to 59 exactly once: no turn read a stale (shorter) thread.
    const lengths = turns.map((t) => t.received).sort((a, b) => a - b);
    expect(lengths).toEqual(Array.from({ length: TURNS }, (_, i) => 2 * i + 1));
    // And each saw the one just before it as its previous user message.
    const ordered = [...turns].sort((a, b) => a.received - b.received);
    for (let i = 1; i < ordered.length; i++) {
      expect(ordered[i]?.previous, `turn with ${ordered[i]?.received} messages`).toBe(
        ordered[i - 1]?.text,
      );
    }
    const saver = new NeonSaver({
      db: createNeonDb({
        connectionString: env.POSTGRES_MEMORY_DSN,
        fetchEndpoint: env.LLAMON_NEON_FETCH_ENDPOINT,
      }),
      agentId: AGENT,
    });
    const { messages } = await readThreadMessages(saver, {
      configurable: { thread_id: contextId },
    });
    expect(messages).toHaveLength(2 * TURNS);
    expect(new Set(messages.map((m) => m.id)).size).toBe(2 * TURNS);
    const users = messages.filter((m) => m.getType() === "human").map((m) => String(m.content));
    expect(users).toEqual(ordered.map((t) => t.text));
  }, 120_000);
});
