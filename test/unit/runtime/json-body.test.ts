/**
 * Request bodies are read strictly — invalid UTF-8 is refused (never replaced with
 * U+FFFD, so two byte strings never become one id), and deep nesting is refused before any
 * recursive code sees it.
 */
import { describe, expect, it } from "vitest";
import {
  decodeUtf8,
  jsonNestsDeeperThan,
  MAX_JSON_DEPTH,
  parseJsonBody,
  parseJsonText,
} from "../../../src/runtime/json-body.ts";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)),
  );

describe("strict request bodies", () => {
  it("decodes valid UTF-8, drops a leading BOM, refuses invalid bytes", () => {
    expect(decodeUtf8(bytes('{"a":"한국어 ✓ 😀"}'))).toBe('{"a":"한국어 ✓ 😀"}');
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], "{}"))).toBe("{}");
    for (const bad of [[0xff], [0xfe], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82]]) {
      expect(decodeUtf8(bytes('{"id":"u', bad, '"}')), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it("two bodies that differ only in invalid bytes are both refused, not merged", () => {
    const a = parseJsonBody(bytes('{"contextId":"u', [0xff], '"}'));
    const b = parseJsonBody(bytes('{"contextId":"u', [0xfe], '"}'));
    expect(a).toEqual({ ok: false, problem: "encoding", message: "is not valid UTF-8" });
    expect(b).toEqual(a);
  });

  it("counts nesting outside strings only, exactly at the limit", () => {
    const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    const brackets = JSON.stringify({ text: "[".repeat(1000), q: '\\"{{{{', k: { "[[": 1 } });
    expect(jsonNestsDeeperThan(brackets, 2)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":{"b":{"c":1}}}', 2)).toBe(true);
    expect(parseJsonText(nested(MAX_JSON_DEPTH)).ok).toBe(true);
  });

  it("refuses 100k nested arrays and objects without overflowing the stack", () => {
    const arrays = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const objects = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    for (const text of [arrays, objects, `{"params":${arrays}}`]) {
      expect(parseJsonBody(new TextEncoder().encode(text))).toEqual({
        ok: false,
        problem: "depth",
        message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
  });

  it("reports JSON syntax errors, and keeps __proto__ as a plain own key", () => {
    expect(parseJsonText("{not json")).toMatchObject({ ok: false, problem: "syntax" });
    expect(parseJsonText("")).toMatchObject({ ok: false, problem: "syntax" });
    const parsed = parseJsonText('{"__proto__":{"backend":"sqlite"}}');
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect((value as { backend?: unknown }).backend).toBeUndefined();
  });
});
