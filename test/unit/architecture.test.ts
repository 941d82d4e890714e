/**
 * The import rules of docs/architecture.md, checked on the source: every import in src/**
 * (type-only ones included) goes to the same folder or to a lower layer, and no file reaches
 * itself through its imports. (The command line and dev/ are the llamon-cli package: they reach
 * src/ only through llamon's exports, test/unit/cli/package-manifest.test.ts.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

/** Layer of each folder of src/ (higher imports lower). Keep in sync with docs/architecture.md. */
const LAYERS: Readonly<Record<string, number>> = {
  "(package)": 10, // src/index.ts, and src/node.ts (llamon/node, for llamon-cli): entries
  worker: 8,
  studio: 7,
  durable: 7,
  a2a: 6,
  admin: 6,
  queue: 6,
  agent: 5,
  runtime: 4,
  memory: 3,
  llm: 3,
  store: 2,
  "(base)": 1, // src/errors.ts, src/log.ts, src/zod-issues.ts
};
/** Stand-ins the Worker bundle uses in place of packages (wrangler [alias]): outside the layers. */
const SHIMS = "shims";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    // Declaration files (src/types/*.d.ts) describe untyped packages; they import nothing of src/.
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

/** The folder of a file under src/ (`(base)` / `(package)` for the files at its top). */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split("/");
  if (parts.length > 1) return parts[0] as string;
  return parts[0] === "index.ts" || parts[0] === "node.ts" ? "(package)" : "(base)";
}

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Relative imports of a file that stay inside src/, resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT_RE)) {
    const spec = match[1] ?? match[2];
    if (spec === undefined || !spec.startsWith(".")) continue;
    const target = resolve(dirname(file), spec);
    if (target.startsWith(`${SRC}/`) && target.endsWith(".ts")) out.push(target);
  }
  return out;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => relative(SRC, f);

describe("the layers of src/ (docs/architecture.md)", () => {
  it("knows the layer of every folder of src/", () => {
    const unknown = [...new Set(files.map(folderOf))].filter(
      (folder) => folder !== SHIMS && LAYERS[folder] === undefined,
    );
    expect(unknown).toEqual([]);
  });

  it("no import goes up the layer order or sideways into another folder of its layer", () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (from === to) continue;
        const line = `${rel(file)} -> ${rel(target)}`;
        if (from === SHIMS || to === SHIMS) {
          wrong.push(
            `${line} (shims/ stand in for packages: they import nothing of src/, nothing imports them)`,
          );
          continue;
        }
        const fromRank = LAYERS[from] ?? 0;
        if ((LAYERS[to] ?? Number.POSITIVE_INFINITY) >= fromRank) wrong.push(line);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        const seen = state.get(next);
        if (seen === "open") {
          cycles.push([...stack.slice(stack.indexOf(next)), next].map(rel).join(" -> "));
        } else if (seen === undefined && graph.has(next)) {
          visit(next);
        }
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("R11.1 R11.2 the turn reaches its thread only through the ThreadStore port: agent/ imports no saver", () => {
    const savers: string[] = [];
    for (const [file, targets] of graph) {
      if (folderOf(file) !== "agent") continue;
      for (const target of targets) {
        if (
          /^store\/.*-saver\.ts$/.test(rel(target)) &&
          rel(target) !== "store/saver-thread-store.ts"
        )
          savers.push(`${rel(file)} -> ${rel(target)}`);
      }
    }
    expect(savers).toEqual([]);
    // The pipeline's file is where a backend check would creep back in.
    const pipeline = readFileSync(join(SRC, "agent/turn/pipeline.ts"), "utf8");
    expect(pipeline).not.toMatch(
      /instanceof\s+\w*Saver|\bhas(TurnMemoryAccess|Transcript|RecallPrefetch|MessageIdIndex)\(/,
    );
  });

  it("R11.1 R11.2 the savers carry no side channels: a turn's reads and stages are its thread store's", () => {
    // What the turn read besides its head (memory rows, recall, its messageId's stored turn)
    // and what it staged (memory rows, transcript, message id) live in the thread stores
    // (store/*-thread-store.ts); a saver holds nothing of a turn but LangGraph's own writes.
    const sideChannels =
      /\b(stageMemory|memoryOf|stageTranscript|stageTranscriptTrim|prefetchRecall|prefetchedRecall|lookupMessageId|storedTurn|stageMessageId|generationOf)\s*\(/;
    const offenders = ["neon-saver.ts", "sqlite-saver.ts", "memory-saver.ts"].filter((file) =>
      sideChannels.test(readFileSync(join(SRC, "store", file), "utf8")),
    );
    expect(offenders).toEqual([]);
    for (const file of ["neon-saver.ts", "sqlite-saver.ts", "memory-saver.ts"]) {
      const text = readFileSync(join(SRC, "store", file), "utf8");
      // No per-thread maps of a turn's state: only LangGraph's held writes and storage.
      expect(text).not.toMatch(/MessageIdStage|MemoryStaging|TranscriptStage|recallQueries/);
    }
  });

  it("the checker sees imports, type-only and re-exports included", () => {
    const worker = join(SRC, "worker/index.ts");
    expect(graph.get(worker)).toContain(join(SRC, "durable/thread-do.ts"));
    const threadDo = graph.get(join(SRC, "durable/thread-do.ts")) ?? [];
    expect(threadDo).toContain(join(SRC, "admin/threads.ts")); // `import type`
    expect(threadDo).toContain(join(SRC, "durable/conversation.ts")); // `export … from`
  });
});
