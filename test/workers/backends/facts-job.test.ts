/**
 * The `llm` mode's facts job in the conversation's Durable Object (R8.1, R11.1; this file runs
 * in `workers-sqlite` and `workers-in-memory`): the queue consumer hands the job to the object
 * (`extractFacts` RPC), which reads the message from its own thread. A job is applied once —
 * a redelivery changes nothing — and a job whose conversation was erased while the model
 * answered writes nothing.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { findRegisteredAgent, registerAgent } from "../../../src/agent/registry.ts";
import type { ThreadDO } from "../../../src/durable/thread-do.ts";
import { MODEL_FACTS_MEMORY_KEY, parseModelFactState } from "../../../src/memory/facts/index.ts";
import type { FactsJob } from "../../../src/queue/jobs.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import "../../../src/worker/index.ts";
import { ScriptedModel } from "../../helpers/gated-model.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;
const registered = findRegisteredAgent();

afterEach(() => {
  if (registered !== undefined) registerAgent(registered);
});

const answer = (messageId: string, value: string) =>
  JSON.stringify({ operations: [{ op: "add", kind: "residence", value, message_id: messageId }] });

async function conversation(text: string) {
  const contextId = `facts-${crypto.randomUUID()}`;
  const messageId = crypto.randomUUID();
  const stub = env.THREADS.getByName(threadObjectName(env.AGENT_ID, contextId));
  await stub.turn({ threadId: contextId, contextId, messageId, text });
  const job: FactsJob = {
    type: "facts",
    agent_id: env.AGENT_ID,
    thread_id: contextId,
    messages: [{ id: messageId, position: 0 }],
  };
  return { stub, contextId, messageId, job };
}

function useModel(model: ScriptedModel): void {
  if (registered === undefined) throw new Error("the reference Worker registered no agent");
  registerAgent({ ...registered, model: () => model });
}

describe(`the facts job in the object (${backend})`, () => {
  it(`R8.1 a job is applied once: a redelivery changes nothing (${backend})`, async () => {
    const { stub, contextId, messageId, job } = await conversation("I live in Seoul.");
    const model = new ScriptedModel([answer(messageId, "Seoul"), answer(messageId, "Busan")]);
    useModel(model);
    await runInDurableObject(stub, async (object: ThreadDO) => {
      expect(await object.extractFacts(job)).toMatchObject({ status: "applied", accepted: 1 });
      expect(await object.extractFacts(job)).toMatchObject({
        status: "skipped",
        reason: "already_applied",
      });
      const memory = (await object.inspect(env.AGENT_ID, contextId)).memory;
      const state = parseModelFactState(memory[MODEL_FACTS_MEMORY_KEY]);
      expect(state?.facts.map((f) => [f.id, f.value, f.messageId])).toEqual([
        ["residence", "Seoul", messageId],
      ]);
      expect(model.calls).toHaveLength(1);
    });
  });

  it(`R11.1 an erase while the job's model answers: nothing is written (${backend})`, async () => {
    const { stub, contextId, messageId, job } = await conversation("I live in Seoul.");
    const model = new ScriptedModel([answer(messageId, "Seoul")], { held: true });
    useModel(model);
    await runInDurableObject(stub, async (object: ThreadDO) => {
      const running = object.extractFacts(job);
      await model.reached;
      expect(await object.erase(env.AGENT_ID, contextId)).toMatchObject({ erased: true });
      model.release();
      expect(await running).toMatchObject({ status: "skipped", reason: "erased" });
      const inspected = await object.inspect(env.AGENT_ID, contextId);
      expect(inspected.memory[MODEL_FACTS_MEMORY_KEY]).toBeUndefined();
      expect(JSON.stringify(inspected)).not.toContain("Seoul");
      // A job delivered after the erase finds no message to read.
      expect(await object.extractFacts(job)).toMatchObject({ status: "skipped" });
    });
  });
});
