/** Fact recall on real turns (R8), postgres backend through the proxy, offline model. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineAgent } from "../../src/agent/define.ts";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { startTestBackend, type TestBackend } from "../helpers/backend.ts";

let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend.close();
});

const agent = defineAgent({ name: "facts", description: "d", system: "You are helpful." });

async function turn(
  agentId: string,
  threadId: string,
  text: string,
  patch: Record<string, unknown>,
) {
  const model = new OfflineChatModel();
  const config = resolveMemoryConfig({ code: patch }).config;
  backend.proxy.resetStats();
  await runTurn(
    {
      agent,
      config,
      model,
      checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
    },
    { threadId, text },
  );
  const system = model.calls.at(-1)?.messages[0];
  return {
    system: system?.getType() === "system" ? String(system.content) : "",
    roundTrips: backend.proxy.stats.requests,
    model,
  };
}

describe("fact recall on real turns", () => {
  it("R8.2 a Korean statement is stored, recalled for the follow-up question, in the same round trips", async () => {
    const patch = { facts_mode: "heuristic" };
    const first = await turn("facts-a", "t1", "저는 부산에 살아요", patch);
    expect(first.roundTrips).toBeLessThanOrEqual(2);
    const stored = await createPostgresMemory(backend.neon, "facts-a").get("t1", "facts");
    expect(JSON.stringify(stored)).toContain("부산");
    await turn("facts-a", "t1", "오늘 날씨 좋네요", patch);
    const third = await turn("facts-a", "t1", "제가 어디 살죠?", patch);
    expect(third.system).toContain("[기억된 사실]");
    expect(third.system).toContain("부산");
    expect(third.roundTrips).toBeLessThanOrEqual(2);
  });

  it("R8.2 R8.3 a correction supersedes the earlier fact: Seoul is shown only as earlier", async () => {
    const patch = { facts_mode: "heuristic" };
    await turn("facts-b", "t1", "I live in Seoul", patch);
    await turn("facts-b", "t1", "Actually I moved to Busan last month", patch);
    const q = await turn("facts-b", "t1", "Where do I live?", patch);
    expect(q.system).toMatch(/The user lives in Busan \(since \d{4}-\d{2}-\d{2}; earlier: Seoul\)/);
    expect(q.system).not.toContain("lives in Seoul");
  });

  it("R8.2 facts are scoped to the thread: another contextId recalls nothing", async () => {
    const patch = { facts_mode: "heuristic" };
    await turn("facts-c", "t1", "My name is Mina", patch);
    const other = await turn("facts-c", "t2", "What is my name?", patch);
    expect(other.system).not.toContain("Mina");
  });

  it("R8.1 off (default) extracts and recalls nothing", async () => {
    await turn("facts-d", "t1", "저는 부산에 살아요", {});
    const q = await turn("facts-d", "t1", "제가 어디 살죠?", {});
    expect(q.system).not.toContain("[기억된 사실]");
    expect(await createPostgresMemory(backend.neon, "facts-d").get("t1", "facts")).toBeUndefined();
  });

  it("R8.1 an llm-mode turn calls the model once, for the answer: extraction is not on the request path, and the heuristic fact serves at once", async () => {
    const patch = { facts_mode: "llm" };
    const first = await turn("facts-e", "t1", "I'm allergic to peanuts", patch);
    // Extraction runs off the request path (the queue), so the turn's one model call answers.
    expect(first.model.calls.length).toBe(1);
    expect(String(first.model.calls[0]?.messages.at(-1)?.content)).toBe("I'm allergic to peanuts");
    expect(first.system).not.toContain("durable facts");
    const q = await turn("facts-e", "t1", "Can I eat this peanut cookie?", patch);
    expect(q.model.calls.length).toBe(1);
    expect(q.system.toLowerCase()).toContain("peanut");
  });

  it("R6.2 stable_tail puts recalled facts after the user message, not in the system prompt", async () => {
    const patch = { facts_mode: "heuristic", prompt_context_mode: "stable_tail" };
    await turn("facts-f", "t1", "저는 부산에 살아요", patch);
    const q = await turn("facts-f", "t1", "제가 어디 살죠?", patch);
    expect(q.system).not.toContain("부산");
    const sent = q.model.calls.at(-1)?.messages ?? [];
    const runtime = sent.at(-1);
    expect(runtime?.additional_kwargs?.llamon_runtime_context).toBe(true);
    expect(String(runtime?.content)).toContain("부산");
  });
});
