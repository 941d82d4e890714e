/**
 * What users read (README, docs, .dev.vars.example, wrangler.toml, the templates and every
 * file a scaffold writes) names no requirement id (R2.3 …) outside the page that defines
 * them (docs/requirements*.md), no SPEC.md, no "product document" and no issue number —
 * words a user cannot look up. The ids the tests cite are exactly the ids that page defines,
 * in both languages.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { llamonManifest } from "../../packages/cli/src/cli/llamon-package.ts";
import {
  composeYml,
  devVars,
  devVarsExample,
  gitignore,
  type ProjectSpec,
  packageJson,
  testA2aHelper,
  testEnvTypes,
  testGlobalSetup,
  vitestConfig,
  wranglerToml,
} from "../../packages/cli/src/cli/scaffold/files.ts";
import { readme } from "../../packages/cli/src/cli/scaffold/readme.ts";
import {
  backendOf,
  MEMORY_MODES,
  TEMPLATES,
} from "../../packages/cli/src/cli/scaffold/templates.ts";

const REPO = resolve(import.meta.dirname, "../..");
const REQUIREMENT_ID = /\bR\d{1,2}(\.\d{1,2})?\b/;
const INTERNAL = [REQUIREMENT_ID, /SPEC\.md/, /product doc/i, /제품 문서/, /\bissue #?\d+/i];

/** The pages that define the requirement ids, and so may name them. */
const REQUIREMENT_PAGES = ["docs/requirements.md", "docs/requirements.en.md"];

function internalWords(text: string, idsAllowed = false): string[] {
  const found: string[] = [];
  const patterns = idsAllowed ? INTERNAL.filter((p) => p !== REQUIREMENT_ID) : INTERNAL;
  for (const [n, line] of text.split("\n").entries()) {
    for (const pattern of patterns) {
      const m = pattern.exec(line);
      if (m) found.push(`line ${n + 1}: "${m[0]}" in ${line.trim().slice(0, 120)}`);
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("user-facing text", () => {
  it("README, docs, .dev.vars.example, wrangler.toml and templates cite no internal ids", () => {
    const files = [
      "README.md",
      ".dev.vars.example",
      "wrangler.toml",
      ...filesUnder(join(REPO, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => f.slice(REPO.length + 1)),
      ...filesUnder(join(REPO, "packages/cli/templates")).map((f) => f.slice(REPO.length + 1)),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(join(REPO, file), "utf8");
      expect(internalWords(text, REQUIREMENT_PAGES.includes(file)), file).toEqual([]);
    }
  });

  it("every file a scaffold renders cites no internal ids", () => {
    const manifest = llamonManifest(REPO);
    const example = readFileSync(join(REPO, ".dev.vars.example"), "utf8");
    for (const template of TEMPLATES) {
      for (const memory of MEMORY_MODES) {
        const spec: ProjectSpec = {
          name: "my-agent",
          template,
          memory,
          backend: backendOf(memory),
          databaseName: "my_agent_memory",
          llamonSpec: "file:vendor/llamon-0.1.0.tgz",
          cliSpec: "file:vendor/llamon-cli-0.1.0.tgz",
          manifest,
          cliManifest: llamonManifest(join(REPO, "packages/cli")),
          compatibilityDate: "2026-11-01",
          devVarsExample: example,
        };
        const rendered = {
          "package.json": packageJson(spec),
          "wrangler.toml": wranglerToml(spec),
          ".dev.vars": devVars(spec),
          ".dev.vars.example": devVarsExample(spec),
          "compose.yml": composeYml(spec),
          ".gitignore": gitignore(),
          "vitest.config.ts": vitestConfig(spec),
          "test/global-setup.ts": testGlobalSetup(),
          "test/env.d.ts": testEnvTypes(),
          "test/a2a.ts": testA2aHelper(),
          "README.md": readme(spec),
        };
        for (const [file, text] of Object.entries(rendered)) {
          expect(internalWords(text), `${template.id} ${memory} ${file}`).toEqual([]);
        }
      }
    }
  });
});

/** `**R3.2**` at the start of a list item: the ids a requirements page defines. */
function definedIds(file: string): string[] {
  const text = readFileSync(join(REPO, file), "utf8");
  return [...text.matchAll(/^- \*\*(R\d{1,2}\.\d{1,2})\*\*/gm)].map((m) => m[1] as string);
}

/** Every requirement id named anywhere in the tests' sources. */
function citedIds(): Set<string> {
  const cited = new Set<string>();
  for (const file of filesUnder(join(REPO, "test")).filter((f) => /\.(ts|mts|mjs)$/.test(f))) {
    for (const m of readFileSync(file, "utf8").matchAll(/\bR\d{1,2}\.\d{1,2}\b/g)) cited.add(m[0]);
  }
  return cited;
}

describe("requirement ids", () => {
  it("the Korean and the English requirements pages define the same ids, each once", () => {
    const [ko, en] = REQUIREMENT_PAGES.map(definedIds) as [string[], string[]];
    expect(en.length).toBeGreaterThan(30);
    expect(new Set(en).size).toBe(en.length);
    expect(ko).toEqual(en);
  });

  it("every id a test cites is defined, and every defined id has a test that cites it", () => {
    const defined = new Set(definedIds("docs/requirements.en.md"));
    const cited = citedIds();
    expect([...cited].filter((id) => !defined.has(id)).sort(), "cited but not defined").toEqual([]);
    expect([...defined].filter((id) => !cited.has(id)).sort(), "defined but never cited").toEqual(
      [],
    );
  });
});
