/**
 * Validation and normalisation of a JSON-RPC body BEFORE the SDK sees it.
 * A bad request is answered here with a specific JSON-RPC error and never reaches the
 * agent, so nothing is stored for it.
 *
 * Normalisation (SDK pitfalls, DESIGN.md "A2A"):
 * - `message.messageId` is filled with a UUID when missing (the product document's body has
 *   none and the SDK rejects that);
 * - v0.3 `configuration` without `blocking` gets `blocking: true` (the SDK would otherwise
 *   treat it as non-blocking; no `configuration` at all is already blocking).
 */
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from "@a2a-js/sdk/compat/v0_3";
import type { z } from "zod";
import { seedInputProblem } from "../memory/seed.ts";
import { parseJsonText } from "../runtime/json-body.ts";
import { zodIssueLines } from "../zod-issues.ts";
import {
  a2aErrorObject,
  contentTypeNotSupported,
  type Dialect,
  type JsonRpcErrorObject,
  type JsonRpcId,
  protocolError,
} from "./rpc-errors.ts";
import { MAX_MESSAGE_TEXT_CHARS, methodSpec } from "./schemas.ts";
import type { VersionOutcome } from "./version.ts";

export interface TurnRequest {
  /** The text parts joined with "\n". */
  text: string;
  /** `params.metadata.history` as received; undefined when absent. */
  history: unknown;
  hasHistory: boolean;
}

export interface ValidCall {
  ok: true;
  /** The request id; null for a notification (no `id` member), which is answered anyway. */
  id: JsonRpcId;
  method: string;
  dialect: Dialect;
  /** The normalised request object handed to the SDK. */
  body: Record<string, unknown>;
  /** True when the method answers with a stream (SSE). */
  streaming: boolean;
  /** Present for message sends. */
  turn?: TurnRequest;
}

export interface InvalidCall {
  ok: false;
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

const MAX_ECHOED_METHOD_CHARS = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function validId(value: unknown): value is JsonRpcId {
  return (
    value === null ||
    typeof value === "string" ||
    (typeof value === "number" && Number.isSafeInteger(value))
  );
}

/** "params.message.role must be \"user\"" from the first zod issue. */
function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "params are invalid";
  return zodIssueLines([issue], { prefix: ["params"] })[0] ?? "params are invalid";
}

/**
 * `version`: the negotiated `A2A-Version` (version.ts); default: no header (0.3, method
 * names decide the dialect).
 */
export function validateRpcBody(
  raw: string,
  version: VersionOutcome = { ok: true, version: "0.3", dialect: "v0.3", explicit: false },
): ValidCall | InvalidCall {
  const json = parseJsonText(raw);
  if (!json.ok) {
    // Too deep: valid JSON, but no request we accept (and the SDK's conversions recurse).
    const kind = json.problem === "depth" ? "invalidRequest" : "parse";
    return fail(null, protocolError("v0.3", kind, `the request body ${json.message}`));
  }
  const parsed = json.value;
  if (Array.isArray(parsed)) {
    return fail(
      null,
      protocolError(
        "v0.3",
        "invalidRequest",
        "batch requests are not supported: send one JSON-RPC request object per HTTP request",
      ),
    );
  }
  if (!isPlainObject(parsed)) {
    return fail(
      null,
      protocolError("v0.3", "invalidRequest", "the request body must be a JSON-RPC 2.0 object"),
    );
  }
  const hasId = Object.hasOwn(parsed, "id");
  if (hasId && !validId(parsed.id)) {
    return fail(
      null,
      protocolError("v0.3", "invalidRequest", "id must be a string, an integer or null"),
    );
  }
  const id: JsonRpcId = hasId ? (parsed.id as JsonRpcId) : null;
  const { method } = parsed;
  if (!version.ok) return fail(id, a2aErrorObject(version.error));
  const dialect: Dialect = version.explicit
    ? version.dialect
    : isV1JsonRpcMethod(method)
      ? "v1.0"
      : "v0.3";
  if (parsed.jsonrpc !== "2.0") {
    return fail(id, protocolError(dialect, "invalidRequest", 'jsonrpc must be exactly "2.0"'));
  }
  if (typeof method !== "string" || method === "") {
    return fail(id, protocolError(dialect, "invalidRequest", "method must be a non-empty string"));
  }
  if (!isV1JsonRpcMethod(method) && !isLegacyJsonRpcMethod(method)) {
    const shown =
      method.length > MAX_ECHOED_METHOD_CHARS
        ? `${method.slice(0, MAX_ECHOED_METHOD_CHARS)}…`
        : method;
    return fail(id, protocolError(dialect, "methodNotFound", shown));
  }
  const methodDialect: Dialect = isV1JsonRpcMethod(method) ? "v1.0" : "v0.3";
  if (methodDialect !== dialect) {
    const other = methodDialect === "v1.0" ? "1.0" : "0.3";
    return fail(
      id,
      protocolError(
        dialect,
        "methodNotFound",
        `${method} is not a method of A2A ${version.ok ? version.version : ""}; it is A2A ${other}'s (send A2A-Version: ${other})`,
      ),
    );
  }
  const spec = methodSpec(method);
  if (parsed.params === undefined && !spec.paramsOptional) {
    return fail(id, protocolError(dialect, "invalidParams", "params must be an object"));
  }
  let params: Record<string, unknown> | undefined;
  if (parsed.params !== undefined) {
    const result = spec.schema.safeParse(parsed.params);
    if (!result.success) {
      return fail(id, protocolError(dialect, "invalidParams", issueMessage(result.error)));
    }
    params = parsed.params as Record<string, unknown>;
  }
  const body: Record<string, unknown> = { ...parsed, params };
  if (params === undefined) delete body.params;
  const call: ValidCall = { ok: true, id, method, dialect, body, streaming: spec.streaming };
  if (spec.send && params !== undefined) {
    const turn = normaliseSend(params, dialect);
    if (typeof turn === "string") {
      return fail(id, protocolError(dialect, "invalidParams", turn));
    }
    if ("code" in turn) return fail(id, turn);
    call.turn = turn;
  }
  return call;
}

/** Fills messageId / blocking and extracts the turn; returns an error message when invalid. */
function normaliseSend(
  params: Record<string, unknown>,
  dialect: Dialect,
): TurnRequest | JsonRpcErrorObject | string {
  const message = params.message as Record<string, unknown>;
  const parts = message.parts as Record<string, unknown>[];
  const texts =
    dialect === "v0.3"
      ? parts.filter((p) => p.kind === "text").map((p) => p.text as string)
      : parts.filter((p) => typeof p.text === "string").map((p) => p.text as string);
  if (texts.length === 0) {
    // Only media types this agent does not accept (its input modes are text/plain): the
    // spec's ContentTypeNotSupportedError (-32005), in both versions.
    return contentTypeNotSupported(
      dialect,
      `this agent accepts text only (input mode text/plain); the message has ${describeParts(parts, dialect)}`,
    );
  }
  const text = texts.join("\n");
  if (text.trim() === "") return "params.message.parts must contain non-empty text";
  if (text.length > MAX_MESSAGE_TEXT_CHARS) {
    return `params.message text is ${text.length} characters; at most ${MAX_MESSAGE_TEXT_CHARS} are accepted per message`;
  }
  const hasMessageId = message.messageId !== undefined || message.message_id !== undefined;
  if (!hasMessageId) message.messageId = crypto.randomUUID();
  if (dialect === "v0.3") {
    if (message.kind === undefined) message.kind = "message";
    const configuration = params.configuration as Record<string, unknown> | undefined;
    if (configuration !== undefined && configuration.blocking === undefined) {
      configuration.blocking = true;
    }
  }
  const metadata = params.metadata as Record<string, unknown> | undefined;
  const hasHistory = metadata !== undefined && metadata.history !== undefined;
  // The seed's size caps, before the turn: an oversized history is refused, never stored.
  const seedProblem = hasHistory ? seedInputProblem(metadata.history) : undefined;
  if (seedProblem !== undefined) return seedProblem;
  return { text, history: hasHistory ? metadata.history : undefined, hasHistory };
}

const MAX_DESCRIBED_PARTS = 4;

/** "a file part (image/png), a data part" — what the message carried instead of text. */
function describeParts(parts: Record<string, unknown>[], dialect: Dialect): string {
  const shown = parts.slice(0, MAX_DESCRIBED_PARTS).map((part) => {
    const kind =
      dialect === "v0.3"
        ? String(part.kind).slice(0, 16)
        : (["raw", "url", "data"].find((k) => part[k] !== undefined) ?? "unknown");
    const file = part.file as Record<string, unknown> | undefined;
    const type = dialect === "v0.3" ? file?.mimeType : part.mediaType;
    return typeof type === "string" && type !== ""
      ? `a ${kind} part (${type.slice(0, 64)})`
      : `a ${kind} part`;
  });
  const more =
    parts.length > MAX_DESCRIBED_PARTS ? ` and ${parts.length - MAX_DESCRIBED_PARTS} more` : "";
  return `${shown.join(", ")}${more}`;
}

function fail(id: JsonRpcId, error: JsonRpcErrorObject): InvalidCall {
  return { ok: false, id, error };
}
