/** Parsers for CLI option values: a bad value is a clear error, never a silent default. */
import { LlamonError } from "llamon/errors";

export function parsePort(value: string): number {
  return portParser("--port")(value);
}

/** The parser of a port flag (`--proxy-port`, `--pg-port`): its message names the flag. */
export function portParser(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isInteger(n) || n < 0 || n > 65535) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `${flag} must be a whole number from 0 to 65535, got "${value}"`,
      );
    }
    return n;
  };
}

/** The port of a local run: $PORT when set, else 8787 (what `llamon run` and `llamon chat` use). */
export function defaultPort(): number {
  const env = process.env.PORT;
  if (env === undefined || env.trim() === "") return 8787;
  const n = Number(env.trim());
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `PORT must be a whole number from 0 to 65535, got "${env}" (unset it to use 8787)`,
    );
  }
  return n;
}

export function parsePositiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) {
      throw new LlamonError("CONFIG_INVALID", `${flag} must be a whole number ≥ 1, got "${value}"`);
    }
    return n;
  };
}
