/**
 * The one table from an error code to what each edge answers: the HTTP status (Worker
 * routes, management API, Studio), the JSON-RPC code (A2A), whether retrying the same
 * request can succeed, and the message a client is shown.
 *
 * - `rpcMessage: null` — the error's own message is written for the client (it says how to
 *   fix the input) and is shown as is; otherwise the fixed text is shown and the cause goes
 *   to the Worker log only (it may name hosts, SQL or a provider's answer).
 * - `retryable: "details"` — the error says itself (`details.retryable`, set by the model
 *   adapters: a provider 429, 5xx or timeout is retryable, a refused request is not).
 * - HTTP bodies are plain JSON `{ code, message, fieldErrors? }` (content type
 *   application/json); docs/admin.md documents them.
 *
 * JSON-RPC codes: -32600/-32602/-32603 are JSON-RPC's own; A2A uses -32001…-32009. A failed
 * model call gets its own code, -32050 ({@link MODEL_FAILED_RPC_CODE}), so A2A clients can
 * tell a busy provider (retry) from a bug; refused credentials (-32040 missing, -32041
 * refused, -32042 not checkable) and the rate limit (-32043) have theirs.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorCode, isLlamonError } from "../errors.ts";

export const RPC_INVALID_REQUEST = -32600;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;
/** A2A error: the agent's model provider failed (busy, timeout, unreachable, bad answer). */
export const MODEL_FAILED_RPC_CODE = -32050;
/** A2A errors of the authentication and the rate limit (HTTP 401, 503, 429). */
export const AUTH_REQUIRED_RPC_CODE = -32040;
export const AUTH_INVALID_RPC_CODE = -32041;
export const AUTH_UNAVAILABLE_RPC_CODE = -32042;
export const RATE_LIMITED_RPC_CODE = -32043;

export const GENERIC_INTERNAL_MESSAGE = "internal error";

export interface ErrorMapping {
  readonly status: ContentfulStatusCode;
  readonly rpc: number;
  readonly retryable: boolean | "details";
  /** What an A2A client is told; null: the error's own message. */
  readonly rpcMessage: string | null;
  /** A retryable variant of rpcMessage (used when the error says it is retryable). */
  readonly rpcRetryMessage?: string;
}

const MEMORY_UNAVAILABLE = "conversation memory is temporarily unavailable; retry later";
const SEE_LOGS = "the operator can see the cause in the Worker logs";

export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorMapping>> = {
  CONFIG_INVALID: {
    status: 500,
    rpc: RPC_INTERNAL_ERROR,
    retryable: false,
    rpcMessage: `the agent is misconfigured; ${SEE_LOGS}`,
  },
  INPUT_INVALID: { status: 400, rpc: RPC_INVALID_PARAMS, retryable: false, rpcMessage: null },
  DB_QUERY_FAILED: {
    status: 503,
    rpc: RPC_INTERNAL_ERROR,
    retryable: true,
    rpcMessage: MEMORY_UNAVAILABLE,
  },
  DB_UNAVAILABLE: {
    status: 503,
    rpc: RPC_INTERNAL_ERROR,
    retryable: true,
    rpcMessage: MEMORY_UNAVAILABLE,
  },
  DB_PAYLOAD_TOO_LARGE: {
    status: 413,
    rpc: RPC_INTERNAL_ERROR,
    retryable: false,
    rpcMessage:
      "the conversation or the reply is too large to store; send a shorter message or start a new contextId",
  },
  MODEL_FAILED: {
    status: 502,
    rpc: MODEL_FAILED_RPC_CODE,
    retryable: "details",
    rpcMessage: `the agent's model could not answer; ${SEE_LOGS}`,
    rpcRetryMessage:
      "the agent's model is busy or did not answer in time; retry the message shortly",
  },
  THREAD_CONFLICT: {
    status: 409,
    rpc: RPC_INTERNAL_ERROR,
    retryable: true,
    rpcMessage:
      "another message of this conversation was being saved at the same time; retry the message",
  },
  MESSAGE_ALREADY_ANSWERED: {
    status: 409,
    rpc: RPC_INVALID_PARAMS,
    retryable: false,
    rpcMessage: null,
  },
  MIGRATION_FAILED: {
    status: 500,
    rpc: RPC_INTERNAL_ERROR,
    retryable: false,
    rpcMessage: `the agent's database is not ready; ${SEE_LOGS}`,
  },
  NOT_FOUND: { status: 404, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  NOT_AVAILABLE: { status: 501, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  ADMIN_DISABLED: { status: 403, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  UNAUTHORIZED: { status: 401, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  AUTH_REQUIRED: { status: 401, rpc: AUTH_REQUIRED_RPC_CODE, retryable: false, rpcMessage: null },
  AUTH_INVALID: { status: 401, rpc: AUTH_INVALID_RPC_CODE, retryable: false, rpcMessage: null },
  AUTH_UNAVAILABLE: {
    status: 503,
    rpc: AUTH_UNAVAILABLE_RPC_CODE,
    retryable: true,
    rpcMessage: `the agent cannot check credentials right now; retry shortly (${SEE_LOGS})`,
  },
  RATE_LIMITED: { status: 429, rpc: RATE_LIMITED_RPC_CODE, retryable: true, rpcMessage: null },
  BODY_TOO_LARGE: { status: 413, rpc: RPC_INVALID_REQUEST, retryable: false, rpcMessage: null },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    rpc: RPC_INVALID_REQUEST,
    retryable: false,
    rpcMessage: null,
  },
  // The command line's own; no Worker route raises them.
  PORT_IN_USE: { status: 500, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  NETWORK_UNAVAILABLE: {
    status: 503,
    rpc: RPC_INTERNAL_ERROR,
    retryable: true,
    rpcMessage: null,
  },
  CANCELLED: { status: 500, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  NODE_UNSUPPORTED: { status: 500, rpc: RPC_INTERNAL_ERROR, retryable: false, rpcMessage: null },
  INTERNAL: {
    status: 500,
    rpc: RPC_INTERNAL_ERROR,
    retryable: false,
    rpcMessage: GENERIC_INTERNAL_MESSAGE,
  },
};

/** How any thrown value is answered; anything that is not a LlamonError is INTERNAL. */
export interface MappedError {
  readonly code: ErrorCode;
  readonly status: ContentfulStatusCode;
  readonly rpc: number;
  readonly retryable: boolean;
  /** Safe for a client (see the file header). */
  readonly rpcMessage: string;
  /** The message of an HTTP answer: the error's own, except for INTERNAL. */
  readonly httpMessage: string;
  readonly fieldErrors: Record<string, string[]> | undefined;
}

export function mapError(error: unknown): MappedError {
  const code: ErrorCode = isLlamonError(error) ? error.code : "INTERNAL";
  const row = ERROR_TABLE[code];
  const details = isLlamonError(error)
    ? (error.details as { retryable?: unknown; fieldErrors?: unknown })
    : {};
  const retryable = row.retryable === "details" ? details.retryable === true : row.retryable;
  const own = isLlamonError(error) && code !== "INTERNAL" ? error.message : undefined;
  const rpcMessage =
    (retryable ? row.rpcRetryMessage : undefined) ??
    row.rpcMessage ??
    own ??
    GENERIC_INTERNAL_MESSAGE;
  const fieldErrors =
    typeof details.fieldErrors === "object" &&
    details.fieldErrors !== null &&
    !Array.isArray(details.fieldErrors)
      ? (details.fieldErrors as Record<string, string[]>)
      : undefined;
  return {
    code,
    status: row.status,
    rpc: row.rpc,
    retryable,
    rpcMessage,
    httpMessage: own ?? GENERIC_INTERNAL_MESSAGE,
    fieldErrors,
  };
}

/** The JSON body of an HTTP error answer. */
export interface HttpErrorBody {
  code: string;
  message: string;
  fieldErrors?: Record<string, string[]>;
}

export function httpErrorBody(mapped: MappedError): HttpErrorBody {
  return mapped.fieldErrors === undefined
    ? { code: mapped.code, message: mapped.httpMessage }
    : { code: mapped.code, message: mapped.httpMessage, fieldErrors: mapped.fieldErrors };
}
