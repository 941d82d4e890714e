import { createHash } from "node:crypto";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { authenticate, resolveA2AAuth, resolveMemoryConfig } from "llamon";
import { describe, expect, it } from "vitest";
import { agent } from "../src/agent.ts";
import { CONFIRMED, QUESTIONS } from "../src/flow.ts";
import { IntakeFlowModel } from "../src/flow-model.ts";

const model = new IntakeFlowModel();

async function say(thread: BaseMessage[], text: string): Promise<string> {
  thread.push(new HumanMessage(text));
  const reply = await model.invoke(thread);
  thread.push(reply);
  return String(reply.content);
}

describe("__PROJECT_NAME__", () => {
  it("is a valid llamon agent with the memory mode it was created with", () => {
    expect(agent.name).toBe("__PROJECT_NAME__");
    expect(resolveMemoryConfig({ code: agent.memory }).config.backend).toBe("__MEMORY_BACKEND__");
  });

  it("takes the intake step by step over one conversation, then confirms it", async () => {
    const thread: BaseMessage[] = [];
    expect(await say(thread, "문의할 게 있어요")).toBe(QUESTIONS[0].ask);
    expect(await say(thread, "김민지")).toBe(QUESTIONS[1].ask);
    expect(await say(thread, "환불 문의")).toBe(QUESTIONS[2].ask);
    const done = await say(thread, "minji@example.com");
    expect(done.startsWith(CONFIRMED)).toBe(true);
    expect(done).toContain("name: 김민지");
    expect(done).toContain("topic: 환불 문의");
    expect(done).toContain("contact: minji@example.com");
    expect(await say(thread, "다시")).toBe(QUESTIONS[0].ask);
  });

  it("starts over when it cannot see the conversation (what --memory off means)", async () => {
    expect(String((await model.invoke([new HumanMessage("김민지")])).content)).toBe(
      QUESTIONS[0].ask,
    );
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
