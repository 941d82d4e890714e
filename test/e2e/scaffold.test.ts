/**
 * `llamon agent` / `llamon flow` as a user runs them (R1.2, R2.3, R9.1, R9.2): every
 * template × every memory mode with --yes; the generated projects typecheck and their own
 * tests pass; the interactive prompts through a pseudo-terminal offer no sqlite; names
 * are validated.
 *
 * The CLI is the packed llamon-cli's, as `npx --package=<llamon tarball>
 * --package=<llamon-cli tarball>` installed it (the global setup, test/helpers/packed-llamon.ts),
 * run on the Node that runs the tests. The generated projects are checked against this
 * checkout's build without `npm install`: they sit in one folder whose node_modules links
 * `llamon` to this repository and every other package (llamon-cli: packages/cli) to this
 * repository's node_modules. The real installs run in scaffold-run.test.ts (from the registry)
 * and offline.test.ts (from the offline bundle).
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseDevVars } from "../../packages/cli/src/cli/dev-vars.ts";
import { PROJECT_DEV_DEPENDENCIES } from "../../packages/cli/src/cli/scaffold/files.ts";
import { runLlamon, run as runProcess } from "../helpers/cli.ts";
import { pinnedNodePath } from "../helpers/packed-llamon.ts";

const REPO = resolve(import.meta.dirname, "../..");
const VERSION = (
  JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { version: string }
).version;

/**
 * The pseudo-terminal `script` makes has no size when this process has no terminal, and
 * prompts that wrap to the terminal's width would draw one character per line.
 */
const PTY_SIZE = "stty cols 120 rows 40";
/** util-linux `script` gives the prompt tests a pseudo-terminal; without it they are skipped. */
const HAS_PTY = spawnSync("script", ["--version"]).status === 0;

/**
 * `command` (a shell line) on a pseudo-terminal of 120×40 in `cwd`: what it draws, without
 * control codes, and `waitFor`, which resolves with the screen's length once `text` shows
 * (after `from`) and fails after 30 s with the screen.
 */
function ptySession(command: string, cwd: string) {
  const child = spawn("script", ["-qfec", `${PTY_SIZE}; exec ${command}`, "/dev/null"], {
    cwd,
    env: { ...process.env, PATH: pinnedNodePath(), TERM: "xterm", COLUMNS: "120", LINES: "40" },
  }) as ChildProcessWithoutNullStreams;
  let drawn = "";
  child.stdout.on("data", (d) => {
    drawn += d;
  });
  const screen = () => stripVTControlCharacters(drawn).replaceAll("\r", "");
  const exited = once(child, "exit");
  const waitFor = async (text: string | RegExp, from = 0) => {
    const deadline = Date.now() + 30_000;
    const shown = () =>
      typeof text === "string"
        ? screen().slice(from).includes(text)
        : text.test(screen().slice(from));
    while (!shown()) {
      if (Date.now() > deadline) throw new Error(`no "${text}" on the terminal:\n${screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return screen().length;
  };
  return { child, exited, waitFor, screen };
}
/**
 * An npm (for `npm_execpath`) whose `install` writes its pid and never ends by itself, so a
 * signal or a key surely comes while it runs; `stillRunning` reads its state (a zombie no one
 * has reaped yet counts as ended), `kill` makes sure it is gone.
 */
async function hangingNpm(cwd: string) {
  const npmCli = join(cwd, "npm-cli.js");
  const pidFile = join(cwd, "npm.pid");
  await writeFile(
    npmCli,
    `if (process.argv[2] === "install") {
  require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
  setInterval(() => {}, 1000);
}
`,
  );
  const pid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined);
  const stillRunning = () => {
    const npm = pid();
    if (npm === undefined) return false;
    try {
      const state = readFileSync(`/proc/${npm}/stat`, "utf8").split(") ")[1]?.[0];
      return state !== undefined && state !== "Z";
    } catch {
      return false;
    }
  };
  const kill = () => {
    const npm = pid();
    try {
      if (npm !== undefined) process.kill(npm, "SIGKILL");
    } catch {
      // already gone
    }
  };
  return { npmCli, pidFile, stillRunning, kill };
}

/** Resolves once `done()` holds; fails after `ms` with what `what()` says then. */
async function waitUntil(what: () => string, done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`no ${what()} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The packed llamon's CLI (installed by npx from the tarball). */
const CLI = inject("llamonCli");
const ENV = { CI: "1", PATH: pinnedNodePath() };

function run(args: string[], options: { cwd?: string; input?: string } = {}) {
  return runProcess(CLI, args, { cwd: options.cwd, env: ENV, input: options.input ?? "" });
}

async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

async function filesUnder(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path, base)));
    else out.push(path.slice(base.length + 1));
  }
  return out.sort();
}

const COMBOS = [
  ["agent", "agent-general"],
  ["agent", "agent-tools"],
  ["flow", "flow-intake"],
].flatMap(([kind, template]) =>
  ["off", "in-memory", "postgres", "sqlite"].map((memory) => ({
    kind: kind as string,
    template: template as string,
    memory,
    name: `t-${template}-${memory}`,
    backend: memory === "in-memory" ? "in_memory" : memory,
    // The default (llamon packed into vendor/) once per template; the others link this
    // checkout (--llamon), which keeps the test fast.
    vendored: memory === "postgres",
    // The generated tests boot the Worker in workerd, the slow part, so they run
    // here for two projects on backends the installed ones do not cover (scaffold-run: agent-
    // general on postgres; offline: agent-tools on postgres); every project is typechecked.
    tested: ["flow-intake:in-memory", "agent-general:off"].includes(`${template}:${memory}`),
  })),
);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "llamon-scaffold-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("llamon agent / flow (scaffold)", () => {
  it("R9.1 R9.2 R2.3 every template × memory mode with --yes: files and values; the projects typecheck, and their own tests boot the Worker in workerd and hold a conversation", async () => {
    const all = join(root, "all");
    await mkdir(all);
    await inParallel(COMBOS, 3, async (c) => {
      const args = [c.kind, c.name, "--template", c.template, "--memory", c.memory, "--yes"];
      args.push("--no-install", ...(c.vendored ? [] : ["--llamon", `file:${REPO}`]));
      const result = await run(args, { cwd: all });
      expect(result.code, `${c.name}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toContain(`created ${c.name} (${c.template}, memory ${c.memory})`);
      if (c.memory === "sqlite") expect(result.stderr).toContain("sqlite is the legacy backend");
      expect(result.stderr).not.toContain("inside the llamon checkout");
    });

    for (const c of COMBOS) {
      const dir = join(all, c.name);
      const read = (file: string) => readFile(join(dir, file), "utf8");
      const files = await filesUnder(dir);
      const postgres = c.backend === "postgres";
      const db = `${c.name.replaceAll("-", "_")}_memory`;
      for (const file of [
        "package.json",
        "wrangler.toml",
        ".dev.vars",
        ".dev.vars.example",
        ".gitignore",
        "README.md",
        "tsconfig.json",
        "vitest.config.ts",
        "src/agent.ts",
        "src/index.ts",
        "test/worker.test.ts",
        "test/a2a.ts",
        "test/test-key.ts",
        "test/env.d.ts",
      ]) {
        expect(files, `${c.name} ${file}`).toContain(file);
      }
      const vendored = [
        `vendor/llamon-${VERSION}.tgz`,
        `vendor/llamon-cli-${VERSION}.tgz`,
        "package-lock.json",
      ];
      for (const file of vendored)
        expect(files.includes(file), `${c.name} ${file}`).toBe(c.vendored);
      expect(files.some((f) => f.startsWith("test/") && f.endsWith(".test.ts"))).toBe(true);
      expect(files.includes("compose.yml"), c.name).toBe(postgres);
      expect(files.includes("test/global-setup.ts"), c.name).toBe(postgres);

      const pkg = JSON.parse(await read("package.json")) as {
        name: string;
        engines: Record<string, string>;
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
        scripts: Record<string, string>;
      };
      expect(pkg.name).toBe(c.name);
      expect(pkg.dependencies.llamon).toBe(
        c.vendored ? `file:vendor/llamon-${VERSION}.tgz` : `file:${REPO}`,
      );
      // The command line is a devDependency: `npm ci --omit=dev` installs none of its tools.
      expect(pkg.devDependencies["llamon-cli"]).toBe(
        c.vendored ? `file:vendor/llamon-cli-${VERSION}.tgz` : `file:${REPO}/packages/cli`,
      );
      expect(Object.keys(pkg.devDependencies)).toEqual(
        expect.arrayContaining([
          "wrangler",
          "typescript",
          "vitest",
          "@cloudflare/workers-types",
          "@cloudflare/vitest-plugin",
        ]),
      );
      expect(pkg.scripts.start).toBe("llamon run .");
      expect(pkg.scripts.chat).toBe("llamon chat");
      // Only what the Worker, wrangler and the tests need: no Node binary, no CLI tools (they
      // come with llamon-cli), and the Node version in `engines`.
      expect(Object.keys(pkg.devDependencies).sort()).toEqual(
        [...PROJECT_DEV_DEPENDENCIES, "llamon-cli"].sort(),
      );
      expect(pkg.devDependencies.node).toBeUndefined();
      expect(pkg.engines.node).toMatch(/^>=22\.\d+$/);
      if (c.vendored) {
        // Cut from the lockfile the packed llamon carries: the versions it was tested with.
        const lock = JSON.parse(await read("package-lock.json")) as {
          packages: Record<
            string,
            { resolved?: string; integrity?: string; bin?: unknown; dev?: boolean }
          >;
        };
        const llamon = lock.packages["node_modules/llamon"];
        expect(llamon?.resolved).toBe(pkg.dependencies.llamon);
        expect(llamon?.integrity).toMatch(/^sha512-/);
        expect(llamon?.bin).toBeUndefined();
        expect(llamon?.dev).toBeUndefined();
        const cli = lock.packages["node_modules/llamon-cli"];
        expect(cli?.resolved).toBe(pkg.devDependencies["llamon-cli"]);
        expect(cli?.integrity).toMatch(/^sha512-/);
        expect(cli?.bin).toEqual({ llamon: "dist/cli/bin.js" });
        // What only the command line needs is dev: `npm ci --omit=dev` leaves it out …
        for (const tool of ["llamon-cli", "commander", "@clack/prompts", "@electric-sql/pglite"]) {
          expect(lock.packages[`node_modules/${tool}`]?.dev, tool).toBe(true);
        }
        // … and what the Worker needs is not.
        for (const runtime of ["hono", "zod", "@langchain/core", "@neondatabase/serverless"]) {
          expect(lock.packages[`node_modules/${runtime}`]?.dev, runtime).toBeUndefined();
        }
        expect(lock.packages["node_modules/wrangler"]?.resolved).toMatch(/^https:\/\/registry/);
        expect(lock.packages["node_modules/@biomejs/biome"]).toBeUndefined(); // llamon's dev tool
        expect(lock.packages["node_modules/node"]).toBeUndefined(); // no Node binary
      }

      const toml = parseToml(await read("wrangler.toml")) as {
        name: string;
        main: string;
        vars: Record<string, string>;
        durable_objects: { bindings: { name: string; class_name: string }[] };
        migrations: { new_sqlite_classes: string[] }[];
      };
      expect(toml.name).toBe(c.name);
      expect(toml.main).toBe("src/index.ts");
      // A deployed agent asks for API keys; local runs (.dev.vars) take none.
      expect(toml.vars).toEqual({
        AGENT_ID: c.name,
        MEMORY_BACKEND: c.backend,
        A2A_AUTH: "api_key",
      });
      expect(toml.durable_objects.bindings).toEqual([{ name: "THREADS", class_name: "ThreadDO" }]);
      expect(toml.migrations[0]?.new_sqlite_classes).toEqual(["ThreadDO"]);

      const vars = parseDevVars(await read(".dev.vars"));
      expect(vars.AGENT_ID).toBe(c.name);
      expect(vars.A2A_AUTH).toBe("none");
      if (postgres) {
        expect(vars.POSTGRES_MEMORY_DSN).toBe(`postgresql://postgres@localhost:5432/${db}`);
        expect(await read("compose.yml")).toContain(`POSTGRES_DB: ${db}`);
      } else {
        expect(vars.POSTGRES_MEMORY_DSN).toBeUndefined();
      }
      const example = parseDevVars(await read(".dev.vars.example"));
      expect(example.AGENT_ID).toBe(c.name);
      expect(example.MEMORY_BACKEND).toBe(c.backend);
      expect(await read("src/agent.ts")).toContain(`backend: "${c.backend}"`);
      const readme = await read("README.md");
      expect(readme).toContain("## 시작하기");
      expect(readme).toContain("## English");
      expect(readme).toContain("npx llamon run .");
      expect(readme).toContain("npx wrangler secret put A2A_API_KEYS");
      for (const file of files.filter((f) => !f.endsWith(".tgz"))) {
        expect(await read(file), `${c.name}/${file}`).not.toMatch(/__[A-Z_]+__/);
      }
    }

    // Install without a registry: link what npm would install from the lockfile.
    const modules = join(all, "node_modules");
    await mkdir(modules);
    for (const entry of await readdir(join(REPO, "node_modules"))) {
      if (entry.startsWith(".") || entry === "llamon") continue;
      await symlink(join(REPO, "node_modules", entry), join(modules, entry));
    }
    await symlink(REPO, join(modules, "llamon"));
    await writeFile(
      join(all, "tsconfig.json"),
      JSON.stringify({
        extends: `./${COMBOS[0]?.name}/tsconfig.json`,
        include: ["*/src", "*/test", "*/vitest.config.ts"],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(REPO, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", join(all, "tsconfig.json")],
      { encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr, "tsc").toBe("");
    expect(tsc.status).toBe(0);

    const tested = COMBOS.filter((c) => c.tested).map((c) => `./${c.name}/vitest.config.ts`);
    await writeFile(
      join(all, "vitest.config.mts"),
      `import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { projects: ${JSON.stringify(tested)} } });\n`,
    );
    const tests = spawnSync(
      process.execPath,
      [join(REPO, "node_modules/vitest/vitest.mjs"), "run", "--root", all, "--reporter", "dot"],
      { encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" } },
    );
    const output = tests.stdout + tests.stderr;
    expect(tests.status, output).toBe(0);
    expect(output).toMatch(/Test Files\s+4 passed \(4\)/);
    // Each tested project booted its Worker and held a conversation through the offline model.
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }, 420_000);

  it.skipIf(!HAS_PTY)(
    "R1.2 R9.1 without --yes it asks with arrow-key prompts on a terminal; sqlite is not offered",
    async () => {
      const cwd = join(root, "pty");
      await mkdir(cwd);
      const command = [CLI, "agent", "--no-install", "--llamon", `file:${REPO}`]
        .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
        .join(" ");
      const { child, exited, waitFor, screen } = ptySession(command, cwd);
      try {
        await waitFor("Project name");
        child.stdin.write("Bad Name\r");
        await waitFor("use lowercase letters");
        child.stdin.write("pty-agent\r");
        const templateAt = await waitFor("Template");
        await waitFor("agent-tools", templateAt - 200);
        child.stdin.write("\r"); // the first choice: agent-general
        const memoryAt = await waitFor("Memory");
        await waitFor("off", memoryAt - 200);
        const menu = screen().slice(memoryAt - 200);
        expect(menu).toContain("postgres");
        expect(menu).toContain("in-memory");
        expect(screen()).not.toContain("sqlite");
        child.stdin.write("\x1b[B"); // ↓ to in-memory
        await new Promise((r) => setTimeout(r, 200));
        child.stdin.write("\r");
        await waitFor("created pty-agent");
        const [code] = await exited;
        expect(code).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      const agent = await readFile(join(cwd, "pty-agent/src/agent.ts"), "utf8");
      expect(agent).toContain('backend: "in_memory"');
      expect(agent).toContain("helpful assistant"); // agent-general
      const pkg = JSON.parse(await readFile(join(cwd, "pty-agent/package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      expect(pkg.dependencies.llamon).toBe(`file:${REPO}`);
      expect(existsSync(join(cwd, "pty-agent/vendor"))).toBe(false);
    },
    60_000,
  );

  it.skipIf(!HAS_PTY)(
    "R9.1 asked for a name, it offers one that Enter takes: the next free my-agent-N, or a refused name made valid; Ctrl-C exits 130",
    async () => {
      const cwd = join(root, "pty-name");
      await mkdir(join(cwd, "my-agent"), { recursive: true });
      await writeFile(join(cwd, "my-agent", "notes.txt"), "a folder that is taken");
      const args = ["agent", "--template", "agent-general", "--memory", "off", "--no-install"];
      const command = [CLI, ...args, "--llamon", `file:${REPO}`]
        .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
        .join(" ");
      const session = () => ptySession(command, cwd);
      // ./my-agent is taken: the offer is my-agent-2, and Enter takes it.
      const first = session();
      try {
        await first.waitFor(/Project name \/ 프로젝트 이름\n\W*my-agent-2/);
        first.child.stdin.write("\r");
        await first.waitFor("created my-agent-2");
        expect((await first.exited)[0]).toBe(0);
      } finally {
        if (first.child.exitCode === null) first.child.kill("SIGKILL");
      }
      // A refused name is offered back as a valid one, and Enter takes that.
      const second = session();
      try {
        const at = await second.waitFor("Project name");
        second.child.stdin.write("Support Bot\r");
        await second.waitFor('(Enter takes "support-bot")', at);
        await second.waitFor(/Project name \/ 프로젝트 이름\n\W*support-bot/, at);
        second.child.stdin.write("\r");
        await second.waitFor("created support-bot");
        expect((await second.exited)[0]).toBe(0);
      } finally {
        if (second.child.exitCode === null) second.child.kill("SIGKILL");
      }
      // Ctrl-C at the question: a clear line, exit code 130, nothing created.
      const third = session();
      try {
        await third.waitFor("Project name");
        third.child.stdin.write("\x03");
        await third.waitFor('cancelled: "Project name / 프로젝트 이름" was not answered');
        expect((await third.exited)[0]).toBe(130);
      } finally {
        if (third.child.exitCode === null) third.child.kill("SIGKILL");
      }
      expect(existsSync(join(cwd, "my-agent-2", "src", "agent.ts"))).toBe(true);
      expect(existsSync(join(cwd, "support-bot", "src", "agent.ts"))).toBe(true);
      expect((await readdir(cwd)).sort()).toEqual(["my-agent", "my-agent-2", "support-bot"]);
    },
    120_000,
  );

  it.skipIf(!HAS_PTY)(
    "R9.1 Ctrl-C while the dependencies install ends npm too, with a cancelled line and exit 130",
    async () => {
      const cwd = join(root, "pty-install");
      await mkdir(cwd);
      // An npm whose install never ends on its own, so the key surely comes while it runs.
      const { npmCli, pidFile, stillRunning, kill } = await hangingNpm(cwd);
      const args = ["agent", "spin-agent", "--template", "agent-general", "--memory", "off"];
      const command = [CLI, ...args, "--llamon", `file:${REPO}`]
        .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
        .join(" ");
      // The shell outlives llamon, so the terminal's session is still there when npm is checked:
      // a closing terminal would end npm by itself. llamon passes SIGINT to its whole process
      // group, as a terminal's Ctrl-C does, and that group holds this shell: dash (script's
      // /bin/sh when SHELL is unset) would die of it, so the shell traps it; a trap, unlike an
      // ignored signal, is not inherited by llamon and npm.
      const child = spawn(
        "script",
        [
          "-qfec",
          `trap : INT; ${PTY_SIZE}; ${command}; echo "llamon exited $?"; sleep 30`,
          "/dev/null",
        ],
        {
          cwd,
          env: {
            ...process.env,
            PATH: pinnedNodePath(),
            TERM: "xterm",
            CI: "",
            npm_execpath: npmCli,
          },
        },
      ) as ChildProcessWithoutNullStreams;
      let drawn = "";
      child.stdout.on("data", (d) => {
        drawn += d;
      });
      const screen = () => stripVTControlCharacters(drawn).replaceAll("\r", "");
      const until = (what: string, done: () => boolean, ms = 30_000) =>
        waitUntil(() => `${what}:\n${screen()}`, done, ms);
      try {
        await until("npm install", () => existsSync(pidFile));
        await until("spinner", () => screen().includes("installing dependencies"));
        child.stdin.write("\x03");
        await until("exit code", () => /llamon exited \d+/.test(screen()));
        expect(screen()).toContain("llamon exited 130");
        expect(screen()).toContain("cancelled: installing dependencies");
        await until("npm ending", () => !stillRunning(), 5_000);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
        kill();
      }
    },
    60_000,
  );

  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
    ["SIGINT", 130],
  ] as const)(
    "R9.1 %s to llamon while the dependencies install (no terminal) ends npm too, exit %i",
    async (signal, code) => {
      const cwd = join(root, `signal-install-${signal}`);
      await mkdir(cwd);
      const { npmCli, pidFile, stillRunning, kill } = await hangingNpm(cwd);
      const args = ["agent", "sig-agent", "--template", "agent-general", "--memory", "off"];
      const child = spawn(CLI, [...args, "--llamon", `file:${REPO}`], {
        cwd,
        env: { ...process.env, ...ENV, npm_execpath: npmCli },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d) => {
        output += d;
      });
      child.stderr.on("data", (d) => {
        output += d;
      });
      const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      try {
        await waitUntil(
          () => `npm install:\n${output}`,
          () => existsSync(pidFile),
          30_000,
        );
        child.kill(signal);
        const [exitCode] = await exited;
        expect(exitCode, output).toBe(code);
        expect(output).toContain("cancelled");
        await waitUntil(
          () => `end of npm:\n${output}`,
          () => !stillRunning(),
          5_000,
        );
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
        kill();
      }
    },
    60_000,
  );

  it("scaffolding inside the llamon checkout warns that git will see the folder", async () => {
    const inside = join(REPO, `.scaffold-inside-${process.pid}`);
    try {
      const args = ["agent", "inside-agent", "--yes", "--no-install", "--dir", inside];
      // This checkout's own CLI (not the packed one): the warning is about its folder.
      const result = await runLlamon([...args, "--llamon", `file:${REPO}`], {
        cwd: REPO,
        env: { CI: "1" },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`is inside the llamon checkout ${REPO}`);
      expect(result.stderr).toContain("--dir ../inside-agent");
    } finally {
      await rm(inside, { recursive: true, force: true });
    }
  }, 60_000);

  it("names that cannot be a Worker or database name, and other mistakes, exit 1 with what to do", async () => {
    const cwd = join(root, "errors");
    await mkdir(join(cwd, "taken"), { recursive: true });
    await writeFile(join(cwd, "taken", "file.txt"), "x");
    const long = `a${"b".repeat(56)}`;
    const cases: [string[], RegExp][] = [
      [
        ["agent", "My Agent", "--yes"],
        /"My Agent" cannot be a project name: use lowercase.*Try "my-agent"/,
      ],
      [["agent", "1agent", "--yes"], /starting with a letter/],
      [["agent", "my_agent", "--yes"], /Try "my-agent"/],
      [["agent", "a--b", "--yes"], /not doubled/],
      [["agent", long, "--yes"], /at most 56 fit/],
      [["agent", "llamon", "--yes"], /name of a package the project depends on/],
      [["agent", "taken", "--yes", "--no-install"], /already exists and is not empty/],
      [["agent", "ok-name", "--memory", "in_memory", "--yes"], /the CLI spells it "in-memory"/],
      [
        ["agent", "ok-name", "--memory", "redis", "--yes"],
        /--memory must be one of off, in-memory, postgres/,
      ],
      [
        ["flow", "ok-name", "--template", "agent-general", "--yes"],
        /is an agent template: use `llamon agent …`/,
      ],
      [
        ["agent", "ok-name", "--template", "nope", "--yes"],
        /unknown agent template "nope": choose one of agent-general, agent-tools/,
      ],
      [
        ["agent", "ok-name"],
        /not a terminal, so nothing can be asked: give --template, --memory \(or --yes/,
      ],
      [["agent", "--yes"], /give the project name: npx llamon-cli agent my-agent --yes/],
    ];
    for (const [args, pattern] of cases) {
      const { code, stderr } = await run(args, { cwd });
      expect(code, args.join(" ")).toBe(1);
      expect(stderr, args.join(" ")).toMatch(pattern);
      expect(stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    }
    expect(await readdir(cwd)).toEqual(["taken"]);
  }, 120_000);

  it("on a Node older than llamon's engines the packed CLI stops with NODE_UNSUPPORTED before doing anything", async () => {
    const cwd = join(root, "old-node");
    await mkdir(cwd);
    // This Node, reporting itself as 20: what `npx llamon` meets on the system Node here.
    const olderNode = `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.11.0"}})`;
    const result = await runProcess(
      process.execPath,
      ["--import", olderNode, CLI, "agent", "old-node-agent", "--yes", "--no-install"],
      { cwd, env: ENV },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error [NODE_UNSUPPORTED]: llamon needs Node.js 22.18 or newer (package.json engines ">=22.18"); this is Node.js 20.11.0.',
    );
    expect(result.stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    expect(await readdir(cwd)).toEqual([]);
  });

  it("--help of every command shows an example", async () => {
    for (const args of [
      ["--help"],
      ["agent", "--help"],
      ["flow", "--help"],
      ["chat", "--help"],
      ["memory", "--help"],
      ["memory", "prune", "--help"],
      ["prepare-offline", "--help"],
      ["migrate", "--help"],
      ["doctor", "--help"],
      ["run", "--help"],
      ["dev", "--help"],
      ["dev", "proxy", "--help"],
    ]) {
      const { code, stdout } = await run(args);
      expect(code, args.join(" ")).toBe(0);
      expect(stdout).toContain("Usage: llamon");
      if (args.length > 1) expect(stdout, args.join(" ")).toMatch(/Examples?:\n\s+\$ npx llamon/);
    }
    const top = (await run(["--help"])).stdout;
    for (const command of [
      "agent",
      "flow",
      "run",
      "chat",
      "memory",
      "migrate",
      "doctor",
      "prepare-offline",
    ]) {
      expect(top).toMatch(new RegExp(`\\n\\s+${command} `));
    }
  }, 120_000);
});
