import { describe, expect, it } from "vitest";
import {
  type IndexedThread,
  indexTime,
  pageOfThreads,
  touchedEntry,
} from "../../../src/durable/thread-index.ts";

const entry = (id: string, at: string): IndexedThread => ({
  context_id: id,
  created_at: at,
  last_activity_at: at,
  message_count: 2,
});

describe("the Durable Object backends' conversation index", () => {
  it("prints times like Postgres (microseconds), so the API's cursors accept them", () => {
    expect(indexTime(new Date("2026-12-02T10:00:00.123Z"))).toBe("2026-12-02T10:00:00.123000Z");
  });

  it("keeps created_at and updates activity and length on each turn", () => {
    const first = touchedEntry(undefined, "c", 2, "2026-01-01T00:00:00.000000Z");
    const next = touchedEntry(first, "c", 4, "2026-01-02T00:00:00.000000Z");
    expect(next).toEqual({
      context_id: "c",
      created_at: "2026-01-01T00:00:00.000000Z",
      last_activity_at: "2026-01-02T00:00:00.000000Z",
      message_count: 4,
    });
  });

  it("pages newest activity first, ties by context id, without repeats or gaps", () => {
    const t = (n: number) => `2026-01-0${n}T00:00:00.000000Z`;
    const all = [entry("a", t(1)), entry("b", t(3)), entry("c", t(3)), entry("d", t(2))];
    const first = pageOfThreads(all, undefined, 2);
    expect(first.threads.map((x) => x.context_id)).toEqual(["c", "b"]);
    expect(first.more).toBe(true);
    const last = first.threads.at(-1) as IndexedThread;
    const second = pageOfThreads(all, { at: last.last_activity_at, id: last.context_id }, 2);
    expect(second.threads.map((x) => x.context_id)).toEqual(["d", "a"]);
    expect(second.more).toBe(false);
    expect(pageOfThreads([], undefined, 5)).toEqual({ threads: [], more: false });
  });
});
