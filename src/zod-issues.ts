/**
 * The one formatter of zod issues. Every place that validates input with zod (the Worker's
 * env, MemoryConfig layers, the registry file, model variables, agent definitions, queue
 * jobs, A2A params) reports problems through it, so a field is always named the same way:
 *
 * - a field is its path, `a.b[0].c` (with an optional prefix, e.g. `params.message.role`);
 *   an issue about the whole value names the field `rootField` (default `(root)`);
 * - `fieldErrors`: problem lines grouped by field (an unknown key is its own field, with
 *   `unknownKey`'s line, default "unknown key");
 * - `lines`: one `field: problem` line per problem (`field must …` when the problem starts
 *   with "must", so "params.message.role must be \"user\"" reads as a sentence).
 */
import type { z } from "zod";

export interface IssueFormat {
  /** Path segments before every issue's own path (e.g. `["params"]`). */
  readonly prefix?: readonly PropertyKey[] | undefined;
  /** The field of an issue about the whole value. Default `(root)`. */
  readonly rootField?: string | undefined;
  /** The line of an unknown key (`unrecognized_keys`). Default "unknown key". */
  readonly unknownKey?: ((key: string) => string) | undefined;
  /** The line of an issue about the whole value. Default: the issue's message. */
  readonly rootMessage?: ((issue: z.core.$ZodIssue) => string) | undefined;
  /** Renames a field (the env reader reports variable names instead of config keys). */
  readonly label?: ((field: string) => string) | undefined;
  /** Rewrites a problem line (e.g. drops a variable name the message repeats). */
  readonly message?: ((field: string, message: string) => string) | undefined;
}

export type FieldErrors = Record<string, string[]>;

/** `a.b[0].c`: keys joined with dots, array indexes in brackets. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Adds a problem line to a field. Own properties only: a field named by the client
 * (`toString`, `constructor`, `__proto__`) is a field like any other, never
 * Object.prototype's member (reading one would throw; assigning `__proto__` would set the
 * prototype instead of adding the field).
 */
export function addFieldError(errors: FieldErrors, field: string, line: string): void {
  const lines = Object.hasOwn(errors, field) ? errors[field] : undefined;
  if (lines !== undefined) lines.push(line);
  else
    Object.defineProperty(errors, field, {
      value: [line],
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/** The issues grouped by field (see the file header). */
export function zodFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  format: IssueFormat = {},
): FieldErrors {
  const errors: FieldErrors = {};
  const prefix = format.prefix ?? [];
  const named = (path: readonly PropertyKey[]) => {
    const field = formatPath([...prefix, ...path]);
    return field === "" ? (format.rootField ?? "(root)") : (format.label?.(field) ?? field);
  };
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const field = named([...issue.path, key]);
        addFieldError(errors, field, format.unknownKey?.(key) ?? "unknown key");
      }
      continue;
    }
    const field = named(issue.path);
    const atRoot = prefix.length === 0 && issue.path.length === 0;
    const text = atRoot && format.rootMessage ? format.rootMessage(issue) : issue.message;
    addFieldError(errors, field, format.message?.(field, text) ?? text);
  }
  return errors;
}

/** `field: problem`, or `field must …` when the problem is phrased that way. */
export function issueLine(field: string, problem: string): string {
  return problem.startsWith("must ") ? `${field} ${problem}` : `${field}: ${problem}`;
}

/** One line per problem, in the order zod reported them. */
export function zodIssueLines(
  issues: readonly z.core.$ZodIssue[],
  format: IssueFormat = {},
): string[] {
  return fieldErrorLines(zodFieldErrors(issues, format));
}

/** One line per problem of a field-errors record. */
export function fieldErrorLines(errors: FieldErrors): string[] {
  return Object.entries(errors).flatMap(([field, problems]) =>
    problems.map((problem) => issueLine(field, problem)),
  );
}
