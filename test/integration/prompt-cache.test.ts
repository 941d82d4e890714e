/**
 * R6.2 stable_tail, recorded through the offline model on real turns: with a summary that
 * changes every turn, the serialized request prefix up to the last user message is
 * byte-identical from turn 2 on; in legacy_system it is not.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { runTurn } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { isRuntimeContextMessage } from "../../src/memory/prompt.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { createPostgresMemory } from "../../src/store/persistent-memory.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();

const agent = testAgent("cache", { description: "d", system: "You are a careful assistant." });

/** The request as a provider would see it, up to (not including) the last real user message. */
function prefix(messages: readonly BaseMessage[]): string {
  let last = -1;
  messages.forEach((m, i) => {
    if (m.getType() === "human" && !isRuntimeContextMessage(m)) last = i;
  });
  return JSON.stringify(messages.slice(0, last).map((m) => [m.getType(), m.content]));
}

async function conversation(
  mode: "stable_tail" | "legacy_system",
  agentId: string,
): Promise<string[]> {
  const config = resolveMemoryConfig({
    code: { prompt_context_mode: mode, window_size: 100 },
  }).config;
  const memory = createPostgresMemory(backend.neon, agentId);
  const model = new OfflineChatModel();
  const prefixes: string[] = [];
  for (let turn = 1; turn <= 30; turn++) {
    await memory.set("t", "summary", {
      text: `summary after ${turn - 1} turns`,
      covers: 0,
      updated_at: new Date(0).toISOString(),
      version: 1,
    });
    const saver = new NeonSaver({ db: backend.neon, agentId, guardHead: true });
    await runTurn(
      { agent, config, model, checkpointer: saver },
      { threadId: "t", text: `question ${turn}` },
    );
    prefixes.push(prefix(model.lastCall?.messages ?? []));
  }
  return prefixes;
}

describe("provider prompt cache friendliness (R6.2)", () => {
  it("R6.2 stable_tail: the request prefix before the last user message only grows, byte-identical from turn 2 on", async () => {
    const prefixes = await conversation("stable_tail", "cache-stable");
    for (let turn = 2; turn < 30; turn++) {
      // turn n+1's prefix starts with turn n's whole prefix (an append-only request)
      expect(
        prefixes[turn]?.startsWith(prefixes[turn - 1]?.slice(0, -1) ?? ""),
        `turn ${turn + 1}`,
      ).toBe(true);
    }
    expect(prefixes[1]?.startsWith(prefixes[0]?.slice(0, -1) ?? "")).toBe(false);
  });

  it("R6.1 legacy_system: the summary in the system prompt changes the prefix every turn", async () => {
    const prefixes = await conversation("legacy_system", "cache-legacy");
    let rewritten = 0;
    for (let turn = 2; turn < 30; turn++) {
      if (!(prefixes[turn]?.startsWith(prefixes[turn - 1]?.slice(0, -1) ?? "") ?? false))
        rewritten++;
    }
    expect(rewritten).toBe(28);
  });
});
