/**
 * Plain-text tables and sizes for CLI output (no colours or borders: output is often piped,
 * logged or read by scripts). Widths are display columns as the terminal shows them (Korean and
 * other wide characters take two), measured by fast-string-width, the measure @clack/prompts
 * draws with.
 */
import width from "fast-string-width";

/** Columns aligned with two spaces; `right` lists the columns to right-align (numbers). */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string[] {
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => {
        const pad = " ".repeat(Math.max(0, (widths[i] ?? 0) - width(cell)));
        return right.includes(i) ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

/** 1234567 → "1.2 MB" (decimal units, like npm). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
