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
  readonly devDependencies: Record<string, string>;
  readonly bin: Record<string, string>;
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
    devDependencies: pkg.devDependencies ?? {},
    bin: pkg.bin ?? {},
    ...(pkg.engines ? { engines: pkg.engines } : {}),
    ...(pkg.allowScripts ? { allowScripts: pkg.allowScripts } : {}),
  };
}

export function templatesDir(root = llamonRoot()): string {
  return join(root, "templates");
}

/** The copy of llamon's package-lock.json that the built package carries (see `npm run build`). */
export function llamonLockfile(root = llamonRoot()): string {
  return join(root, "dist", "llamon.lock.json");
}
