/**
 * Whole turns on the postgres backend: LangGraph graph + NeonSaver over the Neon driver →
 * local Neon-protocol proxy → Postgres (or PGlite), with the offline model recording what
 * it was sent.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { type MemoryConfig, resolveMemoryConfig } from "../../src/memory/config.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();

const agent = testAgent("Test agent");
const echo = tool(async ({ text }: { text: string }) => `echo:${text}`, {
  name: "echo",
  description: "echo the text",
  schema: z.object({ text: z.string() }),
});
const toolAgent = defineAgent({ ...agent, tools: [echo] });

function config(patch: Record<string, unknown> = {}): MemoryConfig {
  return resolveMemoryConfig({ code: patch }).config;
}

function deps(
  agentId: string,
  overrides: Omit<Partial<TurnDeps>, "log"> & { keepLatestOnly?: boolean } = {},
) {
  const model = (overrides.model as OfflineChatModel | undefined) ?? new OfflineChatModel();
  const log = createMemoryLogger();
  const saver = new NeonSaver({
    db: backend.neon,
    agentId,
    guardHead: true,
    keepLatestOnly: overrides.keepLatestOnly ?? false,
  });
  return {
    agent,
    config: config(),
    model,
    log,
    checkpointer: saver,
    ...overrides,
  } satisfies TurnDeps;
}

async function storedMessages(agentId: string, threadId: string): Promise<BaseMessage[]> {
  const saver = new NeonSaver({ db: backend.neon, agentId });
  return (await readThreadMessages(saver, { configurable: { thread_id: threadId } })).messages;
}

describe("a turn on the postgres backend", () => {
  it("R3.4 logs exactly the multiturn line right before each model call, turn 1 and turn 2", async () => {
    const d1 = deps("agent-log");
    await runTurn(d1, { threadId: "t-log", text: "안녕하세요" });
    const d2 = deps("agent-log");
    await runTurn(d2, { threadId: "t-log", text: "이전에 뭐 얘기했지?" });
    expect(d1.log.lines).toEqual([
      { level: "info", line: "multiturn: thread_msgs=1 window=20 sent_to_llm=1 has_prior=false" },
    ]);
    expect(d2.log.lines).toEqual([
      { level: "info", line: "multiturn: thread_msgs=3 window=20 sent_to_llm=3 has_prior=true" },
    ]);
  });

  it("R2.1 continues the conversation named by thread_id: the model sees the earlier turn", async () => {
    const model = new OfflineChatModel();
    await runTurn(deps("agent-cont", { model }), { threadId: "t1", text: "my name is Mina" });
    const second = await runTurn(deps("agent-cont", { model }), {
      threadId: "t1",
      text: "what is my name?",
    });
    expect(second.reply.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
    expect(second.reply).toContain("previous user message: my name is Mina");
    const sent = model.lastCall?.messages.map((m) => m.getType());
    expect(sent).toEqual(["system", "human", "ai", "human"]);
  });

  it("costs at most 2 database round trips per turn, also with a tool loop (counted at the proxy)", async () => {
    for (const [i, text] of ["hello", '/tool echo {"text":"hi"}', "and again"].entries()) {
      backend.proxy.resetStats();
      const result = await runTurn(deps("agent-rt", { agent: toolAgent }), {
        threadId: "t-rt",
        text,
      });
      expect(backend.proxy.stats.requests, `turn ${i + 1}`).toBeLessThanOrEqual(2);
      expect(result.reply.startsWith("offline-model:")).toBe(true);
    }
    const stored = await storedMessages("agent-rt", "t-rt");
    expect(stored.map((m) => m.getType())).toEqual([
      "human",
      "ai",
      "human",
      "ai",
      "tool",
      "ai",
      "human",
      "ai",
    ]);
    const toolMessage = stored[4] as ToolMessage;
    expect(toolMessage.content).toBe("echo:hi");
  });

  it("R2.3 two agents sharing one database and one contextId never see each other's messages", async () => {
    await runTurn(deps("agent-one"), { threadId: "shared-ctx", text: "secret of agent one" });
    const modelTwo = new OfflineChatModel();
    const two = await runTurn(deps("agent-two", { model: modelTwo }), {
      threadId: "shared-ctx",
      text: "hello",
    });
    expect(two.reply.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
    expect(JSON.stringify(modelTwo.calls)).not.toContain("secret of agent one");
    expect((await storedMessages("agent-one", "shared-ctx")).map((m) => m.content)).toContain(
      "secret of agent one",
    );
    expect(JSON.stringify(await storedMessages("agent-two", "shared-ctx"))).not.toContain(
      "secret of agent one",
    );
    const saverTwo = new NeonSaver({ db: backend.neon, agentId: "agent-two" });
    const listed: string[] = [];
    for await (const t of saverTwo.list({ configurable: {} }))
      listed.push(String(t.config.configurable?.thread_id));
    expect(new Set(listed)).toEqual(new Set(["shared-ctx"]));
  });

  it("R3.1 sends only the window but never changes the stored thread", async () => {
    const model = new OfflineChatModel();
    const d = () => ({ ...deps("agent-win", { model }), config: config({ window_size: 4 }) });
    for (let i = 0; i < 5; i++) await runTurn(d(), { threadId: "t-win", text: `message ${i}` });
    expect(model.lastCall?.messages.filter((m) => m.getType() !== "system")).toHaveLength(4);
    expect(await storedMessages("agent-win", "t-win")).toHaveLength(10);
  });

  it("R4.2 persist_trim_keep_groups keeps only the last N groups in storage, never cuts a tool group, keeps the summary", async () => {
    const trimDeps = () => ({
      ...deps("agent-trim", { agent: toolAgent, keepLatestOnly: true }),
      config: config({ persist_trim_keep_groups: 3 }),
    });
    await runTurn(trimDeps(), { threadId: "t-trim", text: "first" });
    // a summary row exists for the thread before trimming happens
    const memory = createPostgresMemory(backend.neon, "agent-trim");
    await memory.set("t-trim", "summary", { text: "earlier: first", covers: 2 });
    await runTurn(trimDeps(), { threadId: "t-trim", text: "second" });
    await runTurn(trimDeps(), { threadId: "t-trim", text: '/tool echo {"text":"x"}' });
    const stored = await storedMessages("agent-trim", "t-trim");
    // last 3 groups: human("/tool…"), [ai(tool_calls) + tool], ai(final)
    expect(stored.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect(
      AIMessage.isInstance(stored[1] as BaseMessage) && (stored[1] as AIMessage).tool_calls?.length,
    ).toBe(1);
    // nothing of the trimmed turns is left in any older checkpoint or blob
    const { rows } = await backend.pg.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM checkpoints WHERE thread_id = $1",
      ["agent-trim:t-trim"],
    );
    expect(rows[0]?.n).toBe(1);
    const blobs = await backend.pg.query<{ blob: Buffer | null }>(
      "SELECT blob FROM checkpoint_blobs WHERE thread_id = $1",
      ["agent-trim:t-trim"],
    );
    expect(blobs.rows.map((r) => r.blob?.toString("utf8") ?? "").join("")).not.toContain("first");
    expect(await memory.get("t-trim", "summary")).toEqual({ text: "earlier: first", covers: 2 });
  });

  it("R2.4 20 concurrent sends on one contextId all land: 40 messages, none duplicated", async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `concurrent ${i}`);
    const results = await Promise.all(
      texts.map((text) => runTurn(deps("agent-conc"), { threadId: "t-conc", text })),
    );
    const stored = await storedMessages("agent-conc", "t-conc");
    expect(stored).toHaveLength(40);
    const humans = stored.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content);
    expect(new Set(humans)).toEqual(new Set(texts));
    expect(new Set(stored.map((m) => m.id)).size).toBe(40);
    // each user message is directly followed by its own reply
    for (const r of results) {
      const i = stored.findIndex((m) => m.id === r.added[0]?.id);
      expect(AIMessage.isInstance(stored[i + 1] as BaseMessage)).toBe(true);
    }
    const { rows } = await backend.pg.query<{ message_count: number }>(
      "SELECT message_count FROM llamon_threads WHERE agent_id = $1 AND thread_id = $2",
      ["agent-conc", "t-conc"],
    );
    expect(rows[0]?.message_count).toBe(40);
  });
});

describe("the turn's user message", () => {
  it("a retried messageId returns the stored answer without calling the model or adding messages", async () => {
    const model = new OfflineChatModel();
    const first = await runTurn(deps("agent-retry", { model }), {
      threadId: "t-retry",
      text: "hello",
      messageId: "m-1",
    });
    await runTurn(deps("agent-retry", { model }), {
      threadId: "t-retry",
      text: "next",
      messageId: "m-2",
    });
    const calls = model.calls.length;
    const retry = await runTurn(deps("agent-retry", { model }), {
      threadId: "t-retry",
      text: "hello",
      messageId: "m-1",
    });
    expect(model.calls.length).toBe(calls);
    expect(retry.reply).toBe(first.reply);
    expect(retry.added.map((m) => m.id)).toEqual(first.added.map((m) => m.id));
    expect(await storedMessages("agent-retry", "t-retry")).toHaveLength(4);
  });

  it("is stored with the A2A messageId as its id", async () => {
    await runTurn(deps("agent-id"), { threadId: "t-id", text: "hi", messageId: "msg-123" });
    const stored = await storedMessages("agent-id", "t-id");
    expect(stored[0]?.id).toBe("msg-123");
    expect(ToolMessage.isInstance(stored[1] as BaseMessage)).toBe(false);
  });
});

describe("trim with summaries on", () => {
  it("R4.2 R7 trims only what the summary already covers", async () => {
    const memory = createPostgresMemory(backend.neon, "agent-trim-sum");
    const d = () => ({
      ...deps("agent-trim-sum", { keepLatestOnly: true }),
      config: config({ persist_trim_keep_groups: 2, summarize: true }),
    });
    for (const text of ["one", "two", "three"]) await runTurn(d(), { threadId: "t", text });
    // no summary yet: nothing may be deleted
    expect(await storedMessages("agent-trim-sum", "t")).toHaveLength(6);
    const before = await storedMessages("agent-trim-sum", "t");
    await memory.set("t", "summary", {
      text: "turn one",
      covers: 2,
      covers_id: before[1]?.id ?? "",
      updated_at: new Date().toISOString(),
      version: 1,
    });
    await runTurn(d(), { threadId: "t", text: "four" });
    const after = await storedMessages("agent-trim-sum", "t");
    expect(
      after.map((m) => m.content).filter((c) => typeof c === "string" && !c.startsWith("offline")),
    ).toEqual(["two", "three", "four"]);
  });
});

describe("one graph step per turn (an agent without tools)", () => {
  it("R2.1 R3.2 a thread continues when its agent gains or loses tools: stored by the step-per-node graph, then by the one-step graph, and back", async () => {
    const small = config({ window_size: 4 });
    const turn = (withTools: boolean, text: string) =>
      runTurn(
        { ...deps("agent-shape", withTools ? { agent: toolAgent } : {}), config: small },
        { threadId: "t-shape", text },
      );
    const texts: string[] = [];
    // Long enough that messages leave the live tail (window 4) for the transcript on both
    // graphs; a tool group is stored by the step-per-node graph, then the shapes alternate.
    for (let i = 1; i <= 24; i++) {
      const withTools = Math.floor((i - 1) / 4) % 2 === 0;
      const text = withTools && i % 4 === 2 ? `/tool echo {"text":"t${i}"}` : `turn ${i}`;
      texts.push(text);
      backend.proxy.resetStats();
      const result = await turn(withTools, text);
      expect(backend.proxy.stats.requests, `turn ${i}`).toBeLessThanOrEqual(2);
      expect(result.reply.startsWith("offline-model:"), `turn ${i}`).toBe(true);
      expect(result.signals?.has_prior, `turn ${i}`).toBe(i > 1);
    }
    const stored = await storedMessages("agent-shape", "t-shape");
    expect(stored.filter((m) => HumanMessage.isInstance(m)).map((m) => m.content)).toEqual(texts);
    // Every user message is answered once; tool groups stay whole.
    const types = stored.map((m) => m.getType()).join(" ");
    expect(types).toBe(
      texts.map((t) => (t.startsWith("/tool") ? "human ai tool ai" : "human ai")).join(" "),
    );
    expect(new Set(stored.map((m) => m.id)).size).toBe(stored.length);
  });
});
