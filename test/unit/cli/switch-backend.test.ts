/**
 * Moving a project from in_memory to postgres is a change of configuration, never of code:
 * the scaffold writes the same program for both modes, and the lines that differ are the
 * memory setting itself (and the files that provide a local Postgres).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProject } from "../../../packages/cli/src/cli/scaffold/create.ts";
import { type MemoryMode, TEMPLATES } from "../../../packages/cli/src/cli/scaffold/templates.ts";

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function scaffold(templateId: string, kind: "agent" | "flow", memory: MemoryMode) {
  const root = await mkdtemp(join(tmpdir(), "llamon-switch-"));
  roots.push(root);
  const dir = join(root, "my-agent");
  const result = await createProject({
    name: "my-agent",
    kind,
    templateId,
    memory,
    dir,
    llamonSpec: "^0.1.0",
    install: false,
    log: () => {},
  });
  const files = new Map<string, string>();
  for (const file of result.files) files.set(file, await readFile(join(dir, file), "utf8"));
  return files;
}

/** The lines of `a` and `b` that differ, position by position (same line count expected). */
function changedLines(a: string, b: string): [string, string][] {
  const left = a.split("\n");
  const right = b.split("\n");
  expect(right.length).toBe(left.length);
  return left.flatMap((line, i) => (line === right[i] ? [] : [[line, right[i] as string]]));
}

/** A line that only states the memory mode: the backend value, its flag, or its env var. */
const MEMORY_SETTING = /in_memory|in-memory|postgres|MEMORY_BACKEND|POSTGRES_MEMORY_DSN/i;

describe("switching a project from in_memory to postgres", () => {
  for (const template of TEMPLATES) {
    it(`R1.3 ${template.id}: the program is the same, only the memory setting differs`, async () => {
      const inMemory = await scaffold(template.id, template.kind, "in-memory");
      const postgres = await scaffold(template.id, template.kind, "postgres");
      // What postgres adds is how to get a local database, never code the agent runs.
      const added = [...postgres.keys()].filter((f) => !inMemory.has(f)).sort();
      expect(
        added.every((f) => f === "compose.yml" || f === "test/global-setup.ts"),
        added.join(),
      ).toBe(true);
      expect([...inMemory.keys()].filter((f) => !postgres.has(f))).toEqual([]);

      const code = [...inMemory.keys()].filter((f) => f.startsWith("src/"));
      expect(code.length).toBeGreaterThan(0);
      for (const file of code) {
        const changed = changedLines(inMemory.get(file) as string, postgres.get(file) as string);
        for (const [before, after] of changed) {
          expect(before, `${file}: ${before.trim()} → ${after.trim()}`).toMatch(MEMORY_SETTING);
          expect(after, file).toMatch(MEMORY_SETTING);
        }
      }
      // The one line a user edits to switch: the backend value in the agent's memory config.
      const agent = code.find((f) => f.endsWith("agent.ts")) as string;
      expect(inMemory.get(agent)).toContain('backend: "in_memory"');
      expect(postgres.get(agent)).toContain('backend: "postgres"');
      expect(
        (inMemory.get(agent) as string).replace('backend: "in_memory"', 'backend: "postgres"'),
      ).toBe((postgres.get(agent) as string).replace(/--memory postgres/g, "--memory in-memory"));
    });
  }
});
