/**
 * The Worker bundle's shims (wrangler.toml [alias]) are what runs in workerd too:
 * LangSmith's client is llamon's stand-in (tracing off), zod keeps only English messages,
 * @langchain/core's deserialiser map keeps what a checkpoint holds (cold start) —
 * and a turn through the Worker works with them (the other workerd tests run on them as well).
 */

import { exports } from "cloudflare:workers";
import { Document } from "@langchain/core/documents";
import {
  AIMessage,
  AIMessageChunk,
  ChatMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ChatGeneration } from "@langchain/core/outputs";
import { ChatPromptValue } from "@langchain/core/prompt_values";
import { RunnableLambda } from "@langchain/core/runnables";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { Client } from "langsmith";
import { isTraceableFunction } from "langsmith/singletons/traceable";
import { describe, expect, it } from "vitest";
import { z } from "zod";

describe("bundle shims inside workerd", () => {
  it("langsmith is llamon's stand-in, which says how to get tracing back", () => {
    expect(isTraceableFunction(() => 1)).toBe(false);
    expect(() => new Client()).toThrow(/remove the langsmith lines of \[alias\] to trace/);
  });

  it("turning LangSmith tracing on fails a run with how to get tracing back", async () => {
    const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process
      ?.env;
    expect(env).toBeDefined();
    if (env === undefined) return;
    env.LANGCHAIN_TRACING_V2 = "true";
    try {
      await expect(RunnableLambda.from((x: number) => x + 1).invoke(1)).rejects.toThrow(
        /remove the langsmith lines of \[alias\] to trace/,
      );
    } finally {
      delete env.LANGCHAIN_TRACING_V2;
    }
    expect(await RunnableLambda.from((x: number) => x + 1).invoke(1)).toBe(2);
  });

  it("zod's locales are English only, and its messages are English", () => {
    expect(Object.keys(z.locales)).toEqual(["en"]);
    const result = z.object({ n: z.number() }).safeParse({ n: "x" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      "Invalid input: expected number, received string",
    );
  });

  it("every message kind, generation outputs and prompt values are read back from a checkpoint", async () => {
    const serde = new JsonPlusSerializer();
    const stored = {
      messages: [
        new SystemMessage({ content: "system", id: "s" }),
        new HumanMessage({ content: "서울에 살아요", id: "h" }),
        new AIMessage({
          content: "",
          id: "a",
          tool_calls: [{ id: "call-1", name: "lookup", args: { q: "x" } }],
        }),
        new ToolMessage({
          content: "found",
          tool_call_id: "call-1",
          id: "t",
          artifact: [new Document({ pageContent: "doc", metadata: { n: 1 } })],
        }),
        new AIMessageChunk({ content: "chunk", id: "c" }),
        new ChatMessage({ content: "custom", role: "critic", id: "m" }),
        new RemoveMessage({ id: "h" }),
      ],
      generation: { text: "g", message: new AIMessage("g") } satisfies ChatGeneration,
      prompt: new ChatPromptValue([new HumanMessage("p")]),
    };
    const [type, bytes] = await serde.dumpsTyped(stored);
    const back = (await serde.loadsTyped(type, bytes)) as typeof stored;
    const kinds = (ms: typeof stored.messages) =>
      ms.map((m) => [m.constructor, m.id, JSON.stringify(m.content)]);
    expect(kinds(back.messages)).toEqual(kinds(stored.messages));
    expect(back.messages.map((m) => m.constructor)).toEqual([
      SystemMessage,
      HumanMessage,
      AIMessage,
      ToolMessage,
      AIMessageChunk,
      ChatMessage,
      RemoveMessage,
    ]);
    expect((back.messages[2] as AIMessage).tool_calls?.[0]?.args).toEqual({ q: "x" });
    // A Document is stored as its fields (core does not serialise it as a class).
    const artifact = (back.messages[3] as ToolMessage).artifact as Document[];
    expect(artifact[0]).toMatchObject({ pageContent: "doc", metadata: { n: 1 } });
    expect(back.generation.message).toBeInstanceOf(AIMessage);
    expect(back.prompt).toBeInstanceOf(ChatPromptValue);
    expect(back.prompt.messages[0]).toBeInstanceOf(HumanMessage);
  });

  /** A LangChain object as a checkpoint stores it, read back through LangGraph's serde. */
  const readStored = (id: string[], kwargs: Record<string, unknown>) =>
    new JsonPlusSerializer().loadsTyped(
      "json",
      new TextEncoder().encode(JSON.stringify({ lc: 1, type: "constructor", id, kwargs })),
    );

  it("a message stored under a longer namespace is still found, through its module", async () => {
    const back = await readStored(["langchain_core", "messages", "tool", "ToolMessage"], {
      content: "ok",
      tool_call_id: "c1",
    });
    expect(back).toBeInstanceOf(ToolMessage);
  });

  it("any other stored LangChain class is refused with how to read it", async () => {
    await expect(
      readStored(["langchain_core", "prompts", "prompt", "PromptTemplate"], {
        template: "{x}",
        inputVariables: ["x"],
      }),
    ).rejects.toThrow(
      /langchain_core\/prompts\/prompt cannot be read back in this Worker.*Remove the "\.\/import_map\.js" line of \[alias\]/,
    );
  });

  it("a turn through the Worker runs on them", async () => {
    const res = await exports.default.fetch("http://worker/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: {
          message: { contextId: "shim-ctx", role: "user", parts: [{ kind: "text", text: "hi" }] },
        },
      }),
    });
    const body = (await res.json()) as {
      result: { status: { message: { parts: { text: string }[] } } };
    };
    expect(body.result.status.message.parts[0]?.text.split("\n")[0]).toBe(
      "offline-model: received=1 has_prior=false",
    );
  });
});
