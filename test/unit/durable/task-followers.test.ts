/**
 * The subscribers of a task list object (src/durable/task-followers.ts): each save of a task
 * reaches every follower of that task, and a follower's stream ends at a terminal state, when
 * the record goes, or after the idle bound.
 */
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { TaskFollowers } from "../../../src/durable/task-followers.ts";

async function lines(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const text = await new Response(stream).text();
  return text.split("\n").filter((line) => line !== "");
}

describe("R12.2 task followers", () => {
  it("every follower of a task gets each later save; a terminal state ends the stream", async () => {
    const followers = new TaskFollowers(60_000);
    const a = lines(followers.follow("k1"));
    const b = lines(followers.follow("k1"));
    const other = followers.follow("k2");
    followers.saved("k1", '{"n":1}', TaskState.TASK_STATE_WORKING);
    followers.saved("k2", '{"other":true}', TaskState.TASK_STATE_WORKING);
    followers.saved("k1", '{"n":2}', TaskState.TASK_STATE_INPUT_REQUIRED);
    followers.saved("k1", '{"n":3}', TaskState.TASK_STATE_COMPLETED);
    // After the end nothing more arrives (the follower is gone).
    followers.saved("k1", '{"n":4}', TaskState.TASK_STATE_COMPLETED);
    expect(await a).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(await b).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    followers.gone(["k2"]);
    expect(await lines(other)).toEqual(['{"other":true}']);
  });

  it("a deleted or erased record ends its followers; so does the idle bound", async () => {
    const followers = new TaskFollowers(50);
    const erased = lines(followers.follow("gone"));
    followers.saved("gone", '{"n":1}', TaskState.TASK_STATE_WORKING);
    followers.gone(["gone"]);
    expect(await erased).toEqual(['{"n":1}']);
    const started = Date.now();
    expect(await lines(followers.follow("quiet"))).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });

  it("a follower that cancels its stream is forgotten", async () => {
    const followers = new TaskFollowers(60_000);
    const stream = followers.follow("k");
    await stream.cancel();
    // No follower left to write to: a save does not throw on a canceled stream.
    expect(() => followers.saved("k", "{}", TaskState.TASK_STATE_WORKING)).not.toThrow();
  });
});
