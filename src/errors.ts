/**
 * The one error type of llamon. Every failure a user can meet carries an UPPER_SNAKE
 * `code` and a message that says how to fix it; edges (JSON-RPC, HTTP, CLI) map it once,
 * through the table in src/runtime/errors.ts (HTTP status, JSON-RPC code, retryable).
 */
export const ERROR_CODES = [
  /** A configuration value is missing or invalid (MemoryConfig, env, CLI flags). */
  "CONFIG_INVALID",
  /** Input from a client failed validation. */
  "INPUT_INVALID",
  /** The database answered with an SQL error (SQLSTATE in `details.sqlstate`). */
  "DB_QUERY_FAILED",
  /** The database could not be reached or the transport failed. */
  "DB_UNAVAILABLE",
  /** A request or response exceeded a size limit. */
  "DB_PAYLOAD_TOO_LARGE",
  /** The model provider failed (busy, timeout, unreachable, malformed answer); see details.retryable. */
  "MODEL_FAILED",
  /** Another turn saved the same conversation first (compare-and-set on the thread head). */
  "THREAD_CONFLICT",
  /**
   * The message's messageId was answered before in this conversation, and that turn was since
   * deleted by trim (persist_trim_keep_groups): it is not answered a second time (R11.2).
   */
  "MESSAGE_ALREADY_ANSWERED",
  /** A migration could not be applied or an applied one was changed afterwards. */
  "MIGRATION_FAILED",
  /** The thing asked for does not exist (a route, a stored conversation). */
  "NOT_FOUND",
  /** This deployment cannot do that (memory off, a binding missing, an old object). */
  "NOT_AVAILABLE",
  /** The management API and Studio are off (LLAMON_ADMIN_TOKEN unset). */
  "ADMIN_DISABLED",
  /** The admin token is missing or wrong. */
  "UNAUTHORIZED",
  /** An A2A call without usable credentials (A2A_AUTH=api_key or jwt). */
  "AUTH_REQUIRED",
  /** An A2A call whose credentials were checked and refused (wrong, revoked, expired key or token). */
  "AUTH_INVALID",
  /** The credentials could not be checked (the identity provider's keys are unreachable). */
  "AUTH_UNAVAILABLE",
  /** Too many A2A calls by one principal (the A2A_RATE_LIMITER binding). */
  "RATE_LIMITED",
  /** A request body over the size limit, refused before it was parsed. */
  "BODY_TOO_LARGE",
  /** A request body that is not declared as JSON (Content-Type). */
  "UNSUPPORTED_MEDIA_TYPE",
  /** Command line only: the local port asked for is held by another process. */
  "PORT_IN_USE",
  /** Command line only: a host it needs (the npm registry) cannot be reached from here. */
  "NETWORK_UNAVAILABLE",
  /** Command line only: the user stopped it at a question or during a step (Ctrl-C); exit code 130. */
  "CANCELLED",
  /** Command line only: the Node.js running it is older than llamon's `engines` allow. */
  "NODE_UNSUPPORTED",
  /** Something that should not happen; a bug in llamon. */
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Postgres error fields carried by DB_QUERY_FAILED, named like node-postgres / Neon. */
export interface DbErrorFields {
  sqlstate?: string | undefined;
  detail?: string | undefined;
  hint?: string | undefined;
  constraint?: string | undefined;
  table?: string | undefined;
  column?: string | undefined;
  schema?: string | undefined;
  position?: string | undefined;
  severity?: string | undefined;
  /** HTTP status when the failure came over Neon's HTTP protocol. */
  httpStatus?: number | undefined;
}

export class LlamonError<D extends object = object> extends Error {
  readonly code: ErrorCode;
  readonly details: D;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; details?: D }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LlamonError";
    this.code = code;
    this.details = (options?.details ?? {}) as D;
  }

  /** A plain-object view for logs and problem responses; never includes the stack. */
  toJSON(): { code: ErrorCode; message: string; details: D } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Plain data of a LlamonError ({@link LlamonError.toJSON}), e.g. from across an RPC boundary. */
export interface LlamonErrorData {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: object;
}

/**
 * The plain data of an error, to cross a boundary that keeps only an Error's message (Durable
 * Object RPC drops own properties such as `code`): a LlamonError's code, message and details
 * (as JSON); undefined for anything else.
 */
export function llamonErrorData(error: unknown): LlamonErrorData | undefined {
  if (!isLlamonError(error)) return undefined;
  const details = JSON.parse(JSON.stringify(error.details ?? {})) as object;
  return { code: error.code, message: error.message, details };
}

/** The LlamonError of {@link llamonErrorData} again (an unknown code is INTERNAL). */
export function llamonErrorFrom(data: LlamonErrorData): LlamonError {
  const code = (ERROR_CODES as readonly string[]).includes(data.code) ? data.code : "INTERNAL";
  return new LlamonError(code, data.message, { details: data.details });
}

export function isLlamonError(value: unknown, code?: ErrorCode): value is LlamonError {
  return value instanceof LlamonError && (code === undefined || value.code === code);
}

/** The SQL error fields of a DB_QUERY_FAILED error, or undefined for anything else. */
export function dbErrorFields(value: unknown): DbErrorFields | undefined {
  return isLlamonError(value, "DB_QUERY_FAILED") ? (value.details as DbErrorFields) : undefined;
}
