/**
 * `llamon run` tells the truth about its state, as a user meets it: a taken port is an error
 * before anything starts (exit 1, PORT_IN_USE); a mistake in the agent's code keeps its code
 * (CONFIG_INVALID) instead of ending as wrangler's start-up failure; and whatever ends it —
 * SIGTERM, SIGINT or SIGHUP to llamon (also while it is still starting), SIGTERM to the
 * `npm start` that runs it, or its parent process dying — leaves no process behind: llamon,
 * wrangler, workerd and esbuild are all gone and the port is free.
 *
 * The project is a scaffolded memory-off agent (no database to start) whose packages resolve
 * from this checkout, as in scaffold-run.test.ts. Linux only (the process tree is read from
 * /proc).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LLAMON_BIN } from "../helpers/cli.ts";
import { freePort, llamon, REPO } from "../helpers/llamon-run.ts";

const LINUX = process.platform === "linux";
let root: string;
let project: string;

beforeAll(async () => {
  if (!LINUX) return;
  root = await mkdtemp(join(tmpdir(), "llamon-run-lifecycle-"));
  const modules = join(root, "node_modules");
  await mkdir(join(modules, ".bin"), { recursive: true });
  for (const entry of await readdir(join(REPO, "node_modules"))) {
    if (entry === ".bin" || entry === "llamon") continue;
    await symlink(join(REPO, "node_modules", entry), join(modules, entry));
  }
  await symlink(REPO, join(modules, "llamon"));
  // What `npm start` (`llamon run .`) finds on PATH: the checkout's tools and llamon's bin.
  for (const entry of await readdir(join(REPO, "node_modules", ".bin"))) {
    if (entry === "llamon") continue; // the workspace's link to it: LLAMON_BIN, below
    await symlink(join(REPO, "node_modules", ".bin", entry), join(modules, ".bin", entry));
  }
  await symlink(LLAMON_BIN, join(modules, ".bin", "llamon"));
  const scaffold = llamon(
    [
      "agent",
      "quiet-agent",
      "--memory",
      "off",
      "--yes",
      "--no-install",
      "--llamon",
      `file:${REPO}`,
    ],
    root,
  );
  const [code] = await once(scaffold, "exit");
  expect(code).toBe(0);
  project = join(root, "quiet-agent");
}, 60_000);

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** A started process with its stdout and stderr together. */
interface Started {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

function started(child: ChildProcess): Started {
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, output: () => out, exited };
}

function runIn(dir: string, args: string[], env: Record<string, string> = {}): Started {
  return started(llamon(["run", ...args], dir, env));
}

async function until(check: () => boolean, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** pid → parent pid of every live process (from /proc). */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z") map.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

/** `pid` and every live process under it, with their command lines. */
function tree(pid: number): Map<number, string> {
  const ppids = parents();
  const found = new Map<number, string>();
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    if (!ppids.has(next)) continue;
    let cmd = "";
    try {
      cmd = readFileSync(`/proc/${next}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      // gone meanwhile
    }
    found.set(next, cmd);
    for (const [child, parent] of ppids) if (parent === next) queue.push(child);
  }
  return found;
}

/**
 * Every process a test saw under what it started, with its start time: killed after each test
 * if that same process is still there (a failed test leaves no Worker running; a pid reused
 * by another process is left alone).
 */
const seen = new Map<number, string>();

afterEach(() => {
  for (const [pid, start] of seen) {
    if (startTime(pid) !== start) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  seen.clear();
});

/** A process's start time (field 22 of /proc/<pid>/stat), or undefined once it is gone. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** SIGKILL to `child` and everything under it, while it runs: a failed test leaves nothing. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  for (const each of tree(child.pid).keys()) {
    try {
      process.kill(each, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

function alive(pid: number): boolean {
  return parents().has(pid);
}

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * Waits until every process of `processes` is gone and `port` is free; fails naming the ones
 * left. The processes are the tree as it was while running: once llamon is gone, an orphan's
 * parent is no longer llamon.
 */
async function expectAllGone(processes: Map<number, string>, port: number): Promise<void> {
  const left = () => [...processes].filter(([pid]) => alive(pid));
  try {
    await until(
      () => left().length === 0,
      20_000,
      () => "",
    );
  } catch {
    // reported below
  }
  expect(left().map(([pid, cmd]) => `${pid} ${cmd}`)).toEqual([]);
  expect(await portFree(port)).toBe(true);
}

/** The tree under `pid` once it has each of `needs` (by default: the Worker is up). */
async function fullTree(
  pid: number,
  output: () => string,
  needs: readonly string[] = ["wrangler", "workerd", "esbuild"],
): Promise<Map<number, string>> {
  let processes = new Map<number, string>();
  const has = (word: string) => [...processes.values()].some((cmd) => cmd.includes(word));
  await until(
    () => {
      processes = tree(pid);
      for (const each of processes.keys()) {
        const start = startTime(each);
        if (start !== undefined) seen.set(each, start);
      }
      return needs.every(has);
    },
    30_000,
    () =>
      `no wrangler, workerd and esbuild under ${pid}:\n${[...processes.values()].join("\n")}\n${output()}`,
  );
  return processes;
}

/** A copy of the project's config and code (its packages resolve from `root`). */
async function copyProject(from: string, to: string): Promise<void> {
  await mkdir(join(to, "src"), { recursive: true });
  for (const name of ["wrangler.toml", "package.json", "tsconfig.json", ".dev.vars"]) {
    if (existsSync(join(from, name)))
      await writeFile(join(to, name), await readFile(join(from, name)));
  }
  for (const name of ["index.ts", "agent.ts"]) {
    await writeFile(join(to, "src", name), await readFile(join(from, "src", name)));
  }
}

const ready = (run: Started) =>
  until(() => run.output().includes("is running at"), 120_000, run.output);

describe.skipIf(!LINUX)("llamon run: what it says is true, and it leaves nothing behind", () => {
  it("a port held by another process is an error before anything starts: exit 1, PORT_IN_USE", async () => {
    const port = await freePort();
    // Another server on the port that answers every request with 200, /health included.
    const other: Server = createServer((socket) => {
      socket.on("data", () => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"));
    });
    await new Promise<void>((resolve) => other.listen(port, "127.0.0.1", resolve));
    try {
      const run = runIn(project, [".", "--port", String(port)]);
      const code = await run.exited;
      expect(code, run.output()).toBe(1);
      expect(run.output()).toContain(
        `error [PORT_IN_USE]: port ${port} on 127.0.0.1 is already in use`,
      );
      expect(run.output()).toContain("--port");
      expect(run.output()).not.toContain("is running at");
      expect(run.output()).not.toContain("wrangler");
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  }, 60_000);

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`${signal} to llamon stops llamon, wrangler, workerd and esbuild, and frees the port`, async () => {
      const port = await freePort();
      const run = runIn(project, [".", "--port", String(port)]);
      try {
        await ready(run);
        const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
          memory: { enabled: boolean; backend: string };
        };
        expect(health.memory).toMatchObject({ enabled: false, backend: "off" });
        const processes = await fullTree(run.child.pid as number, run.output);
        run.child.kill(signal);
        expect(await run.exited).toBe(0);
        expect(run.output()).toContain(`stopping (${signal})`);
        await expectAllGone(processes, port);
      } finally {
        killTree(run.child);
      }
    }, 180_000);
  }

  it("SIGTERM while it is still starting stops what it started so far", async () => {
    const port = await freePort();
    const run = runIn(project, [".", "--port", String(port)]);
    try {
      // wrangler is bundling the Worker (esbuild); workerd is not up yet. A workerd started
      // after this snapshot would be found holding the port.
      const processes = await fullTree(run.child.pid as number, run.output, [
        "wrangler",
        "esbuild",
      ]);
      expect(run.output()).not.toContain("is running at");
      run.child.kill("SIGTERM");
      expect(await run.exited).toBe(0);
      expect(run.output()).toContain("stopping (SIGTERM)");
      await expectAllGone(processes, port);
    } finally {
      killTree(run.child);
    }
  }, 180_000);

  it("SIGTERM to `npm start` stops everything under it", async () => {
    const port = await freePort();
    const npm = started(
      spawn("npm", ["start", "--", "--port", String(port)], {
        cwd: project,
        env: { ...process.env, npm_config_update_notifier: "false" },
      }),
    );
    try {
      await ready(npm);
      const processes = await fullTree(npm.child.pid as number, npm.output);
      expect([...processes.values()].some((cmd) => cmd.includes("llamon run"))).toBe(true);
      npm.child.kill("SIGTERM");
      await npm.exited;
      await expectAllGone(processes, port);
    } finally {
      killTree(npm.child);
    }
  }, 180_000);

  it("the death of its parent process (SIGKILL, no signal passed on) stops everything", async () => {
    const port = await freePort();
    const parentScript = `
      const { spawn } = require("node:child_process");
      spawn(process.execPath, ${JSON.stringify([LLAMON_BIN, "run", ".", "--port", String(port)])}, { stdio: "inherit" });
      setInterval(() => {}, 1000);
    `;
    const parent = started(spawn(process.execPath, ["-e", parentScript], { cwd: project }));
    try {
      await ready(parent);
      const processes = await fullTree(parent.child.pid as number, parent.output);
      parent.child.kill("SIGKILL");
      await parent.exited;
      await expectAllGone(processes, port);
    } finally {
      killTree(parent.child);
    }
  }, 180_000);

  it("R3.4 one start prints wrangler's binding table once, no cron warning, and one multiturn line per model call", async () => {
    // A project with what made the noise: a queue producer (wrangler watched the machine's dev
    // registry and printed the table again) and a cron trigger (a warning on every start).
    const noisy = join(root, "noisy");
    await copyProject(project, noisy);
    const toml = await readFile(join(noisy, "wrangler.toml"), "utf8");
    await writeFile(
      join(noisy, "wrangler.toml"),
      `${toml}
[[queues.producers]]
binding = "SUMMARY_QUEUE"
queue = "noisy-summaries"

[[queues.consumers]]
queue = "noisy-summaries"

[triggers]
crons = ["*/15 * * * *"]
`,
    );
    const port = await freePort();
    const run = runIn(noisy, [".", "--port", String(port)]);
    try {
      await ready(run);
      const started = run.output();
      expect(started.match(/Your Worker has access to the following bindings/g)).toHaveLength(1);
      expect(started).toContain("env.SUMMARY_QUEUE (noisy-summaries)");
      expect(started).not.toContain("Scheduled Workers are not automatically triggered");
      for (const text of ["hello", "again"]) {
        const res = await fetch(`http://127.0.0.1:${port}/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "message/send",
            params: { message: { role: "user", parts: [{ kind: "text", text }] } },
          }),
        });
        expect(res.status).toBe(200);
      }
      await until(() => (run.output().match(/multiturn:/g) ?? []).length >= 2, 10_000, run.output);
      // The scheduled handler can still be run by hand.
      expect((await fetch(`http://127.0.0.1:${port}/__scheduled?cron=*/15+*+*+*+*`)).status).toBe(
        200,
      );
      run.child.kill("SIGINT");
      expect(await run.exited).toBe(0);
      const out = run.output();
      expect(out.match(/Your Worker has access to the following bindings/g)).toHaveLength(1);
      expect(out).toContain("env.SUMMARY_QUEUE (noisy-summaries)");
      expect(out).not.toContain("Scheduled Workers are not automatically triggered");
      const multiturn = out.split("\n").filter((line) => line.includes("multiturn:"));
      expect(multiturn).toEqual([
        "multiturn: thread_msgs=1 window=20 sent_to_llm=1 has_prior=false",
        "multiturn: thread_msgs=1 window=20 sent_to_llm=1 has_prior=false",
      ]);
    } finally {
      killTree(run.child);
    }
  }, 180_000);

  it("a Worker that fails to start ends run with exit 1, and wrangler leaves no esbuild or workerd behind", async () => {
    const broken = join(root, "broken");
    await copyProject(project, broken);
    const index = await readFile(join(broken, "src", "index.ts"), "utf8");
    await writeFile(
      join(broken, "src", "index.ts"),
      `${index}\nthrow new Error("this Worker cannot start");\n`,
    );
    const port = await freePort();
    const run = runIn(broken, [".", "--port", String(port)]);
    try {
      const processes = await fullTree(run.child.pid as number, run.output, [
        "wrangler",
        "esbuild",
      ]);
      const code = await run.exited;
      expect(code, run.output()).toBe(1);
      expect(run.output()).toContain("wrangler dev stopped before the Worker was ready");
      expect(run.output()).not.toContain("is running at");
      await expectAllGone(processes, port);
    } finally {
      killTree(run.child);
    }
  }, 180_000);

  it("a bad memory backend in the agent's code ends run with CONFIG_INVALID before anything starts", async () => {
    const bad = join(root, "bad-code");
    await copyProject(project, bad);
    // MEMORY_BACKEND in the vars would override the code's backend: leave the code's in charge.
    const toml = await readFile(join(project, "wrangler.toml"), "utf8");
    await writeFile(join(bad, "wrangler.toml"), toml.replace(/^MEMORY_BACKEND = .*$/m, ""));
    const agent = await readFile(join(project, "src", "agent.ts"), "utf8");
    await writeFile(
      join(bad, "src", "agent.ts"),
      agent.replace('backend: "off"', 'backend: "in-memory"'),
    );
    const port = await freePort();
    const run = runIn(bad, [".", "--port", String(port)]);
    const code = await run.exited;
    expect(code, run.output()).toBe(1);
    expect(run.output()).toContain("error [CONFIG_INVALID]: src/agent.ts:");
    expect(run.output()).toContain('use "in_memory"');
    expect(run.output()).not.toContain("[INTERNAL]");
    expect(run.output()).not.toContain("workerd");
    expect(run.output()).not.toContain("embedded Postgres");
  }, 60_000);
});
