/**
 * A flow (defineFlow) on the postgres backend. Its position is a channel of
 * the checkpoint, so it survives a new saver (a new isolate), and concurrent answers on one
 * conversation each see the position the other committed: a flow turn that lost the head
 * compare-and-set runs again on the new head instead of appending a stale answer.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlow } from "../../src/agent/flow.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import { readThreadMessages } from "../../src/store/delta.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();

const flow = defineFlow({
  name: "pg flow",
  description: "for tests",
  steps: [
    { id: "city", ask: "Which city?", answer: z.string().min(2) },
    {
      id: "nights",
      ask: (a) => `How many nights in ${String(a.city)}?`,
      answer: z.coerce.number().int().min(1),
      invalid: "A number of nights, please.",
    },
  ],
  finish: ({ answers }) => `Booked ${answers.nights} nights in ${answers.city}.`,
});

/** A fresh saver per turn, as a fresh isolate has. */
function deps(agentId: string): TurnDeps {
  return {
    agent: flow,
    config: resolveMemoryConfig({ code: { window_size: 2 } }).config,
    model: new OfflineChatModel(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId, guardHead: true }),
  };
}

describe("a flow on the postgres backend", () => {
  it("keeps its position in the checkpoint across savers, beyond the window", async () => {
    const say = (text: string) => runTurn(deps("flow-pg"), { threadId: "t-1", text });
    expect((await say("hi")).reply).toBe("Which city?");
    expect((await say("Busan")).reply).toBe("How many nights in Busan?");
    const done = await say("4");
    expect(done.reply).toBe("Booked 4 nights in Busan.");
    expect(done.inputRequired).toBe(false);
    const saver = new NeonSaver({ db: backend.neon, agentId: "flow-pg" });
    const tuple = await saver.getTuple({ configurable: { thread_id: "t-1" } });
    expect(tuple?.checkpoint.channel_values.flow).toEqual({
      awaiting: null,
      answers: { city: "Busan", nights: 4 },
    });
  });

  it("R2.4 concurrent answers on one conversation: each turn sees the other's position", async () => {
    await runTurn(deps("flow-conc"), { threadId: "t-c", text: "hi" });
    const cities = ["Seoul", "Daegu", "Incheon", "Gwangju", "Daejeon", "Ulsan"];
    const results = await Promise.all(
      cities.map((text) => runTurn(deps("flow-conc"), { threadId: "t-c", text })),
    );
    const stored = (
      await readThreadMessages(new NeonSaver({ db: backend.neon, agentId: "flow-conc" }), {
        configurable: { thread_id: "t-c" },
      })
    ).messages;
    expect(stored.filter((m) => HumanMessage.isInstance(m))).toHaveLength(7);
    expect(stored.filter((m) => AIMessage.isInstance(m))).toHaveLength(7);
    // Exactly one answer became the city; every other one was the (refused) nights answer.
    const asked = results.filter((r) => r.reply.startsWith("How many nights in"));
    expect(asked).toHaveLength(1);
    const city = asked[0]?.reply.slice("How many nights in ".length, -1);
    expect(cities).toContain(city);
    const refused = results.filter((r) => r !== asked[0]).map((r) => r.reply);
    expect(refused).toEqual(
      Array(5).fill(`A number of nights, please.\nHow many nights in ${city}?`),
    );
  });
});
