/**
 * Where the running CLI (llamon-cli) and the llamon runtime it scaffolds with live, and what
 * they ship: package.json, the lockfile, the templates.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The llamon-cli package folder (packages/cli of a checkout, or node_modules/llamon-cli). */
export function cliRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");
}

/**
 * The llamon package folder: the one this CLI imports (its dependency; in a checkout, the
 * workspace root, which the root's own `"llamon": "file:."` links as node_modules/llamon).
 */
export function llamonRoot(): string {
  return dirname(createRequire(import.meta.url).resolve("llamon/package.json"));
}

export interface LlamonManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly bin: Record<string, string>;
  readonly engines?: Record<string, string>;
  readonly allowScripts?: Record<string, boolean>;
  readonly license?: string;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** package.json of llamon (by default) or of another package folder, e.g. cliRoot(). */
export function llamonManifest(root = llamonRoot()): LlamonManifest {
  const pkg = JSON.parse(
    readFileSync(join(root, "package.json"), "utf8"),
  ) as Partial<LlamonManifest>;
  return {
    name: pkg.name ?? "llamon",
    version: pkg.version ?? "0.0.0",
    dependencies: pkg.dependencies ?? {},
    devDependencies: pkg.devDependencies ?? {},
    bin: pkg.bin ?? {},
    ...(pkg.engines ? { engines: pkg.engines } : {}),
    ...(pkg.allowScripts ? { allowScripts: pkg.allowScripts } : {}),
    ...(pkg.license ? { license: pkg.license } : {}),
    ...(pkg.peerDependencies ? { peerDependencies: pkg.peerDependencies } : {}),
    ...(pkg.peerDependenciesMeta ? { peerDependenciesMeta: pkg.peerDependenciesMeta } : {}),
  };
}

export function templatesDir(root = cliRoot()): string {
  return join(root, "templates");
}

/**
 * The copy of the workspace's package-lock.json that the built CLI carries (see `npm run
 * build`): it holds the versions of both llamon's and the CLI's dependencies.
 */
export function llamonLockfile(root = cliRoot()): string {
  return join(root, "dist", "llamon.lock.json");
}
