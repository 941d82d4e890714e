/** Parsers for CLI option values: a bad value is a clear error, never a silent default. */
import { LlamonError } from "../errors.ts";

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `--port must be a whole number from 0 to 65535, got "${value}"`,
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
