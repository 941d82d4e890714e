/**
 * llamon's package.json as a published package: built JavaScript and types from dist/
 * (`npm run build`), the command line's tools as ordinary dependencies (the Worker bundle
 * takes only what a Worker imports: test/e2e/bundle.test.ts), a tarball without TypeScript
 * sources, and the docs' links resolved inside it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

function readdirFirst(dir: string): string {
  return readdirSync(join(REPO, dir)).sort()[0] ?? "";
}

/** The relative link targets (images and pages) of a markdown file, without anchors. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? "").split("#")[0] ?? "")
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target));
}

const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
};

const lock = JSON.parse(
  readFileSync(new URL("../../../package-lock.json", import.meta.url), "utf8"),
) as { packages: Record<string, { version: string; peerDependencies?: Record<string, string> }> };

describe("llamon's package.json", () => {
  it("exports and bin point at dist/ (JS + .d.ts) built from a source that exists; no tsx, no cliDependencies", () => {
    expect(pkg.scripts.build).toContain("tsc -p tsconfig.build.json");
    // npm never packs a package-lock.json: the build carries a copy for the scaffold's lockfile.
    expect(readFileSync(join(REPO, "scripts/finish-dist.mjs"), "utf8")).toContain(
      '"dist/llamon.lock.json"',
    );
    expect(pkg.bin).toEqual({ llamon: "dist/cli/bin.js" });
    expect(existsSync(join(REPO, "src/cli/bin.ts"))).toBe(true);
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (entry === "./package.json") continue;
      if (typeof target === "string") throw new Error(`${entry} has no types condition`);
      expect(target.default, entry).toMatch(/^\.\/dist\/.+\.js$/);
      expect(target.types, entry).toBe(target.default.replace(/\.js$/, ".d.ts"));
      const source = target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
      expect(existsSync(join(REPO, source)), `${entry}: ${source}`).toBe(true);
    }
    expect(pkg.cliDependencies).toBeUndefined();
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.files).toContain("dist");
    expect(pkg.files).not.toContain("src");
    // The command line's tools are ordinary dependencies of the package that has the CLI.
    for (const tool of [
      "commander",
      "@clack/prompts",
      "fast-string-width",
      "pg",
      "smol-toml",
      "@electric-sql/pglite",
    ]) {
      expect(pkg.dependencies[tool], tool).toBeDefined();
      expect(pkg.devDependencies[tool], tool).toBeUndefined();
    }
    // A peer (even optional) of a production package stays in `npm ci --omit=dev`.
    expect(pkg.peerDependencies).toBeUndefined();
  });

  it("the PGlite packages are pinned to the exact versions they require of each other", () => {
    const pglite = Object.keys(pkg.dependencies).filter((n) => n.startsWith("@electric-sql/"));
    expect(pglite.length).toBeGreaterThan(0);
    for (const name of pglite) {
      const locked = lock.packages[`node_modules/${name}`];
      // A caret range would let a fresh install take a newer one whose exact peers conflict.
      expect(pkg.dependencies[name], name).toBe(locked?.version);
      for (const [peer, version] of Object.entries(locked?.peerDependencies ?? {})) {
        if (pglite.includes(peer))
          expect(pkg.dependencies[peer], `${name} → ${peer}`).toBe(version);
      }
    }
  });

  it("the tarball holds no TypeScript sources or build info", () => {
    const files = [...packedFiles()];
    expect(files.filter((f) => f.startsWith("src/"))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".tsbuildinfo"))).toEqual([]);
    expect(files).toContain("templates/agent-general/src/agent.ts");
    expect(files).toContain(`migrations/${readdirFirst("migrations")}`);
  }, 60_000);

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
