/**
 * Writes a new llamon project (R9.1, R9.2): the template's code, the rendered common
 * files, llamon and llamon-cli packed into vendor/ (so the project installs without a registry
 * that has them), a lockfile cut from the workspace's (exact, offline-installable versions)
 * and, unless told not to, runs `npm install --prefer-offline`. llamon is a dependency, the
 * CLI a devDependency: a production install (`npm ci --omit=dev`) carries none of its tools.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { LlamonError } from "llamon/errors";
import { parse as parseToml } from "smol-toml";
import {
  cliRoot,
  llamonLockfile,
  llamonManifest,
  llamonRoot,
  templatesDir,
} from "../llamon-package.ts";
import { npmOrFail, runNpm } from "../npm.ts";
import { withSpinner } from "../spinner.ts";
import {
  composeYml,
  devVars,
  devVarsExample,
  gitignore,
  type ProjectSpec,
  packageJson,
  testA2aHelper,
  testEnvTypes,
  testGlobalSetup,
  testKey,
  tsconfigJson,
  vitestConfig,
  wranglerToml,
} from "./files.ts";
import { type Lockfile, projectLockfile } from "./lockfile.ts";
import { checkProjectName, databaseName } from "./names.ts";
import { readme } from "./readme.ts";
import { backendOf, findTemplate, type MemoryMode, type ProjectKind } from "./templates.ts";

export interface CreateOptions {
  readonly name: string;
  readonly kind: ProjectKind;
  readonly templateId: string;
  readonly memory: MemoryMode;
  /** Absolute folder to create (must not exist, or be empty). */
  readonly dir: string;
  /** package.json spec for llamon instead of a packed copy in vendor/ (e.g. "^0.1.0"). */
  readonly llamonSpec?: string | undefined;
  /** Spec for llamon-cli with llamonSpec (default: derived from it, see cliSpecFor). */
  readonly cliSpec?: string | undefined;
  /** Run `npm install` afterwards (default true). */
  readonly install?: boolean;
  readonly log: (line: string) => void;
}

export interface CreateResult {
  readonly dir: string;
  readonly spec: ProjectSpec;
  /** Files written, relative to dir. */
  readonly files: readonly string[];
  readonly lockfile: boolean;
  readonly installed: "yes" | "no" | "failed";
}

const DEFAULT_COMPATIBILITY_DATE = "2026-11-01";
const TEXT_FILE = /\.(ts|mts|js|mjs|json|md|toml|ya?ml|txt)$/;

async function isEmptyDir(dir: string): Promise<boolean> {
  return (await readdir(dir)).length === 0;
}

async function compatibilityDate(root: string): Promise<string> {
  try {
    const toml = parseToml(await readFile(join(root, "wrangler.toml"), "utf8")) as {
      compatibility_date?: unknown;
    };
    return typeof toml.compatibility_date === "string"
      ? toml.compatibility_date
      : DEFAULT_COMPATIBILITY_DATE;
  } catch {
    return DEFAULT_COMPATIBILITY_DATE;
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Copy templates/<id>/ into dir, filling in the __TOKENS__; returns the relative paths. */
async function copyTemplate(
  from: string,
  to: string,
  tokens: Record<string, string>,
): Promise<string[]> {
  const written: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const source = join(dir, entry.name);
      const target = join(to, relative(from, source));
      if (entry.isDirectory()) {
        await mkdir(target, { recursive: true });
        await walk(source);
      } else if (entry.isFile()) {
        let content = await readFile(source);
        if (TEXT_FILE.test(entry.name)) {
          let text = content.toString("utf8");
          for (const [token, value] of Object.entries(tokens)) text = text.replaceAll(token, value);
          content = Buffer.from(text, "utf8");
        }
        await writeFile(target, content);
        written.push(relative(to, target));
      }
    }
  };
  await walk(from);
  return written;
}

/**
 * The llamon-cli spec that goes with `--llamon <spec>`: the same version range, or the CLI of
 * a llamon checkout given as `file:<folder>`. Other specs (git URLs, tarballs) name no CLI.
 */
export function cliSpecFor(llamonSpec: string, projectDir: string): string {
  if (/^[\^~<>=]*\d[\w.+\-\s|<>=^~*]*$/.test(llamonSpec) || /^[a-z][\w-]*$/.test(llamonSpec)) {
    return llamonSpec; // a version range or a dist-tag: both packages are published together
  }
  if (llamonSpec.startsWith("file:")) {
    const folder = llamonSpec.slice("file:".length);
    const cli = join(folder, "packages", "cli");
    if (existsSync(join(resolve(projectDir, cli), "package.json"))) return `file:${cli}`;
  }
  throw new LlamonError(
    "CONFIG_INVALID",
    `--llamon ${llamonSpec} names no llamon-cli: give --llamon-cli <spec> too (a version, or the llamon-cli tarball)`,
  );
}

/** `npm pack` a package folder (llamon, llamon-cli) into <dir>/vendor/. */
async function packInto(
  root: string,
  dir: string,
  what: string,
): Promise<{ file: string; integrity: string }> {
  const vendor = join(dir, "vendor");
  await mkdir(vendor, { recursive: true });
  const result = await npmOrFail(
    ["pack", root, "--pack-destination", vendor, "--json", "--ignore-scripts"],
    {
      cwd: dir,
      what: `packing ${what} into vendor/`,
    },
  );
  const info = JSON.parse(result.stdout) as { filename: string }[];
  const filename = info[0]?.filename;
  if (!filename) throw new LlamonError("INTERNAL", "npm pack printed no file name");
  // The integrity npm records for the file: sha512 of the tarball, base64.
  const bytes = await readFile(join(vendor, filename));
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  return { file: `vendor/${filename}`, integrity };
}

export async function createProject(options: CreateOptions): Promise<CreateResult> {
  checkProjectName(options.name);
  const template = findTemplate(options.kind, options.templateId);
  const dir = options.dir;
  if (existsSync(dir)) {
    if (!(await stat(dir)).isDirectory() || !(await isEmptyDir(dir))) {
      throw new LlamonError(
        "CONFIG_INVALID",
        `${dir} already exists and is not empty: choose another name, or --dir <empty folder>`,
      );
    }
  }
  const root = llamonRoot();
  const cli = cliRoot();
  const templateDir = join(templatesDir(cli), template.id);
  if (!existsSync(templateDir)) {
    throw new LlamonError(
      "INTERNAL",
      `llamon's templates are missing (${templateDir}): reinstall llamon-cli (its package must include templates/)`,
    );
  }
  // Before anything is written: a --llamon that names no CLI is refused with nothing to undo.
  if (options.cliSpec !== undefined && options.llamonSpec === undefined) {
    throw new LlamonError(
      "CONFIG_INVALID",
      "--llamon-cli goes with --llamon: without them both packages are packed into vendor/",
    );
  }
  const givenCliSpec =
    options.llamonSpec === undefined
      ? undefined
      : (options.cliSpec ?? cliSpecFor(options.llamonSpec, dir));
  const createdDir = !existsSync(dir);
  await mkdir(dir, { recursive: true });
  try {
    const manifest = llamonManifest(root);
    const cliManifest = llamonManifest(cli);
    const backend = backendOf(options.memory);
    const files = await copyTemplate(templateDir, dir, {
      __PROJECT_NAME__: options.name,
      __MEMORY_BACKEND__: backend,
      __MEMORY_FLAG__: options.memory,
    });
    let llamonSpec = options.llamonSpec;
    let cliSpec = givenCliSpec;
    let packed: Packed | undefined;
    if (llamonSpec === undefined || cliSpec === undefined) {
      packed = {
        llamon: await packInto(root, dir, "llamon"),
        cli: await packInto(cli, dir, "llamon-cli"),
      };
      llamonSpec = `file:${packed.llamon.file}`;
      cliSpec = `file:${packed.cli.file}`;
      files.push(packed.llamon.file, packed.cli.file);
    }
    const spec: ProjectSpec = {
      name: options.name,
      template,
      memory: options.memory,
      backend,
      databaseName: databaseName(options.name),
      llamonSpec,
      cliSpec,
      manifest,
      cliManifest,
      compatibilityDate: await compatibilityDate(root),
      devVarsExample: await readOptional(join(root, ".dev.vars.example")),
    };
    const rendered: Record<string, string> = {
      "package.json": packageJson(spec),
      "wrangler.toml": wranglerToml(spec),
      ".dev.vars": devVars(spec),
      ".dev.vars.example": devVarsExample(spec),
      "tsconfig.json": tsconfigJson(),
      "vitest.config.ts": vitestConfig(spec),
      "test/env.d.ts": testEnvTypes(),
      "test/a2a.ts": testA2aHelper(),
      "test/test-key.ts": testKey(),
      ".gitignore": gitignore(),
      "README.md": readme(spec),
    };
    if (backend === "postgres") {
      rendered["compose.yml"] = composeYml(spec);
      rendered["test/global-setup.ts"] = testGlobalSetup();
    }
    for (const [file, content] of Object.entries(rendered)) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), content);
      files.push(file);
    }
    const lockfile = packed ? await writeLockfile(root, dir, spec, packed, options.log) : false;
    if (lockfile) files.push("package-lock.json");
    let installed: CreateResult["installed"] = "no";
    if (options.install !== false) installed = await install(dir, options.log);
    return { dir, spec, files: files.sort(), lockfile, installed };
  } catch (error) {
    if (createdDir) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

interface Packed {
  readonly llamon: { file: string; integrity: string };
  readonly cli: { file: string; integrity: string };
}

async function writeLockfile(
  root: string,
  dir: string,
  spec: ProjectSpec,
  packed: Packed,
  log: (line: string) => void,
): Promise<boolean> {
  // A checkout's own lockfile (the workspace's, at llamon's root), else the copy the CLI
  // package ships (npm never packs a package-lock.json, so `npm run build` puts one in dist/).
  const text =
    (await readOptional(join(root, "package-lock.json"))) ?? (await readOptional(llamonLockfile()));
  if (text === undefined) return false; // neither: npm resolves the versions
  try {
    const pkg = JSON.parse(packageJson(spec)) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      engines?: Record<string, string>;
    };
    const lock = projectLockfile(
      JSON.parse(text) as Lockfile,
      {
        name: spec.name,
        version: "0.1.0",
        dependencies: pkg.dependencies,
        devDependencies: pkg.devDependencies,
        engines: pkg.engines,
      },
      {
        spec: `file:${packed.llamon.file}`,
        integrity: packed.llamon.integrity,
        version: spec.manifest.version,
        dependencies: spec.manifest.dependencies,
        bin: spec.manifest.bin,
        engines: spec.manifest.engines,
        license: spec.manifest.license,
        peerDependencies: spec.manifest.peerDependencies,
        peerDependenciesMeta: spec.manifest.peerDependenciesMeta,
      },
      {
        spec: `file:${packed.cli.file}`,
        integrity: packed.cli.integrity,
        version: spec.cliManifest.version,
        dependencies: spec.cliManifest.dependencies,
        bin: spec.cliManifest.bin,
        engines: spec.cliManifest.engines,
        license: spec.cliManifest.license,
      },
    );
    await writeFile(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
    return true;
  } catch (error) {
    log(
      `note: no package-lock.json written (${(error as Error).message}); npm install will resolve versions`,
    );
    return false;
  }
}

/** How often an install without a terminal says how far it got. */
const INSTALL_PROGRESS_MS = 5_000;

async function install(dir: string, log: (line: string) => void): Promise<"yes" | "failed"> {
  // npm draws no progress without a terminal; at `http` level it logs each request to the
  // registry (package metadata, tarballs not in its cache), which are counted here and
  // reported with the time taken every few seconds.
  const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=http"];
  const started = Date.now();
  const result = await withSpinner(
    "installing dependencies (npm install --prefer-offline)",
    async (progress) => {
      let requests = 0;
      let partial = "";
      const timer = setInterval(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        progress.update(`npm install: ${requests} registry requests, ${seconds} s`);
      }, INSTALL_PROGRESS_MS);
      try {
        return await runNpm(args, {
          cwd: dir,
          onOutput: (text) => {
            const lines = (partial + text).split("\n");
            partial = lines.pop() ?? "";
            requests += lines.filter((l) => l.startsWith("npm http fetch ")).length;
          },
        });
      } finally {
        clearInterval(timer);
      }
    },
    (r) => (r.code === 0 ? "dependencies installed" : { failed: "npm install failed" }),
  );
  if (result.code === 0) return "yes";
  const lines = (result.stderr || result.stdout).trim().split("\n");
  log(
    lines
      .filter((line) => !line.startsWith("npm http "))
      .slice(-8)
      .join("\n"),
  );
  log(
    "the project was created, but its dependencies are not installed: run `npm install` in it when the npm registry (or a prepared offline bundle) is reachable",
  );
  return "failed";
}
