/** Shared fixtures of the A2A tests: an app over a fake turn that records its inputs. */
import type { Hono } from "hono";
import {
  type A2AAppOptions,
  type A2ATurnInput,
  type A2ATurnOutput,
  createA2AApp,
  InMemoryKv,
  type KvBackend,
  KvTaskStore,
} from "../../../src/a2a/index.ts";
import { createMemoryLogger } from "../../../src/log.ts";

export const AGENT_ID = "test-agent";
export const BASE_URL = "https://agent.example";

export interface FakeTurns {
  readonly inputs: A2ATurnInput[];
  execute(input: A2ATurnInput, signal?: AbortSignal): Promise<A2ATurnOutput>;
}

/** A turn that answers `reply #n to "<text>"` and remembers every input. */
export function fakeTurns(
  impl?: (input: A2ATurnInput, n: number) => A2ATurnOutput | Promise<A2ATurnOutput>,
): FakeTurns {
  const inputs: A2ATurnInput[] = [];
  return {
    inputs,
    async execute(input) {
      inputs.push(input);
      if (impl !== undefined) return impl(input, inputs.length);
      return { reply: `reply #${inputs.length} to "${input.text}"` };
    },
  };
}

export interface TestApp {
  app: Hono;
  turns: FakeTurns;
  kv: KvBackend;
  /** `fetch` bound to the app, usable as an SDK client's fetchImpl. */
  fetch: typeof fetch;
  logs: ReturnType<typeof createMemoryLogger>;
}

export function makeApp(
  overrides: Partial<A2AAppOptions> & { kv?: KvBackend; turns?: FakeTurns; agentId?: string } = {},
): TestApp {
  const turns = overrides.turns ?? fakeTurns();
  const kv = overrides.kv ?? new InMemoryKv();
  const logs = createMemoryLogger();
  const app = createA2AApp({
    card: { name: "Test agent", description: "Remembers the conversation", version: "1.2.3" },
    execute: (input, signal) => turns.execute(input, signal),
    taskStore: new KvTaskStore({ kv, agentId: overrides.agentId ?? AGENT_ID }),
    log: logs,
    ...overrides,
  });
  const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) =>
    app.fetch(new Request(input, init))) as typeof fetch;
  return { app, turns, kv, fetch: fetchImpl, logs };
}

export function post(app: Hono, body: string | object, headers: Record<string, string> = {}) {
  return app.fetch(
    new Request(`${BASE_URL}/`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

export interface RpcReply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown> & { [k: string]: unknown };
  error?: { code: number; message: string; data?: unknown };
}

export async function rpc(
  app: Hono,
  body: string | object,
  headers?: Record<string, string>,
): Promise<{ status: number; body: RpcReply; text: string }> {
  const res = await post(app, body, headers);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as RpcReply, text };
}

/** Reads an SSE response into its `data:` payloads (JSON-parsed) and event types. */
export async function readSse(res: Response): Promise<{ type: string; data: RpcReply }[]> {
  const text = await res.text();
  const events: { type: string; data: RpcReply }[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    let type = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) type = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    // A comment-only block (`: keep-alive`) carries no event.
    if (data.length === 0) continue;
    events.push({ type, data: JSON.parse(data.join("\n")) as RpcReply });
  }
  return events;
}

/** The product document's request, byte for byte. */
export const PRODUCT_DOC_BODY =
  '{"jsonrpc":"2.0","method":"message/send","params":{"message":{"contextId":"user-alice-session","role":"user","parts":[{"kind":"text","text":"이전에 뭐 얘기했지?"}]}}}';
