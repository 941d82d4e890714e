import { describe, expect, it } from "vitest";
import * as sql from "../../../src/store/sql.ts";
import { compactSql } from "../../../src/store/sql-compact.ts";
import * as threadHead from "../../../src/store/thread-head-sql.ts";
import * as vector from "../../../src/store/vector-sql.ts";

describe("compactSql (statements as sent over Neon's HTTP API)", () => {
  it("drops comments and makes each run of whitespace one space", () => {
    expect(
      compactSql("SELECT  1,\n\t2 -- two\n  FROM t /* a /* nested */ comment */ WHERE x\n"),
    ).toBe("SELECT 1, 2 FROM t WHERE x");
    expect(compactSql("  SELECT 1  ")).toBe("SELECT 1");
  });

  it("keeps string literals, quoted identifiers and dollar-quoted bodies byte for byte", () => {
    expect(compactSql("SELECT ' a  -- b ',   'it''s  x' ,\"my  col\"")).toBe(
      "SELECT ' a  -- b ', 'it''s  x' ,\"my  col\"",
    );
    expect(compactSql("SELECT string_to_array(s,   ' ')")).toBe("SELECT string_to_array(s, ' ')");
    expect(compactSql("SELECT E'a\\'  b'  ,  1")).toBe("SELECT E'a\\'  b' , 1");
    expect(compactSql("DO $body$ BEGIN  -- kept\n  END $body$;  DO $$ x  y $$")).toBe(
      "DO $body$ BEGIN  -- kept\n  END $body$; DO $$ x  y $$",
    );
  });

  it("treats $1 as a parameter, not a dollar quote", () => {
    expect(compactSql("WHERE a = $1\n   AND b = $2::text[]  -- x\n")).toBe(
      "WHERE a = $1 AND b = $2::text[]",
    );
  });

  it("does not join tokens that a comment or newline separated", () => {
    expect(compactSql("SELECT a--c\nFROM t")).toBe("SELECT a FROM t");
    expect(compactSql("SELECT a/*c*/FROM t")).toBe("SELECT a FROM t");
  });

  it("compacts every Postgres statement of the store: shorter, one line, stable", () => {
    const texts = [sql, threadHead, vector].flatMap((m) =>
      Object.values(m).filter(
        (v): v is string => typeof v === "string" && /\bSELECT|INSERT|DELETE|UPDATE|WITH\b/.test(v),
      ),
    );
    expect(texts.length).toBeGreaterThan(20);
    let before = 0;
    let after = 0;
    for (const text of texts) {
      const out = compactSql(text);
      expect(out).not.toMatch(/\n|--|\s{2}/);
      expect(compactSql(out)).toBe(out);
      // Nothing but layout goes: the words are the original's, in order.
      const words = (s: string) =>
        s
          .replace(/--[^\n]*/g, " ")
          .split(/\s+/)
          .filter(Boolean)
          .join(" ");
      expect(words(out)).toBe(words(text));
      before += text.length;
      after += out.length;
    }
    expect(after).toBeLessThan(before);
  });
});
