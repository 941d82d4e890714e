/**
 * issue 15: the Worker bundle's shims (wrangler.toml [alias]) are what runs in workerd too:
 * LangSmith's client is llamon's stand-in (tracing off), zod keeps only English messages —
 * and a turn through the Worker works with them (the other workerd tests run on them as well).
 */

import { exports } from "cloudflare:workers";
import { RunnableLambda } from "@langchain/core/runnables";
import { Client } from "langsmith";
import { isTraceableFunction } from "langsmith/singletons/traceable";
import { describe, expect, it } from "vitest";
import { z } from "zod";

describe("bundle shims inside workerd", () => {
  it("issue 15: langsmith is llamon's stand-in, which says how to get tracing back", () => {
    expect(isTraceableFunction(() => 1)).toBe(false);
    expect(() => new Client()).toThrow(/remove the langsmith lines of \[alias\] to trace/);
  });

  it("issue 15: turning LangSmith tracing on fails a run with how to get tracing back", async () => {
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

  it("issue 15: zod's locales are English only, and its messages are English", () => {
    expect(Object.keys(z.locales)).toEqual(["en"]);
    const result = z.object({ n: z.number() }).safeParse({ n: "x" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      "Invalid input: expected number, received string",
    );
  });

  it("issue 15: a turn through the Worker runs on them", async () => {
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
