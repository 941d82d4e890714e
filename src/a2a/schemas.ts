/**
 * zod schemas of the JSON-RPC `params` we accept, per method, for A2A v0.3 (`message/send`,
 * parts `{kind:"text",text}`) and v1.0 (`SendMessage`, parts `{text}`, proto-JSON enums).
 * Objects are loose: unknown members pass through to the SDK, which ignores what it does not
 * know. Messages are written for the client ("… must be …") and prefixed with the path.
 */
import { z } from "zod";
import { idTextProblem, MAX_CONTEXT_ID_CHARS } from "../runtime/thread-keys.ts";

/** Longest accepted user message text (the text parts joined), in UTF-16 code units. */
export const MAX_MESSAGE_TEXT_CHARS = 32_768;
/** Longest accepted contextId (with the principal, it makes the thread key). */
export { MAX_CONTEXT_ID_CHARS };
/** Longest accepted messageId / taskId. */
export const MAX_ID_CHARS = 256;
/** Each referenced task is one task-store read, so their number is capped. */
export const MAX_REFERENCE_TASK_IDS = 16;

const must = (text: string) => ({ error: text });

const jsonObject = z.record(z.string(), z.unknown(), must("must be an object"));
/**
 * An id that reaches storage: 1–`max` characters, no control characters (NUL included), no
 * unpaired surrogates — the one rule of runtime/thread-keys.ts, so a bad id is -32602 here
 * on every backend, never a database error later.
 */
const idText = (max: number) =>
  z.string(must("must be a string")).superRefine((value, ctx) => {
    const problem = idTextProblem(value, max);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });
/** messageId, taskId, referenced task ids, the task methods' `id`. */
const idString = idText(MAX_ID_CHARS);
const contextId = idText(MAX_CONTEXT_ID_CHARS);
const stringList = z.array(z.string(must("must be a string")), must("must be an array"));
const referenceTaskIds = z
  .array(idString, must("must be an array of task ids"))
  .max(MAX_REFERENCE_TASK_IDS, must(`must list at most ${MAX_REFERENCE_TASK_IDS} task ids`));
const historyLength = z.int(must("must be an integer")).min(0, must("must not be negative"));

/** `params.metadata`: only the shape of `history` is checked here (seed rules: R5). */
const requestMetadata = z.looseObject(
  { history: z.array(jsonObject, must("must be an array of objects")).optional() },
  must("must be an object"),
);

const AT_LEAST_ONE_TEXT = must("must contain at least one text part");

// ---- v0.3 ---------------------------------------------------------------------------------

const partV03 = z.discriminatedUnion(
  "kind",
  [
    z.looseObject({
      kind: z.literal("text"),
      text: z.string(must("must be a string")),
      metadata: jsonObject.optional(),
    }),
    z.looseObject({
      kind: z.literal("file"),
      file: z.union(
        [z.looseObject({ bytes: z.string() }), z.looseObject({ uri: z.string() })],
        must('must be an object with "bytes" (base64) or "uri"'),
      ),
      metadata: jsonObject.optional(),
    }),
    z.looseObject({ kind: z.literal("data"), data: jsonObject, metadata: jsonObject.optional() }),
  ],
  {
    error: (issue) =>
      issue.code === "invalid_union"
        ? 'must be "text", "file" or "data"'
        : 'must be a part object like {"kind":"text","text":"…"}',
  },
);

const messageV03 = z.looseObject(
  {
    kind: z.literal("message", must('must be "message"')).optional(),
    messageId: idString.optional(),
    role: z.literal("user", must('must be "user" (only user messages can be sent)')),
    parts: z.array(partV03, must("must be an array of parts")).min(1, AT_LEAST_ONE_TEXT),
    contextId: contextId.optional(),
    taskId: idString.optional(),
    referenceTaskIds: referenceTaskIds.optional(),
    extensions: stringList.optional(),
    metadata: jsonObject.optional(),
  },
  must("must be a message object"),
);

const sendParamsV03 = z.looseObject(
  {
    message: messageV03,
    configuration: z
      .looseObject(
        {
          blocking: z.boolean(must("must be a boolean")).optional(),
          historyLength: historyLength.optional(),
          acceptedOutputModes: stringList.optional(),
        },
        must("must be an object"),
      )
      .optional(),
    metadata: requestMetadata.optional(),
  },
  must("must be an object"),
);

// ---- v1.0 (proto-JSON; the SDK also reads the snake_case spellings) ------------------------

const CONTENT_FIELDS = ["text", "raw", "url", "data"] as const;

const partV1 = z
  .looseObject(
    {
      text: z.string(must("must be a string")).optional(),
      raw: z.string(must("must be a base64 string")).optional(),
      url: z.string(must("must be a string")).optional(),
      mediaType: z.string(must("must be a string")).optional(),
      filename: z.string(must("must be a string")).optional(),
      metadata: jsonObject.optional(),
    },
    must("must be a part object"),
  )
  .refine(
    (part) => CONTENT_FIELDS.filter((f) => part[f] !== undefined && part[f] !== null).length === 1,
    must('must have exactly one of "text", "raw", "url" or "data"'),
  );

const messageV1 = z.looseObject(
  {
    messageId: idString.optional(),
    message_id: idString.optional(),
    contextId: contextId.optional(),
    context_id: contextId.optional(),
    taskId: idString.optional(),
    task_id: idString.optional(),
    role: z.union(
      [z.literal("ROLE_USER"), z.literal(1)],
      must('must be "ROLE_USER" (only user messages can be sent)'),
    ),
    parts: z.array(partV1, must("must be an array of parts")).min(1, AT_LEAST_ONE_TEXT),
    referenceTaskIds: referenceTaskIds.optional(),
    reference_task_ids: referenceTaskIds.optional(),
    extensions: stringList.optional(),
    metadata: jsonObject.optional(),
  },
  must("must be a message object"),
);

const tenant = z.string(must("must be a string")).optional();

const sendParamsV1 = z.looseObject(
  {
    tenant,
    message: messageV1,
    configuration: z
      .looseObject(
        {
          returnImmediately: z.boolean(must("must be a boolean")).optional(),
          historyLength: historyLength.optional(),
          acceptedOutputModes: stringList.optional(),
        },
        must("must be an object"),
      )
      .optional(),
    metadata: requestMetadata.optional(),
  },
  must("must be an object"),
);

// ---- task methods --------------------------------------------------------------------------

const taskIdParams = z.looseObject(
  {
    id: idString,
    historyLength: historyLength.optional(),
    tenant,
    metadata: jsonObject.optional(),
  },
  must("must be an object"),
);

const listTasksParams = z.looseObject(
  {
    tenant,
    contextId: contextId.optional(),
    pageSize: z.int(must("must be an integer")).min(1).max(100).optional(),
    pageToken: z.string(must("must be a string")).optional(),
    historyLength: historyLength.optional(),
    statusTimestampAfter: z.string(must("must be an ISO 8601 timestamp string")).optional(),
    includeArtifacts: z.boolean(must("must be a boolean")).optional(),
  },
  must("must be an object"),
);

const anyParams = z.looseObject({}, must("must be an object"));

export interface MethodSpec {
  schema: z.ZodType;
  /** Answers with a stream (SSE). */
  streaming: boolean;
  /** A message send: runs a turn. */
  send: boolean;
  paramsOptional: boolean;
}

const SPECS: Record<string, MethodSpec> = {
  "message/send": { schema: sendParamsV03, streaming: false, send: true, paramsOptional: false },
  "message/stream": { schema: sendParamsV03, streaming: true, send: true, paramsOptional: false },
  "tasks/get": { schema: taskIdParams, streaming: false, send: false, paramsOptional: false },
  "tasks/cancel": { schema: taskIdParams, streaming: false, send: false, paramsOptional: false },
  "tasks/resubscribe": {
    schema: taskIdParams,
    streaming: true,
    send: false,
    paramsOptional: false,
  },
  SendMessage: { schema: sendParamsV1, streaming: false, send: true, paramsOptional: false },
  SendStreamingMessage: {
    schema: sendParamsV1,
    streaming: true,
    send: true,
    paramsOptional: false,
  },
  GetTask: { schema: taskIdParams, streaming: false, send: false, paramsOptional: false },
  CancelTask: { schema: taskIdParams, streaming: false, send: false, paramsOptional: false },
  SubscribeToTask: { schema: taskIdParams, streaming: true, send: false, paramsOptional: false },
  ListTasks: { schema: listTasksParams, streaming: false, send: false, paramsOptional: false },
};

const EXTENDED_CARD_METHODS = new Set([
  "agent/getAuthenticatedExtendedCard",
  "GetExtendedAgentCard",
]);

/** The spec of a known A2A method (push-notification and card methods: any params object). */
export function methodSpec(method: string): MethodSpec {
  // Own keys only: "toString", "constructor" … must not resolve to Object.prototype.
  const known = Object.hasOwn(SPECS, method) ? SPECS[method] : undefined;
  return (
    known ?? {
      schema: anyParams,
      streaming: false,
      send: false,
      paramsOptional: EXTENDED_CARD_METHODS.has(method),
    }
  );
}
