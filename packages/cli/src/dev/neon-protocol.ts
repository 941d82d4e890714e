/**
 * The request side of Neon's SQL-over-HTTP protocol: body shapes, the conversion of JSON
 * parameters to the text Postgres receives, and the error body Neon answers. Validated with
 * zod; a bad body is a 400 with a message, never a crash.
 *
 * Reference: neondatabase/neon proxy/src/serverless/sql_over_http.rs (Payload, QueryData,
 * ~44–76; the error body ~154–241) and json.rs (json_to_pg_text, ~10–60).
 */

import { isLlamonError, LlamonError } from "llamon/errors";
import { z } from "zod";

/** A JSON number kept as written in the request (Neon's serde_json reads it from the text). */
export class JsonNumber {
  constructor(readonly source: string) {}
}

export type JsonValue =
  | string
  | JsonNumber
  | boolean
  | null
  | JsonValue[]
  | { [k: string]: JsonValue };

/** A request Neon would refuse, with the HTTP status it answers (a LlamonError). */
export function neonRequestError(
  status: number,
  message: string,
): LlamonError<{ httpStatus: number }> {
  const code = status === 413 || status === 507 ? "DB_PAYLOAD_TOO_LARGE" : "INPUT_INVALID";
  return new LlamonError(code, message, { details: { httpStatus: status } });
}

/** The HTTP status of an error made by {@link neonRequestError}, else undefined. */
export function neonRequestStatus(error: unknown): number | undefined {
  if (!isLlamonError(error)) return undefined;
  const status = (error.details as { httpStatus?: unknown }).httpStatus;
  return typeof status === "number" ? status : undefined;
}

/** The fields of a Postgres error, as node-postgres names them. */
export interface PgErrorFields {
  readonly message: string;
  readonly code?: string | undefined;
  readonly detail?: string | undefined;
  readonly hint?: string | undefined;
  readonly position?: string | undefined;
  readonly internalPosition?: string | undefined;
  readonly internalQuery?: string | undefined;
  readonly severity?: string | undefined;
  readonly where?: string | undefined;
  readonly table?: string | undefined;
  readonly column?: string | undefined;
  readonly schema?: string | undefined;
  readonly dataType?: string | undefined;
  readonly constraint?: string | undefined;
  readonly file?: string | undefined;
  readonly line?: string | undefined;
  readonly routine?: string | undefined;
}

const NULLABLE_KEYS = [
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "table",
  "column",
  "schema",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

/**
 * Neon's error body: every failure of a request (bad header, bad body, SQL error, lost
 * connection) has the same 17 keys. Without a Postgres error, `code` and `severity` are ""
 * (their Rust getters return a string, defaulted) and the rest null
 * (sql_over_http.rs ~164–241).
 */
export function neonErrorBody(message: string, db?: PgErrorFields): Record<string, string | null> {
  const body: Record<string, string | null> = {
    message: db?.message ?? message,
    code: db?.code ?? "",
  };
  for (const key of NULLABLE_KEYS.slice(0, 5)) body[key] = db?.[key] ?? null;
  body.severity = db?.severity ?? "";
  for (const key of NULLABLE_KEYS.slice(5)) body[key] = db?.[key] ?? null;
  return body;
}

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.instanceof(JsonNumber),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

const queryData = z.object({
  query: z.string(),
  params: z.array(jsonValue).optional(),
  // Option<bool> in Neon's QueryData: null is "not given".
  arrayMode: z.boolean().nullable().optional(),
});
// Neon's Payload is an untagged enum tried in order Single, then Batch: a body with both
// `query` and `queries` is a single query (sql_over_http.rs ~60–65).
const payloadSchema = z.union([queryData, z.object({ queries: z.array(queryData) })]);

export interface QueryData {
  readonly query: string;
  readonly params: (string | null)[];
  readonly arrayMode: boolean | undefined;
}

export type Payload =
  | { readonly kind: "single"; readonly query: QueryData }
  | { readonly kind: "batch"; readonly queries: QueryData[] };

/** JSON.parse keeping each number's text (a reviver's context.source, Node ≥ 21). */
function parseKeepingNumbers(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === "number" ? new JsonNumber(context?.source ?? String(value)) : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

export function parsePayload(body: Buffer): Payload {
  let json: unknown;
  try {
    json = parseKeepingNumbers(body.toString("utf8"));
  } catch (error) {
    throw neonRequestError(
      400,
      `could not parse the HTTP request body: ${(error as Error).message}`,
    );
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) {
    throw neonRequestError(
      400,
      "could not parse the HTTP request body: data did not match any variant of untagged enum Payload (expected {query, params?} or {queries: [{query, params?}, …]})",
    );
  }
  const toQuery = (q: z.infer<typeof queryData>): QueryData => ({
    query: q.query,
    params: (q.params ?? []).map(paramToText),
    arrayMode: q.arrayMode ?? undefined,
  });
  return "query" in parsed.data
    ? { kind: "single", query: toQuery(parsed.data) }
    : { kind: "batch", queries: parsed.data.queries.map(toQuery) };
}

/**
 * JSON parameter → the text Postgres receives, as Neon does (json.rs json_value_to_pg_text,
 * ~14–28): a string as is, null as NULL, an array as an array literal, anything else as its
 * JSON text (numbers and objects written the way serde_json writes them).
 */
export function paramToText(value: JsonValue): string | null {
  if (value === null) return null;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return arrayLiteral(value);
  return serdeJson(value);
}

/**
 * An array literal as Neon builds it (json.rs json_array_to_pg_array, ~38–60): elements are
 * their JSON text — a string keeps its JSON escapes (so "\n" reaches Postgres as `\n`, which
 * the array parser reads as `n`: Neon's behaviour, kept), an object becomes the JSON string
 * of its text, null is NULL.
 */
function arrayLiteral(values: JsonValue[]): string {
  const items = values.map((v): string => {
    if (v === null) return "NULL";
    if (Array.isArray(v)) return arrayLiteral(v);
    if (typeof v === "object" && !(v instanceof JsonNumber)) return JSON.stringify(serdeJson(v));
    return serdeJson(v);
  });
  return `{${items.join(",")}}`;
}

/**
 * JSON text as serde_json (without preserve_order, as Neon builds it) writes it: object keys
 * sorted (a BTreeMap), numbers as serde_json prints them.
 */
export function serdeJson(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof JsonNumber) return serdeNumber(value.source);
  if (Array.isArray(value)) return `[${value.map(serdeJson).join(",")}]`;
  const keys = Object.keys(value).sort(byCodePoint);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${serdeJson(value[k] as JsonValue)}`).join(",")}}`;
}

function byCodePoint(a: string, b: string): number {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return Buffer.compare(x, y);
}

const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);

/** A JSON number's text as serde_json re-prints it: integers in i64/u64 exactly, else an f64. */
export function serdeNumber(source: string): string {
  if (/^-?\d+$/.test(source)) {
    const n = BigInt(source);
    if (n >= I64_MIN && n <= U64_MAX) return n.toString();
  }
  return ryuFormat(Number(source));
}

/**
 * An f64 as the `ryu` crate's pretty format writes it (what serde_json and Neon's json writer
 * use): the shortest digits, "1.0" for whole numbers, exponents from 1e16 up and below 1e-5
 * ("1e16", "1.5e-7"), never "e+".
 */
export function ryuFormat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa = "0", exp = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const length = digits.length;
  const kk = Number(exp) + 1; // 10^(kk-1) <= |x| < 10^kk
  const k = kk - length;
  let text: string;
  if (k >= 0 && kk <= 16) text = `${digits}${"0".repeat(k)}.0`;
  else if (kk > 0 && kk <= 16) text = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) text = `0.${"0".repeat(-kk)}${digits}`;
  else if (length === 1) text = `${digits}e${kk - 1}`;
  else text = `${digits[0]}.${digits.slice(1)}e${kk - 1}`;
  return sign + text;
}
