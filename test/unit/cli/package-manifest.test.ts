/**
 * Llamon's runtime `dependencies` are what a Worker runs; the command line's tools
 * are `cliDependencies` — installed in the checkout as devDependencies (same ranges) and added
 * to every scaffolded project's devDependencies — never runtime dependencies.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = new URL("../../../", import.meta.url).pathname;

/** The files `npm pack` puts in llamon's tarball (a dry run: nothing is written). */
function packedFiles(): Set<string> {
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  expect(packed.status, packed.stderr).toBe(0);
  const [result] = JSON.parse(packed.stdout) as [{ files: { path: string }[] }];
  return new Set(result.files.map((f) => f.path));
}

/** The relative link targets (images and pages) of a markdown file, without anchors. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? "").split("#")[0] ?? "")
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target));
}

const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  cliDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

describe("llamon's package.json", () => {
  it("the CLI's tools are dev dependencies with the same ranges, not runtime ones", () => {
    const tools = Object.keys(pkg.cliDependencies);
    expect(tools.sort()).toEqual(
      [
        "@clack/prompts",
        "@electric-sql/pglite",
        "@electric-sql/pglite-pgvector",
        "@electric-sql/pglite-socket",
        "commander",
        "fast-string-width",
        "pg",
        "smol-toml",
        "tsx",
      ].sort(),
    );
    for (const tool of tools) {
      expect(pkg.devDependencies[tool], tool).toBe(pkg.cliDependencies[tool]);
      expect(pkg.dependencies[tool], tool).toBeUndefined();
    }
    // A peer (even optional) of a production package stays in `npm ci --omit=dev`.
    expect(pkg.peerDependencies).toBeUndefined();
  });

  it("every image and page the packaged docs link to is in the package too", () => {
    const files = packedFiles();
    const docs = [...files].filter(
      (f) => f === "README.md" || (f.startsWith("docs/") && f.endsWith(".md")),
    );
    expect(docs).toContain("docs/admin.md");
    const missing: string[] = [];
    for (const doc of docs) {
      for (const target of relativeLinks(readFileSync(join(REPO, doc), "utf8"))) {
        const path = normalize(join(dirname(doc), target));
        if (!files.has(path)) missing.push(`${doc} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
