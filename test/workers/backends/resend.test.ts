/**
 * R11.2 through the Worker's A2A endpoint on the Durable Object backends (resend-cases.ts):
 * this file runs in the `workers-sqlite` and `workers-in-memory` projects.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe } from "vitest";
import type { ThreadDO } from "../../../src/durable/thread-do.ts";
import { threadObjectName } from "../../../src/runtime/objects.ts";
import { readThreadMessages } from "../../../src/store/delta.ts";
import { resendCases } from "../resend-cases.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;

describe(`R11.2 exactly once per messageId through A2A (${backend})`, () => {
  resendCases(async (agentId, contextId, id) => {
    const stub = env.THREADS.getByName(threadObjectName(agentId, contextId));
    return runInDurableObject(stub, async (object: ThreadDO) => {
      const saver = object.saver;
      if (saver === undefined) throw new Error(`the ${backend} object has no saver`);
      const { messages } = await readThreadMessages(saver, {
        configurable: { thread_id: contextId },
      });
      return { messages: messages.length, copies: messages.filter((m) => m.id === id).length };
    });
  });
});
