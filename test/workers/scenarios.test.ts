/**
 * The reference agent's conformance scenarios (LLAMON_A2A_SCENARIOS=on) through
 * the Worker: a task that asks for input and is continued, and a task that stays working,
 * streams progress, and is canceled or resubscribed.
 */
import { describe, expect, it } from "vitest";
import { type Instance, instance } from "./auth-helpers.ts";

type Event = { id: unknown; result?: Record<string, unknown>; error?: { code: number } };

function post(worker: Instance, body: unknown): Promise<Response> {
  return worker.fetch("https://agent.example/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Reads SSE events one at a time. */
function events(res: Response): { next(): Promise<Event | undefined>; rest(): Promise<Event[]> } {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (): Promise<Event | undefined> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n");
        if (data !== "") return JSON.parse(data) as Event;
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    next,
    async rest() {
      const all: Event[] = [];
      for (let e = await next(); e !== undefined; e = await next()) all.push(e);
      return all;
    },
  };
}

const message = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { role: "user", parts: [{ kind: "text", text }], ...extra },
});

/** A `/working <seconds>` task streamed with message/stream: its events, one at a time. */
async function streamWorking(worker: Instance, seconds: number) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "message/stream",
    params: message(`/working ${seconds}`),
  };
  return events(await post(worker, body));
}

const stateOf = (e: Event | undefined) =>
  (e?.result as { status?: { state?: string } } | undefined)?.status?.state;

describe("conformance scenarios of the reference agent", () => {
  it("/input-required ends input-required; a message naming the task continues it to completed", async () => {
    const worker = instance({ LLAMON_A2A_SCENARIOS: "on" });
    const first = await worker.rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: message("/input-required please"),
    });
    const task = first.body.result as { id: string; contextId: string; status: { state: string } };
    expect(task.status.state).toBe("input-required");
    expect(first.replyText).toContain("what should I do next?");
    // The tck's messageId prefix picks the same scenario.
    const tck = await worker.rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: message("TCK prerequisite task creation", { messageId: "tck-input-required-1" }),
    });
    expect((tck.body.result as { status: { state: string } }).status.state).toBe("input-required");

    const next = await worker.rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "message/send",
      params: message("here is the answer", { taskId: task.id, contextId: task.contextId }),
    });
    const done = next.body.result as { id: string; status: { state: string }; history: unknown[] };
    expect(done.id).toBe(task.id);
    expect(done.status.state).toBe("completed");
    expect(next.firstLine).toMatch(/^offline-model: received=1/);
    expect(done.history.length).toBeGreaterThanOrEqual(4);
  });

  it("/working stays working and streams progress; tasks/cancel from another request cancels it", async () => {
    const worker = instance({ LLAMON_A2A_SCENARIOS: "on" });
    const stream = await streamWorking(worker, 60);
    const first = await stream.next();
    expect(stateOf(first)).toBe("working");
    const taskId = (first?.result as { id: string } | undefined)?.id;
    const progress = await stream.next();
    expect(progress?.result).toMatchObject({ kind: "status-update", status: { state: "working" } });
    expect(JSON.stringify(progress)).toContain("scenario working: 1/60 s");

    const got = await worker.rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/get",
      params: { id: taskId },
    });
    expect((got.body.result as { status: { state: string } }).status.state).toBe("working");
    const canceled = await worker.rpc({
      jsonrpc: "2.0",
      id: 3,
      method: "tasks/cancel",
      params: { id: taskId },
    });
    expect((canceled.body.result as { status: { state: string } }).status.state).toBe("canceled");
    const rest = await stream.rest();
    expect(stateOf(rest.at(-1))).toBe("canceled");
  });

  it("tasks/resubscribe to a working task gets its snapshot, then its progress and its end", async () => {
    const worker = instance({ LLAMON_A2A_SCENARIOS: "on" });
    const stream = await streamWorking(worker, 1);
    const taskId = ((await stream.next())?.result as { id: string } | undefined)?.id;
    const resub = await post(worker, {
      jsonrpc: "2.0",
      id: 4,
      method: "tasks/resubscribe",
      params: { id: taskId },
    });
    expect(resub.headers.get("content-type")).toMatch(/^text\/event-stream/);
    // The subscription follows what the task's own stream saves, as its client reads it.
    const [followed, original] = await Promise.all([events(resub).rest(), stream.rest()]);
    expect(followed[0]?.result).toMatchObject({
      kind: "task",
      id: taskId,
      status: { state: "working" },
    });
    expect(stateOf(followed.at(-1))).toBe("completed");
    expect(stateOf(original.at(-1))).toBe("completed");
  });

  it("LLAMON_A2A_SCENARIOS=input-required: every new task asks first, and can be continued or canceled", async () => {
    const worker = instance({ LLAMON_A2A_SCENARIOS: "input-required" });
    const ask = async () => {
      const res = await worker.rpc({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: message("hi"),
      });
      return res.body.result as { id: string; status: { state: string } };
    };
    const first = await ask();
    expect(first.status.state).toBe("input-required");
    const next = await worker.rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "message/send",
      params: message("go on", { taskId: first.id }),
    });
    expect((next.body.result as { status: { state: string } }).status.state).toBe("completed");
    expect(next.firstLine).toMatch(/^offline-model: received=1/);
    const second = await ask();
    const canceled = await worker.rpc({
      jsonrpc: "2.0",
      id: 3,
      method: "tasks/cancel",
      params: { id: second.id },
    });
    expect((canceled.body.result as { status: { state: string } }).status.state).toBe("canceled");
  });

  it("without LLAMON_A2A_SCENARIOS the same text is an ordinary turn", async () => {
    const worker = instance();
    const res = await worker.rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "message/send",
      params: message("/input-required please"),
    });
    expect((res.body.result as { status: { state: string } }).status.state).toBe("completed");
    expect(res.firstLine).toMatch(/^offline-model: received=1/);
  });

  it("R12.3 the a2a-tck's data model scenarios: artifacts of each part kind, in both versions, and a direct Message answer that keeps no task", async () => {
    const worker = instance({ LLAMON_A2A_SCENARIOS: "on" });
    const v1 = (messageId: string, method = "SendMessage") =>
      worker
        .fetch("https://agent.example/", {
          method: "POST",
          headers: { "content-type": "application/json", "A2A-Version": "1.0" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method,
            params: { message: { role: "ROLE_USER", parts: [{ text: "tck" }], messageId } },
          }),
        })
        .then((r) => r.json() as Promise<{ result: Record<string, unknown> }>);
    const partOf = async (prefix: string) => {
      const { result } = await v1(`${prefix}-${crypto.randomUUID()}`);
      const task = result.task as { artifacts: { artifactId: string; parts: unknown[] }[] };
      expect(task.artifacts[0]?.artifactId).toBeTruthy();
      return task.artifacts[0]?.parts[0];
    };
    expect(await partOf("tck-artifact-text")).toMatchObject({ text: "Generated text content" });
    expect(await partOf("tck-artifact-file")).toMatchObject({
      raw: btoa("tck"),
      mediaType: "text/plain",
      filename: "output.txt",
    });
    expect(await partOf("tck-artifact-file-url")).toMatchObject({
      url: "https://example.com/output.txt",
      mediaType: "text/plain",
      filename: "output.txt",
    });
    expect(await partOf("tck-artifact-data")).toMatchObject({ data: { key: "value", count: 42 } });
    // 0.3 clients get the same artifacts in 0.3's part shapes.
    const legacy = (await (
      await post(worker, {
        jsonrpc: "2.0",
        id: 2,
        method: "message/send",
        params: message("tck", { messageId: `tck-artifact-data-${crypto.randomUUID()}` }),
      })
    ).json()) as { result: { kind: string; artifacts: { parts: unknown[] }[] } };
    expect(legacy.result.kind).toBe("task");
    expect(legacy.result.artifacts[0]?.parts[0]).toMatchObject({
      kind: "data",
      data: { key: "value", count: 42 },
    });
    const direct = await v1(`tck-message-response-${crypto.randomUUID()}`);
    expect(direct.result.task).toBeUndefined();
    expect(direct.result.message).toMatchObject({
      role: "ROLE_AGENT",
      parts: [{ text: "Direct message response" }],
    });
    const listed = (await (
      await worker.fetch("https://agent.example/", {
        method: "POST",
        headers: { "content-type": "application/json", "A2A-Version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ListTasks", params: {} }),
      })
    ).json()) as { result: { tasks: { artifacts?: { parts: { text?: string }[] }[] }[] } };
    const texts = JSON.stringify(listed.result.tasks);
    expect(texts).not.toContain("Direct message response");
  });

  it("R12.2 SubscribeToTask and tasks/resubscribe follow an input-required task that another request answers, to its end", async () => {
    const worker = instance({ LLAMON_A2A_SCENARIOS: "on" });
    for (const [method, version] of [
      ["SubscribeToTask", "1.0"],
      ["tasks/resubscribe", "0.3"],
    ] as const) {
      const first = await worker.rpc({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: message("/input-required please"),
      });
      const task = first.body.result as { id: string; contextId: string };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (version === "1.0") headers["A2A-Version"] = "1.0";
      const subscribed = await worker.fetch("https://agent.example/", {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method, params: { id: task.id } }),
      });
      expect(subscribed.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const followed = events(subscribed);
      const snapshot = await followed.next();
      expect(JSON.stringify(snapshot?.result)).toContain(task.id);
      // Another request (another client) answers the task; the subscription sees it happen.
      const answered = await worker.rpc({
        jsonrpc: "2.0",
        id: 3,
        method: "message/send",
        params: message("here is the answer", { taskId: task.id, contextId: task.contextId }),
      });
      expect((answered.body.result as { status: { state: string } }).status.state).toBe(
        "completed",
      );
      const rest = await followed.rest();
      const text = JSON.stringify(rest);
      expect(text, method).toContain("offline-model: received=");
      const last = rest.at(-1)?.result as {
        status?: { state?: string };
        statusUpdate?: { status?: { state?: string } };
        final?: boolean;
      };
      if (version === "1.0") expect(last.statusUpdate?.status?.state).toBe("TASK_STATE_COMPLETED");
      else expect(last).toMatchObject({ status: { state: "completed" }, final: true });
    }
  });
});
