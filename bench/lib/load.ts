/**
 * Load on a running agent: N conversations at once, each M turns one after the other (a user
 * waits for the answer before the next message), over A2A JSON-RPC `message/send` with a
 * messageId per message. Then every conversation is read back from the agent's database and
 * checked: each user message and one reply per turn, in order, each stored exactly once.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { percentile } from "./measure.ts";

export interface LoadOptions {
  /** The agent's base URL, e.g. http://127.0.0.1:8787 */
  readonly url: string;
  readonly conversations: number;
  readonly turns: number;
}

export interface Conversation {
  readonly contextId: string;
  readonly messageIds: string[];
  readonly texts: string[];
}

export interface TurnError {
  readonly contextId: string;
  readonly turn: number;
  readonly message: string;
}

export interface LoadResult {
  readonly conversations: Conversation[];
  readonly latenciesMs: number[];
  readonly errors: TurnError[];
  readonly seconds: number;
}

export interface LoadSummary {
  turns: number;
  failed: number;
  seconds: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const run = crypto.randomUUID().slice(0, 8);
  const conversations: Conversation[] = Array.from({ length: options.conversations }, (_, c) => ({
    contextId: `load-${run}-${c}`,
    messageIds: [],
    texts: [],
  }));
  const latenciesMs: number[] = [];
  const errors: TurnError[] = [];
  const started = performance.now();
  await Promise.all(
    conversations.map(async (conv, c) => {
      for (let t = 1; t <= options.turns; t++) {
        const messageId = crypto.randomUUID();
        const text = `conversation ${c} turn ${t}: my lucky number is ${c * 1000 + t}`;
        conv.messageIds.push(messageId);
        conv.texts.push(text);
        const t0 = performance.now();
        try {
          const res = await fetch(`${options.url}/`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: t,
              method: "message/send",
              params: {
                message: {
                  contextId: conv.contextId,
                  messageId,
                  role: "user",
                  parts: [{ kind: "text", text }],
                },
              },
            }),
          });
          const raw = await res.text();
          let body: { result?: { status?: { state?: string } }; error?: { message?: string } };
          try {
            body = JSON.parse(raw);
          } catch {
            // Not JSON: say what came back (e.g. wrangler dev restarting the Worker).
            throw new Error(`HTTP ${res.status}, not JSON: ${raw.slice(0, 160)}`);
          }
          if (res.status !== 200 || body.result?.status?.state !== "completed") {
            throw new Error(`HTTP ${res.status}: ${body.error?.message ?? JSON.stringify(body)}`);
          }
          latenciesMs.push(performance.now() - t0);
        } catch (error) {
          errors.push({
            contextId: conv.contextId,
            turn: t,
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }),
  );
  return { conversations, latenciesMs, errors, seconds: (performance.now() - started) / 1000 };
}

export function summarize(result: LoadResult): LoadSummary {
  const l = result.latenciesMs;
  return {
    turns: l.length + result.errors.length,
    failed: result.errors.length,
    seconds: result.seconds,
    throughput: l.length / result.seconds,
    p50: percentile(l, 50),
    p95: percentile(l, 95),
    p99: percentile(l, 99),
    max: Math.max(...l),
  };
}

/**
 * Reads every conversation back through the agent's own Neon-protocol proxy and lists what is
 * wrong: a missing, duplicated or out-of-order user message, a turn without exactly one reply.
 */
export async function verifyStored(
  agent: { readonly proxyUrl: string; readonly neonDsn: string },
  agentId: string,
  conversations: readonly Conversation[],
): Promise<string[]> {
  // Its own host name: the driver picks the endpoint per host.
  const url = new URL(agent.neonDsn);
  url.hostname = "loadcheck.localhost";
  const db = createNeonDb({ connectionString: url.toString(), fetchEndpoint: agent.proxyUrl });
  const saver = new NeonSaver({ db, agentId });
  const problems: string[] = [];
  for (const conv of conversations) {
    const { messages } = await readThreadMessages(saver, {
      configurable: { thread_id: conv.contextId },
    });
    const where = conv.contextId;
    if (messages.length !== conv.messageIds.length * 2) {
      problems.push(
        `${where}: ${messages.length} messages stored, expected ${conv.messageIds.length * 2}`,
      );
    }
    const ids = messages.map((m) => m.id);
    if (new Set(ids).size !== ids.length) problems.push(`${where}: a message id is stored twice`);
    for (const [t, id] of conv.messageIds.entries()) {
      const at = ids.indexOf(id);
      if (at < 0) {
        problems.push(`${where}: user message of turn ${t + 1} is missing`);
        continue;
      }
      if (at !== t * 2) problems.push(`${where}: turn ${t + 1} is at position ${at}, not ${t * 2}`);
      const m = messages[at] as BaseMessage;
      if (m.getType() !== "human" || m.content !== conv.texts[t]) {
        problems.push(`${where}: turn ${t + 1} is not the text that was sent`);
      }
      if (messages[at + 1]?.getType() !== "ai") {
        problems.push(`${where}: turn ${t + 1} has no reply after it`);
      }
    }
  }
  return problems;
}

export function formatSummary(s: LoadSummary, shape: string): string {
  return [
    `load ${shape}: ${s.turns} turns in ${s.seconds.toFixed(1)} s, ${s.failed} failed`,
    `  throughput ${s.throughput.toFixed(1)} turns/s`,
    `  latency p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`,
  ].join("\n");
}
