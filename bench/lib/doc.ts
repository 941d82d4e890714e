/**
 * docs/performance.md is shared by several benches: each owns the text between its markers
 * `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`; everything else in the file
 * is left as it is. A section that is not there yet is added at the end.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";

export const PERFORMANCE_DOC = resolve(import.meta.dirname, "../../docs/performance.md");

export async function writeDocSection(name: string, body: string): Promise<void> {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  let text = "";
  try {
    text = await readFile(PERFORMANCE_DOC, "utf8");
  } catch {
    text = "# Performance\n";
  }
  const block = `${start}\n${body.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}`
      : `${text.trimEnd()}\n\n${block}\n`;
  await mkdir(dirname(PERFORMANCE_DOC), { recursive: true });
  await writeFile(PERFORMANCE_DOC, next);
}
