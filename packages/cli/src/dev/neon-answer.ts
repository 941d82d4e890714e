/**
 * The response side of Neon's SQL-over-HTTP protocol: the JSON answer, written piece by piece
 * in Neon's key order, with Neon's size limit and its typed output.
 *
 * Reference: neondatabase/neon proxy/src/serverless/sql_over_http.rs query_to_json
 * (~868–961) and json.rs pg_text_row_to_json / pg_text_to_json / pg_array_parse (~102–370).
 * Dev and tests only.
 */
import { neonRequestError, ryuFormat } from "./neon-protocol.ts";

/** The answer's JSON text so far, and its size in bytes (UTF-8, as sent). */
export class JsonAnswer {
  private readonly parts: string[] = [];
  bytes = 0;

  push(text: string): void {
    this.parts.push(text);
    this.bytes += Buffer.byteLength(text);
  }

  text(): string {
    return this.parts.join("");
  }
}

export interface AnswerField {
  readonly name: string;
  readonly dataTypeID: number;
  readonly tableID: number;
  readonly columnID: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
}

export interface StatementResult {
  readonly fields: readonly AnswerField[];
  readonly rows: readonly (readonly (string | null)[])[];
  /** The command tag's first word; null (empty query) is written "". */
  readonly command: string | null;
  readonly rowCount: number | null;
}

export interface AnswerOptions {
  readonly arrayMode: boolean;
  /** Neon-Raw-Text-Output: true — every value as Postgres text; else typed JSON. */
  readonly rawOutput: boolean;
  readonly maxResponseBytes: number;
  /** The element type of an array type, undefined for a type that is no array. */
  readonly arrayElement: (oid: number) => number | undefined;
}

/**
 * Writes one statement's result: `{"fields":[…],"rows":[…],"command":…,"rowCount":…,
 * "rowAsArray":…}`. Before each row, the whole answer written so far (earlier results of a
 * batch included) is compared with the limit, as Neon does (sql_over_http.rs ~907–916): a
 * single row bigger than the limit passes, many small rows whose JSON outgrows it do not.
 */
export function writeResult(answer: JsonAnswer, result: StatementResult, o: AnswerOptions): void {
  const fields = result.fields.map(
    (f) =>
      `{"name":${JSON.stringify(f.name)},"dataTypeID":${f.dataTypeID},"tableID":${f.tableID},"columnID":${f.columnID},"dataTypeSize":${f.dataTypeSize},"dataTypeModifier":${f.dataTypeModifier},"format":"text"}`,
  );
  answer.push(`{"fields":[${fields.join(",")}],"rows":[`);
  const names = result.fields.map((f) => JSON.stringify(f.name));
  const types = result.fields.map((f) => f.dataTypeID);
  result.rows.forEach((row, index) => {
    if (answer.bytes > o.maxResponseBytes) {
      throw neonRequestError(507, `response is too large (max is ${o.maxResponseBytes} bytes)`);
    }
    const values = row.map((cell, i) =>
      cell === null ? "null" : o.rawOutput ? JSON.stringify(cell) : typed(cell, types[i] ?? 0, o),
    );
    const json = o.arrayMode
      ? `[${values.join(",")}]`
      : `{${values.map((v, i) => `${names[i]}:${v}`).join(",")}}`;
    answer.push(index === 0 ? json : `,${json}`);
  });
  answer.push(
    `],"command":${JSON.stringify(result.command ?? "")},"rowCount":${result.rowCount ?? "null"},"rowAsArray":${o.arrayMode}}`,
  );
}

/** A conversion Neon cannot make: its answer is HTTP 500 "could not parse postgres response". */
export class JsonConversionError extends Error {}

const BOOL = 16;
const INT2 = 21;
const INT4 = 23;
const FLOAT4 = 700;
const FLOAT8 = 701;
const JSON_OID = 114;
const JSONB = 3802;

/** Postgres text → typed JSON (json.rs pg_text_to_json, ~133–165); int8 and numeric stay text. */
function typed(text: string, oid: number, o: AnswerOptions): string {
  const element = o.arrayElement(oid);
  if (element !== undefined) return parseArray(text, element, o);
  switch (oid) {
    case BOOL:
      return text === "t" ? "true" : "false";
    case INT2:
    case INT4: {
      if (!/^[+-]?\d+$/.test(text)) throw new JsonConversionError(`parse int error: ${text}`);
      const n = Number(text);
      if (n > 2147483647 || n < -2147483648) {
        throw new JsonConversionError(`parse int error: ${text}`);
      }
      return String(n);
    }
    case FLOAT4:
    case FLOAT8: {
      const n = Number(text);
      // NaN and ±Infinity stay strings (JSON has no such numbers).
      return Number.isFinite(n) ? ryuFormat(n) : JSON.stringify(text);
    }
    case JSON_OID:
    case JSONB:
      return text;
    default:
      return JSON.stringify(text);
  }
}

/**
 * A Postgres array literal → a JSON array, as Neon reads it (json.rs pg_array_parse, ~186–306):
 * bounds decoration skipped, ',' as the delimiter, quoted items unescaped, NULL as null.
 * Neon's own quirk is kept: `{}` reads as one empty item (`[""]` for text, an error for
 * numbers).
 */
function parseArray(text: string, element: number, o: AnswerOptions): string {
  let rest = text;
  if (rest.startsWith("[")) {
    const eq = rest.indexOf("=");
    if (eq < 0) throw new JsonConversionError("unbalanced array");
    rest = rest.slice(eq + 1);
  }
  const out: string[] = [];
  rest = parseInner(out, rest.trimStart(), element, o);
  if (rest !== "") throw new JsonConversionError("unbalanced array");
  return out.join("");
}

function parseInner(out: string[], input: string, element: number, o: AnswerOptions): string {
  if (!input.startsWith("{")) throw new JsonConversionError("unbalanced array");
  let rest = input.slice(1);
  out.push("[");
  let first = true;
  for (;;) {
    if (!first) out.push(",");
    first = false;
    rest = parseItem(out, rest, element, o);
    if (rest.startsWith(",")) rest = rest.slice(1);
    else break;
  }
  if (!rest.startsWith("}")) throw new JsonConversionError("unbalanced array");
  out.push("]");
  return rest.slice(1).trimStart();
}

function parseItem(out: string[], input: string, element: number, o: AnswerOptions): string {
  const rest = input.trimStart();
  if (rest.startsWith("{")) return parseInner(out, rest, element, o);
  if (rest.startsWith('"')) {
    let value = "";
    let i = 1;
    for (;;) {
      const ch = rest[i];
      if (ch === undefined) throw new JsonConversionError("unbalanced quoted string");
      if (ch === '"') break;
      if (ch === "\\") {
        const next = rest[i + 1];
        if (next === undefined) throw new JsonConversionError("unbalanced quoted string");
        value += next;
        i += 2;
      } else {
        value += ch;
        i += 1;
      }
    }
    out.push(typed(value, element, o));
    return rest.slice(i + 1).trimStart();
  }
  const end = rest.search(/[,}]/);
  if (end < 0) throw new JsonConversionError("unbalanced array");
  const item = rest.slice(0, end).trimEnd();
  out.push(item === "NULL" ? "null" : typed(item, element, o));
  return rest.slice(end);
}
