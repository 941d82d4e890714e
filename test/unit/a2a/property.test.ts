/**
 * Property: whatever JSON-RPC-ish body arrives, the answer is never a 5xx and never carries a
 * stack trace or a file path, and the turn runs only for valid message sends.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateRpcBody } from "../../../src/a2a/validate.ts";
import {
  anyJson,
  type BodyPath,
  SEND_PATHS,
  truncated,
  withOneMutation,
} from "../../helpers/rpc-arbitraries.ts";
import { makeApp, post } from "./helpers.ts";

const METHODS = [
  "message/send",
  "message/stream",
  "tasks/get",
  "tasks/cancel",
  "tasks/resubscribe",
  "tasks/pushNotificationConfig/set",
  "agent/getAuthenticatedExtendedCard",
  "SendMessage",
  "SendStreamingMessage",
  "GetTask",
  "CancelTask",
  "SubscribeToTask",
  "ListTasks",
  "GetExtendedAgentCard",
  "CreateTaskPushNotificationConfig",
];

const textPart = fc.record(
  { kind: fc.constantFrom("text", "data", "file", "x"), text: fc.oneof(fc.string(), anyJson) },
  { requiredKeys: [] },
);
const v1Part = fc.record(
  { text: fc.oneof(fc.string(), anyJson), url: fc.string(), data: anyJson },
  { requiredKeys: [] },
);

const message = fc.record(
  {
    kind: fc.constantFrom("message", "task"),
    messageId: fc.oneof(fc.string(), fc.integer()),
    contextId: fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.constant(null)),
    taskId: fc.oneof(fc.string(), fc.integer()),
    role: fc.constantFrom("user", "agent", "ROLE_USER", "ROLE_AGENT", 1, 2, "system"),
    parts: fc.oneof(fc.array(fc.oneof(textPart, v1Part, anyJson), { maxLength: 4 }), anyJson),
    metadata: anyJson,
    referenceTaskIds: fc.array(fc.string(), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

const params = fc.oneof(
  fc.record(
    {
      message: fc.oneof(message, anyJson),
      configuration: fc.oneof(
        fc.record(
          {
            blocking: fc.oneof(fc.boolean(), anyJson),
            historyLength: fc.oneof(fc.integer(), anyJson),
            returnImmediately: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        anyJson,
      ),
      metadata: fc.oneof(
        fc.record({
          history: fc.oneof(fc.array(fc.oneof(fc.object(), anyJson), { maxLength: 3 }), anyJson),
        }),
        anyJson,
      ),
      id: fc.oneof(fc.string(), fc.integer(), anyJson),
      historyLength: fc.oneof(fc.integer(), anyJson),
      contextId: fc.oneof(fc.string(), anyJson),
      pageSize: fc.oneof(fc.integer(), anyJson),
      tenant: fc.oneof(fc.string(), anyJson),
    },
    { requiredKeys: [] },
  ),
  anyJson,
);

const envelope = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("2.0"), anyJson),
    id: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), anyJson),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string(), anyJson),
    params,
  },
  { requiredKeys: [] },
);

/** Valid sends of both versions, so that mutations land next to the happy path. */
const nonBlank = fc.string({ minLength: 1, maxLength: 40 }).map((s) => `t${s}`);
const history = fc.array(fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }), {
  maxLength: 3,
});
const validV03 = fc.record({
  jsonrpc: fc.constant("2.0"),
  id: fc.oneof(fc.string({ maxLength: 10 }), fc.integer()),
  method: fc.constantFrom("message/send", "message/stream"),
  params: fc.record(
    {
      message: fc.record(
        {
          role: fc.constant("user"),
          parts: fc.array(fc.record({ kind: fc.constant("text"), text: nonBlank }), {
            minLength: 1,
            maxLength: 3,
          }),
          contextId: fc.string({ minLength: 1, maxLength: 40 }),
          messageId: fc.string({ minLength: 1, maxLength: 40 }),
        },
        { requiredKeys: ["role", "parts"] },
      ),
      metadata: fc.record({ history }),
      configuration: fc.record({ blocking: fc.boolean() }, { requiredKeys: [] }),
    },
    { requiredKeys: ["message"] },
  ),
});
const validV1 = fc.record({
  jsonrpc: fc.constant("2.0"),
  id: fc.oneof(fc.string({ maxLength: 10 }), fc.integer()),
  method: fc.constantFrom("SendMessage", "SendStreamingMessage"),
  params: fc.record(
    {
      message: fc.record(
        {
          role: fc.constant("ROLE_USER"),
          parts: fc.array(fc.record({ text: nonBlank }), { minLength: 1, maxLength: 3 }),
          contextId: fc.string({ minLength: 1, maxLength: 40 }),
        },
        { requiredKeys: ["role", "parts"] },
      ),
      metadata: fc.record({ history }),
    },
    { requiredKeys: ["message"] },
  ),
});
const MUTABLE_PATHS: BodyPath[] = [
  ...SEND_PATHS,
  ["params", "message", "contextId"],
  ["params", "message", "taskId"],
  ["params", "metadata"],
  ["params", "metadata", "history"],
  ["params", "metadata", "history", 0],
  ["params", "configuration"],
];
const nearlyValid = withOneMutation(fc.oneof(validV03, validV1), MUTABLE_PATHS);

const body = fc.oneof(
  { weight: 6, arbitrary: nearlyValid },
  { weight: 4, arbitrary: envelope.map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.array(envelope, { maxLength: 2 }).map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: truncated(envelope.map((e) => JSON.stringify(e))) },
);

const STACK_FRAME =
  /\n\s+at \S|\bat \S+ \(|\.(?:ts|js|mjs|cjs):\d+|\/work\/|node_modules|file:\/\//;

describe("property: random JSON-RPC-ish bodies", () => {
  it("never answer 5xx nor leak a stack trace, and run a turn only for valid message sends", async () => {
    const t = makeApp();
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const before = t.turns.inputs.length;
        const call = validateRpcBody(raw);
        const res = await post(t.app, raw);
        const text = await res.text();
        expect(res.status).toBeLessThan(500);
        expect(text).not.toMatch(STACK_FRAME);
        const ranTurn = t.turns.inputs.length > before;
        const validSend = call.ok && call.turn !== undefined;
        if (ranTurn) expect(validSend).toBe(true);
        // A valid send without a taskId always runs (one naming a task may be refused first).
        const names = call.ok
          ? (call.body.params as { message?: { taskId?: unknown; task_id?: unknown } })
          : undefined;
        if (
          validSend &&
          names?.message?.taskId === undefined &&
          names?.message?.task_id === undefined
        ) {
          expect(ranTurn).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
    // The generator reaches the turn often enough for the property to mean something.
    // (about 55 of 400 on average; 25 leaves room for the spread of random runs)
    expect(t.turns.inputs.length).toBeGreaterThan(25);
  });
});
