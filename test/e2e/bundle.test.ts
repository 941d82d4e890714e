/**
 * The deployable Worker bundles, as `wrangler deploy --dry-run` builds them, for the
 * reference agent and a project scaffolded from each template: they build, what they contain
 * is what a Worker runs (llamon's dependencies but the command line's, no dev tools, LangSmith's client
 * and zod's 39 other locales replaced by llamon's stand-ins), and their size (raw and gzip) is
 * printed — docs/performance.md records it. Nothing is uploaded: --dry-run needs no account.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wranglerQuietEnv } from "../../packages/cli/src/cli/commands/run.ts";
import { bundleAliases } from "../../packages/cli/src/cli/scaffold/files.ts";
import { llamon, REPO } from "../helpers/llamon-run.ts";

const WRANGLER = join(REPO, "node_modules/wrangler/bin/wrangler.js");
/** llamon's dependencies: what a Worker runs. */
const RUNTIME = Object.keys(
  (
    JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    }
  ).dependencies,
);
/** llamon-cli's own dependencies, which only the command line and llamon-cli/dev use. */
const CLI_TOOLS = Object.keys(
  (
    JSON.parse(await readFile(join(REPO, "packages/cli/package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    }
  ).dependencies,
).filter((name) => name !== "llamon" && !RUNTIME.includes(name));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "llamon-bundle-"));
  // The scaffolded projects resolve packages from this checkout (as in scaffold.test.ts).
  const modules = join(root, "node_modules");
  await mkdir(modules);
  for (const entry of await readdir(join(REPO, "node_modules"))) {
    if (entry === ".bin" || entry === "llamon") continue;
    await symlink(join(REPO, "node_modules", entry), join(modules, entry));
  }
  await symlink(REPO, join(modules, "llamon"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Bundle {
  readonly name: string;
  readonly raw: number;
  readonly gzip: number;
  /** Packages (node_modules/<name>) with bytes in the bundle. */
  readonly packages: Map<string, number>;
  readonly inputs: string[];
}

async function dryRun(name: string, dir: string): Promise<Bundle> {
  const out = join(root, `dist-${name}`);
  const child = spawn(
    process.execPath,
    [WRANGLER, "deploy", "--dry-run", "--outdir", out, "--metafile", join(out, "meta.json")],
    { cwd: dir, env: { ...process.env, ...wranglerQuietEnv() } },
  );
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const [code] = await once(child, "exit");
  expect(code, output).toBe(0);
  expect(output).toContain("--dry-run: exiting now.");
  const script = await readFile(join(out, "index.js"));
  const meta = JSON.parse(await readFile(join(out, "meta.json"), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const js = Object.entries(meta.outputs).find(([path]) => path.endsWith("index.js"))?.[1];
  const packages = new Map<string, number>();
  for (const [path, input] of Object.entries(js?.inputs ?? {})) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(
      path.slice(path.lastIndexOf("node_modules/")),
    );
    if (m && input.bytesInOutput > 0) {
      packages.set(m[1] as string, (packages.get(m[1] as string) ?? 0) + input.bytesInOutput);
    }
  }
  return {
    name,
    raw: script.length,
    gzip: gzipSync(script).length,
    packages,
    inputs: Object.keys(js?.inputs ?? {}),
  };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

describe("the Worker bundle (wrangler deploy --dry-run)", () => {
  it("the reference agent and every template build, hold only what a Worker runs, and their size is measured", async () => {
    const bundles: Bundle[] = [await dryRun("reference", REPO)];
    for (const [kind, template] of [
      ["agent", "agent-general"],
      ["agent", "agent-tools"],
      ["flow", "flow-intake"],
    ] as const) {
      const made = llamon(
        [kind, `b-${template}`, "--template", template, "--memory", "postgres", "--yes"].concat([
          "--no-install",
          "--llamon",
          `file:${REPO}`,
        ]),
        root,
      );
      const [code] = await once(made, "exit");
      expect(code).toBe(0);
      bundles.push(await dryRun(template, join(root, `b-${template}`)));
    }

    const table = bundles.map((b) => `| ${b.name} | ${kib(b.raw)} | ${kib(b.gzip)} |`);
    console.log(["| Worker | raw | gzip |", "|---|---|---|", ...table].join("\n"));

    for (const b of bundles) {
      // llamon's runtime dependencies are exactly what ends up in the Worker …
      for (const dep of RUNTIME) expect(b.packages.has(dep), `${b.name}: ${dep}`).toBe(true);
      // … and the CLI's tools never do.
      for (const tool of CLI_TOOLS) expect(b.packages.has(tool), `${b.name}: ${tool}`).toBe(false);
      // The stand-ins took the place of LangSmith's client and zod's other locales.
      expect(b.packages.has("langsmith"), b.name).toBe(false);
      const locales = b.inputs.filter((p) => /zod\/v4\/locales\//.test(p));
      expect(
        locales.map((p) => p.slice(p.lastIndexOf("/") + 1)),
        b.name,
      ).toEqual(["en.js"]);
      // … and of @langchain/core's deserialiser map: none of the modules only it imported.
      expect(
        b.inputs.filter((p) =>
          /@langchain\/core\/dist\/(load\/import_map|testing|vectorstores|document_loaders|example_selectors|decisions)\b/.test(
            p,
          ),
        ),
        b.name,
      ).toEqual([]);
      expect(
        b.inputs.some((p) => /shims\/langchain-import-map\.[jt]s$/.test(p)),
        b.name,
      ).toBe(true);
      // Workers' recommended size for fast cold starts (and far below the plans' limits).
      expect(b.gzip, b.name).toBeLessThan(1024 * 1024);
    }
  }, 180_000);

  it("the reference wrangler.toml and the scaffold's alias the same modules", async () => {
    const own = parseToml(await readFile(join(REPO, "wrangler.toml"), "utf8")) as {
      alias: Record<string, string>;
    };
    const scaffold = parseToml(bundleAliases("llamon/shims/").join("\n")) as {
      alias: Record<string, string>;
    };
    expect(Object.keys(own.alias).sort()).toEqual(Object.keys(scaffold.alias).sort());
    for (const [from, to] of Object.entries(scaffold.alias)) {
      expect(own.alias[from]).toBe(to.replace("llamon/shims/", "./src/shims/").concat(".ts"));
    }
  });
});
