/**
 * One SQL interface, two transports (Neon HTTP in the Worker, node-postgres in Node tools).
 * Both return the same row values (types parsed by the same pg-types rules) and throw the
 * same LlamonError codes, so code above the store never knows which one it talks to.
 */
import { type DbErrorFields, LlamonError } from "../errors.ts";
import { redactSecrets } from "./dsn.ts";

/** Values a parameter may take; encoded the node-postgres way by both transports. */
export type SqlParam =
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | Date
  | Uint8Array
  | readonly unknown[]
  | { readonly [key: string]: unknown };

export interface SqlStatement {
  /** One SQL statement with $1…$n placeholders. Never interpolate values into it. */
  readonly text: string;
  readonly params?: readonly SqlParam[];
}

export interface QueryField {
  readonly name: string;
  readonly dataTypeID: number;
}

export interface QueryResult<R = Record<string, unknown>> {
  readonly rows: R[];
  /** Rows returned or affected (0 for statements that report none). */
  readonly rowCount: number;
  /** The command tag's verb: SELECT, INSERT, UPDATE, DELETE, … */
  readonly command: string;
  readonly fields: readonly QueryField[];
}

export const ISOLATION_LEVELS = [
  "ReadUncommitted",
  "ReadCommitted",
  "RepeatableRead",
  "Serializable",
] as const;
export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

export interface BatchOptions {
  readonly readOnly?: boolean;
  readonly isolationLevel?: IsolationLevel;
  readonly deferrable?: boolean;
}

export type Transport = "neon-http" | "node-postgres";

export interface Db {
  readonly transport: Transport;
  /** Run one parameterised statement (its own implicit transaction). */
  query<R = Record<string, unknown>>(
    text: string,
    params?: readonly SqlParam[],
  ): Promise<QueryResult<R>>;
  /**
   * Run statements atomically in one transaction: all commit or none do. Over Neon HTTP
   * this is one round trip. Results come back in statement order.
   */
  batch(statements: readonly SqlStatement[], options?: BatchOptions): Promise<QueryResult[]>;
  /** Release pooled connections (node-postgres); a no-op over HTTP. */
  close(): Promise<void>;
}

/** SQL for BEGIN with the requested characteristics (used by the Node transport and the proxy). */
export function beginStatement(options: BatchOptions = {}): string {
  const parts = ["BEGIN"];
  if (options.isolationLevel !== undefined) {
    parts.push(`ISOLATION LEVEL ${isolationSql(options.isolationLevel)}`);
  }
  if (options.readOnly) parts.push("READ ONLY");
  if (options.deferrable) parts.push("DEFERRABLE");
  return parts.join(" ");
}

function isolationSql(level: IsolationLevel): string {
  switch (level) {
    case "ReadUncommitted":
      return "READ UNCOMMITTED";
    case "ReadCommitted":
      return "READ COMMITTED";
    case "RepeatableRead":
      return "REPEATABLE READ";
    case "Serializable":
      return "SERIALIZABLE";
  }
}

/** Anything shaped like a Postgres error (pg DatabaseError, NeonDbError). */
interface PgLikeError {
  message?: unknown;
  code?: unknown;
  detail?: unknown;
  hint?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  schema?: unknown;
  position?: unknown;
  severity?: unknown;
  /** Set on Node system errors (EPIPE, EPERM, …), whose codes can look like a SQLSTATE. */
  syscall?: unknown;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * SQLSTATEs that say the connection, not the statement, failed: class 08 (connection
 * exception) but 08P01 (a protocol violation: the request itself was wrong, e.g. a wrong
 * parameter count), and 57P01–57P03 (the server shut the session down or cannot take one).
 * Neon answers them as HTTP 400 with the SQLSTATE like any SQL error; node-postgres reports
 * them with the code. Both become DB_UNAVAILABLE with the SQLSTATE kept.
 */
const CONNECTION_SQLSTATE = /^(08(?!P01)|57P0[1-3])/;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Map a driver error to LlamonError; SQL errors keep their SQLSTATE and fields. */
/** Neon's answers to credentials it refuses (a wrong role or password, none at all). */
const REFUSED_CREDENTIALS =
  /password authentication failed for user|missing authentication credentials/;

export function toDbError(error: unknown, transport: Transport): LlamonError {
  if (error instanceof LlamonError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as PgLikeError;
  const message = redactSecrets(str(e.message) ?? String(error));
  const code = str(e.code);
  if (code !== undefined && SQLSTATE.test(code) && e.syscall === undefined) {
    if (CONNECTION_SQLSTATE.test(code)) {
      return new LlamonError(
        "DB_UNAVAILABLE",
        `the database connection was lost over ${transport} (SQLSTATE ${code}): ${message}. The statement was not confirmed; retry.`,
        { cause: error, details: { sqlstate: code } },
      );
    }
    const details: DbErrorFields = {
      sqlstate: code,
      detail: str(e.detail),
      hint: str(e.hint),
      constraint: str(e.constraint),
      table: str(e.table),
      column: str(e.column),
      schema: str(e.schema),
      position: str(e.position),
      severity: str(e.severity),
    };
    return new LlamonError("DB_QUERY_FAILED", message, { cause: error, details });
  }
  const httpStatus = /HTTP status (\d{3})/.exec(message)?.[1];
  if (httpStatus === "413" || httpStatus === "507") {
    return new LlamonError(
      "DB_PAYLOAD_TOO_LARGE",
      `${message} (split the work into smaller statements or batches)`,
      { cause: error, details: { httpStatus: Number(httpStatus) } },
    );
  }
  if (REFUSED_CREDENTIALS.test(message)) {
    // Neon's proxy answers a wrong role or password with HTTP 400 and no SQLSTATE
    // (proxy/src/serverless/http_util.rs, backend.rs); retrying cannot help.
    return new LlamonError(
      "CONFIG_INVALID",
      `the database refused the credentials over ${transport}: ${message}. Check the role and password in POSTGRES_MEMORY_DSN; retrying will not help.`,
      {
        cause: error,
        details: httpStatus === undefined ? {} : { httpStatus: Number(httpStatus) },
      },
    );
  }
  return new LlamonError(
    "DB_UNAVAILABLE",
    `database unreachable over ${transport}: ${message}. Check POSTGRES_MEMORY_DSN and that the database (or the local Neon proxy) is running.`,
    {
      cause: error,
      details: httpStatus === undefined ? {} : { httpStatus: Number(httpStatus) },
    },
  );
}

/** Normalise a driver result into our QueryResult shape. */
export function toQueryResult<R>(raw: {
  rows: unknown[];
  rowCount?: number | null;
  command?: string | null;
  fields?: readonly { name: string; dataTypeID: number }[] | null;
}): QueryResult<R> {
  const rows = raw.rows as R[];
  return {
    rows,
    rowCount: raw.rowCount ?? rows.length,
    command: raw.command ?? "",
    fields: (raw.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  };
}
