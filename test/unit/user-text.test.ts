/**
 * issue 15: what users read (README, docs, .dev.vars.example, wrangler.toml, the templates
 * and every file a scaffold writes) names no internal requirement id (R2.3 …), no SPEC.md,
 * no "product document" and no issue number — words a user cannot look up.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { llamonManifest } from "../../src/cli/llamon-package.ts";
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
} from "../../src/cli/scaffold/files.ts";
import { readme } from "../../src/cli/scaffold/readme.ts";
import { backendOf, MEMORY_MODES, TEMPLATES } from "../../src/cli/scaffold/templates.ts";

const REPO = resolve(import.meta.dirname, "../..");
const INTERNAL = [
  /\bR\d{1,2}(\.\d{1,2})?\b/,
  /SPEC\.md/,
  /product doc/i,
  /제품 문서/,
  /\bissue #?\d+/i,
];

function internalWords(text: string): string[] {
  const found: string[] = [];
  for (const [n, line] of text.split("\n").entries()) {
    for (const pattern of INTERNAL) {
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
  it("issue 15: README, docs, .dev.vars.example, wrangler.toml and templates cite no internal ids", () => {
    const files = [
      "README.md",
      ".dev.vars.example",
      "wrangler.toml",
      ...filesUnder(join(REPO, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => f.slice(REPO.length + 1)),
      ...filesUnder(join(REPO, "templates")).map((f) => f.slice(REPO.length + 1)),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      expect(internalWords(readFileSync(join(REPO, file), "utf8")), file).toEqual([]);
    }
  });

  it("issue 15: every file a scaffold renders cites no internal ids", () => {
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
          manifest,
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
