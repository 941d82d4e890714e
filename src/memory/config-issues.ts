/**
 * Turning MemoryConfig validation problems into one clear line each, with "did you mean"
 * suggestions for misspelt keys (`windowSize`, `window-size`, `summarise` → the seed's
 * snake_case key). Pure helpers shared by the schema (config-schema.ts) and the env
 * reader (config-env.ts).
 */
import type { z } from "zod";
import { LlamonError } from "../errors.ts";
import { zodFieldErrors } from "../zod-issues.ts";

/** `details` of a CONFIG_INVALID error raised for a memory config. */
export interface MemoryConfigErrorDetails {
  /** Problem lines per field (config key, or env variable name for the env layer). */
  fieldErrors: Record<string, string[]>;
  /** Where the bad value came from: "code", "env", "registry", "runtime", a file path… */
  source: string;
}

/** A short, log-safe rendering of a bad value for an error message. */
export function showValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

/** Lowercase letters and digits only, so `windowSize`, `window-size`, `WINDOW_SIZE` meet. */
function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Plain Levenshtein distance; keys are short, so the O(n·m) table is fine. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known key an unknown key most likely meant, or undefined. Matches, in order: an
 * alias (e.g. the env variable `MEMORY_WINDOW_SIZE`), the same letters ignoring case and
 * separators (`windowSize`), then a small edit distance on those letters (`summarise`).
 */
export function suggestKey(
  unknown: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  // Own keys only: "constructor" or "toString" must not find Object.prototype's members.
  const alias = (key: string) => (Object.hasOwn(aliases, key) ? aliases[key] : undefined);
  const aliased = alias(unknown) ?? alias(unknown.toUpperCase());
  if (aliased !== undefined && known.includes(aliased)) return aliased;
  const wanted = normalizeKey(unknown);
  const same = known.find((key) => normalizeKey(key) === wanted);
  if (same !== undefined) return same;
  const limit = wanted.length <= 4 ? 1 : 2;
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(wanted, normalizeKey(key));
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { key, distance };
    }
  }
  return best?.key;
}

/** Options for {@link issuesToFieldErrors}. */
export interface IssueFormatOptions {
  knownKeys: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  /** Renames a config key in the output (the env reader reports variable names). */
  label?: (key: string) => string;
  /** A fixed line for some unknown keys (e.g. a deploy-time key in the run-time layer). */
  keyLine?: (key: string) => string | undefined;
}

/** Groups zod issues by field, one readable line per problem (the shared formatter). */
export function issuesToFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  options: IssueFormatOptions,
): Record<string, string[]> {
  return zodFieldErrors(issues, {
    unknownKey: (key) => {
      const fixed = options.keyLine?.(key);
      if (fixed !== undefined) return fixed;
      const suggestion = suggestKey(key, options.knownKeys, options.aliases);
      return suggestion === undefined
        ? `unknown key; known keys are ${options.knownKeys.join(", ")}`
        : `unknown key; did you mean "${suggestion}"?`;
    },
    rootMessage: (issue) => `must be an object of memory settings, got ${showValue(issue.input)}`,
    label: options.label,
  });
}

/** The CONFIG_INVALID error for a set of field problems, one line per problem. */
export function memoryConfigError(
  fieldErrors: Record<string, string[]>,
  source: string,
): LlamonError<MemoryConfigErrorDetails> {
  const lines = Object.entries(fieldErrors).flatMap(([field, problems]) =>
    problems.map((problem) => `  - ${field}: ${problem}`),
  );
  return new LlamonError<MemoryConfigErrorDetails>(
    "CONFIG_INVALID",
    `Invalid memory config (from ${source}):\n${lines.join("\n")}`,
    { details: { fieldErrors, source } },
  );
}
