/**
 * The local Neon turns JSON parameters into Postgres text as Neon does — with
 * serde_json (no preserve_order) and the `ryu` float format — and answers refused requests
 * with Neon's 17-key error body (neondatabase/neon proxy/src/serverless/json.rs ~10–60,
 * sql_over_http.rs ~154–241).
 */
import { NeonDbError } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import {
  JsonNumber,
  neonErrorBody,
  paramToText,
  parsePayload,
  ryuFormat,
  serdeNumber,
} from "../../../packages/cli/src/dev/neon-protocol.ts";
import { toDbError } from "../../../src/store/db.ts";
import { NEON_ERROR_KEYS } from "../../helpers/neon-error-keys.ts";

describe("serde_json number text", () => {
  it("floats are written as ryu writes them", () => {
    const cases: [number, string][] = [
      [1, "1.0"],
      [-0, "-0.0"],
      [0, "0.0"],
      [0.1, "0.1"],
      [123.456, "123.456"],
      [1e15, "1000000000000000.0"],
      [1e16, "1e16"],
      [1.5e300, "1.5e300"],
      [0.00001, "0.00001"],
      [0.000001, "1e-6"],
      [1.5e-7, "1.5e-7"],
      [-2.5, "-2.5"],
    ];
    for (const [value, text] of cases) expect(ryuFormat(value), String(value)).toBe(text);
  });

  it("integers in the i64/u64 range stay exact; beyond it they are floats", () => {
    expect(serdeNumber("9007199254740993")).toBe("9007199254740993");
    expect(serdeNumber("18446744073709551615")).toBe("18446744073709551615");
    expect(serdeNumber("-9223372036854775808")).toBe("-9223372036854775808");
    expect(serdeNumber("18446744073709551616")).toBe("1.8446744073709552e19");
    expect(serdeNumber("1.0")).toBe("1.0");
    expect(serdeNumber("1E+2")).toBe("100.0");
  });
});

describe("parameters", () => {
  it("numbers keep the text of the request body", () => {
    const payload = parsePayload(Buffer.from('{"query":"q","params":[9007199254740993, 1.0]}'));
    expect(payload).toEqual({
      kind: "single",
      query: { query: "q", params: ["9007199254740993", "1.0"], arrayMode: undefined },
    });
  });

  it("arrays become literals as Neon builds them", () => {
    expect(
      paramToText([new JsonNumber("1"), true, "a\nb", null, [{ b: new JsonNumber("1"), a: "x" }]]),
    ).toBe('{1,true,"a\\nb",NULL,{"{\\"a\\":\\"x\\",\\"b\\":1}"}}');
    expect(paramToText({ b: [new JsonNumber("2")], a: null })).toBe('{"a":null,"b":[2]}');
    expect(paramToText([])).toBe("{}");
  });
});

describe("the error body", () => {
  it("a request error has all 17 keys in Neon's order, code and severity empty", () => {
    const body = neonErrorBody("invalid isolation level");
    expect(Object.keys(body)).toEqual(NEON_ERROR_KEYS);
    expect(body).toMatchObject({ message: "invalid isolation level", code: "", severity: "" });
    expect(Object.values(body).filter((v) => v === null)).toHaveLength(14);
  });
});

describe("what the driver's errors become (store/db.ts toDbError)", () => {
  const neonError = (code: string) =>
    Object.assign(new NeonDbError(`error ${code}`), { code: code === "" ? "" : code });

  it("a lost connection is DB_UNAVAILABLE with its SQLSTATE; a wrong request stays DB_QUERY_FAILED", () => {
    for (const code of ["57P01", "57P02", "57P03", "08006", "08003", "08000"]) {
      const error = toDbError(neonError(code), "neon-http");
      expect(error.code, code).toBe("DB_UNAVAILABLE");
      expect(error.details).toEqual({ sqlstate: code });
    }
    for (const code of ["08P01", "23505", "42601", "57014"]) {
      expect(toDbError(neonError(code), "neon-http").code, code).toBe("DB_QUERY_FAILED");
    }
  });

  it('Neon\'s 400 without a SQLSTATE (code "", a closed connection) is DB_UNAVAILABLE', () => {
    expect(toDbError(neonError(""), "neon-http").code).toBe("DB_UNAVAILABLE");
  });

  it("credentials Neon refuses are CONFIG_INVALID: a retry cannot help", () => {
    for (const message of [
      "password authentication failed for user 'worker'",
      "missing authentication credentials: required password",
    ]) {
      const refused = Object.assign(new NeonDbError(`Server error (HTTP status 400): ${message}`), {
        code: "",
      });
      const error = toDbError(refused, "neon-http");
      expect(error.code, message).toBe("CONFIG_INVALID");
      expect(error.message).toContain("Check the role and password in POSTGRES_MEMORY_DSN");
    }
  });
});
