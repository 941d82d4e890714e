// The part of `npm run build` after tsc: what dist/ of llamon and of llamon-cli need besides
// compiled modules.
import { chmodSync, copyFileSync } from "node:fs";

// npm never packs a package-lock.json; the scaffold (in llamon-cli) cuts a project's lockfile
// from this copy, so a project made by an installed CLI gets the versions llamon was tested with.
copyFileSync("package-lock.json", "packages/cli/dist/llamon.lock.json");
// tsc writes plain files: the executable must be runnable through a symlink too (the workspace
// links the CLI as node_modules/llamon-cli); npm sets the same mode when it installs the package.
chmodSync("packages/cli/dist/cli/bin.js", 0o755);
// Studio's browser client, bundled by `npm run build:studio` (scripts/build-studio.mts) into a
// module that exports the script as text; tsc compiles TypeScript only, so the module is copied.
copyFileSync("src/studio/client.bundle.js", "dist/studio/client.bundle.js");
