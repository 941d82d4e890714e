/**
 * llamon's and llamon-cli's package.json as published packages: built JavaScript and types
 * from dist/ (`npm run build` builds both), llamon's dependencies only what a Worker and its
 * library API need, the command line's tools as dependencies of llamon-cli (a scaffold has it
 * as a devDependency, so `npm ci --omit=dev` leaves them out), tarballs without TypeScript
 * sources, and the docs' links resolved inside them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = new URL("../../../", import.meta.url).pathname;

/** The files `npm pack` puts in a package's tarball (a dry run: nothing is written). */
function packedFiles(dir = REPO): Set<string> {
  const packed = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  expect(packed.status, packed.stderr).toBe(0);
  const [result] = JSON.parse(packed.stdout) as [{ files: { path: string }[] }];
  return new Set(result.files.map((f) => f.path));
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
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

interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  workspaces?: string[];
  [field: string]: unknown;
}

const CLI_DIR = join(REPO, "packages/cli");
const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Manifest;
const cli = JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as Manifest;
/** The command line's tools: none of them is a dependency of llamon. */
const CLI_TOOLS = [
  "commander",
  "@clack/prompts",
  "fast-string-width",
  "pg",
  "@types/pg",
  "smol-toml",
  "@electric-sql/pglite",
  "@electric-sql/pglite-pgvector",
  "@electric-sql/pglite-socket",
];

const lock = JSON.parse(
  readFileSync(new URL("../../../package-lock.json", import.meta.url), "utf8"),
) as { packages: Record<string, { version: string; peerDependencies?: Record<string, string> }> };

describe("llamon's package.json", () => {
  it("exports point at dist/ (JS + .d.ts) built from a source that exists; no bin, no tsx", () => {
    expect(pkg.scripts.build).toContain("tsc -p tsconfig.build.json");
    expect(pkg.bin).toBeUndefined();
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
    // The command line's tools belong to llamon-cli, and a peer (even optional) of a
    // production package would stay in `npm ci --omit=dev`.
    for (const tool of CLI_TOOLS) expect(pkg.dependencies[tool], tool).toBeUndefined();
    expect(pkg.peerDependencies).toBeUndefined();
  });

  it("is the root of a workspace with llamon-cli, and links itself so the CLI's llamon resolves to it", () => {
    expect(pkg.workspaces).toEqual(["packages/cli"]);
    expect(pkg.devDependencies.llamon).toBe("file:.");
    expect(lock.packages["node_modules/llamon"]).toMatchObject({ resolved: "", link: true });
    expect(lock.packages["node_modules/llamon-cli"]).toMatchObject({
      resolved: "packages/cli",
      link: true,
    });
  });
});

describe("llamon-cli's package.json", () => {
  it("has the bin, llamon-cli/dev and the command line's tools; llamon at the same version", () => {
    expect(cli.name).toBe("llamon-cli");
    expect(cli.version).toBe(pkg.version);
    expect(cli.dependencies.llamon).toBe(pkg.version);
    expect(cli.bin).toEqual({ llamon: "dist/cli/bin.js" });
    expect(existsSync(join(CLI_DIR, "src/cli/bin.ts"))).toBe(true);
    expect(Object.keys(cli.exports).sort()).toEqual(["./dev", "./package.json"]);
    expect(existsSync(join(CLI_DIR, "src/dev/index.ts"))).toBe(true);
    for (const tool of CLI_TOOLS) expect(cli.dependencies[tool], tool).toBeDefined();
    expect(pkg.scripts.build).toContain("tsc -p packages/cli/tsconfig.build.json");
    // npm never packs a package-lock.json: the build gives the CLI a copy for the scaffold's lockfile.
    expect(readFileSync(join(REPO, "scripts/finish-dist.mjs"), "utf8")).toContain(
      '"packages/cli/dist/llamon.lock.json"',
    );
  });

  it("declares every package its modules import (llamon's internals only through llamon's exports)", () => {
    const undeclared: string[] = [];
    for (const file of sourcesUnder(join(CLI_DIR, "src"))) {
      // files.ts renders a project's sources, whose imports are the project's.
      if (file.endsWith("scaffold/files.ts")) continue;
      const text = readFileSync(file, "utf8");
      for (const [, spec = ""] of text.matchAll(/^(?:import|export)[^;]*? from "([^"]+)";/gms)) {
        if (spec.startsWith("node:") || spec === "cloudflare:workers") continue;
        if (spec.startsWith(".")) {
          // A relative import stays inside the package.
          const target = normalize(join(dirname(file), spec));
          expect(target.startsWith(`${CLI_DIR}/`), `${file}: ${spec}`).toBe(true);
          continue;
        }
        const name = spec.startsWith("@")
          ? spec.split("/").slice(0, 2).join("/")
          : spec.split("/")[0];
        if (name !== undefined && cli.dependencies[name] === undefined) {
          undeclared.push(`${file}: ${spec}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it("its tarball holds the built CLI and the templates, no TypeScript sources", () => {
    const files = [...packedFiles(CLI_DIR)];
    expect(files).toContain("dist/cli/bin.js");
    expect(files).toContain("dist/dev/index.d.ts");
    expect(files).toContain("templates/agent-general/src/agent.ts");
    expect(files.filter((f) => f.startsWith("src/"))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".tsbuildinfo"))).toEqual([]);
  }, 60_000);
});

describe("the published packages", () => {
  it("the PGlite packages are pinned to the exact versions they require of each other", () => {
    const pglite = Object.keys(cli.dependencies).filter((n) => n.startsWith("@electric-sql/"));
    expect(pglite.length).toBeGreaterThan(0);
    for (const name of pglite) {
      const locked = lock.packages[`node_modules/${name}`];
      // A caret range would let a fresh install take a newer one whose exact peers conflict.
      expect(cli.dependencies[name], name).toBe(locked?.version);
      for (const [peer, version] of Object.entries(locked?.peerDependencies ?? {})) {
        if (pglite.includes(peer))
          expect(cli.dependencies[peer], `${name} → ${peer}`).toBe(version);
      }
    }
  });

  it("llamon's tarball holds no TypeScript sources, build info, CLI or templates", () => {
    const files = [...packedFiles()];
    expect(files.filter((f) => f.startsWith("src/"))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".tsbuildinfo"))).toEqual([]);
    expect(files.filter((f) => f.startsWith("templates/") || f.startsWith("dist/cli/"))).toEqual(
      [],
    );
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
