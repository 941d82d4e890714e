/**
 * The offline bundle of a project (R9.4): every dependency tarball of its lockfile in
 * an npm cache folder, plus the lockfile, so an air-gapped machine installs with
 *
 *   npm ci --cache offline/npm-cache --offline
 *
 * The tarballs are stored the way npm stores them (its content-addressed cache, with the
 * registry metadata npm needs to install entries the lockfile gives no URL for), which is
 * what `npm ci --offline` reads. Platform-specific optional packages (esbuild, workerd, …)
 * are included for this machine's platform only, unless `allPlatforms` is set.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { LlamonError } from "llamon/errors";
import { assertRegistryReachable, npmLogsDir, npmOrFail } from "./npm.ts";
import type { LockEntry, Lockfile } from "./scaffold/lockfile.ts";
import { packageNameAt } from "./scaffold/lockfile.ts";

export interface BundleOptions {
  readonly projectDir: string;
  readonly outDir: string;
  readonly clean: boolean;
  readonly allPlatforms: boolean;
  readonly log: (line: string) => void;
  readonly progress?: (text: string) => void;
}

export interface BundleResult {
  readonly outDir: string;
  readonly packages: number;
  /** Local tarballs (file: dependencies) the project folder must carry along. */
  readonly localTarballs: readonly string[];
  readonly skippedPlatform: number;
  readonly createdLockfile: boolean;
  readonly files: readonly { path: string; bytes: number }[];
  readonly totalBytes: number;
}

const CHUNK = 40;

function libc(): "glibc" | "musl" | undefined {
  if (process.platform !== "linux") return undefined;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report?.header?.glibcVersionRuntime ? "glibc" : "musl";
}

/** npm's os/cpu/libc rule: a list matches if it names the value, or only excludes others. */
function listMatches(list: unknown, value: string | undefined): boolean {
  if (!Array.isArray(list) || list.length === 0 || value === undefined) return true;
  const items = list.map(String);
  const positives = items.filter((i) => !i.startsWith("!"));
  if (items.includes(`!${value}`)) return false;
  return positives.length === 0 || positives.includes(value);
}

export function matchesPlatform(entry: LockEntry): boolean {
  return (
    listMatches(entry.os, process.platform) &&
    listMatches(entry.cpu, process.arch) &&
    listMatches(entry.libc, libc())
  );
}

/** The npm package with the Node binary that the `node` package installs at install time. */
function nodeBinaryPackage(version: string): string {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const arch = platform === "win" && process.arch === "ia32" ? "x86" : process.arch;
  const prefix = process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
  return `${prefix}-${platform}-${arch}@${version}`;
}

async function sizeOf(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await sizeOf(join(path, entry));
  return total;
}

export async function buildOfflineBundle(options: BundleOptions): Promise<BundleResult> {
  const dir = options.projectDir;
  if (!existsSync(join(dir, "package.json"))) {
    throw new LlamonError(
      "CONFIG_INVALID",
      `no package.json in ${dir}: run this in a project folder (npx llamon prepare-offline <project>)`,
    );
  }
  const out = options.outDir;
  const kept = existsSync(join(out, "npm-cache"))
    ? `\nThe existing bundle in ${out} was left as it was.`
    : "";
  // Before anything is fetched or replaced: where there is no registry (the offline machine
  // itself), say so at once instead of after npm's retries.
  try {
    await assertRegistryReachable(dir, "run prepare-offline where the npm registry is reachable");
  } catch (error) {
    if (error instanceof LlamonError) {
      throw new LlamonError(error.code, `${error.message}${kept}`, { cause: error });
    }
    throw error;
  }
  let createdLockfile = false;
  if (!existsSync(join(dir, "package-lock.json"))) {
    options.log("no package-lock.json: resolving one (npm install --package-lock-only)");
    await npmOrFail(
      ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
      {
        cwd: dir,
        what: "creating package-lock.json",
        hint: "the npm registry must be reachable to resolve versions",
      },
    );
    createdLockfile = true;
  }
  const lock = JSON.parse(await readFile(join(dir, "package-lock.json"), "utf8")) as Lockfile;
  if (!lock.packages || lock.lockfileVersion < 2) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "package-lock.json is too old (lockfileVersion 1): run `npm install` with npm 7 or newer first",
    );
  }
  const specs = new Set<string>();
  const localTarballs: string[] = [];
  let skippedPlatform = 0;
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "" || entry.link || !path.includes("node_modules/")) continue;
    const resolved = entry.resolved ?? "";
    if (resolved.startsWith("file:")) {
      const file = resolved.slice("file:".length);
      if (!existsSync(join(dir, file))) {
        throw new LlamonError(
          "CONFIG_INVALID",
          `${path} comes from ${file}, which is missing: restore it (or run npm install) first`,
        );
      }
      localTarballs.push(file);
      continue;
    }
    if (resolved !== "" && !/\/-\/[^/]+\.tgz$/.test(resolved)) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `${path} comes from ${resolved}: only registry packages and local tarballs can be bundled`,
      );
    }
    if (!options.allPlatforms && !matchesPlatform(entry)) {
      skippedPlatform++;
      continue;
    }
    const name = typeof entry.name === "string" ? entry.name : packageNameAt(path);
    if (entry.version === undefined) continue;
    specs.add(`${name}@${entry.version}`);
    if (name === "node" && entry.hasInstallScript) specs.add(nodeBinaryPackage(entry.version));
  }

  // --clean builds in a staging folder next to the output and swaps it in only once it is
  // complete: a run that fails (no registry — e.g. on the offline machine itself) leaves the
  // existing bundle exactly as it was. Without --clean, packages are only added.
  const target = options.clean ? `${out}.partial-${process.pid}` : out;
  if (options.clean) await rm(target, { recursive: true, force: true });
  try {
    await fillBundle(target, dir, [...specs].sort(), localTarballs, options);
  } catch (error) {
    if (options.clean) await rm(target, { recursive: true, force: true });
    if (error instanceof LlamonError && kept !== "") {
      throw new LlamonError(error.code, `${error.message}${kept}`, { cause: error });
    }
    throw error;
  }
  if (options.clean) {
    await rm(out, { recursive: true, force: true });
    await rename(target, out);
  }
  const all = [...specs].sort();
  const files: { path: string; bytes: number }[] = [];
  for (const name of [
    "npm-cache",
    "package-lock.json",
    "package.json",
    "packages.txt",
    "README.txt",
  ]) {
    files.push({
      path: join(relative(dir, out) || ".", name),
      bytes: await sizeOf(join(out, name)),
    });
  }
  return {
    outDir: out,
    packages: all.length,
    localTarballs,
    skippedPlatform,
    createdLockfile,
    files,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
  };
}

/** Writes the cache, the lockfile copies, packages.txt and README.txt into `out`. */
async function fillBundle(
  out: string,
  dir: string,
  all: readonly string[],
  localTarballs: readonly string[],
  options: BundleOptions,
): Promise<void> {
  const cache = join(out, "npm-cache");
  await mkdir(cache, { recursive: true });
  for (let i = 0; i < all.length; i += CHUNK) {
    options.progress?.(`fetching packages ${Math.min(i + CHUNK, all.length)}/${all.length}`);
    // The log goes outside the bundle: a failed --clean deletes its staging folder.
    const logs = ["--logs-dir", npmLogsDir()];
    await npmOrFail(["cache", "add", ...all.slice(i, i + CHUNK), "--cache", cache, ...logs], {
      cwd: dir,
      what: "downloading packages into the offline cache",
      hint: "run prepare-offline where the npm registry is reachable",
    });
  }
  await copyFile(join(dir, "package-lock.json"), join(out, "package-lock.json"));
  await copyFile(join(dir, "package.json"), join(out, "package.json"));
  await writeFile(
    join(out, "packages.txt"),
    `${all.join("\n")}\n${localTarballs.map((t) => `${t} (in the project folder)`).join("\n")}\n`,
  );
  // README.txt names the folder as the project sees it (the final one, not the staging one).
  const shown = relative(dir, options.outDir) || ".";
  await writeFile(join(out, "README.txt"), readme(shown, localTarballs, options.allPlatforms));
}

function readme(out: string, local: readonly string[], allPlatforms: boolean): string {
  return `Offline install bundle (made by \`llamon prepare-offline\`)

Copy the whole project folder (with this ${out}/ folder${local.length > 0 ? ` and ${local.join(", ")}` : ""})
to the machine without internet, then in the project folder:

  npm ci --cache ${out}/npm-cache --offline

폐쇄망 설치: 프로젝트 폴더 전체(이 ${out}/ 포함)를 옮긴 뒤 프로젝트 폴더에서 위 명령을 실행하세요.

If npm there is configured for another registry, add --registry=https://registry.npmjs.org/
(the cached metadata is keyed by the registry the bundle was made from; --offline contacts nothing).

Platform: ${allPlatforms ? "all platforms" : `${process.platform}-${process.arch} only (rebuild with --all-platforms for others)`}.
package-lock.json and package.json here are copies of the ones the bundle was made from;
packages.txt lists every package in the cache.
`;
}
