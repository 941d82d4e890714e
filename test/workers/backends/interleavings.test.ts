/**
 * Random interleavings of turns, resends at any distance, erase and summary jobs on one
 * conversation kept in its Durable Object (runs in `workers-sqlite` and
 * `workers-in-memory`; the schedule and the invariants: ../../helpers/interleavings.ts): each
 * messageId stored once (R11.2), nothing of an erased message left anywhere the object keeps
 * text (R11.1), no turn lost (R2.4). The object backends have no prune: it erases.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, describe, it } from "vitest";
import { findRegisteredAgent, registerAgent } from "../../../src/agent/registry.ts";
import type { ThreadDO } from "../../../src/durable/thread-do.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import { readThreadMessages } from "../../../src/store/delta.ts";
import "../../../src/worker/index.ts";
import { DelayedModel } from "../../helpers/gated-model.ts";
import { assertInterleavings, type ConversationUnderTest } from "../../helpers/interleavings.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;
const AGENT = env.AGENT_ID;
const registered = findRegisteredAgent();

// The agent's model (turns and summaries) answers after a timer: an erase that arrives while a
// summary job waits for it runs in between, as with a real model.
beforeAll(() => {
  if (registered === undefined) throw new Error("the reference Worker registered no agent");
  registerAgent({ ...registered, model: () => new DelayedModel() });
});
afterAll(() => {
  if (registered !== undefined) registerAgent(registered);
});

/** Every text the object's SQLite storage holds (blobs decoded), one string per row. */
function sqliteRows(storage: DurableObjectStorage): string[] {
  const decoder = new TextDecoder();
  const tables = storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .toArray()
    .map((t) => t.name)
    .filter((name) => !name.startsWith("_cf_") && !name.startsWith("sqlite_"));
  const rows: string[] = [];
  for (const table of tables) {
    for (const row of storage.sql.exec(`SELECT * FROM "${table.replaceAll('"', '""')}"`)) {
      const text = Object.values(row)
        .map((v) => (v instanceof ArrayBuffer ? decoder.decode(v) : String(v)))
        .join(" ");
      rows.push(`${table}: ${text}`);
    }
  }
  return rows;
}

function conversation(run: string): ConversationUnderTest {
  const contextId = `interleave-${run}-${crypto.randomUUID().slice(0, 8)}`;
  const stub = env.THREADS.getByName(threadObjectName(AGENT, contextId));
  const erase = () => stub.erase(AGENT, contextId);
  return {
    send: (messageId, text) => stub.turn({ threadId: contextId, contextId, messageId, text }),
    erase,
    prune: erase,
    summary: (upto) =>
      stub.summarize({ type: "summarize", agent_id: AGENT, thread_id: contextId, upto }),
    storedUserIds: () =>
      runInDurableObject(stub, async (object: ThreadDO) => {
        if (object.saver === undefined) throw new Error(`no thread is kept with ${backend}`);
        const { messages } = await readThreadMessages(object.saver, {
          configurable: { thread_id: contextId },
        });
        return messages.filter((m) => m.getType() === "human").map((m) => String(m.id));
      }),
    whereStored: (needle) =>
      runInDurableObject(stub, async (object: ThreadDO, state) => {
        const places: string[] = [];
        if (object.saver !== undefined) {
          const { messages } = await readThreadMessages(object.saver, {
            configurable: { thread_id: contextId },
          });
          if (JSON.stringify(messages).includes(needle)) places.push("thread");
        }
        const memory = await object.memory?.load(contextId);
        if (JSON.stringify(memory?.thread ?? {}).includes(needle)) places.push("memory");
        if (backend === "sqlite") {
          places.push(...sqliteRows(state.storage).filter((row) => row.includes(needle)));
        }
        return places;
      }),
  };
}

describe(`random interleavings of turns, resends, erase and summaries (${backend})`, () => {
  it(`R11.1 R11.2 R2.4 each messageId once, nothing from before an erase, no turn lost (${backend})`, async () => {
    await assertInterleavings(conversation, { numRuns: 15, seed: 3202 });
  }, 240_000);
});
