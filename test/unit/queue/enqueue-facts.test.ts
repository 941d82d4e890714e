/**
 * The request path's side of llm facts (R8.1): which job a saved turn enqueues — the turn's
 * user message by id and its position in the whole thread — and none outside `llm` mode.
 */
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { factsJobFor } from "../../../src/queue/enqueue-facts.ts";
import { factsJobSchema } from "../../../src/queue/jobs.ts";

const config = (facts_mode: "off" | "heuristic" | "llm", backend = "postgres") =>
  resolveMemoryConfig({ code: { facts_mode, backend: backend as "postgres" } }).config;

const tail = [
  new HumanMessage({ content: "earlier", id: "u1" }),
  new AIMessage({ content: "ok", id: "a1" }),
  new HumanMessage({ content: "I live in Seoul.", id: "u2" }),
  new AIMessage({ content: "Nice.", id: "a2" }),
];

describe("R8.1 the facts job a saved turn enqueues", () => {
  it("R8.1 names the turn's user message and its position after the transcript", () => {
    const job = factsJobFor(
      { threadId: "t", thread: tail, added: 2, archived: { messages: 10 } },
      config("llm"),
      "agent",
    );
    expect(job).toEqual({
      type: "facts",
      agent_id: "agent",
      thread_id: "t",
      messages: [{ id: "u2", position: 12 }],
    });
    expect(factsJobSchema.parse(job)).toEqual(job);
  });

  it("R8.1 none outside llm mode, with memory off, or when the turn added no user message", () => {
    const turn = { threadId: "t", thread: tail, added: 2 };
    expect(factsJobFor(turn, config("heuristic"), "agent")).toBeUndefined();
    expect(factsJobFor(turn, config("off"), "agent")).toBeUndefined();
    expect(factsJobFor(turn, config("llm", "off"), "agent")).toBeUndefined();
    expect(factsJobFor({ ...turn, added: 1 }, config("llm"), "agent")).toBeUndefined();
    expect(factsJobFor({ ...turn, added: 0 }, config("llm"), "agent")).toBeUndefined();
  });
});
