/**
 * R11.2 through the Worker's A2A endpoint, for every backend (resend.test.ts: postgres;
 * backends/resend.test.ts: sqlite and in_memory): a `messageId` is answered once for the life
 * of the conversation. Each case runs on a Worker instance of its own agent id, with the
 * window (20) of wrangler.toml, or with trim on.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createWorker } from "../../src/worker/create-worker.ts";
import { referenceAgent } from "../../src/worker/reference-agent.ts";
import { firstLine, type SendResult, sendRaw } from "./a2a-helpers.ts";

const worker = createWorker(referenceAgent);

/** A Worker instance with its own agent id (and any other env overrides). */
export function agentWorker(vars: Record<string, string> = {}) {
  const agentId = `resend-${crypto.randomUUID().slice(0, 8)}`;
  const instanceEnv = { ...env, AGENT_ID: agentId, ...vars };
  const ctx = {
    waitUntil: () => {},
    passThroughOnException: () => {},
    props: {},
  } as unknown as ExecutionContext;
  const fetcher = {
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) =>
      worker.fetch?.(new Request(input, init) as never, instanceEnv, ctx)) as typeof fetch,
  };
  const send = (contextId: string, text: string, messageId: string): Promise<SendResult> =>
    sendRaw(
      JSON.stringify({
        jsonrpc: "2.0",
        id: messageId,
        method: "message/send",
        params: {
          message: { role: "user", contextId, messageId, parts: [{ kind: "text", text }] },
        },
      }),
      fetcher,
    );
  return { agentId, send };
}

export interface ResendOptions {
  /** Env overrides of every Worker instance of the cases. */
  readonly vars?: Record<string, string>;
  /** The database round trips so far (postgres: counted at the proxy). */
  readonly roundTrips?: () => Promise<number>;
}

/**
 * The cases, for a backend whose stored thread `stored(agentId, contextId)` counts: its
 * messages, and the copies of message `id` among them.
 */
export function resendCases(
  stored: (
    agentId: string,
    contextId: string,
    id: string,
  ) => Promise<{ messages: number; copies: number }>,
  options: ResendOptions = {},
): void {
  const counted = async <T>(call: () => Promise<T>) => {
    const before = (await options.roundTrips?.()) ?? 0;
    const result = await call();
    return { result, roundTrips: ((await options.roundTrips?.()) ?? 0) - before };
  };
  it("R11.2 message/send X, 25 more turns (window 20), X again: the same answer, no model call, nothing stored", async () => {
    const { agentId, send } = agentWorker(options.vars);
    const contextId = `resend-${crypto.randomUUID()}`;
    const first = await send(contextId, "the first question", "x");
    expect(first.body.error).toBeUndefined();
    for (let i = 1; i <= 25; i++) {
      const later = await send(contextId, `later question ${i}`, `m-${i}`);
      expect(later.body.error, `turn ${i}`).toBeUndefined();
    }
    expect(await stored(agentId, contextId, "x")).toEqual({ messages: 52, copies: 1 });
    const { result: resend, roundTrips } = await counted(() =>
      send(contextId, "the first question", "x"),
    );
    expect(resend.body.error).toBeUndefined();
    // Postgres: the turn's one read found the stored answer; a model call would have been
    // followed by a write (refused: the id is stored) and a second read.
    if (options.roundTrips !== undefined) expect(roundTrips).toBe(1);
    // The offline model would say received=… for the 53rd message; this is the first answer.
    expect(resend.replyText).toBe(first.replyText);
    expect(firstLine(resend.replyText)).toBe("offline-model: received=1 has_prior=false");
    expect(await stored(agentId, contextId, "x")).toEqual({ messages: 52, copies: 1 });
  });

  it("R11.2 R4.2 with trim on, a resend of a trimmed turn is a JSON-RPC error that says so (not retryable), and nothing is stored", async () => {
    const { agentId, send } = agentWorker({
      ...options.vars,
      MEMORY_PERSIST_TRIM_KEEP_GROUPS: "2",
    });
    const contextId = `resend-trim-${crypto.randomUUID()}`;
    await send(contextId, "the first question", "x");
    for (let i = 1; i <= 3; i++) await send(contextId, `later question ${i}`, `m-${i}`);
    const before = await stored(agentId, contextId, "x");
    expect(before.copies).toBe(0);
    const resend = await send(contextId, "the first question", "x");
    expect(resend.body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("already answered"),
      data: { reason: "MESSAGE_ALREADY_ANSWERED", retryable: false },
    });
    expect(await stored(agentId, contextId, "x")).toEqual(before);
  });
}
