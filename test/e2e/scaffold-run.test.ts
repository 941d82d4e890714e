/**
 * The README's first steps, as a stranger takes them from an empty folder (R9.1–R9.3), with
 * the packed tarballs of llamon and llamon-cli instead of the registry:
 *   npx --package=../llamon/llamon-<v>.tgz --package=../llamon/llamon-cli-<v>.tgz \
 *     llamon agent my-agent --template agent-general --memory postgres --yes
 *   cd my-agent && npx llamon run .
 *   npm test
 * The scaffold installs the project's dependencies itself (no TTY: progress lines, not one
 * static line). `llamon run` gets no reachable DSN, so it provides the embedded Postgres inside
 * the project; the product document's JSON sent twice is remembered, and again after a
 * restart; then the project's own tests pass. Every child runs on the Node that runs the tests
 * (the repository's pinned Node 22): the scaffold carries no Node of its own.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run } from "../helpers/cli.ts";
import { freePort, sendMessage, startLlamonRun, stopLlamonRun } from "../helpers/llamon-run.ts";
import { pinnedNodePath } from "../helpers/packed-llamon.ts";

let root: string;
const env = { PATH: pinnedNodePath(), CI: "1", npm_config_update_notifier: "false" };
const tarballs = [inject("llamonTarball"), inject("llamonCliTarball")];
/**
 * The README's spelling: the tarballs in ../llamon/, the agent made in an empty folder beside
 * them. npx keys its install by these texts and installs a tarball spec again on every call,
 * so the test's specs are its own (not the global setup's), and other tests' CLI is never
 * reinstalled under them.
 */
const specs = tarballs.map((tarball) => `../llamon/${basename(tarball)}`);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "llamon-empty-folder-"));
  await mkdir(join(root, "llamon"));
  for (const tarball of tarballs) await copyFile(tarball, join(root, "llamon", basename(tarball)));
  await mkdir(join(root, "agents"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  // npx's install of `specs` (npm's cache folder _npx/<first 16 hex of sha512 of the sorted
  // specs, one a line>).
  const cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
  const key = [...specs].sort((a, b) => a.localeCompare(b, "en")).join("\n");
  const npxDir = join(cache, "_npx", createHash("sha512").update(key).digest("hex").slice(0, 16));
  const manifest = await readFile(join(npxDir, "package.json"), "utf8").catch(() => "");
  if (specs.every((spec) => manifest.includes(JSON.stringify(spec)))) {
    await rm(npxDir, { recursive: true, force: true });
  }
});

function startRun(dir: string, port: number) {
  // An unreachable DSN: llamon run must fall back to the embedded Postgres in the project.
  return startLlamonRun([".", "--port", String(port)], {
    cwd: dir,
    bin: join(dir, "node_modules/.bin/llamon"),
    env: { ...env, POSTGRES_MEMORY_DSN: "postgresql://postgres@localhost:1/nowhere_memory" },
    readyMs: 150_000,
    pollMs: 250,
  });
}

describe("from an empty folder: packed llamon and llamon-cli → scaffold → install → run → the project's tests", () => {
  it("R9.1 R9.3 npx --package=<llamon tarball> --package=<llamon-cli tarball> scaffolds and installs a postgres agent that runs on the embedded Postgres, remembers across a restart, and passes its own tests", async () => {
    const args = ["agent", "my-agent", "--template", "agent-general", "--memory", "postgres"];
    // npx's own --yes: without a terminal it cannot ask before installing the package.
    const npx = ["--yes", ...specs.map((spec) => `--package=${spec}`), "llamon"];
    const made = await run("npx", [...npx, ...args, "--yes"], { cwd: join(root, "agents"), env });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain("created my-agent (agent-general, memory postgres)");
    // Without a terminal the install reports progress as it goes, then its end.
    expect(made.stderr).toContain("installing dependencies");
    expect(made.stderr).toMatch(/\n {2}npm install: \d+ registry requests, \d+ s\n/);
    expect(made.stderr).toContain("✔ dependencies installed");
    const dir = join(root, "agents", "my-agent");
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
      engines: Record<string, string>;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.engines.node).toMatch(/^>=22\./);
    expect(pkg.devDependencies.node).toBeUndefined();
    // The runtime is a dependency, the command line a devDependency: both from vendor/.
    expect(pkg.dependencies.llamon).toMatch(/^file:vendor\/llamon-\d/);
    expect(pkg.devDependencies["llamon-cli"]).toMatch(/^file:vendor\/llamon-cli-\d/);
    expect(pkg.dependencies["llamon-cli"]).toBeUndefined();

    const port = await freePort();
    const first = await startRun(dir, port);
    try {
      expect(first.output()).toContain("not reachable; using the embedded Postgres");
      const a = await sendMessage(port, "user-alice-session", "내 이름은 앨리스야");
      expect(a.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const b = await sendMessage(port, "user-alice-session", "이전에 뭐 얘기했지?");
      expect(b.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
      expect(b).toContain("내 이름은 앨리스야");
    } finally {
      await stopLlamonRun(first.child);
    }
    expect(existsSync(join(dir, ".llamon", "pgdata"))).toBe(true);

    const second = await startRun(dir, port);
    try {
      const c = await sendMessage(port, "user-alice-session", "still there?");
      expect(c.split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    } finally {
      await stopLlamonRun(second.child);
    }

    // The project's own tests: its Worker in workerd, on a throwaway embedded Postgres.
    const tests = await run("npm", ["test"], { cwd: dir, env: { ...env, NO_COLOR: "1" } });
    expect(tests.code, tests.stdout + tests.stderr).toBe(0);
    expect(tests.stdout).toMatch(/Tests\s+\d+ passed/);
  }, 600_000);
});
