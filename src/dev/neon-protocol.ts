/**
 * The request side of Neon's SQL-over-HTTP protocol: body shapes and the conversion of
 * JSON parameters to the text Postgres receives. Validated with zod; a bad body is a
 * 400 with a message, never a crash.
 */
import { z } from "zod";
import { isLlamonError, LlamonError } from "../errors.ts";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

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

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

const queryData = z.object({
  query: z.string(),
  params: z.array(jsonValue).optional(),
  arrayMode: z.boolean().optional(),
});
const payloadSchema = z.union([z.object({ queries: z.array(queryData) }), queryData]);

export interface QueryData {
  readonly query: string;
  readonly params: (string | null)[];
  readonly arrayMode: boolean | undefined;
}

export type Payload =
  | { readonly kind: "single"; readonly query: QueryData }
  | { readonly kind: "batch"; readonly queries: QueryData[] };

export function parsePayload(body: Buffer): Payload {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
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
      "could not parse the HTTP request body: expected {query, params?} or {queries: [{query, params?}, …]}",
    );
  }
  const toQuery = (q: z.infer<typeof queryData>): QueryData => ({
    query: q.query,
    params: (q.params ?? []).map(paramToText),
    arrayMode: q.arrayMode,
  });
  return "queries" in parsed.data
    ? { kind: "batch", queries: parsed.data.queries.map(toQuery) }
    : { kind: "single", query: toQuery(parsed.data) };
}

/** JSON parameter → the text Postgres receives (as Neon does: arrays become array literals). */
export function paramToText(value: JsonValue): string | null {
  if (value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

function arrayLiteral(values: JsonValue[]): string {
  const items = values.map((v) => {
    if (v === null) return "NULL";
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = typeof v === "object" ? JSON.stringify(v) : String(v);
    return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(",")}}`;
}
