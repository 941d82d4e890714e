/**
 * A messageId, taskId or referenced task id with a control character
 * (NUL included) or an unpaired surrogate is the caller's mistake — -32602 naming the field,
 * in every message-send method of both A2A versions and in the task methods — by the one id
 * rule contextIds already follow (runtime/thread-keys.ts). Let through, it would fail in the
 * database on postgres as a retryable -32603, and a retry cannot fix it.
 */
import { describe, expect, it } from "vitest";
import { validateRpcBody } from "../../../src/a2a/validate.ts";

const INVALID_PARAMS = -32602;
const V1 = { ok: true, version: "1.0", dialect: "v1.0", explicit: true } as const;

/** Ids that name no stored thing: each must be refused with the problem it has. */
const BAD_IDS = [
  { id: "m\u0000x", problem: "must not contain control characters" },
  { id: "m\u001fx", problem: "must not contain control characters" },
  { id: "m\u007f", problem: "must not contain control characters" },
  { id: "m-\ud83d", problem: "must not contain unpaired surrogates (invalid Unicode)" },
  { id: "\udc00m", problem: "must not contain unpaired surrogates (invalid Unicode)" },
] as const;

/** Ids that are fine: non-ASCII, an emoji (a surrogate pair), spaces and punctuation. */
const GOOD_IDS = ["msg-1", "메시지 😀", "a b/c:d", "x".repeat(256)];

const v03 = (method: string, message: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 1,
  method,
  params: { message: { role: "user", parts: [{ kind: "text", text: "hi" }], ...message } },
});
const v1 = (method: string, message: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 1,
  method,
  params: { message: { role: "ROLE_USER", parts: [{ text: "hi" }], ...message } },
});

/** Every message-send method and every id field it reads, with where the id is put. */
const SEND_FIELDS = [
  ...["message/send", "message/stream"].flatMap((method) =>
    ["messageId", "taskId"].map((field) => ({ method, field, version: "0.3" as const })),
  ),
  ...["SendMessage", "SendStreamingMessage"].flatMap((method) =>
    ["messageId", "message_id", "taskId", "task_id"].map((field) => ({
      method,
      field,
      version: "1.0" as const,
    })),
  ),
];
const REFERENCE_FIELDS = [
  { method: "message/send", field: "referenceTaskIds", version: "0.3" as const },
  { method: "message/stream", field: "referenceTaskIds", version: "0.3" as const },
  { method: "SendMessage", field: "referenceTaskIds", version: "1.0" as const },
  { method: "SendStreamingMessage", field: "reference_task_ids", version: "1.0" as const },
];

function validate(method: string, version: "0.3" | "1.0", message: Record<string, unknown>) {
  const body = version === "0.3" ? v03(method, message) : v1(method, message);
  return validateRpcBody(JSON.stringify(body), version === "1.0" ? V1 : undefined);
}

describe("ids: messageId, taskId and referenced task ids follow the contextId rule", () => {
  for (const { method, field, version } of SEND_FIELDS) {
    it(`R11.2 ${method} refuses a bad ${field} with -32602 naming it`, () => {
      for (const { id, problem } of BAD_IDS) {
        const call = validate(method, version, { [field]: id });
        expect(call.ok).toBe(false);
        if (call.ok) continue;
        expect(call.error.code).toBe(INVALID_PARAMS);
        expect(call.error.message).toBe(`params.message.${field} ${problem}`);
      }
    });
  }

  for (const { method, field, version } of REFERENCE_FIELDS) {
    it(`R11.2 ${method} refuses a bad id in ${field} with -32602 naming it`, () => {
      for (const { id, problem } of BAD_IDS) {
        const call = validate(method, version, { [field]: ["task-ok", id] });
        expect(call.ok).toBe(false);
        if (call.ok) continue;
        expect(call.error.code).toBe(INVALID_PARAMS);
        expect(call.error.message).toBe(`params.message.${field}[1] ${problem}`);
      }
    });
  }

  for (const method of ["tasks/get", "tasks/cancel", "GetTask", "CancelTask", "SubscribeToTask"]) {
    it(`${method} refuses a bad task id with -32602 naming params.id`, () => {
      const version = method.includes("/") ? undefined : V1;
      for (const { id, problem } of BAD_IDS) {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { id } });
        const call = validateRpcBody(body, version);
        expect(call.ok).toBe(false);
        if (call.ok) continue;
        expect(call.error.code).toBe(INVALID_PARAMS);
        expect(call.error.message).toBe(`params.id ${problem}`);
      }
    });
  }

  it("R11.2 ids with non-ASCII text, emoji, spaces and up to 256 characters pass", () => {
    for (const id of GOOD_IDS) {
      for (const { method, field, version } of SEND_FIELDS) {
        expect(validate(method, version, { [field]: id }).ok, `${method} ${field}`).toBe(true);
      }
      for (const { method, field, version } of REFERENCE_FIELDS) {
        expect(validate(method, version, { [field]: [id] }).ok, `${method} ${field}`).toBe(true);
      }
    }
  });
});
