/**
 * The intake flow through the Worker (inside workerd, offline: no LLM): step by step over one
 * conversation, each answer checked, the A2A task `input-required` between steps and
 * `completed` at the confirmation — and the answers kept in the conversation's graph state,
 * however many messages follow (with memory off, every request starts over).
 */

import { env, exports } from "cloudflare:workers";
import { createHash } from "node:crypto";
import { authenticate, resolveA2AAuth, resolveMemoryConfig } from "llamon";
import { describe, expect, it } from "vitest";
import { agent } from "../src/agent.ts";
import { ALREADY, CONFIRMED, QUESTIONS } from "../src/flow.ts";
import { TEST_A2A_KEY } from "./test-key.ts";

const remembers = env.MEMORY_BACKEND !== "off";

/** One A2A message/send; `taskId` continues an input-required task. */
async function turn(contextId: string, text: string, taskId?: string) {
  const res = await exports.default.fetch("http://agent/", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TEST_A2A_KEY}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: {
        message: { contextId, taskId, role: "user", parts: [{ kind: "text", text }] },
      },
    }),
  });
  const body = (await res.json()) as {
    result?: { id: string; status: { state: string; message?: { parts: { text?: string }[] } } };
    error?: unknown;
  };
  if (body.result === undefined) throw new Error(`no task: ${JSON.stringify(body.error)}`);
  const { id, status } = body.result;
  const reply = (status.message?.parts ?? []).map((p) => p.text ?? "").join("");
  return { taskId: id, state: status.state, reply };
}

/** The intake up to its confirmation, continuing one input-required task. */
async function intake(contextId: string) {
  let t = await turn(contextId, "문의할 게 있어요");
  for (const answer of ["김민지", "환불 문의", "minji@example.com"]) {
    t = await turn(contextId, answer, t.state === "input-required" ? t.taskId : undefined);
  }
  return t;
}

describe("__PROJECT_NAME__", () => {
  it("is a valid llamon flow with the memory mode it was created with", () => {
    expect(agent.name).toBe("__PROJECT_NAME__");
    expect(agent.flow.steps.map((s) => s.id)).toEqual(QUESTIONS.map((q) => q.key));
    expect(resolveMemoryConfig({ code: agent.memory }).config.backend).toBe("__MEMORY_BACKEND__");
  });

  it("takes the intake step by step (input-required between steps), then confirms it", async () => {
    const first = await turn("c-steps", "문의할 게 있어요");
    expect(first).toMatchObject({ state: "input-required", reply: QUESTIONS[0].ask });
    const second = await turn("c-steps", "김민지", first.taskId);
    if (!remembers) {
      // Memory off: nothing is kept between requests, so the flow starts over each time.
      expect(second.reply).toBe(QUESTIONS[0].ask);
      return;
    }
    expect(second).toMatchObject({ state: "input-required", reply: QUESTIONS[1].ask });
    expect(second.taskId).toBe(first.taskId); // the same task continues
    const third = await turn("c-steps", "환불 문의", second.taskId);
    expect(third.reply).toBe(QUESTIONS[2].ask);
    const wrong = await turn("c-steps", "내일 연락 주세요", third.taskId);
    expect(wrong.state).toBe("input-required");
    expect(wrong.reply).toContain("이메일(name@example.com)이나 전화번호");
    expect(wrong.reply.endsWith(QUESTIONS[2].ask)).toBe(true);
    const done = await turn("c-steps", "minji@example.com", wrong.taskId);
    expect(done.state).toBe("completed");
    expect(done.reply.startsWith(CONFIRMED)).toBe(true);
    expect(done.reply).toContain("name: 김민지");
    expect(done.reply).toContain("topic: 환불 문의");
    expect(done.reply).toContain("contact: minji@example.com");
    expect((await turn("c-steps", "다시")).reply).toBe(QUESTIONS[0].ask);
  });

  it("still knows the intake after more messages than the window holds, and never takes the next message as the name", async () => {
    const done = await intake("c-long");
    if (!remembers) {
      expect(done.reply).toBe(QUESTIONS[0].ask);
      return;
    }
    expect(done.reply.startsWith(CONFIRMED)).toBe(true);
    const window = resolveMemoryConfig({ code: agent.memory }).config.window_size;
    for (let i = 0; i <= window + 4; i += 1) await turn("c-long", `추가 질문 ${i}`);
    const later = await turn("c-long", "박서준");
    // Not a new intake that takes "박서준" as the name: the confirmed answers, unchanged.
    expect(later.reply).not.toBe(QUESTIONS[1].ask);
    expect(later.reply).toContain("name: 김민지");
    expect(later.reply).toContain("contact: minji@example.com");
    expect(later.reply).not.toContain("박서준");
    expect(later.reply.startsWith(ALREADY)).toBe(true);
    expect(later.state).toBe("completed");
  });

  it('takes A2A calls only with a key whose SHA-256 is in A2A_API_KEYS (wrangler.toml: A2A_AUTH = "api_key")', async () => {
    // In production: npx wrangler secret put A2A_API_KEYS, value "alice=<sha256 hex of alice's key>".
    const key = "an-example-key-use-openssl-rand-hex-32";
    const hash = createHash("sha256").update(key).digest("hex");
    const auth = resolveA2AAuth({ A2A_AUTH: "api_key", A2A_API_KEYS: `alice=${hash}` }, agent.auth);
    const caller = await authenticate(new Headers({ authorization: `Bearer ${key}` }), auth);
    expect(caller.principal).toBe("alice"); // alice's conversations are hers alone
    await expect(authenticate(new Headers(), auth)).rejects.toThrow(/requires an API key/);
    await expect(
      authenticate(new Headers({ authorization: "Bearer someone-elses-key" }), auth),
    ).rejects.toThrow(/not accepted/);
  });
});
