/**
 * Facts with time and provenance on real turns (R8.3, R11.1), postgres backend through the
 * proxy, offline model: a fact carries the A2A messageId and position of the user message it
 * came from; a retraction cue retires it; the retired fact is visible in the admin thread
 * view, never in the prompt as current; erasing the conversation erases it too.
 */
import { describe, expect, it } from "vitest";
import { inspectThread } from "../../src/admin/inspect.ts";
import { eraseThread, readThread } from "../../src/admin/threads.ts";
import { runTurn, type TurnDeps } from "../../src/agent/turn/pipeline.ts";
import { OfflineChatModel } from "../../src/llm/offline.ts";
import { createMemoryLogger } from "../../src/log.ts";
import { resolveMemoryConfig } from "../../src/memory/config.ts";
import type { RequestContext } from "../../src/runtime/context.ts";
import { NeonSaver } from "../../src/store/neon-saver.ts";
import { testAgent, useTestBackend } from "../helpers/turn-setup.ts";

const backend = useTestBackend();
const AGENT = "facts-prov";
const config = resolveMemoryConfig({ code: { window_size: 6, facts_mode: "heuristic" } }).config;

async function send(threadId: string, messageId: string, text: string) {
  const model = new OfflineChatModel();
  const deps: TurnDeps = {
    agent: testAgent("Facts agent"),
    config,
    model,
    log: createMemoryLogger(),
    checkpointer: new NeonSaver({ db: backend.neon, agentId: AGENT, guardHead: true }),
  };
  await runTurn(deps, { threadId, text, messageId });
  const system = model.calls.at(-1)?.messages[0];
  return system?.getType() === "system" ? String(system.content) : "";
}

/** The `[기억된 사실]` block of a system prompt ("" when there is none). */
function factsBlock(system: string): string {
  const start = system.indexOf("[기억된 사실]");
  if (start < 0) return "";
  const end = system.indexOf("\n\n", start);
  return system.slice(start, end < 0 ? undefined : end);
}

/** What readThread and eraseThread use of a request's context (postgres). */
const ctx = () =>
  ({ agentId: AGENT, db: () => backend.neon, env: {} }) as unknown as RequestContext;

async function factsRows(threadId: string) {
  const { rows } = await backend.pg.query(
    "SELECT value FROM persistent_memory WHERE agent_id = $1 AND thread_id = $2 AND key = 'facts'",
    [AGENT, threadId],
  );
  return rows;
}

describe("R8.3 facts with provenance on real turns", () => {
  it("R8.3 R11.1 a retracted fact is retired with its message, shown in the admin view, never as current, and erased with the thread; the new job is current", async () => {
    await send("p1", "msg-job", "I'm a pharmacist.");
    await send("p1", "msg-work", "I work at a small clinic.");
    await send("p1", "msg-left", "Big news: I left the clinic last week.");
    await send(
      "p1",
      "msg-new",
      "I'm now working as a data analyst for a health insurance company.",
    );
    const asked = await send("p1", "msg-q", "Which company do I work for? What do I do for work?");
    // Conversation recall may quote the old messages; the facts block never states them as
    // current (only as "earlier: …"), and it states the new job.
    expect(factsBlock(asked)).not.toMatch(/occupation: pharmacist|works at small clinic/);
    expect(factsBlock(asked)).toContain("The user's occupation: data analyst");

    const stored = await readThread(ctx(), "postgres", "p1");
    expect(stored).toBeDefined();
    const view = inspectThread({
      contextId: "p1",
      messages: stored?.messages ?? [],
      head: stored?.head,
      archived: stored?.archived,
      memory: stored?.memory ?? {},
      config,
    });
    expect(view.facts?.map((f) => [f.id, f.value, f.messageId])).toEqual([
      ["job", "data analyst", "msg-new"],
      ["workplace", "health insurance company", "msg-new"],
    ]);
    expect(view.retired_facts).toEqual([
      expect.objectContaining({
        id: "job",
        value: "pharmacist",
        messageId: "msg-job",
        position: 0,
        since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        retiredBy: "msg-left",
        retiredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      }),
      expect.objectContaining({
        id: "workplace",
        value: "small clinic",
        messageId: "msg-work",
        position: 2,
        retiredBy: "msg-left",
      }),
    ]);
    // The view's prompt preview shows no retired value as current either.
    expect(factsBlock(view.system_prompt ?? "")).not.toMatch(
      /occupation: pharmacist|works at small clinic/,
    );

    await eraseThread(ctx(), "postgres", "p1");
    expect(await readThread(ctx(), "postgres", "p1")).toBeUndefined();
    expect(await factsRows("p1")).toEqual([]);
  });

  it("R8.3 a new value's provenance is its user message; the block says when and what it replaced", async () => {
    await send("p2", "m-seoul", "I live in Seoul.");
    await send("p2", "m-busan", "Actually I moved to Busan.");
    const asked = await send("p2", "m-q", "Where do I live?");
    const today = new Date().toISOString().slice(0, 10);
    expect(asked).toContain(`The user lives in Busan (since ${today}; earlier: Seoul)`);
    const [row] = await factsRows("p2");
    expect(row?.value).toMatchObject({
      version: 2,
      facts: [{ id: "residence", value: "Busan", messageId: "m-busan", position: 2 }],
      retired: [{ id: "residence", value: "Seoul", messageId: "m-seoul", retiredBy: "m-busan" }],
    });
  });
});
