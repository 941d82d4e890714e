/**
 * Postgres values and what the Neon driver (and node-postgres, same pg-types rules) must
 * return for them. Pure data, shared by the Node and the workerd tests.
 */
export interface TypeCase {
  readonly name: string;
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly expected: unknown;
}

const allBytes = Uint8Array.from({ length: 256 }, (_, i) => i);

export const TYPE_CASES: readonly TypeCase[] = [
  { name: "int4", sql: "SELECT $1::int4 AS v", params: [2147483647], expected: 2147483647 },
  {
    name: "int8 beyond 2^53 (string)",
    sql: "SELECT $1::int8 AS v",
    params: ["9007199254740993"],
    expected: "9007199254740993",
  },
  {
    name: "numeric (exact string)",
    sql: "SELECT $1::numeric AS v",
    params: ["12345678901234567890.000000000001"],
    expected: "12345678901234567890.000000000001",
  },
  { name: "bool true", sql: "SELECT $1::bool AS v", params: [true], expected: true },
  { name: "bool false", sql: "SELECT $1::bool AS v", params: [false], expected: false },
  {
    name: "text (Korean, emoji)",
    sql: "SELECT $1::text AS v",
    params: ["이전에 뭐 얘기했지? 🙂"],
    expected: "이전에 뭐 얘기했지? 🙂",
  },
  { name: "empty text", sql: "SELECT $1::text AS v", params: [""], expected: "" },
  {
    name: "jsonb (nested, unicode)",
    sql: "SELECT $1::jsonb AS v",
    params: [{ a: [1, { b: "서울" }], c: null, d: true }],
    expected: { a: [1, { b: "서울" }], c: null, d: true },
  },
  {
    name: "timestamptz (ms precision)",
    sql: "SELECT $1::timestamptz AS v",
    params: [new Date("2026-12-02T03:04:05.678Z")],
    expected: new Date("2026-12-02T03:04:05.678Z"),
  },
  {
    name: "text[] with NULL",
    sql: "SELECT $1::text[] AS v",
    params: [["a", null, 'q"uote', "쉼,표"]],
    expected: ["a", null, 'q"uote', "쉼,표"],
  },
  { name: "int4[]", sql: "SELECT $1::int4[] AS v", params: [[1, 2, 3]], expected: [1, 2, 3] },
  { name: "NULL int4", sql: "SELECT $1::int4 AS v", params: [null], expected: null },
  { name: "NULL jsonb", sql: "SELECT $1::jsonb AS v", params: [null], expected: null },
  { name: "NULL bytea", sql: "SELECT $1::bytea AS v", params: [null], expected: null },
  {
    name: "bytea (all 256 byte values)",
    sql: "SELECT $1::bytea AS v",
    params: [allBytes],
    expected: allBytes,
  },
];

/** Compare a returned value with the expectation; bytea may come back as Buffer or Uint8Array. */
export function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return Array.from(value);
  return value;
}
