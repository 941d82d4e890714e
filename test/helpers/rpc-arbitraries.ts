/**
 * fast-check building blocks for JSON-RPC request bodies: a valid send with one mutation at a
 * known path, and a body cut short. Shared by the Node property test and the workerd fuzz, so
 * this imports nothing but fast-check (no node: modules).
 */
import fc, { type Arbitrary } from "fast-check";

/** Any JSON value, a few levels deep. */
export const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A path into a body: object keys and array indexes. */
export type BodyPath = (string | number)[];

/** Paths every message send has (envelope, message, its first part). */
export const SEND_PATHS: readonly BodyPath[] = [
  ["jsonrpc"],
  ["id"],
  ["method"],
  ["params"],
  ["params", "message"],
  ["params", "message", "role"],
  ["params", "message", "parts"],
  ["params", "message", "parts", 0],
  ["params", "message", "parts", 0, "text"],
  ["params", "message", "parts", 0, "kind"],
];

/** A copy of `value` with the value at `path` replaced (or removed when `replacement` is undefined). */
export function mutate(value: unknown, path: BodyPath, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> | undefined = copy;
  for (const key of path.slice(0, -1)) {
    const next: unknown = node?.[key];
    node =
      typeof next === "object" && next !== null
        ? (next as Record<string | number, unknown>)
        : undefined;
  }
  const last = path.at(-1);
  if (node !== undefined && last !== undefined) {
    if (replacement === undefined) delete node[last];
    else node[last] = replacement;
  }
  return copy;
}

/**
 * Serialized bodies from `valid`, some left as they are and the rest with one of `paths` set
 * to any JSON value or removed. `freq` is fast-check's option frequency (1 in `freq` unmutated;
 * its default when omitted).
 */
export function withOneMutation(
  valid: Arbitrary<unknown>,
  paths: readonly BodyPath[],
  options: { freq?: number } = {},
): Arbitrary<string> {
  return fc
    .tuple(
      valid,
      fc.option(fc.tuple(fc.constantFrom(...paths), fc.option(anyJson, { nil: undefined })), {
        nil: undefined,
        freq: options.freq,
      }),
    )
    .map(([body, mutation]) =>
      JSON.stringify(mutation === undefined ? body : mutate(body, mutation[0], mutation[1])),
    );
}

/** Each string cut at a random point before its end (an empty string stays empty). */
export function truncated(strings: Arbitrary<string>): Arbitrary<string> {
  return strings.chain((s) => fc.nat({ max: Math.max(0, s.length - 1) }).map((n) => s.slice(0, n)));
}
