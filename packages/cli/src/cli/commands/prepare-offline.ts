/**
 * `llamon prepare-offline [dir]`: build what an air-gapped machine needs to install the
 * project — every dependency tarball plus the lockfile (R9.4).
 */
import { isAbsolute, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { buildOfflineBundle } from "../offline.ts";
import { info } from "../output.ts";
import { withSpinner } from "../spinner.ts";
import { formatBytes, formatTable } from "../table.ts";

interface Options {
  clean?: boolean;
  out?: string;
  allPlatforms?: boolean;
}

export function registerPrepareOffline(program: Command): void {
  program
    .command("prepare-offline")
    .argument("[dir]", "project folder", ".")
    .description(
      "bundle every dependency tarball and the lockfile for an install without a registry",
    )
    .option("--clean", "start from an empty output folder")
    .option("--out <folder>", "output folder (default <dir>/offline)")
    .option("--all-platforms", "also bundle other platforms' optional binaries (bigger)")
    .addHelpText(
      "after",
      `
Examples:
  $ npx llamon prepare-offline . --clean
  $ npx llamon prepare-offline my-agent --out /media/usb/my-agent-offline

Needs the npm registry (run it where there is internet). Then copy the project folder,
with its offline/ folder, to the machine without internet and run there:
  npm ci --cache offline/npm-cache --offline
Refresh it after dependency changes: npm install, then prepare-offline --clean again.`,
    )
    .action(async (dir: string, opts: Options) => {
      const projectDir = resolve(dir);
      const outDir = resolve(opts.out ?? join(projectDir, "offline"));
      const result = await withSpinner(
        `bundling the dependencies of ${projectDir}`,
        (progress) =>
          buildOfflineBundle({
            projectDir,
            outDir,
            clean: opts.clean === true,
            allPlatforms: opts.allPlatforms === true,
            // Through the spinner: a line printed beside it would be drawn over.
            log: (line) => progress.update(line),
            progress: (text) => progress.update(text),
          }),
        (r) => `${r.packages} packages bundled`,
      );
      info(`wrote ${result.outDir}:`);
      const rows = result.files.map((f) => [f.path, formatBytes(f.bytes)]);
      for (const line of formatTable(["file", "size"], rows, [1])) info(`  ${line}`);
      info(`total ${formatBytes(result.totalBytes)} · ${result.packages} packages`);
      if (result.skippedPlatform > 0) {
        info(
          `${result.skippedPlatform} optional package(s) for other platforms left out (use --all-platforms to include them)`,
        );
      }
      for (const tarball of result.localTarballs) {
        info(`local tarball ${tarball} stays in the project folder: ship it along`);
      }
      if (result.createdLockfile) info("created package-lock.json (keep it with the project)");
      info("");
      info("on the machine without internet, in the project folder:");
      const rel = relative(projectDir, result.outDir);
      const cache = join(
        rel.startsWith("..") || isAbsolute(rel) ? result.outDir : rel,
        "npm-cache",
      );
      info(`  npm ci --cache ${cache} --offline`);
    });
}
