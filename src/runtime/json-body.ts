/**
 * Reading a JSON request body from an untrusted client, the same way for the A2A endpoint
 * and the management API:
 *
 * - the bytes are decoded as UTF-8 strictly (TextDecoder `fatal`): invalid UTF-8 is refused,
 *   never replaced with U+FFFD (two different byte strings must never become one id);
 *   a leading byte order mark is dropped;
 * - the text is parsed with JSON.parse (own data properties only: a `__proto__` member is a
 *   key like any other, it never sets a prototype);
 * - arrays and objects may nest at most {@link MAX_JSON_DEPTH} levels. Nothing an agent
 *   accepts comes close, and deeper values would reach recursive code (validation, the A2A
 *   SDK's conversions, structured clone) that can overflow the stack.
 */

/** Deepest nesting of arrays and objects accepted in a request body. */
export const MAX_JSON_DEPTH = 64;

export type JsonBodyProblem = "encoding" | "syntax" | "depth";

export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly problem: JsonBodyProblem;
      /** Follows "the body …": "is not valid UTF-8", "is not valid JSON", "nests … levels". */
      readonly message: string;
    };

/** The body as text, or undefined when it is not valid UTF-8. */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Whether the JSON `text` nests arrays/objects deeper than `max`. A linear scan of the text
 * (no recursion, no parse), exact for valid JSON: brackets inside strings do not count.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

function fail(problem: JsonBodyProblem, maxDepth = MAX_JSON_DEPTH): JsonBody {
  const message =
    problem === "encoding"
      ? "is not valid UTF-8"
      : problem === "syntax"
        ? "is not valid JSON"
        : `nests arrays and objects deeper than ${maxDepth} levels`;
  return { ok: false, problem, message };
}

/** Parses JSON text under the depth rule of the file header. */
export function parseJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail("syntax");
  }
  return jsonNestsDeeperThan(text, maxDepth) ? fail("depth", maxDepth) : { ok: true, value };
}

/** Decodes and parses a request body (see the file header). */
export function parseJsonBody(
  bytes: ArrayBuffer | Uint8Array,
  maxDepth = MAX_JSON_DEPTH,
): JsonBody {
  const text = decodeUtf8(bytes);
  return text === undefined ? fail("encoding") : parseJsonText(text, maxDepth);
}
