import { AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { concat } from "@langchain/core/utils/stream";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OfflineChatModel, offlineWords } from "../../../src/llm/offline.ts";

describe("the offline model streams", () => {
  it("R12.1 one word at a time; the pieces make the reply invoke() gives", async () => {
    const model = new OfflineChatModel();
    const input = [new HumanMessage("hello there")];
    const whole = await model.invoke(input);
    const chunks: AIMessageChunk[] = [];
    for await (const c of await model.stream(input)) chunks.push(c);
    const texts = chunks.map((c) => String(c.content));
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.every((t) => t.trim().split(/\s+/).length === 1)).toBe(true);
    expect(texts.join("")).toBe(whole.content);
    expect(model.calls).toHaveLength(2);
  });

  it("R12.1 a tool-call answer is one chunk with its calls, no text", async () => {
    const echo = tool(async ({ x }: { x: string }) => x, {
      name: "echo",
      description: "echo",
      schema: z.object({ x: z.string() }),
    });
    const model = new OfflineChatModel().bindTools([echo]);
    const chunks: AIMessageChunk[] = [];
    for await (const c of await model.stream([new HumanMessage('/tool echo {"x":"hi"}')])) {
      chunks.push(c);
    }
    const whole = chunks.reduce((a, b) => concat(a, b), new AIMessageChunk(""));
    expect(whole.content).toBe("");
    expect(whole.tool_calls).toMatchObject([{ name: "echo", args: { x: "hi" } }]);
  });

  it("splits on words, keeping the spaces and line breaks", () => {
    expect(offlineWords("a b\nc  d")).toEqual(["a ", "b\n", "c  ", "d"]);
    expect(offlineWords("")).toEqual([""]);
  });
});
