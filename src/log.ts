/**
 * One structured logger. Lines are plain text (the `multiturn:` line must be exact);
 * structured fields go after it as JSON when given.
 */
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type LogSink = (level: LogLevel, line: string) => void;

const consoleSink: LogSink = (level, line) => {
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else if (level === "debug") console.debug(line);
  else console.info(line);
};

export function createLogger(sink: LogSink = consoleSink): Logger {
  const emit = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) =>
    sink(level, fields === undefined ? message : `${message} ${JSON.stringify(fields)}`);
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** A logger that keeps lines in memory (tests, the inspector). */
export function createMemoryLogger(): Logger & {
  readonly lines: { level: LogLevel; line: string }[];
} {
  const lines: { level: LogLevel; line: string }[] = [];
  return Object.assign(
    createLogger((level, line) => lines.push({ level, line })),
    { lines },
  );
}
