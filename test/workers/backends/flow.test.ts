/**
 * A flow on the Durable Object backends (runs in workers-sqlite and
 * workers-in-memory): the conversation's object runs the flow's turns and keeps its position
 * in the checkpoint there, so the intake continues across requests, input-required between
 * steps, far beyond the window.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFlow } from "../../../src/agent/flow.ts";
import { createWorker } from "../../../src/worker/create-worker.ts";

const backend = (env as unknown as { MEMORY_BACKEND: string }).MEMORY_BACKEND;

const flow = defineFlow({
  name: "do flow",
  description: "for tests",
  steps: [
    { id: "name", ask: "Your name?", answer: z.string().min(1) },
    { id: "email", ask: "Your email?", answer: z.email(), invalid: "Not an email." },
  ],
  finish: ({ answers }) => `Thanks ${answers.name} <${answers.email}>.`,
  done: ({ answers }) => `Already have: ${answers.name}.`,
  memory: { window_size: 4 },
});

const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} };

/** One v0.3 message/send. The flow is registered per request: this isolate also loads the
 *  reference Worker, and the conversation object runs whichever agent the script registered. */
async function send(contextId: string, text: string) {
  const worker = createWorker(flow);
  const res = await worker.fetch?.(
    new Request("http://agent.local/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: { contextId, role: "user", parts: [{ kind: "text", text }] } },
      }),
    }) as never,
    { ...env } as never,
    ctx as never,
  );
  const body = (await (res as Response).json()) as {
    result: { status: { state: string; message?: { parts: { text?: string }[] } } };
  };
  const reply = (body.result.status.message?.parts ?? []).map((p) => p.text ?? "").join("");
  return { state: body.result.status.state, reply };
}

describe(`a flow on the ${backend} backend`, () => {
  it("takes the steps over requests and keeps the answers beyond the window", async () => {
    const c = `do-flow-${crypto.randomUUID()}`;
    expect(await send(c, "hi")).toEqual({ state: "input-required", reply: "Your name?" });
    expect(await send(c, "Mina")).toEqual({ state: "input-required", reply: "Your email?" });
    expect(await send(c, "nope")).toEqual({
      state: "input-required",
      reply: "Not an email.\nYour email?",
    });
    expect(await send(c, "mina@example.com")).toEqual({
      state: "completed",
      reply: "Thanks Mina <mina@example.com>.",
    });
    for (let i = 0; i < 6; i += 1) await send(c, `more ${i}`); // window_size 4
    expect(await send(c, "Jun")).toEqual({ state: "completed", reply: "Already have: Mina." });
  });
});
