/**
 * Global setup of the Node test project: llamon as a stranger gets it. It builds dist/ of
 * both packages (tsc is incremental: only what changed since the last build), packs llamon
 * and llamon-cli once per run, and installs them the way
 * `npx --package=<llamon tarball> --package=<llamon-cli tarball> llamon …` does from an empty
 * folder, so the end-to-end tests of the scaffold and the offline install run the packed
 * CLI. The tests read the paths with `inject("llamonTarball")`, `inject("llamonCliTarball")`
 * and `inject("llamonCli")`.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestProject } from "vitest/node";
import { REPO } from "./cli.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The packed llamon-<version>.tgz of this checkout (the runtime). */
    llamonTarball: string;
    /** The packed llamon-cli-<version>.tgz of this checkout (the command line). */
    llamonCliTarball: string;
    /** The `llamon` executable that npx installed from both tarballs (its node_modules/.bin). */
    llamonCli: string;
  }
}

/** PATH with the Node running the tests first: child processes (npm, npx, a project's tools) use it. */
export function pinnedNodePath(): string {
  return `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;
}

export default async function setup(project: TestProject) {
  const env = { ...process.env, PATH: pinnedNodePath(), npm_config_update_notifier: "false" };
  try {
    execFileSync("npm", ["run", "build"], { cwd: REPO, env, encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${stdout}${stderr}`);
  }
  const dir = await mkdtemp(join(tmpdir(), "llamon-packed-"));
  // Scripts are skipped: dist/ was just built, and `prepare` would build it again.
  const pack = (folder: string) => {
    const packed = execFileSync(
      "npm",
      ["pack", folder, "--pack-destination", dir, "--json", "--ignore-scripts"],
      { cwd: dir, env, encoding: "utf8" },
    );
    const [info] = JSON.parse(packed) as [{ filename: string }];
    return join(dir, info.filename);
  };
  const tarball = pack(REPO);
  const cliTarball = pack(join(REPO, "packages/cli"));
  // npx installs the package once into its cache; later `npx --package=<same tarball>` calls
  // (the tests' own) find it there. --prefer-offline: package metadata from npm's cache where
  // it has it, as the scaffold's own install does.
  const empty = join(dir, "empty");
  await mkdir(empty);
  const cli = execFileSync(
    "npx",
    [
      "--yes",
      "--prefer-offline",
      `--package=${tarball}`,
      `--package=${cliTarball}`,
      "-c",
      "command -v llamon",
    ],
    {
      cwd: empty,
      env,
      encoding: "utf8",
    },
  ).trim();
  project.provide("llamonTarball", tarball);
  project.provide("llamonCliTarball", cliTarball);
  project.provide("llamonCli", cli);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    // npx's install of this run's tarball (~/.npm/_npx/<hash>/node_modules/.bin/llamon): the
    // next run packs to another path, so this one would only take up space.
    const npxDir = dirname(dirname(dirname(cli)));
    if (/[\\/]_npx[\\/][0-9a-f]+$/.test(npxDir)) await rm(npxDir, { recursive: true, force: true });
  };
}
