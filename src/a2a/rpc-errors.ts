/**
 * JSON-RPC error objects, in the shape of the protocol version that was spoken:
 *
 * - v0.3: `{ code, message, data? }` (data is an object);
 * - v1.0: `{ code, message, data? }` with data a list of `google.rpc.ErrorInfo`.
 *
 * Protocol-level errors go through the SDK's own mappers so they match what the SDK emits.
 * Errors of a turn are mapped by the one error table (runtime/errors.ts): a LlamonError's
 * code picks the JSON-RPC code, the retry flag and a message safe to show to a client;
 * anything else is "internal error". Never a stack trace.
 */

import { LegacyA2AError, LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { type A2AError, ContentTypeNotSupportedError, toJsonRpcError } from "@a2a-js/sdk/errors";
import { JsonRpcTransportHandler } from "@a2a-js/sdk/server";
import type { ErrorCode } from "../errors.ts";
import {
  GENERIC_INTERNAL_MESSAGE,
  mapError,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
} from "../runtime/errors.ts";

export type Dialect = "v0.3" | "v1.0";
export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

export const RPC_CODE = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: RPC_INVALID_PARAMS,
  INTERNAL_ERROR: RPC_INTERNAL_ERROR,
} as const;

export { GENERIC_INTERNAL_MESSAGE };

type ProtocolErrorKind = "parse" | "invalidRequest" | "methodNotFound" | "invalidParams";

/** Maps any error to a JSON-RPC error object with the SDK's mapper of that dialect. */
export function sdkErrorObject(dialect: Dialect, error: unknown): JsonRpcErrorObject {
  return dialect === "v1.0"
    ? JsonRpcTransportHandler.mapToJSONRPCError(error)
    : LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error);
}

export function protocolError(
  dialect: Dialect,
  kind: ProtocolErrorKind,
  message: string,
): JsonRpcErrorObject {
  switch (kind) {
    case "parse":
      return sdkErrorObject(dialect, LegacyA2AError.parseError(message));
    case "invalidRequest":
      return sdkErrorObject(dialect, LegacyA2AError.invalidRequest(message));
    case "methodNotFound":
      return sdkErrorObject(dialect, LegacyA2AError.methodNotFound(message));
    case "invalidParams":
      return sdkErrorObject(dialect, LegacyA2AError.invalidParams(message));
  }
}

/**
 * A v1.0 error of `@a2a-js/sdk/errors` (VersionNotSupportedError, ContentTypeNotSupportedError)
 * as a JSON-RPC error object: its own code (-32009, -32005) and a `google.rpc.ErrorInfo`.
 * Those errors exist only since v1.0, so both dialects answer them in this shape (v0.3
 * defines -32005 with the same code, and clients of either read `code`).
 */
export function a2aErrorObject(error: A2AError): JsonRpcErrorObject {
  return toJsonRpcError(error);
}

/** -32005 ContentTypeNotSupportedError in the shape of `dialect` (both versions define it). */
export function contentTypeNotSupported(dialect: Dialect, message: string): JsonRpcErrorObject {
  return dialect === "v1.0"
    ? a2aErrorObject(new ContentTypeNotSupportedError(message))
    : sdkErrorObject(dialect, new LegacyA2AError(-32005, message));
}

/**
 * v0.3 defines AuthenticatedExtendedCardNotConfiguredError (-32007) as the answer of
 * `agent/getAuthenticatedExtendedCard` when there is no extended card; the SDK answers that
 * method with UnsupportedOperation (-32004), which is the v1.0 answer to GetExtendedAgentCard.
 */
export function legacyExtendedCardError(
  method: string,
  error: JsonRpcErrorObject,
): JsonRpcErrorObject {
  if (method !== "agent/getAuthenticatedExtendedCard" || error.code !== -32004) return error;
  return sdkErrorObject("v0.3", LegacyA2AError.authenticatedExtendedCardNotConfigured());
}

export interface TurnFailure {
  code: number;
  message: string;
  /** The LlamonError code, or "INTERNAL" for anything else. */
  reason: ErrorCode;
  /** Whether sending the same message again can succeed (a busy provider, a conflict). */
  retryable: boolean;
}

/** What a client is told about a failed turn: the error table of runtime/errors.ts. */
export function describeTurnFailure(error: unknown): TurnFailure {
  const mapped = mapError(error);
  return {
    code: mapped.rpc,
    message: mapped.rpcMessage,
    reason: mapped.code,
    retryable: mapped.retryable,
  };
}

/** The JSON-RPC error object of a failed turn; `data` names the code and the retry flag. */
export function turnErrorObject(dialect: Dialect, error: unknown): JsonRpcErrorObject {
  const failure = describeTurnFailure(error);
  const data =
    dialect === "v1.0"
      ? [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: failure.reason,
            domain: "llamon",
            metadata: { retryable: String(failure.retryable) },
          },
        ]
      : { reason: failure.reason, retryable: failure.retryable };
  return { code: failure.code, message: failure.message, data };
}

/**
 * The SDK maps errors that are not A2A errors to -32603 with the raw `error.message`, which
 * can carry internals. Internal errors are reduced to a generic message here.
 */
export function sanitizeErrorObject(error: JsonRpcErrorObject): JsonRpcErrorObject {
  if (error.code !== RPC_CODE.INTERNAL_ERROR) return error;
  return { code: error.code, message: GENERIC_INTERNAL_MESSAGE };
}

const STATE_NAMES: Readonly<Record<Dialect, readonly string[]>> = {
  "v0.3": [
    "unknown",
    "submitted",
    "working",
    "completed",
    "failed",
    "canceled",
    "input-required",
    "rejected",
    "auth-required",
  ],
  "v1.0": [
    "TASK_STATE_UNSPECIFIED",
    "TASK_STATE_SUBMITTED",
    "TASK_STATE_WORKING",
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_REJECTED",
    "TASK_STATE_AUTH_REQUIRED",
  ],
};

/**
 * The SDK writes a task state into its messages as the v1 enum number ("is in a terminal
 * state (3)"), which a v0.3 client cannot read. The number becomes the state's name in the
 * dialect spoken: `completed` for v0.3, `TASK_STATE_COMPLETED` for v1.0.
 */
export function withStateNames(dialect: Dialect, error: JsonRpcErrorObject): JsonRpcErrorObject {
  const message = error.message.replace(/\b(state) \((\d)\)/g, (whole, word: string, n: string) => {
    const name = STATE_NAMES[dialect][Number(n)];
    return name === undefined ? whole : `${word} (${name})`;
  });
  return message === error.message ? error : { ...error, message };
}

export function errorResponse(id: JsonRpcId, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error };
}
