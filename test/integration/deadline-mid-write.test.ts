/**
 * The driver's deadline (createNeonDb `timeoutMs`, MEMORY_DB_TIMEOUT_MS in the
 * Worker) fires while the turn's write batch is running at the database.
 *
 * On Neon the client cannot know the outcome:
 * - the deadline aborts the HTTP request while a statement runs → Neon cancels the statement
 *   and never commits (neondatabase/neon proxy/src/serverless/sql_over_http.rs ~800–808);
 * - the batch's last statement had ended → Neon commits and the answer is lost
 *   (faults.test.ts, `timeout-after-commit`).
 * The local Neon does the first as Neon does (it cancels the running statement at the
 * deadline), so this test meets the case where nothing was committed.
 * Either way the A2A client gets the same clear, retryable error, and the retry under the same
 * messageId is safe: the head compare-and-set refuses a write on a moved head, and the
 * messageId rule answers a turn that did commit from storage instead of running it again.
 *
 * The write is held at the database with a table lock taken while the model answers, so the
 * deadline fires inside the batch's first statement. Runs on the server and on PGlite (there
 * the lock holder's transaction keeps PGlite's one session until it ends).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { NEON_STYLE_DSN, startTestBackend, type TestBackend } from "../helpers/backend.ts";
import { GatedModel } from "../helpers/gated-model.ts";

const AGENT_ID = "deadline-agent";
/** Long enough for a healthy read on a busy machine; the held write always outlasts it. */
const TIMEOUT_MS = 2000;

let backend: TestBackend;
let model: OfflineChatModel = new OfflineChatModel();

beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend?.close();
});

const agent = defineAgent({
  name: "Deadline agent",
  description: "for the deadline test",
  system: "You are a helpful agent.",
});
const config = resolveMemoryConfig({ code: {} }).config;

function makeApp() {
  const log = createMemoryLogger();
  return createA2AApp({
    card: { name: agent.name, description: agent.description, version: "0.0.0" },
    taskStore: new KvTaskStore({ kv: new InMemoryKv(), agentId: AGENT_ID }),
    log,
    execute: async (input) => {
      const saver = new NeonSaver({
        db: createNeonDb({
          connectionString: NEON_STYLE_DSN,
          fetchEndpoint: backend.proxy.url,
          timeoutMs: TIMEOUT_MS,
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
}

type Reply = A2aReply;

function send(
  app: ReturnType<typeof makeApp>,
  contextId: string,
  messageId: string,
  text: string,
): Promise<Reply> {
  return sendA2aMessage(app, contextId, messageId, text);
}

async function stored(threadId: string) {
  const saver = new NeonSaver({ db: backend.pg, agentId: AGENT_ID });
  const { messages } = await readThreadMessages(saver, { configurable: { thread_id: threadId } });
  return messages.map((m) => ({ id: m.id, type: m.getType() }));
}

async function idRows(messageId: string): Promise<number> {
  const r = await backend.pg.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM llamon_message_ids WHERE agent_id = $1 AND message_id = $2",
    [AGENT_ID, messageId],
  );
  return r.rows[0]?.n ?? -1;
}

describe("the driver deadline fires during the turn's write batch", () => {
  it("R2.4 R11.2 the write never commits, the client gets a retryable DB_UNAVAILABLE (-32603), the retry with the same messageId stores the turn once", async () => {
    const app = makeApp();
    const contextId = `deadline-${crypto.randomUUID()}`;
    model = new OfflineChatModel();
    expect(
      (await send(app, contextId, `${contextId}-m0`, "my name is Mina")).body.error,
    ).toBeUndefined();
    const before = await stored(contextId);
    expect(before.map((m) => m.type)).toEqual(["human", "ai"]);

    // The attempt: its read runs; while the model answers, the write's table is locked.
    const gated = new GatedModel();
    model = gated;
    const messageId = `${contextId}-m1`;
    const requestsBefore = backend.proxy.stats.requests;
    const attempt = send(app, contextId, messageId, "what is my name?");
    await gated.reached;
    const holder = new pg.Client({ connectionString: backend.dsn });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("LOCK TABLE llamon_threads IN ACCESS EXCLUSIVE MODE");
    gated.release();
    const failed = await attempt;
    expect(failed.body.result).toBeUndefined();
    expect(failed.body.error).toMatchObject({
      code: -32603,
      message: "conversation memory is temporarily unavailable; retry later",
      data: { reason: "DB_UNAVAILABLE", retryable: true },
    });
    await holder.query("ROLLBACK");
    await holder.end();
    // The proxy has finished the abandoned write (the read and the write are both counted).
    for (let i = 0; i < 400 && backend.proxy.stats.requests < requestsBefore + 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(backend.proxy.stats.requests).toBeGreaterThanOrEqual(requestsBefore + 2);
    // Nothing of the attempt was committed: the thread and the message ids are as before.
    expect(await stored(contextId)).toEqual(before);
    expect(await idRows(messageId)).toBe(0);

    // The retry under the same messageId runs the turn and stores it once.
    model = new OfflineChatModel();
    const retried = await send(app, contextId, messageId, "what is my name?");
    expect(retried.body.error, retried.text).toBeUndefined();
    const after = await stored(contextId);
    expect(after.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
    expect(after.filter((m) => m.id === messageId)).toHaveLength(1);
    expect(await idRows(messageId)).toBe(1);
    // A second resend is answered from storage: nothing more is stored.
    expect((await send(app, contextId, messageId, "what is my name?")).body.error).toBeUndefined();
    expect(await stored(contextId)).toEqual(after);
  });
});
