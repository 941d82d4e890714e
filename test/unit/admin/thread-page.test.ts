/**
 * One page of a thread held whole in memory (the in_memory backend's InMemorySaver, no
 * transcript; admin/thread-page.ts): the object sends the page and a tail of window_size +
 * TAIL_MARGIN messages as the head, the rest counted — and the inspector's view built from
 * that is exactly the view built from the whole thread.
 */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { emptyCheckpoint, MemorySaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { inspectThread } from "../../../src/admin/inspect.ts";
import {
  type MessagePage,
  pageMessages,
  pageRange,
  readThreadPage,
} from "../../../src/admin/thread-page.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { TAIL_MARGIN } from "../../../src/memory/live-tail.ts";

const WINDOW = 6;
const config = resolveMemoryConfig({ code: { window_size: WINDOW } }).config;

/** 30 turns: plain ones, a tool exchange every fifth, a stored system line in turn 3. */
function conversation(): BaseMessage[] {
  return Array.from({ length: 30 }, (_, i) => {
    const user = new HumanMessage({ id: `u${i}`, content: `question ${i}` });
    const answer = new AIMessage({ id: `a${i}`, content: `answer ${i}` });
    if (i === 3) return [user, new SystemMessage({ id: "s3", content: "stored system" }), answer];
    if (i % 5 !== 0) return [user, answer];
    const call = new AIMessage({
      id: `c${i}`,
      content: "",
      tool_calls: [{ id: `call${i}`, name: "lookup", args: { i }, type: "tool_call" }],
    });
    const result = new ToolMessage({
      id: `r${i}`,
      content: `result ${i}`,
      tool_call_id: `call${i}`,
    });
    return [user, call, result, answer];
  }).flat();
}

/** An InMemorySaver-like saver (LangGraph's MemorySaver) holding `thread` in one checkpoint. */
async function savedWhole(thread: readonly BaseMessage[]) {
  const saver = new MemorySaver();
  const checkpoint = {
    ...emptyCheckpoint(),
    channel_values: { messages: [...thread] },
    channel_versions: { messages: 1 },
  };
  await saver.put({ configurable: { thread_id: "t", checkpoint_ns: "" } }, checkpoint, {
    source: "input",
    step: -1,
    parents: {},
  });
  return saver;
}

/** A summary cache of `covers` whose last message is the one at `at` of the thread now. */
const summary = (covers: number, at: number) => ({
  text: "an earlier summary",
  covers,
  covers_id: conversation()[at]?.id,
  updated_at: "2026-01-01T00:00:00.000Z",
  version: 1,
});

/**
 * The view, with `dropped_groups` left out: it counts the groups dropped from the head, as on
 * postgres and sqlite (a live tail), not from the whole thread.
 */
function comparable(input: Parameters<typeof inspectThread>[0]) {
  const view = inspectThread(input);
  return { ...view, window: { ...view.window, dropped_groups: 0 } };
}

async function views(memory: Record<string, unknown>, page: MessagePage) {
  const saver = await savedWhole(conversation());
  const read = await readThreadPage(saver, "t", page, {
    windowSize: WINDOW,
    summary: memory.summary,
  });
  // The same thread, revived once, as the view sees it whole.
  const whole = (await readThreadPage(saver, "t", { limit: 10_000 })).head;
  const { from, to } = pageRange(page, whole.length);
  const common = { contextId: "t", memory, config, systemText: "You are helpful." };
  return {
    read,
    whole,
    paged: comparable({
      ...common,
      messages: pageMessages(read),
      from: read.from,
      older: read.older,
      head: read.head,
      archived: read.archived,
    }),
    expected: comparable({ ...common, messages: whole.slice(from, to), from, head: whole }),
  };
}

describe("a thread held whole in an object, read by page", () => {
  for (const page of [
    { limit: 10 },
    { limit: 3 },
    { before: 40, limit: 25 },
    { before: 2, limit: 10 },
    { limit: 500 },
  ]) {
    it(`R3.2 page ${JSON.stringify(page)}: only the page and a tail leave the object; the view is the whole thread's`, async () => {
      const { read, whole, paged, expected } = await views({ summary: summary(20, 19) }, page);
      expect(read.head.length).toBeLessThanOrEqual(WINDOW + TAIL_MARGIN + 1);
      expect(read.archived.messages + read.head.length).toBe(whole.length);
      const { from, to } = pageRange(page, whole.length);
      expect(read.before.length).toBeLessThanOrEqual(to - from);
      expect(pageMessages(read).map((m) => m.id)).toEqual(whole.slice(from, to).map((m) => m.id));
      expect(paged).toEqual(expected);
      expect(paged.summary?.effective_covers).toBe(20);
    });
  }

  it("R4.2 a summary whose covers_id moved (a trim shifted positions) keeps the whole thread as the head, so the view re-anchors it as before", async () => {
    // covers 40 was stored before a trim; its last message is at position 19 now.
    const { read, whole, paged, expected } = await views(
      { summary: summary(40, 19) },
      { limit: 10 },
    );
    expect(read.head).toHaveLength(whole.length);
    expect(paged).toEqual(expected);
    expect(paged.summary?.effective_covers).toBe(20);
  });
});
