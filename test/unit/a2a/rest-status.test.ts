/**
 * The HTTP+JSON binding answers A2A errors with the statuses of the A2A 1.0 error mapping
 * (TaskNotCancelable 409, ContentTypeNotSupported 415, PushNotificationNotSupported 400 on
 * the push notification config routes), and nothing is stored by a refused call.
 */
import { describe, expect, it } from "vitest";
import { BASE_URL, makeApp } from "./helpers.ts";

const V1 = { "content-type": "application/json", "A2A-Version": "1.0" };

function rest(
  t: ReturnType<typeof makeApp>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return Promise.resolve(
    t.app.fetch(
      new Request(`${BASE_URL}/rest${path}`, {
        method,
        headers: body === undefined ? { "A2A-Version": "1.0" } : V1,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ),
  );
}

async function sent(t: ReturnType<typeof makeApp>): Promise<string> {
  const res = await rest(t, "POST", "/message:send", {
    message: {
      messageId: crypto.randomUUID(),
      role: "ROLE_USER",
      parts: [{ text: "hello" }],
    },
  });
  expect(res.status).toBe(200);
  const task = (await res.json()) as { task: { id: string } };
  return task.task.id;
}

describe("R12.3 HTTP+JSON error statuses (A2A 1.0 error mapping)", () => {
  it("CancelTask of a completed task is 409 TaskNotCancelable", async () => {
    const t = makeApp();
    const id = await sent(t);
    const res = await rest(t, "POST", `/tasks/${id}:cancel`, {});
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      error: {
        code: 409,
        status: "FAILED_PRECONDITION",
        details: [{ reason: "TASK_NOT_CANCELABLE" }],
      },
    });
  });

  it("a message of only a file part is 415 ContentTypeNotSupported, and no turn runs", async () => {
    const t = makeApp();
    const res = await rest(t, "POST", "/message:send", {
      message: {
        messageId: crypto.randomUUID(),
        role: "ROLE_USER",
        parts: [{ url: "https://x/y.pdf", mediaType: "application/pdf" }],
      },
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: { code: 415, status: "INVALID_ARGUMENT" } });
    expect(t.turns.inputs).toHaveLength(0);
  });

  it("the push notification config routes answer 400 PushNotificationNotSupported, not 404", async () => {
    const t = makeApp();
    const id = await sent(t);
    const calls: [string, string, unknown][] = [
      ["POST", `/tasks/${id}/pushNotificationConfigs`, { url: "https://hook.example/a2a" }],
      ["GET", `/tasks/${id}/pushNotificationConfigs`, undefined],
      ["GET", `/tasks/${id}/pushNotificationConfigs/cfg-1`, undefined],
      ["DELETE", `/tasks/${id}/pushNotificationConfigs/cfg-1`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await rest(t, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json(), `${method} ${path}`).toMatchObject({
        error: {
          code: 400,
          status: "FAILED_PRECONDITION",
          details: [{ reason: "PUSH_NOTIFICATION_NOT_SUPPORTED" }],
        },
      });
    }
  });

  it("R12.2 SubscribeToTask of a finished or unknown task answers its status as JSON, no stream opens", async () => {
    const t = makeApp();
    const id = await sent(t);
    for (const [task, status] of [
      [id, 400],
      ["nope", 404],
    ] as const) {
      const res = await rest(t, "GET", `/tasks/${task}:subscribe`);
      expect(res.status, task).toBe(status);
      expect(res.headers.get("content-type"), task).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: { code: number } }).error.code, task).toBe(status);
    }
  });
});
