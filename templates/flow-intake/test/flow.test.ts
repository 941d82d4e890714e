import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { resolveMemoryConfig } from "llamon";
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
});
