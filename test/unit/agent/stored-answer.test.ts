/**
 * R11.2: the stored turn of a resent messageId rebuilt from what the read found (transcript rows
 * of the turn) and the live tail (agent/stored-answer.ts) — and refused when any of it is gone.
 */
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { storedAnswer } from "../../../src/agent/turn/stored-answer.ts";
import { isLlamonError } from "../../../src/errors.ts";
import type { StoredTurn } from "../../../src/store/message-ids.ts";

const user = (id: string) => new HumanMessage({ content: id, id });
const ai = (id: string) => new AIMessage({ content: `re ${id}`, id });
const toolCall = (id: string) =>
  new AIMessage({
    content: "",
    id,
    tool_calls: [{ id: `call-${id}`, name: "echo", args: {}, type: "tool_call" }],
  });
const result = (id: string) => new ToolMessage({ content: "echo", tool_call_id: `call-${id}`, id });

/** A thread as positions 0…n-1: the transcript holds [0, offset), the tail the rest. */
const thread: BaseMessage[] = [
  user("a"),
  ai("a1"),
  user("x"),
  toolCall("x1"),
  result("x2"),
  ai("x3"),
  user("b"),
  ai("b1"),
];

function found(
  seq: number,
  end: number | null,
  offset: number,
  rows = thread.slice(seq, Math.min(end ?? offset, offset)),
): StoredTurn {
  return { seq, end, transcript: rows.map((message, i) => ({ seq: seq + i, message })) };
}

const ids = (messages: readonly BaseMessage[]) => messages.map((m) => m.id);
const prefix = (offset: number) => ({ messages: offset, conversation: offset, ai: true });

function refused(call: () => unknown): boolean {
  try {
    call();
  } catch (error) {
    return isLlamonError(error, "MESSAGE_ALREADY_ANSWERED");
  }
  return false;
}

describe("R11.2 the stored answer of a resend", () => {
  it("R11.2 reads a turn wholly in the transcript, and one split between transcript and tail", () => {
    for (const offset of [7, 6, 5, 4, 3]) {
      const tail = thread.slice(offset);
      expect(
        ids(storedAnswer("x", found(2, 6, offset), prefix(offset), tail)),
        `at ${offset}`,
      ).toEqual(["x", "x1", "x2", "x3"]);
    }
  });

  it("R11.2 with the end unknown (a row written before the end was), the turn ends at the next user message", () => {
    for (const offset of [7, 5, 3]) {
      const tail = thread.slice(offset);
      const end = offset > 6 ? 6 : null;
      expect(ids(storedAnswer("x", found(2, end, offset), prefix(offset), tail))).toEqual([
        "x",
        "x1",
        "x2",
        "x3",
      ]);
    }
    // The last turn, its end unknown and nothing after it: the rest of the tail.
    expect(ids(storedAnswer("b", found(6, null, 7), prefix(7), thread.slice(7)))).toEqual([
      "b",
      "b1",
    ]);
  });

  it("R11.2 R4.2 refuses a turn whose rows are gone (trimmed) or are another turn's", () => {
    // Trim deleted the transcript rows.
    expect(refused(() => storedAnswer("x", found(2, 6, 7, []), prefix(7), thread.slice(7)))).toBe(
      true,
    );
    // A partial trim left the end of the turn only.
    expect(
      refused(() =>
        storedAnswer(
          "x",
          { seq: 2, end: 6, transcript: [{ seq: 4, message: result("x2") }] },
          prefix(7),
          thread.slice(7),
        ),
      ),
    ).toBe(true);
    // Trim kept the whole thread in the checkpoint (no transcript); x is not in it any more.
    expect(refused(() => storedAnswer("x", found(2, 6, 0, []), prefix(0), thread.slice(6)))).toBe(
      true,
    );
    // Positions reused by a later layout: the row there is another message.
    expect(refused(() => storedAnswer("x", found(0, 2, 7), prefix(7), thread.slice(7)))).toBe(true);
  });
});
