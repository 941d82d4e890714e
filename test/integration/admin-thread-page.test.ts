/**
 * The management API's conversation view reads one page of a long conversation
 * (admin/threads.ts readThread): the head checkpoint and only the page's transcript rows, by
 * position — never the whole transcript. Sizes are bytes at the Neon-protocol proxy.
 */
import { describe, expect, it } from "vitest";
import { inspectThread } from "../../src/admin/inspect.ts";
import { readThread } from "../../src/admin/threads.ts";
import { buildAgentGraph, TURN_NODE } from "../../src/agent/turn/graph.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import type { RequestContext } from "../../src/runtime/context.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { bulkTranscript } from "../helpers/backend.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const AGENT = "page-a";
const config = resolveMemoryConfig({ code: { window_size: 6, recall: false } }).config;

function deps(): TurnDeps {
  return {
    agent: testAgent("Page agent"),
    config,
    model: new OfflineChatModel(),
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId: AGENT, guardHead: true }),
  };
}

/** What readThread uses of a request's context (postgres). */
const ctx = () =>
  ({ agentId: AGENT, db: () => backend.neon, env: {} }) as unknown as RequestContext;

describe("management API: a page of a long conversation", () => {
  it("reads the head and one page of the transcript; pages join without gaps down to the first message", async () => {
    for (let i = 1; i <= 10; i++) await runTurn(deps(), { threadId: "long", text: `hello ${i}` });
    const saver = new NeonSaver({ db: backend.neon, agentId: AGENT, materializeMessages: true });
    const head = await saver.getTuple({ configurable: { thread_id: "long" } });
    const held = ((head?.checkpoint.channel_values.messages ?? []) as unknown[]).length;
    const archived = 3_000 - held;
    // A long transcript, bulk-inserted in LangChain's serialised form, and the head's count.
    await bulkTranscript(backend.pg, AGENT, "long", archived);
    const { agent, model } = deps();
    const graph = buildAgentGraph({
      agent,
      config,
      model,
      log: createMemoryLogger(),
      checkpointer: saver,
      memory: () => undefined,
      userMessageId: "unused",
      messagesStorage: "tail",
    });
    await graph.updateState(
      { configurable: { thread_id: "long" } },
      { archived: { messages: archived, conversation: archived, ai: true } },
      TURN_NODE,
    );

    backend.proxy.resetStats();
    await readThreadMessages(new NeonSaver({ db: backend.neon, agentId: AGENT }), {
      configurable: { thread_id: "long" },
    });
    const wholeBytes = backend.proxy.stats.responseBytes;

    backend.proxy.resetStats();
    const newest = await readThread(ctx(), "postgres", "long", { limit: 50 });
    const pageBytes = backend.proxy.stats.responseBytes;
    expect(pageBytes).toBeLessThan(64 * 1024);
    expect(pageBytes * 20).toBeLessThan(wholeBytes);
    expect(newest?.messages).toHaveLength(50);
    expect(newest?.from).toBe(3_000 - 50);
    expect(newest?.older).toBe(true);
    expect(newest?.messages.at(-1)?.content).toContain("hello 10");

    // The view's signals count the whole conversation; its messages are the page, by position.
    const view = inspectThread({
      contextId: "long",
      messages: newest?.messages ?? [],
      from: newest?.from,
      older: newest?.older,
      head: newest?.head,
      archived: newest?.archived,
      memory: {},
      config,
    });
    expect(view.signals.thread_msgs).toBe(3_000);
    expect(view.page).toEqual({
      from: 2_950,
      to: 3_000,
      total: 3_000,
      stored: 3_000,
      older: 2_950,
    });
    expect(view.messages[0]?.index).toBe(2_950);

    // The next older page reaches into the transcript only.
    const older = await readThread(ctx(), "postgres", "long", { before: 2_950, limit: 50 });
    expect(older?.from).toBe(2_900);
    expect(older?.messages.map((m) => m.id)).toEqual(
      Array.from({ length: 50 }, (_, i) => `bulk-${2_900 + i}`),
    );
    const first = await readThread(ctx(), "postgres", "long", { before: 30, limit: 50 });
    expect(first?.from).toBe(0);
    expect(first?.older).toBe(false);
    expect(first?.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 30 }, (_, i) => `bulk message ${i}`),
    );
    // Beyond the end: the newest page.
    const beyond = await readThread(ctx(), "postgres", "long", { before: 10 ** 9, limit: 5 });
    expect(beyond?.from).toBe(3_000 - 5);
  });
});
