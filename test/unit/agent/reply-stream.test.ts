/**
 * A turn of a streaming send (agent/turn/reply-stream.ts): the model streams, its reply text is
 * handed on piece by piece, the `multiturn:` line is still logged once before the call, and the
 * thread stores the one reply — the same messages a turn that was not streamed stores. With
 * tools, only the final reply's text is handed on; tool calls are joined, never shown as text.
 */
import { AIMessage, AIMessageChunk, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineAgent } from "../../../src/agent/define.ts";
import { runTurn } from "../../../src/agent/turn/pipeline.ts";
import type { ReplyPiece } from "../../../src/agent/turn/reply-stream.ts";
import { OfflineChatModel } from "../../../src/llm/offline.ts";
import { createMemoryLogger } from "../../../src/log.ts";
import { resolveMemoryConfig } from "../../../src/memory/config.ts";
import { readThreadMessages } from "../../../src/store/delta.ts";
import { InMemorySaver } from "../../../src/store/memory-saver.ts";

const echo = tool(async ({ text }: { text: string }) => `echo:${text}`, {
  name: "echo",
  description: "echo the text",
  schema: z.object({ text: z.string() }),
});
const plain = defineAgent({ name: "Streamer", description: "for tests", system: "Be brief." });
const withTools = defineAgent({ ...plain, tools: [echo] });

function setup(agent = plain) {
  const saver = new InMemorySaver({ agentId: "stream" });
  const model = new OfflineChatModel();
  const log = createMemoryLogger();
  const config = resolveMemoryConfig({ code: { window_size: 20 } }).config;
  const say = (text: string, pieces?: ReplyPiece[]) =>
    runTurn(
      {
        agent,
        config,
        model,
        checkpointer: saver,
        log,
        replyStream: pieces === undefined ? undefined : (p) => pieces.push(p),
      },
      { threadId: "t1", text },
    );
  return { say, saver, model, log };
}

async function storedMessages(saver: InMemorySaver): Promise<BaseMessage[]> {
  const { messages } = await readThreadMessages(saver, {
    configurable: { thread_id: "t1", checkpoint_ns: "" },
  });
  return messages;
}

const multiturnLines = (log: ReturnType<typeof createMemoryLogger>) =>
  log.lines.filter((l) => l.line.startsWith("multiturn:"));

describe("R12.1 a streamed turn", () => {
  it("R12.1 R3.4 hands on the reply word by word, logs multiturn once, and stores the one reply", async () => {
    const { say, saver, log } = setup();
    await say("hello");
    const pieces: ReplyPiece[] = [];
    const result = await say("what did I say?", pieces);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.map((p) => p.restart)).toEqual([true, ...pieces.slice(1).map(() => false)]);
    expect(pieces.map((p) => p.text).join("")).toBe(result.reply);
    expect(result.reply.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
    expect(multiturnLines(log)).toHaveLength(2);

    const stored = await storedMessages(saver);
    expect(stored.map((m) => m.getType())).toEqual(["human", "ai", "human", "ai"]);
    const last = stored.at(-1) as AIMessage;
    expect(AIMessage.isInstance(last) && !AIMessageChunk.isInstance(last)).toBe(true);
    expect(last.content).toBe(result.reply);
  });

  it("R12.1 with tools only the final reply streams; the tool call is joined into a call", async () => {
    const { say, saver, log } = setup(withTools);
    const pieces: ReplyPiece[] = [];
    const result = await say('/tool echo {"text":"ping"}', pieces);
    expect(pieces.map((p) => p.text).join("")).toBe(result.reply);
    expect(result.reply).toContain("tool results: echo:ping");
    expect(pieces.some((p) => p.text.includes("echo") && p.text.includes("{"))).toBe(false);
    // Two model calls (the tool call, the reply), each logged once before it.
    expect(multiturnLines(log)).toHaveLength(2);
    const stored = await storedMessages(saver);
    expect(stored.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai"]);
    expect((stored[1] as AIMessage).tool_calls).toMatchObject([
      { name: "echo", args: { text: "ping" } },
    ]);
    expect(ToolMessage.isInstance(stored[2]) && stored[2].content).toBe("echo:ping");
  });

  it("R12.1 a turn that is not streamed stores the same messages", async () => {
    const streamed = setup();
    const whole = setup();
    const a = await streamed.say("hello", []);
    const b = await whole.say("hello");
    expect(a.reply).toBe(b.reply);
    expect(a.added.map((m) => [m.getType(), m.content])).toEqual(
      b.added.map((m) => [m.getType(), m.content]),
    );
  });
});
