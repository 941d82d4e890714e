/**
 * The product document's three commands, end to end (R9.1–R9.3):
 *   npx llamon agent my-agent --template agent-general --memory postgres --yes
 *   cd my-agent && npx llamon run .
 * with no reachable DSN, so `llamon run` provides the embedded Postgres inside the project;
 * the product document's JSON sent twice is remembered, and again after a restart.
 * The project's packages resolve from this checkout (as in scaffold.test.ts), no install.
 */
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  llamon,
  REPO,
  sendMessage,
  startLlamonRun,
  stopLlamonRun,
} from "../helpers/llamon-run.ts";

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

function startRun(dir: string, port: number) {
  // An unreachable DSN: llamon run must fall back to the embedded Postgres in the project.
  return startLlamonRun([".", "--port", String(port)], {
    cwd: dir,
    env: { POSTGRES_MEMORY_DSN: "postgresql://postgres@localhost:1/nowhere_memory" },
    readyMs: 150_000,
    pollMs: 250,
  });
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
  }, 400_000);
});
