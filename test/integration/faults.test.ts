/**
 * Fault injection at every database step of a turn: the A2A JSON-RPC app in
 * Node → runTurn + NeonSaver → Neon driver → fault proxy (packages/cli/src/dev/fault-proxy.ts) → the local
 * Neon-protocol proxy → Postgres. For each fault × step:
 *
 * - the client gets a clear JSON-RPC error (-32603, "conversation memory is temporarily
 *   unavailable; retry later"), never a stack trace;
 * - the stored thread is either exactly as before (the fault hit before anything committed)
 *   or holds the whole turn (the write committed and only the answer was lost) — never a part;
 * - a retry of the same message (same messageId) succeeds and the thread then holds that
 *   user message and one reply, each exactly once (idempotency by messageId).
 *
 * Timeouts: createNeonDb's deadline (`timeoutMs`, MEMORY_DB_TIMEOUT_MS in the Worker) ends a
 * held request with DB_UNAVAILABLE.
 *
 * Idempotency by messageId also holds when an attempt commits late (after the client gave up
 * and retried) and when a resend under the same messageId carries another text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FaultKind,
  type FaultProxy,
  startFaultProxy,
} from "../../packages/cli/src/dev/fault-proxy.ts";
import { createA2AApp, InMemoryKv, KvTaskStore } from "../../src/a2a/index.ts";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { createNeonDb } from "../../src/store/db-neon.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { type A2aReply, sendA2aMessage } from "../helpers/a2a-send.ts";
import { atHost, startTestBackend, type TestBackend } from "../helpers/backend.ts";

const AGENT_ID = "fault-agent";
/**
 * The driver's deadline per request through the fault proxy (a held request fails after this).
 * Generous, so a slow CI machine never trips it on a healthy request.
 */
const FETCH_TIMEOUT_MS = 3000;
/** Its own host name, so the driver routes it to the fault proxy (endpoints are per host). */
const faultyDsn = () => atHost(backend.neonDsn, "faulty.localhost");

let backend: TestBackend;
let faults: FaultProxy;

beforeAll(async () => {
  backend = await startTestBackend();
  faults = await startFaultProxy({ target: backend.proxy.url, holdMs: 20_000 });
});
afterAll(async () => {
  await faults?.close();
  await backend?.close();
});

const agent = defineAgent({
  name: "Fault agent",
  description: "for fault tests",
  system: "You are a helpful agent.",
});
const config = resolveMemoryConfig({ code: {} }).config;

/** The JSON-RPC app the Worker serves, with turns on the postgres backend through the faults. */
function makeApp() {
  const log = createMemoryLogger();
  const model = new OfflineChatModel();
  const app = createA2AApp({
    card: { name: agent.name, description: agent.description, version: "0.0.0" },
    taskStore: new KvTaskStore({ kv: new InMemoryKv(), agentId: AGENT_ID }),
    log,
    execute: async (input) => {
      const saver = new NeonSaver({
        db: createNeonDb({
          connectionString: faultyDsn(),
          fetchEndpoint: faults.url,
          timeoutMs: FETCH_TIMEOUT_MS,
        }),
        agentId: AGENT_ID,
        guardHead: true,
      });
      const result = await runTurn(
        { agent, config, model, checkpointer: saver, log },
        { threadId: input.contextId, text: input.text, messageId: input.messageId },
      );
      return { reply: result.reply };
    },
  });
  return { app, model, log };
}

type Reply = A2aReply;

function send(
  app: ReturnType<typeof makeApp>["app"],
  contextId: string,
  messageId: string,
  text: string,
): Promise<Reply> {
  return sendA2aMessage(app, contextId, messageId, text);
}

interface StoredMessage {
  id: string | undefined;
  type: string;
  content: unknown;
}

/** The stored thread, read straight from Postgres (node-postgres: no fault on this path). */
async function stored(threadId: string): Promise<StoredMessage[]> {
  const saver = new NeonSaver({ db: backend.pg, agentId: AGENT_ID });
  const { messages } = await readThreadMessages(saver, { configurable: { thread_id: threadId } });
  return messages.map((m) => ({ id: m.id, type: m.getType(), content: m.content }));
}

/** A conversation with two finished turns, so "before" is not empty. */
async function conversation(app: ReturnType<typeof makeApp>["app"], name: string) {
  const contextId = `${name}-${crypto.randomUUID()}`;
  for (const [i, text] of ["my name is Mina", "I live in Busan"].entries()) {
    const ok = await send(app, contextId, `${contextId}-m${i}`, text);
    expect(ok.body.error, ok.text).toBeUndefined();
  }
  const before = await stored(contextId);
  expect(before.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
  return { contextId, before };
}

function expectClearError(reply: Reply): void {
  expect(reply.status).toBe(200);
  expect(reply.body.result).toBeUndefined();
  expect(reply.body.error?.code).toBe(-32603);
  expect(reply.body.error?.message).toBe(
    "conversation memory is temporarily unavailable; retry later",
  );
  expect(reply.text).not.toMatch(/\bat .+\.(ts|js|mjs):\d+/);
  expect(reply.text).not.toContain("127.0.0.1");
}

/** Faults after which the write may have committed (the client cannot know). */
const AFTER_COMMIT: readonly FaultKind[] = ["drop-after-commit", "timeout-after-commit"];
const CASES: { step: "read" | "write"; kind: FaultKind }[] = [];
for (const step of ["read", "write"] as const) {
  for (const kind of [
    "refuse",
    "http500",
    "timeout",
    "drop-after-commit",
    "timeout-after-commit",
  ] as const) {
    CASES.push({ step, kind });
  }
}

describe("faults at each database step of a turn", () => {
  for (const { step, kind } of CASES) {
    const committed = step === "write" && AFTER_COMMIT.includes(kind);
    const title = committed
      ? `${kind} at the ${step} step: the turn is stored whole though the client got an error; the retry (same messageId) adds nothing`
      : `${kind} at the ${step} step: a clear JSON-RPC error, the thread exactly as before; the retry (same messageId) stores the turn once`;
    it(title, async () => {
      const { app, model } = makeApp();
      const { contextId, before } = await conversation(app, `${kind}-${step}`);
      const messageId = `${contextId}-retry`;
      faults.clear();
      const logStart = faults.log.length;
      faults.inject({ step, kind });
      const failed = await send(app, contextId, messageId, "what is my name?");
      expectClearError(failed);
      await faults.restore();
      faults.clear();

      const seen = faults.log.slice(logStart);
      if (kind !== "refuse")
        expect(seen.some((e) => e.fault === kind && e.step === step)).toBe(true);
      const afterFault = await stored(contextId);
      if (committed) {
        // The write reached Postgres and committed: the whole turn, nothing less.
        expect(seen.find((e) => e.fault === kind)?.upstreamStatus).toBe(200);
        expect(afterFault.slice(0, 4)).toEqual(before);
        expect(afterFault.map((m) => m.type)).toEqual([
          ...before.map((m) => m.type),
          "human",
          "ai",
        ]);
        expect(afterFault[4]?.id).toBe(messageId);
      } else {
        expect(afterFault).toEqual(before);
      }

      const callsBefore = model.calls.length;
      const retryLogStart = faults.log.length;
      const retried = await send(app, contextId, messageId, "what is my name?");
      expect(retried.body.error, retried.text).toBeUndefined();
      const reply = (retried.body.result?.status?.message?.parts ?? []).map((p) => p.text).join("");
      expect(reply).toContain("previous user message: I live in Busan");
      const after = await stored(contextId);
      expect(after.slice(0, 4)).toEqual(before);
      expect(after.filter((m) => m.id === messageId)).toHaveLength(1);
      expect(after.map((m) => m.type)).toEqual([...before.map((m) => m.type), "human", "ai"]);
      if (committed) {
        // The stored reply is the answer: the model is not asked again.
        expect(model.calls.length).toBe(callsBefore);
        expect(after).toEqual(afterFault);
        // The replay reads the thread and writes nothing.
        expect(faults.log.slice(retryLogStart).map((e) => e.step)).toEqual(["read"]);
      }
    });
  }

  // The retry's write loses the head to the late commit (THREAD_CONFLICT); before merging its
  // messages (R2.4) the turn reads the new head, finds this messageId answered there, and
  // returns that answer instead of storing a second reply.
  it("late-commit: the lost write commits while the retry runs (after its read); the thread still holds the turn once", async () => {
    const { app } = makeApp();
    faults.clear();
    const { contextId, before } = await conversation(app, "late");
    const messageId = `${contextId}-late`;
    const logStart = faults.log.length;
    faults.inject({ step: "write", kind: "late-commit" });
    expectClearError(await send(app, contextId, messageId, "what is my name?"));
    const retried = await send(app, contextId, messageId, "what is my name?");
    expect(retried.body.error, retried.text).toBeUndefined();
    // The late write did commit, after the retry had read the thread.
    expect(faults.log.slice(logStart).find((e) => e.fault === "late-commit")?.upstreamStatus).toBe(
      200,
    );
    const after = await stored(contextId);
    expect(after.slice(0, 4)).toEqual(before);
    expect(after.filter((m) => m.id === messageId)).toHaveLength(1);
    expect(after.map((m) => m.type)).toEqual([...before.map((m) => m.type), "human", "ai"]);
  });

  // The incoming message reaches the graph in its own channel and `prepare` adds it only when
  // its messageId is not stored yet, so a resend can never rewrite a stored message (through
  // the id-merging reducer) and make its stored answer answer a text that was never asked.
  it("a resend with the same messageId but another text keeps the stored message as it was", async () => {
    const { app } = makeApp();
    faults.clear();
    const { contextId, before } = await conversation(app, "resend");
    const messageId = `${contextId}-m0`;
    const again = await send(app, contextId, messageId, "a different text under the same id");
    expect(again.body.error, again.text).toBeUndefined();
    expect(await stored(contextId)).toEqual(before);
  });

  it("with no fault armed the fault proxy only relays: 2 requests per turn, all answered", async () => {
    const { app } = makeApp();
    faults.clear();
    const start = faults.log.length;
    const contextId = `relay-${crypto.randomUUID()}`;
    const ok = await send(app, contextId, `${contextId}-1`, "hello");
    expect(ok.body.error, ok.text).toBeUndefined();
    expect(faults.log.slice(start)).toEqual([
      { step: "read", fault: null, upstreamStatus: 200 },
      { step: "write", fault: null, upstreamStatus: 200 },
    ]);
  });
});
