/**
 * R9.4 `llamon prepare-offline`, the air-gapped variant of the first steps: the packed
 * llamon-cli (`npx --package=<llamon tarball> --package=<llamon-cli tarball>`, installed by the
 * global setup) scaffolds a project in an empty folder (both packages packed into vendor/, the
 * lockfile cut from the one the CLI carries); prepare-offline bundles it where the registry is reachable; the folder is moved and installed with
 * `npm ci --cache offline/npm-cache --offline` with the network blocked (proxy to a closed
 * port). The installed project then typechecks, passes its own tests and runs its llamon.
 * Every child runs on the Node that runs the tests: the project carries no Node of its own.
 *
 * Needs the npm registry for the bundling step; skipped (with a message) without it.
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as runProcess } from "../helpers/cli.ts";
import { pinnedNodePath } from "../helpers/packed-llamon.ts";

/** The packed llamon's CLI (installed by npx from the tarball). */
const CLI = inject("llamonCli");
const BLOCKED = "http://127.0.0.1:9";

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return runProcess(command, args, { cwd, env: { CI: "1", PATH: pinnedNodePath(), ...env } });
}

function registryReachable(): boolean {
  const ping = spawnSync("npm", ["ping"], { encoding: "utf8", timeout: 20_000 });
  return ping.status === 0;
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "llamon-offline-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("llamon prepare-offline", () => {
  it("R9.4 bundles every tarball + the lockfile; the project installs from it with no registry, typechecks and passes its test", async (ctx) => {
    if (!registryReachable()) {
      console.warn("skipped: the npm registry is not reachable, so nothing can be bundled");
      ctx.skip();
    }
    const made = await run(
      CLI,
      [
        "agent",
        "air-agent",
        "--template",
        "agent-tools",
        "--memory",
        "postgres",
        "--yes",
        "--no-install",
      ],
      root,
    );
    expect(made.code, made.stderr).toBe(0);
    const project = join(root, "air-agent");

    const bundled = await run(CLI, ["prepare-offline", project, "--clean"], root);
    expect(bundled.code, bundled.stderr).toBe(0);
    expect(bundled.stdout).toMatch(/offline\/npm-cache\s+\d+(\.\d)? MB/);
    expect(bundled.stdout).toMatch(/total \d+(\.\d)? MB · \d+ packages/);
    expect(bundled.stdout).toContain("npm ci --cache offline/npm-cache --offline");
    expect(bundled.stdout).toContain("local tarball vendor/llamon-0");
    expect(bundled.stdout).toContain("local tarball vendor/llamon-cli-");
    const offline = join(project, "offline");
    expect((await readdir(offline)).sort()).toEqual([
      "README.txt",
      "npm-cache",
      "package-lock.json",
      "package.json",
      "packages.txt",
    ]);
    expect(await readFile(join(offline, "package-lock.json"), "utf8")).toBe(
      await readFile(join(project, "package-lock.json"), "utf8"),
    );
    const listed = (await readFile(join(offline, "packages.txt"), "utf8")).split("\n");
    expect(listed).toEqual(expect.arrayContaining([expect.stringMatching(/^wrangler@/)]));

    // The air-gapped machine: another folder, no registry, only the shipped cache.
    const moved = join(root, "moved-air-agent");
    await cp(project, moved, { recursive: true });
    const blocked = {
      npm_config_proxy: BLOCKED,
      npm_config_https_proxy: BLOCKED,
      npm_config_update_notifier: "false",
    };
    const installed = await run(
      "npm",
      ["ci", "--cache", "offline/npm-cache", "--offline", "--no-audit", "--no-fund"],
      moved,
      blocked,
    );
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/added \d+ packages/);

    const bin = (name: string) => join(moved, "node_modules/.bin", name);
    const tsc = await run(process.execPath, [bin("tsc"), "--noEmit", "-p", "tsconfig.json"], moved);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    const test = await run(process.execPath, [bin("vitest"), "run"], moved, { NO_COLOR: "1" });
    expect(test.code, test.stdout + test.stderr).toBe(0);
    // The project's own tests boot its Worker in workerd, on a throwaway embedded Postgres.
    expect(test.stdout).toMatch(/Tests\s+7 passed/);
    const help = await run(bin("llamon"), ["--help"], moved);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("prepare-offline");

    // A production install (`npm ci --omit=dev`): llamon and what it depends on, but neither
    // the command line (llamon-cli, a devDependency) and its tools (commander, PGlite, …) nor
    // the dev tools (wrangler, workerd, vitest, TypeScript). The Worker bundle takes only what
    // the Worker imports (bundle.test.ts); the size is printed for docs/performance.md.
    const prod = join(root, "prod-air-agent");
    await cp(project, prod, { recursive: true });
    const prodInstall = await run(
      "npm",
      ["ci", "--omit=dev", "--cache", "offline/npm-cache", "--offline", "--no-audit", "--no-fund"],
      prod,
      blocked,
    );
    expect(prodInstall.code, prodInstall.stderr).toBe(0);
    const prodModules = await readdir(join(prod, "node_modules"));
    const scoped = async (scope: string) =>
      prodModules.includes(scope)
        ? (await readdir(join(prod, "node_modules", scope))).map((n) => `${scope}/${n}`)
        : [];
    const names = [
      ...prodModules,
      ...(await scoped("@electric-sql")),
      ...(await scoped("@langchain")),
      ...(await scoped("@cloudflare")),
    ];
    expect(names).toEqual(expect.arrayContaining(["llamon", "hono", "zod", "@langchain/core"]));
    for (const tool of [
      "llamon-cli",
      "commander",
      "@clack/prompts",
      "@electric-sql/pglite",
      "@electric-sql/pglite-socket",
      "fast-string-width",
      "smol-toml",
      "wrangler",
      "miniflare",
      "workerd",
      "vitest",
      "typescript",
      "tsx",
      "node",
      "@cloudflare/vitest-plugin",
    ]) {
      expect(names, tool).not.toContain(tool);
    }
    const du = spawnSync("du", ["-sk", join(prod, "node_modules")], { encoding: "utf8" });
    const prodMiB = Number(du.stdout.split("\t")[0]) / 1024;
    console.log(`production install (npm ci --omit=dev): ${prodMiB.toFixed(0)} MiB`);
    // With the CLI's tools it took 115 MiB (PGlite alone ~28); without them about 83.
    expect(prodMiB).toBeLessThan(100);
  }, 600_000);

  it("says what to do outside a project, exit 1", async () => {
    const { code, stderr } = await run(CLI, ["prepare-offline", root], root);
    expect(code).toBe(1);
    expect(stderr).toContain("no package.json in");
    expect(stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  });
});
