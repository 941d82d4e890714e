// The part of `npm run build` after tsc: what dist/ of llamon and of llamon-cli need besides
// compiled modules.
import { chmodSync, copyFileSync, existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";

// npm never packs a package-lock.json; the scaffold (in llamon-cli) cuts a project's lockfile
// from this copy, so a project made by an installed CLI gets the versions llamon was tested with.
copyFileSync("package-lock.json", "packages/cli/dist/llamon.lock.json");
// tsc writes plain files: the executable must be runnable through a symlink too (the workspace
// links the CLI as node_modules/llamon-cli); npm sets the same mode when it installs the package.
chmodSync("packages/cli/dist/cli/bin.js", 0o755);
// Studio's browser client, bundled by `npm run build:studio` (scripts/build-studio.mts) into a
// module that exports the script as text; tsc compiles TypeScript only, so the module is copied.
copyFileSync("src/studio/client.bundle.js", "dist/studio/client.bundle.js");

// tsc is incremental and never deletes: a module removed or moved from src/ would stay in dist/
// and be packed. Every compiled file without its source is removed.
for (const [src, dist] of [
  ["src", "dist"],
  ["packages/cli/src", "packages/cli/dist"],
]) {
  for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    const base = /^(.*)\.(?:d\.ts|js)$/.exec(file)?.[1];
    if (base === undefined) continue;
    const sources = [".ts", ".tsx", ".js"].map((ext) => join(src, `${base}${ext}`));
    if (!sources.some((source) => existsSync(source))) rmSync(join(dist, file));
  }
  const folders = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) if (readdirSync(folder).length === 0) rmdirSync(folder);
}
