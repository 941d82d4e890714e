/**
 * JSON-RPC error objects, in the shape of the protocol version that was spoken:
 *
 * - v0.3: `{ code, message, data? }` (data is an object);
 * - v1.0: `{ code, message, data? }` with data a list of `google.rpc.ErrorInfo`.
 *
 * Protocol-level errors go through the SDK's own mappers so they match what the SDK emits.
 * Errors of a turn are mapped here, once: a LlamonError's code picks the JSON-RPC code and a
 * message safe to show to a client; anything else is "internal error". Never a stack trace.
 */

import { LegacyA2AError, LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler } from "@a2a-js/sdk/server";
import { type ErrorCode, isLlamonError } from "../errors.ts";

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
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

export const GENERIC_INTERNAL_MESSAGE = "internal error";

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

/** What a client is told about a failed turn, by LlamonError code. */
const TURN_ERRORS: Partial<Record<ErrorCode, { code: number; message: string | null }>> = {
  // INPUT_INVALID messages are written for the client (they say how to fix the input).
  INPUT_INVALID: { code: RPC_CODE.INVALID_PARAMS, message: null },
  THREAD_CONFLICT: {
    code: RPC_CODE.INTERNAL_ERROR,
    message:
      "another message of this conversation was being saved at the same time; retry the message",
  },
  DB_UNAVAILABLE: {
    code: RPC_CODE.INTERNAL_ERROR,
    message: "conversation memory is temporarily unavailable; retry later",
  },
  DB_QUERY_FAILED: {
    code: RPC_CODE.INTERNAL_ERROR,
    message: "conversation memory is temporarily unavailable; retry later",
  },
  DB_PAYLOAD_TOO_LARGE: {
    code: RPC_CODE.INTERNAL_ERROR,
    message:
      "the conversation or the reply is too large to store; send a shorter message or start a new contextId",
  },
  CONFIG_INVALID: {
    code: RPC_CODE.INTERNAL_ERROR,
    message: "the agent is misconfigured; the operator can see the cause in the Worker logs",
  },
  MIGRATION_FAILED: {
    code: RPC_CODE.INTERNAL_ERROR,
    message: "the agent's database is not ready; the operator can see the cause in the Worker logs",
  },
};

export interface TurnFailure {
  code: number;
  message: string;
  /** The LlamonError code, or "INTERNAL" for anything else. */
  reason: ErrorCode;
}

export function describeTurnFailure(error: unknown): TurnFailure {
  if (isLlamonError(error)) {
    const known = TURN_ERRORS[error.code];
    if (known !== undefined) {
      return { code: known.code, message: known.message ?? error.message, reason: error.code };
    }
  }
  return { code: RPC_CODE.INTERNAL_ERROR, message: GENERIC_INTERNAL_MESSAGE, reason: "INTERNAL" };
}

/** The JSON-RPC error object of a failed turn; `data` names the LlamonError code. */
export function turnErrorObject(dialect: Dialect, error: unknown): JsonRpcErrorObject {
  const failure = describeTurnFailure(error);
  const data =
    dialect === "v1.0"
      ? [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: failure.reason,
            domain: "llamon",
          },
        ]
      : { reason: failure.reason };
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

export function errorResponse(id: JsonRpcId, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error };
}
