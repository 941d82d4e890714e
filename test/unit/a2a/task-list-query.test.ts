/** ListTasks' page tokens and query (pure logic of src/a2a/task-list-query.ts). */
import type { ListTasksRequest } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  decodePageToken,
  encodePageToken,
  normaliseTimestamp,
  taskListQuery,
} from "../../../src/a2a/task-list-query.ts";

const request = (over: Partial<ListTasksRequest>): ListTasksRequest => ({
  tenant: "",
  contextId: "",
  status: 0,
  pageToken: "",
  statusTimestampAfter: undefined,
  ...over,
});

describe("ListTasks page tokens", () => {
  it("a token round-trips (timestamp and any task id, | and non-ASCII included)", () => {
    for (const [ts, id] of [
      ["2026-01-02T03:04:05.678Z", "a|b"],
      ["", "태스크-1"],
    ] as const) {
      const token = encodePageToken(ts, id);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodePageToken(token)).toEqual({ ts, taskId: id });
    }
  });

  it("forged tokens are invalid params, never an internal error", () => {
    const b64 = (text: string) => btoa(text).replace(/=+$/, "");
    for (const token of [
      "not a token!",
      b64("no separator"),
      b64("2026-13-45T00:00:00Z|x"),
      b64("|"),
      "x".repeat(2000),
    ]) {
      expect(() => decodePageToken(token), token.slice(0, 20)).toThrow(/pageToken/);
    }
  });

  it("the query carries filters, the cursor as a task-store key, and the SDK's default page size", () => {
    const token = encodePageToken("2026-01-02T03:04:05.000Z", "t-9");
    expect(
      taskListQuery(
        request({
          contextId: "c",
          status: 3,
          pageToken: token,
          statusTimestampAfter: "2026-01-01T09:00:00+09:00",
        }),
        (id) => `k:${id}`,
      ),
    ).toEqual({
      contextId: "c",
      state: 3,
      after: "2026-01-01T00:00:00.000Z",
      cursor: { ts: "2026-01-02T03:04:05.000Z", key: "k:t-9" },
      limit: 50,
    });
    expect(taskListQuery(request({ pageSize: 7 }), (id) => id)).toEqual({ limit: 7 });
    expect(normaliseTimestamp("garbage")).toBe("");
  });
});
