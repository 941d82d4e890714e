import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { ThreadMessagesCache } from "../../../src/store/thread-cache.ts";

const messages = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0 ? new HumanMessage(`u${i}`) : new AIMessage(`a${i}`),
  );

describe("ThreadMessagesCache", () => {
  it("answers only for the checkpoint it holds", () => {
    const cache = new ThreadMessagesCache(100);
    cache.set("a:t", "cp-2", messages(4));
    expect(cache.get("a:t", "cp-2")?.messages).toHaveLength(4);
    expect(cache.get("a:t", "cp-1")).toBeUndefined();
    expect(cache.get("a:other", "cp-2")).toBeUndefined();
    cache.set("a:t", "cp-3", messages(6));
    expect(cache.get("a:t", "cp-2")).toBeUndefined();
    expect(cache.get("a:t")?.checkpointId).toBe("cp-3");
  });

  it("keeps a copy: changing the caller's array changes nothing held", () => {
    const cache = new ThreadMessagesCache(100);
    const list = messages(2);
    cache.set("a:t", "cp", list);
    list.push(new HumanMessage("later"));
    expect(cache.get("a:t", "cp")?.messages).toHaveLength(2);
  });

  it("holds at most maxMessages, dropping the least recently used threads first", () => {
    const cache = new ThreadMessagesCache(40);
    cache.set("a:1", "x", messages(10));
    cache.set("a:2", "x", messages(10));
    cache.set("a:3", "x", messages(10));
    expect(cache.get("a:1", "x")).toBeDefined(); // now the most recent
    cache.set("a:4", "x", messages(10));
    cache.set("a:5", "x", messages(10));
    expect(cache.size).toBe(4);
    expect(cache.get("a:2", "x")).toBeUndefined();
    expect(cache.get("a:1", "x")).toBeDefined();
  });

  it("does not keep a thread longer than a quarter of the bound, and forgets on request", () => {
    const cache = new ThreadMessagesCache(40);
    cache.set("a:long", "x", messages(11));
    expect(cache.get("a:long", "x")).toBeUndefined();
    cache.set("a:t", "x", messages(4));
    cache.forget("a:t");
    expect(cache.get("a:t", "x")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
