/**
 * The product document's three commands, end to end (R9.1–R9.3):
 *   npx llamon agent my-agent --template agent-general --memory postgres --yes
 *   cd my-agent && npx llamon run .
 * with no reachable DSN, so `llamon run` provides the embedded Postgres inside the project;
 * the product document's JSON sent twice is remembered, and again after a restart.
 * The project's packages resolve from this checkout (as in scaffold.test.ts), no install.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
const BIN = join(REPO, "bin/llamon.mjs");
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "llamon-scaffold-run-"));
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

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function llamon(args: string[], cwd: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env } });
}

async function startRun(dir: string, port: number) {
  // An unreachable DSN: llamon run must fall back to the embedded Postgres in the project.
  const child = llamon(["run", ".", "--port", String(port)], dir, {
    POSTGRES_MEMORY_DSN: "postgresql://postgres@localhost:1/nowhere_memory",
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const deadline = Date.now() + 150_000;
  while (!out.includes("is running at")) {
    if (child.exitCode !== null) throw new Error(`llamon run exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`llamon run did not get ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGINT");
  await exited;
}

async function send(port: number, text: string): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    method: "message/send",
    params: {
      message: { contextId: "user-alice-session", role: "user", parts: [{ kind: "text", text }] },
    },
  });
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body });
  const json = (await res.json()) as {
    result: { status: { message: { parts: { text: string }[] } } };
  };
  return json.result.status.message.parts.map((p) => p.text).join("");
}

describe("scaffold → llamon run (the product document's three commands)", () => {
  it("R9.1 R9.3 a scaffolded postgres agent runs on the embedded Postgres, remembers, and keeps it across a restart", async () => {
    const scaffold = llamon(
      [
        "agent",
        "my-agent",
        "--template",
        "agent-general",
        "--memory",
        "postgres",
        "--yes",
        "--no-install",
        "--llamon",
        `file:${REPO}`,
      ],
      root,
    );
    const [code] = await once(scaffold, "exit");
    expect(code).toBe(0);
    const dir = join(root, "my-agent");
    const port = await freePort();

    const first = await startRun(dir, port);
    try {
      expect(first.output()).toContain("not reachable; using the embedded Postgres");
      const a = await send(port, "내 이름은 앨리스야");
      expect(a.split("\n")[0]).toBe("offline-model: received=1 has_prior=false");
      const b = await send(port, "이전에 뭐 얘기했지?");
      expect(b.split("\n")[0]).toBe("offline-model: received=3 has_prior=true");
      expect(b).toContain("내 이름은 앨리스야");
    } finally {
      await stop(first.child);
    }
    expect(existsSync(join(dir, ".llamon", "pgdata"))).toBe(true);

    const second = await startRun(dir, port);
    try {
      const c = await send(port, "still there?");
      expect(c.split("\n")[0]).toBe("offline-model: received=5 has_prior=true");
    } finally {
      await stop(second.child);
    }
  }, 400_000);
});
