/**
 * The CLI's plain-text tables (prune plans, the offline bundle's files): columns line up in a
 * terminal, Korean and emoji taking two columns each; numbers are right-aligned.
 */
import { describe, expect, it } from "vitest";
import { formatBytes, formatTable } from "../../../packages/cli/src/cli/table.ts";

describe("CLI tables", () => {
  it("aligns columns by display width: wide characters take two columns", () => {
    const lines = formatTable(
      ["thread", "rows", "size"],
      [
        ["대화-1", "3", "1.2 kB"],
        ["chat-🍵", "12", "980 B"],
        ["t", "100", "15 kB"],
      ],
      [1, 2],
    );
    expect(lines).toEqual([
      "thread   rows    size",
      "-------  ----  ------",
      "대화-1      3  1.2 kB",
      "chat-🍵    12   980 B",
      "t         100   15 kB",
    ]);
  });

  it("an empty table is its header and rule", () => {
    expect(formatTable(["file", "size"], [], [1])).toEqual(["file  size", "----  ----"]);
  });

  it("sizes in decimal units like npm", () => {
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1_234)).toBe("1.2 kB");
    expect(formatBytes(56_789)).toBe("57 kB");
    expect(formatBytes(1_234_567)).toBe("1.2 MB");
    expect(formatBytes(2_500_000_000)).toBe("2.5 GB");
  });
});
