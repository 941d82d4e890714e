/**
 * Conversation recall wired into the turn — the backend's recall source (here the
 * in-memory one over the thread's message list, as the in_memory DO will keep it) feeds the
 * `[이전 대화 발췌]` block; no source or `recall: false` → no block; a failing source never
 * fails the turn; one query per turn, tool loop included. The offline model records what it
 * was sent.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentDefinition, defineAgent } from "../../../src/agent/define.ts";
import { runTurn } from "../../../src/agent/turn/pipeline.ts";
import { isLlamonError } from "../../../src/errors.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { createLogger, type LogRecord } from "../../../src/log.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { isRuntimeContextMessage, RECALL_HEADER } from "../../../src/memory/prompt.ts";
import {
  ListRecallSource,
  type RecallRequest,
  type RecallSource,
  type StoredMessage,
} from "../../../src/memory/recall/index.ts";
import { InMemorySaver } from "../../../src/store/memory-saver.ts";

const echo = tool(async ({ text }: { text: string }) => `echo:${text}`, {
  name: "echo",
  description: "echo the text",
  schema: z.object({ text: z.string() }),
});
const plain = defineAgent({ name: "recall", description: "d", system: "You are helpful." });
const withTools = defineAgent({ ...plain, tools: [echo] });

const DOG = "제 강아지 이름은 초코예요";
const QUESTION = "우리 강아지 이름이 뭐였죠?";

/** A conversation kept like the in_memory DO will: one list per thread, seq = position. */
function conversation(options: {
  agent?: AgentDefinition;
  memory?: Record<string, unknown>;
  source?: (lists: Map<string, StoredMessage[]>) => RecallSource | undefined;
}) {
  const lists = new Map<string, StoredMessage[]>();
  const source =
    options.source === undefined
      ? new ListRecallSource((key) => lists.get(key))
      : options.source(lists);
  const model = new OfflineChatModel();
  const saver = new InMemorySaver({ agentId: "recall" });
  const records: LogRecord[] = [];
  const config = resolveMemoryConfig({ code: { window_size: 6, ...options.memory } }).config;
  const say = async (threadId: string, text: string) => {
    const result = await runTurn(
      {
        agent: options.agent ?? plain,
        config,
        model,
        checkpointer: saver,
        conversationRecall: source,
        log: createLogger({ sink: (r) => records.push(r) }),
      },
      { threadId, text },
    );
    const list = lists.get(threadId) ?? [];
    for (const message of result.added) list.push({ seq: list.length, message });
    lists.set(threadId, list);
    return result;
  };
  const sent = (): readonly BaseMessage[] => model.lastCall?.messages ?? [];
  return { say, sent, model, records };
}

async function chatter(say: (t: string, x: string) => Promise<unknown>, thread: string, n: number) {
  for (let i = 0; i < n; i++) await say(thread, `오늘의 잡담 ${i}: 날씨와 점심 이야기`);
}

describe("recall in the turn", () => {
  it("R6.1 the message of turn 3, out of the window, is quoted in the system prompt", async () => {
    const c = conversation({});
    await chatter(c.say, "t", 2);
    await c.say("t", DOG);
    await chatter(c.say, "t", 6);
    const answer = await c.say("t", QUESTION);
    const system = String(c.sent()[0]?.content);
    expect(system).toContain(`${RECALL_HEADER}\n`);
    expect(system).toContain(`- user: "${DOG}"`);
    // The offline model echoes the block's items (what an end-to-end test can see).
    expect(answer.reply.split("\n").at(-1)).toContain(`recalled: user: "${DOG}"`);
    // It really had left the window: only the last 6 messages were sent.
    expect(
      c
        .sent()
        .slice(1)
        .map((m) => String(m.content)),
    ).not.toContain(DOG);
    expect(c.sent()).toHaveLength(7);
  });

  it("R6.2 stable_tail: the block is in the runtime-context message, the system prompt unchanged", async () => {
    const c = conversation({ memory: { prompt_context_mode: "stable_tail" } });
    await c.say("t", DOG);
    await chatter(c.say, "t", 5);
    const before = String(c.sent()[0]?.content);
    await c.say("t", QUESTION);
    expect(String(c.sent()[0]?.content)).toBe(before);
    const runtime = c.sent().filter(isRuntimeContextMessage);
    expect(runtime).toHaveLength(1);
    expect(String(runtime[0]?.content)).toContain(`- user: "${DOG}"`);
  });

  it("recall: false, or a backend without a source: no block", async () => {
    for (const c of [
      conversation({ memory: { recall: false } }),
      conversation({ source: () => undefined }),
    ]) {
      await c.say("t", DOG);
      await chatter(c.say, "t", 8);
      await c.say("t", QUESTION);
      expect(String(c.sent()[0]?.content)).not.toContain(RECALL_HEADER);
    }
  });

  it("R2.3 another conversation's messages are never recalled", async () => {
    const c = conversation({});
    await c.say("other", DOG);
    await chatter(c.say, "t", 8);
    await c.say("t", QUESTION);
    expect(String(c.sent()[0]?.content)).not.toContain("초코");
  });

  it("a failing source is logged and the turn goes on without the block", async () => {
    const c = conversation({
      source: () => ({
        recall: () => Promise.reject(new Error("index unavailable")),
      }),
    });
    await chatter(c.say, "t", 4);
    const result = await c.say("t", QUESTION);
    expect(result.reply).toContain("offline-model");
    expect(String(c.sent()[0]?.content)).not.toContain(RECALL_HEADER);
    const warning = c.records.find((r) => r.message.startsWith("recall:"));
    expect(warning?.level).toBe("warn");
  });

  it("one query per turn, through the tool loop, with the window excluded", async () => {
    const requests: RecallRequest[] = [];
    const c = conversation({
      agent: withTools,
      source: (lists) => {
        const inner = new ListRecallSource((key) => lists.get(key));
        return {
          recall: (request) => {
            requests.push(request);
            return inner.recall(request);
          },
        };
      },
    });
    await c.say("t", DOG);
    await chatter(c.say, "t", 8);
    requests.length = 0;
    const calls = c.model.calls.length;
    await c.say("t", `/tool echo {"text":"${QUESTION}"}`);
    expect(c.model.calls.length - calls).toBe(2); // tool call, then the answer
    expect(requests).toHaveLength(1);
    const window = c.sent().flatMap((m) => (m.id && !isRuntimeContextMessage(m) ? [m.id] : []));
    for (const id of window.slice(0, -2)) expect(requests[0]?.exclude.has(id)).toBe(true);
    expect(String(c.sent()[0]?.content)).toContain(DOG);
  });

  it("defineAgent takes recall and recall_max_items in code, with the same bounds", () => {
    const agent = defineAgent({ ...plain, memory: { recall: false, recall_max_items: 20 } });
    expect(agent.memory).toEqual({ recall: false, recall_max_items: 20 });
    for (const memory of [{ recall_max_items: 21 }, { recall_max_items: 0 }, { recall: "yes" }]) {
      let error: unknown;
      try {
        defineAgent({ ...plain, memory: memory as never });
      } catch (caught) {
        error = caught;
      }
      expect(isLlamonError(error, "CONFIG_INVALID"), JSON.stringify(memory)).toBe(true);
    }
  });
});
