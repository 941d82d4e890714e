/** Where the running llamon package lives, and what it ships (package.json, lockfile, templates). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The llamon package folder (a checkout or node_modules/llamon): src/cli/ → ../../ */
export function llamonRoot(): string {
  return fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");
}

export interface LlamonManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Record<string, string>;
  /**
   * The command line's own tools (tsx, commander, pg, PGlite, …): devDependencies of llamon's
   * checkout and of every scaffolded project, never runtime dependencies of llamon — so a
   * production install of a Worker (`npm ci --omit=dev`) leaves them out.
   */
  readonly cliDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly engines?: Record<string, string>;
  readonly allowScripts?: Record<string, boolean>;
}

export function llamonManifest(root = llamonRoot()): LlamonManifest {
  const pkg = JSON.parse(
    readFileSync(join(root, "package.json"), "utf8"),
  ) as Partial<LlamonManifest>;
  return {
    name: pkg.name ?? "llamon",
    version: pkg.version ?? "0.0.0",
    dependencies: pkg.dependencies ?? {},
    cliDependencies: pkg.cliDependencies ?? {},
    devDependencies: pkg.devDependencies ?? {},
    ...(pkg.engines ? { engines: pkg.engines } : {}),
    ...(pkg.allowScripts ? { allowScripts: pkg.allowScripts } : {}),
  };
}

export function templatesDir(root = llamonRoot()): string {
  return join(root, "templates");
}
