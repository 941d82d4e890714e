/**
 * The one logger of llamon. Every line is one JSON object (Workers Logs and `wrangler tail`
 * index its fields):
 *
 *   {"level":"error","msg":"a2a: turn failed","agent_id":"support","context_id":"c-1",
 *    "message_id":"m-7","code":"MODEL_FAILED"}
 *
 * Field names are snake_case; `agent_id`, `context_id`, `message_id` and `code` are set
 * wherever they are known (a request's logger carries them, see runtime/context.ts).
 *
 * Exact lines: {@link Logger.line} prints its text alone as one line, byte for byte. The
 * `multiturn: thread_msgs=… window=… sent_to_llm=… has_prior=…` line of every model call is
 * written this way (R3.4 asks for exactly one INFO line of that text). Its fields stay on the
 * record for in-process sinks (the memory logger); on the platform the line belongs to its
 * request's invocation, like the request's other lines.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

export type LogFields = Readonly<Record<string, unknown>>;

export interface LogRecord {
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: LogFields;
  /** Printed as the message text alone (see the file header); `fields` are not printed. */
  readonly exact: boolean;
}

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** `text` exactly, as one line; `fields` stay on the record (file header). */
  line(level: LogLevel, text: string, fields?: LogFields): void;
  /** A logger that adds these fields to every record (a request's ids). */
  child(fields: LogFields): Logger;
}

export type LogSink = (record: LogRecord) => void;

/** The JSON line of a record. */
export function formatLogLine(record: LogRecord): string {
  const out: Record<string, unknown> = { level: record.level, msg: record.message };
  for (const [key, value] of Object.entries(record.fields)) {
    if (value !== undefined && key !== "level" && key !== "msg") out[key] = value;
  }
  return JSON.stringify(out, (_key, value: unknown) =>
    value instanceof Error ? `${value.name}: ${value.message}` : value,
  );
}

/** The one line printed for a record: the exact text, or the JSON line. */
export function renderLog(record: LogRecord): string {
  return record.exact ? record.message : formatLogLine(record);
}

const consoleSink: LogSink = (record) => {
  const print =
    record.level === "error"
      ? console.error
      : record.level === "warn"
        ? console.warn
        : record.level === "debug"
          ? console.debug
          : console.info;
  print(renderLog(record));
};

/** A sink that drops everything (benchmarks). */
export const silentSink: LogSink = () => {};

export interface LoggerOptions {
  /** Where records go; default the console (JSON lines). */
  readonly sink?: LogSink | undefined;
  /** Fields of every record. */
  readonly fields?: LogFields | undefined;
}

/** The logger factory (the only one): a sink and the fields every record carries. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const sink = options.sink ?? consoleSink;
  const base = options.fields ?? {};
  const emit =
    (level: LogLevel) =>
    (message: string, fields?: LogFields): void =>
      sink({ level, message, fields: fields ? { ...base, ...fields } : base, exact: false });
  return {
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    line: (level, text, fields) =>
      sink({ level, message: text, fields: fields ? { ...base, ...fields } : base, exact: true }),
    child: (fields) => createLogger({ sink, fields: { ...base, ...fields } }),
  };
}

/** What a memory logger keeps: the record and its printed line. */
export interface MemoryLogLine {
  readonly level: LogLevel;
  /** The exact text of a {@link Logger.line} record, else its JSON line. */
  readonly line: string;
}

/** A logger that keeps records in memory (tests, the inspector). */
export function createMemoryLogger(fields?: LogFields): Logger & {
  readonly lines: MemoryLogLine[];
  readonly records: LogRecord[];
} {
  const lines: MemoryLogLine[] = [];
  const records: LogRecord[] = [];
  const sink: LogSink = (record) => {
    records.push(record);
    lines.push({ level: record.level, line: renderLog(record) });
  };
  return Object.assign(createLogger({ sink, fields }), { lines, records });
}
