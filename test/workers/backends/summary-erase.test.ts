/**
 * Erase is a fence in the conversation's Durable Object too (R11.1; this file
 * runs in `workers-sqlite` and `workers-in-memory`). A summary job runs in the object but not
 * under its turn lock, so an erase can run while the job waits for the model: the job must
 * then write nothing, and the conversation stays erased.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { findRegisteredAgent, registerAgent } from "../../../src/agent/registry.ts";
import type { ThreadDO } from "../../../src/durable/thread-do.ts";
import { SUMMARY_KEY } from "../../../src/memory/summary.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import "../../../src/worker/index.ts";
import { GatedModel } from "../../helpers/gated-model.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;
const SECRET = "ZEBRA4417";
const registered = findRegisteredAgent();

afterEach(() => {
  if (registered !== undefined) registerAgent(registered);
});

describe(`erase fences a summary job in the object (${backend})`, () => {
  it(`R11.1 a summary job that read the thread before an erase writes nothing (${backend})`, async () => {
    const contextId = `fence-${crypto.randomUUID()}`;
    const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
    const say = (text: string) =>
      stub.turn({ threadId: contextId, contextId, messageId: crypto.randomUUID(), text });
    await say(`my gym locker code is ${SECRET}`);
    for (let i = 0; i < 10; i++) await say(`small talk ${i}`);

    if (registered === undefined) throw new Error("the reference Worker registered no agent");
    const summarizer = new GatedModel();
    registerAgent({ ...registered, model: () => summarizer });
    await runInDurableObject(stub, async (object: ThreadDO) => {
      const job = object.summarize({
        type: "summarize",
        agent_id: env.AGENT_ID,
        thread_id: contextId,
        upto: 10,
      });
      await summarizer.reached;
      expect(summarizer.firstInput.map((m) => String(m.content)).join("\n")).toContain(SECRET);
      expect(await object.erase(env.AGENT_ID, contextId)).toMatchObject({ erased: true });
      summarizer.release();
      expect(await job).toMatchObject({ status: "skipped", reason: "erased" });
      const inspected = await object.inspect(env.AGENT_ID, contextId);
      expect(inspected.memory[SUMMARY_KEY]).toBeUndefined();
      expect(inspected.head).toEqual([]);
      expect(JSON.stringify(inspected)).not.toContain(SECRET);
    });
  });
});
